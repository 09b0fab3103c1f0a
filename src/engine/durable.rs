//! The engine over an external storage (Redis, Durable Object storage, ...):
//! every task change becomes a versioned record the host writes with a
//! compare-and-set before it delivers what follows; records read back are
//! restored; running work holds a lease its instance renews, and a task whose
//! lease runs out is failed. The rules stay here: adapters only move records.

use super::channel::PendingRequest;
use super::Engine;
use crate::audit::AuditAction;
use crate::core::table::{Lease, OptionalMs, TaskRecord};
use crate::core::{InputCapabilities, Outcome, RequestKind, TaskStatus};
use crate::error::HostError;
use crate::output::{Event, Output, Persist};
use crate::protocol::json::{integer, Json};
use crate::protocol::jsonrpc::{each_item, json_string, members, push_json_string, push_u64, string_value};
use crate::protocol::Dialect;
use crate::time::format_timestamp;
use std::borrow::Cow;
use std::sync::Arc;

/// The record of one task as the storage keeps it, read back. Results, errors, requests and
/// tokens stay raw JSON, byte for byte.
struct Stored<'a> {
    version: u64,
    id: Cow<'a, str>,
    context: Option<Cow<'a, str>>,
    kind: Cow<'a, str>,
    dialect: Cow<'a, str>,
    status: Cow<'a, str>,
    status_message: Option<Cow<'a, str>>,
    created_at: u64,
    updated_at: u64,
    ttl: Option<u64>,
    poll_interval: Option<u64>,
    result: Option<Json<'a>>,
    error: Option<Json<'a>>,
    progress_token: Option<Json<'a>>,
    requests_sent: u32,
    /// Memory mode's snapshot: the task's place in its context's list (cursors name it).
    seq: Option<u64>,
    /// Unanswered requests: (raw JSON id, request).
    inputs: Vec<(String, Json<'a>)>,
    /// (owner, until).
    lease: Option<(String, u64)>,
    /// The input kinds the requestor declared (capability paths, e.g. `"elicitation.form"`).
    /// Absent: no declaration reached the engine (and in records written before it was kept).
    input_capabilities: Option<Vec<Cow<'a, str>>>,
    /// Answers for the instance that runs the work: (raw JSON id, JSON-RPC response).
    answers: Vec<(String, Json<'a>)>,
}

/// The record's members, in the order they are written.
const RECORD_KEYS: [&str; 20] = [
    "seq",
    "v",
    "id",
    "context",
    "kind",
    "dialect",
    "status",
    "statusMessage",
    "createdAt",
    "updatedAt",
    "ttl",
    "pollInterval",
    "result",
    "error",
    "progressToken",
    "requestsSent",
    "inputs",
    "lease",
    "inputCapabilities",
    "answers",
];

/// A member that may be absent or `null`.
fn present(value: Option<Json<'_>>) -> Option<Json<'_>> {
    value.filter(|v| v.get() != "null")
}

fn required<'a>(value: Option<Json<'a>>, key: &str) -> Result<Json<'a>, String> {
    value.ok_or_else(|| format!("missing field `{key}`"))
}

fn text<'a>(value: Json<'a>, key: &str) -> Result<Cow<'a, str>, String> {
    string_value(value.get()).ok_or_else(|| format!("`{key}` must be a string"))
}

fn number<T: std::str::FromStr>(value: Json<'_>, key: &str) -> Result<T, String> {
    integer(value.get()).ok_or_else(|| format!("`{key}` must be a non-negative integer"))
}

impl<'a> Stored<'a> {
    fn read(record: &'a str) -> Result<Stored<'a>, String> {
        let value = Json::parse(record).map_err(|e| e.to_string())?;
        let [seq, v, id, context, kind, dialect, status, status_message, created_at, updated_at, ttl, poll_interval, result, error, token, sent, inputs, lease, caps, answers] =
            members(value, RECORD_KEYS)?;
        let stored_inputs = id_pairs(inputs, "inputs", "request")?;
        let answers = id_pairs(answers, "answers", "response")?;
        let lease = match present(lease) {
            None => None,
            Some(l) => {
                let [owner, until] = members(l, ["owner", "until"])?;
                Some((
                    text(required(owner, "lease.owner")?, "lease.owner")?.into_owned(),
                    number(required(until, "lease.until")?, "lease.until")?,
                ))
            }
        };
        let input_capabilities = match present(caps) {
            None => None,
            Some(list) => {
                let mut names = Some(Vec::new());
                each_item(list.get(), &mut |item| match (string_value(item), names.as_mut()) {
                    (Some(name), Some(all)) => all.push(name),
                    _ => names = None,
                })
                .ok_or("`inputCapabilities` must be an array")?;
                Some(names.ok_or("`inputCapabilities` must be an array of strings")?)
            }
        };
        Ok(Stored {
            version: number(required(v, "v")?, "v")?,
            id: text(required(id, "id")?, "id")?,
            context: present(context).map(|c| text(c, "context")).transpose()?,
            kind: text(required(kind, "kind")?, "kind")?,
            dialect: text(required(dialect, "dialect")?, "dialect")?,
            status: text(required(status, "status")?, "status")?,
            status_message: present(status_message).map(|m| text(m, "statusMessage")).transpose()?,
            created_at: number(required(created_at, "createdAt")?, "createdAt")?,
            updated_at: number(required(updated_at, "updatedAt")?, "updatedAt")?,
            ttl: present(ttl).map(|t| number(t, "ttl")).transpose()?,
            poll_interval: present(poll_interval).map(|p| number(p, "pollInterval")).transpose()?,
            result: present(result),
            error: present(error),
            progress_token: present(token),
            requests_sent: sent.map_or(Ok(0), |s| number(s, "requestsSent"))?,
            seq: present(seq).map(|n| number(n, "seq")).transpose()?,
            inputs: stored_inputs,
            lease,
            input_capabilities,
            answers,
        })
    }
}

/// A record's list of `{ "id": string, <key>: any JSON }` (absent: empty).
fn id_pairs<'a>(list: Option<Json<'a>>, name: &str, key: &str) -> Result<Vec<(String, Json<'a>)>, String> {
    let mut pairs = Vec::new();
    let Some(list) = present(list) else { return Ok(pairs) };
    let mut bad = None;
    each_item(list.get(), &mut |item| {
        let read = members(Json::trusted(item), ["id", key])
            .and_then(|[id, value]| Ok((text(required(id, "[].id")?, "[].id")?.into_owned(), required(value, key)?)));
        match read {
            Ok(pair) => pairs.push(pair),
            Err(e) => bad = Some(format!("`{name}`: {e}")),
        }
    })
    .ok_or_else(|| format!("`{name}` must be an array"))?;
    bad.map_or(Ok(pairs), Err)
}

/// `[{"id":..,"<key>":..},..]` of raw JSON values.
fn push_id_pairs<'v>(out: &mut String, key: &str, pairs: impl Iterator<Item = (&'v str, &'v str)>) {
    out.push('[');
    for (i, (id, value)) in pairs.enumerate() {
        out.push_str(if i == 0 { "{\"id\":" } else { ",{\"id\":" });
        push_json_string(out, id);
        out.push(',');
        push_json_string(out, key);
        out.push(':');
        out.push_str(value);
        out.push('}');
    }
    out.push(']');
}

fn dialect_name(d: Dialect) -> &'static str {
    d.protocol_version()
}

/// `,"key":`
fn push_key(out: &mut String, key: &str) {
    out.push(',');
    push_json_string(out, key);
    out.push(':');
}

/// A record made from a task, its unanswered requests and the answers relayed to the instance
/// that runs its work (raw parts that are not valid JSON are left out).
pub(super) fn record_json(t: &TaskRecord, inputs: &[PendingRequest], answers: &[(String, String)]) -> String {
    let raw = |s: &str| Json::parse(s).ok().map(|v| v.get().to_owned());
    let mut out = String::with_capacity(256 + t.outcome.as_ref().map_or(0, |o| o.json().len()));
    out.push_str("{\"v\":");
    push_u64(&mut out, t.version);
    push_key(&mut out, "id");
    push_json_string(&mut out, &t.id);
    if let Some(context) = t.context() {
        push_key(&mut out, "context");
        push_json_string(&mut out, context);
    }
    push_key(&mut out, "kind");
    push_json_string(&mut out, t.kind.method().unwrap_or("other"));
    push_key(&mut out, "dialect");
    push_json_string(&mut out, dialect_name(t.dialect));
    push_key(&mut out, "status");
    push_json_string(&mut out, t.status.as_str());
    if let Some(message) = t.status_message.as_deref() {
        push_key(&mut out, "statusMessage");
        push_json_string(&mut out, message);
    }
    push_key(&mut out, "createdAt");
    push_u64(&mut out, t.created_at);
    push_key(&mut out, "updatedAt");
    push_u64(&mut out, t.updated_at);
    for (key, ms) in [("ttl", t.ttl.get()), ("pollInterval", t.poll_interval.get())] {
        if let Some(ms) = ms {
            push_key(&mut out, key);
            push_u64(&mut out, ms);
        }
    }
    let (key, outcome) = match &t.outcome {
        Some(Outcome::Result(r)) => ("result", raw(r)),
        Some(Outcome::Error(e)) => ("error", raw(e)),
        None => ("result", None),
    };
    for (key, value) in [(key, outcome), ("progressToken", t.progress_token.as_deref().and_then(raw))] {
        if let Some(value) = value {
            push_key(&mut out, key);
            out.push_str(&value);
        }
    }
    push_key(&mut out, "requestsSent");
    push_u64(&mut out, u64::from(t.requests_sent));
    for (key, item, pairs) in [
        ("inputs", "request", inputs.iter().filter_map(|p| Some((p.id.as_str(), raw(&p.request)?))).collect::<Vec<_>>()),
        ("answers", "response", answers.iter().filter_map(|(id, r)| Some((id.as_str(), raw(r)?))).collect()),
    ] {
        if !pairs.is_empty() {
            push_key(&mut out, key);
            push_id_pairs(&mut out, item, pairs.iter().map(|(id, v)| (*id, v.as_str())));
        }
    }
    if let Some(lease) = &t.lease {
        push_key(&mut out, "lease");
        out.push_str("{\"owner\":");
        push_json_string(&mut out, &lease.owner);
        out.push_str(",\"until\":");
        push_u64(&mut out, lease.until);
        out.push('}');
    }
    if t.input_capabilities.is_declared() {
        push_key(&mut out, "inputCapabilities");
        out.push('[');
        for (i, name) in t.input_capabilities.names().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_json_string(&mut out, name);
        }
        out.push(']');
    }
    out.push('}');
    out
}

fn bad_record(why: impl std::fmt::Display) -> HostError {
    HostError::invalid(format!("Not a task record written by this engine: {why}"))
}

impl Engine {
    /// Notes that a task changed (storage mode): its next version goes out as a
    /// [`Persist`] ahead of every other output.
    pub(super) fn changed(&mut self, task_id: &str) {
        if self.config.storage.is_none() {
            return;
        }
        if self.journal.iter().any(|(id, _)| id == task_id) {
            return;
        }
        let Some(t) = self.table.get_mut(task_id) else { return };
        let expected = (t.version > 0).then_some(t.version);
        t.version += 1;
        self.journal.push((task_id.to_owned(), expected));
    }

    /// A task left the table (its TTL passed): the storage deletes it.
    pub(super) fn deleted(&mut self, task_id: &str, version: u64) {
        if self.config.storage.is_none() {
            return;
        }
        self.journal.retain(|(id, _)| id != task_id);
        self.repairs.retain(|(id, _)| id != task_id);
        self.relayed.remove(task_id);
        let expected = (version > 0).then_some(version);
        self.persists.push(Persist {
            task_id: task_id.to_owned(),
            expected_version: expected,
            version: version + 1,
            record: None,
            expires_at: None,
            replaces: None,
        });
    }

    /// Turns the journal into [`Output::Persist`]s at the front of the queue.
    pub(super) fn flush_journal(&mut self) {
        let journal = std::mem::take(&mut self.journal);
        let mut persists = std::mem::take(&mut self.persists);
        for (task_id, expected) in journal {
            let Some(t) = self.table.get(&task_id) else { continue };
            let record = record_json(t, self.channels.pending(&task_id), self.relayed_answers(&task_id));
            let replaces = self.repairs.iter().position(|(id, _)| *id == task_id).map(|i| self.repairs.swap_remove(i).1);
            persists.push(Persist {
                task_id,
                expected_version: expected,
                version: t.version,
                record: Some(record),
                expires_at: t.deadline(),
                replaces,
            });
        }
        for p in persists.into_iter().rev() {
            self.outputs.push_front(Output::Persist(p));
        }
    }

    /// The record of a live task, as [`Output::Persist`] would write it now.
    fn export_task(&mut self, task_id: &str) -> Option<String> {
        let t = self.table.get(task_id)?;
        Some(record_json(t, self.channels.pending(task_id), self.relayed_answers(task_id)))
    }

    /// Every live task's record, as a JSON array: a compact snapshot for
    /// a storage that keeps one blob. In memory mode each record also names
    /// its place in the list (`seq`), so cursors stay valid where it is restored.
    fn snapshot(&mut self) -> String {
        let mut records: Vec<(&TaskRecord, String)> =
            self.table.iter().map(|t| (t, record_json(t, self.channels.pending(&t.id), self.relayed_answers(&t.id)))).collect();
        records.sort_by_key(|(t, _)| t.seq);
        let memory = self.config.storage.is_none();
        let mut out = String::from("[");
        for (i, (t, r)) in records.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if memory {
                out.push_str("{\"seq\":");
                push_u64(&mut out, t.seq);
                out.push(',');
                out.push_str(&r[1..]);
            } else {
                out.push_str(r);
            }
        }
        out.push(']');
        out
    }

    /// Restores every record of a snapshot. Returns how many.
    fn restore_snapshot(&mut self, snapshot: &str) -> Result<usize, HostError> {
        let snapshot = Json::parse(snapshot).map_err(bad_record)?;
        let mut records = Vec::new();
        each_item(snapshot.get(), &mut |r| records.push(r)).ok_or_else(|| bad_record("a snapshot is an array of records"))?;
        for r in &records {
            self.restore(r)?;
        }
        Ok(records.len())
    }

    /// See [`Storage::restore`].
    fn restore(&mut self, record: &str) -> Result<(), HostError> {
        self.restore_record(Stored::read(record).map_err(bad_record)?)
    }

    /// See [`Storage::restore_stored`].
    fn restore_stored(&mut self, task_id: &str, record: Option<&str>, version: Option<&str>) -> Result<Option<String>, HostError> {
        let Some(record) = record else {
            let why = format!("the key does not hold a task record (the storage found {})", version.unwrap_or("something else"));
            return self.damaged(task_id, why, version, None);
        };
        let s = match Stored::read(record) {
            Ok(s) => s,
            Err(e) => return self.damaged(task_id, format!("the record is not a task record ({e})"), version, None),
        };
        let stored_version = s.version;
        if s.id != task_id {
            return self.damaged(task_id, format!("the key holds the record of task '{}'", s.id), version, Some(stored_version));
        }
        if let Some(v) = version.filter(|v| v.parse::<u64>().ok() != Some(stored_version)) {
            let why = format!("the stored version {} does not match the record's version {stored_version}", json_string(v));
            return self.damaged(task_id, why, version, Some(stored_version));
        }
        match self.restore_record(s) {
            Ok(()) => Ok(None),
            Err(e) => self.damaged(task_id, e.to_string(), version, Some(stored_version)),
        }
    }

    /// The decision on damage under task `task_id`'s key (see [`Storage::restore_stored`]).
    fn damaged(
        &mut self,
        task_id: &str,
        why: String,
        found: Option<&str>,
        stored_version: Option<u64>,
    ) -> Result<Option<String>, HostError> {
        let now = self.tick();
        let detail = format!("Task storage: the record under the key of task '{task_id}' cannot be used: {why}");
        let Some(t) = self.table.get_mut(task_id) else {
            self.audit(AuditAction::RecordDamaged, Some(task_id), None, Some(detail.clone()));
            return Err(HostError::DamagedRecord { task_id: task_id.to_owned(), detail });
        };
        let was = t.status;
        let local_version = t.version;
        let message = "The stored state of this task was damaged, so it cannot go on; the server has reported it";
        let error = format!("{{\"code\":{},\"message\":{}}}", crate::protocol::jsonrpc::INTERNAL_ERROR, json_string(message));
        // Whatever it was, the copy here is no longer the truth: every instance
        // reads this outcome once it is written over the damage.
        t.status = TaskStatus::Failed;
        t.status_message = Some(message.into());
        t.outcome = Some(Outcome::Error(error));
        t.updated_at = now.max(t.updated_at);
        t.lease = None;
        t.version = local_version.max(stored_version.unwrap_or(0)) + 1;
        let context = t.context().map(str::to_owned);
        self.journal.retain(|(j, _)| j != task_id);
        self.repairs.retain(|(j, _)| j != task_id);
        let expected = match found {
            Some(text) => {
                self.repairs.push((task_id.to_owned(), text.to_owned()));
                None
            }
            // A storage that keeps no version beside the record: the record's own.
            None => stored_version.or(Some(local_version)).filter(|v| *v > 0),
        };
        self.journal.push((task_id.to_owned(), expected));
        self.audit(AuditAction::RecordDamaged, Some(task_id), context.as_deref(), Some(detail.clone()));
        if !was.is_terminal() {
            self.after_terminal(task_id);
            // Work running here on it must stop.
            self.event(Event::Cancelled { task_id: task_id.to_owned(), context });
        } else {
            self.notify_status(task_id);
        }
        Ok(Some(detail))
    }

    fn restore_record(&mut self, s: Stored<'_>) -> Result<(), HostError> {
        let now = self.tick();
        let status = TaskStatus::parse(&s.status).ok_or_else(|| bad_record(format!("status {}", s.status)))?;
        let dialect = Dialect::of_version(&s.dialect);
        let outcome = match (s.result, s.error) {
            (Some(r), _) => Some(Outcome::Result(r.get().to_owned())),
            (None, Some(e)) => Some(Outcome::Error(e.get().to_owned())),
            (None, None) => None,
        };
        let id: Arc<str> = Arc::from(s.id.as_ref());
        let before = self.table.get(&id).map(|t| (t.status, t.version, t.lease.as_ref().is_some_and(|l| self.owns(l))));
        if let Some((_, version, _)) = before {
            if version > s.version {
                // The local copy is newer (a change not yet confirmed): keep it.
                return Ok(());
            }
        }
        self.journal.retain(|(j, _)| *j != s.id);
        let record = TaskRecord {
            id: id.clone(),
            seq: s.seq.unwrap_or(0),
            context: s.context.as_deref().map(Arc::from),
            kind: RequestKind::from_method(&s.kind),
            status,
            status_message: s.status_message.map(|m| m.into_owned().into_boxed_str()),
            created_at: s.created_at,
            updated_at: s.updated_at,
            ttl: OptionalMs::new(s.ttl),
            poll_interval: OptionalMs::new(s.poll_interval),
            outcome,
            progress_token: s.progress_token.map(|t| t.get().into()),
            requests_sent: s.requests_sent,
            dialect,
            input_capabilities: s
                .input_capabilities
                .as_ref()
                .map_or(InputCapabilities::UNDECLARED, |names| InputCapabilities::from_names(names.iter().map(|n| n.as_ref()))),
            version: s.version,
            lease: s.lease.map(|(owner, until)| Box::new(Lease { owner: owner.into_boxed_str(), until })),
        };
        let lease = record.lease.clone();
        self.table.put_restored(record);
        let inputs = s.inputs.into_iter().map(|(id, request)| PendingRequest { id, request: request.get().to_owned() }).collect();
        self.channels.replace_pending(&id, inputs, dialect == Dialect::Legacy);
        let answers: Vec<(String, String)> = s.answers.into_iter().map(|(id, response)| (id, response.get().to_owned())).collect();
        self.relayed.remove(id.as_ref());
        if !answers.is_empty() {
            if self.runs_elsewhere(&id) {
                self.relayed.insert(id.to_string(), answers);
            } else if !status.is_terminal() {
                // Answers another instance took for work running here: delivered, and the
                // record written without them.
                let context = s.context.as_deref().map(str::to_owned);
                for (request_id, response) in answers {
                    self.event(Event::InputResponse {
                        task_id: id.to_string(),
                        context: context.clone(),
                        request_id: crate::RawId::trusted(&request_id),
                        response,
                    });
                }
                self.changed(&id);
            }
        }
        if let Some(lease) = lease.filter(|_| !status.is_terminal()) {
            self.watch_lease(&id, &lease);
        }
        // The instance that made a change told the peers about it; here only
        // what waits on this instance is settled.
        if let Some((old, _, owned)) = before {
            if !old.is_terminal() && status.is_terminal() {
                self.answer_waiters(&id);
                if owned {
                    // Work running here on a task another instance ended: stop it.
                    let context = self.table.get(&id).and_then(|t| t.context().map(str::to_owned));
                    self.event(Event::Cancelled { task_id: id.to_string(), context });
                }
            }
        }
        self.check_lease(&id, now);
        Ok(())
    }

    /// Forgets the local copy of a task the storage no longer holds (a
    /// compare-and-set found it gone, or its TTL passed there).
    fn forget_task(&mut self, task_id: &str) -> bool {
        self.journal.retain(|(j, _)| j != task_id);
        self.relayed.remove(task_id);
        self.channels.close(task_id);
        self.channels.drop_messages(Some(task_id));
        self.table.forget(task_id).is_some()
    }

    /// Storage mode: the task's work runs on another instance (its lease is another's).
    pub(super) fn runs_elsewhere(&self, task_id: &str) -> bool {
        self.table.get(task_id).and_then(|t| t.lease.as_deref()).is_some_and(|l| !self.owns(l))
    }

    fn relayed_answers(&self, task_id: &str) -> &[(String, String)] {
        self.relayed.get(task_id).map_or(&[], Vec::as_slice)
    }

    fn owns(&self, lease: &Lease) -> bool {
        self.config.storage.as_ref().is_some_and(|s| *lease.owner == *s.instance_id)
    }

    /// Gives a task created here a lease (storage mode), so a dead instance's work is noticed.
    pub(super) fn take_lease(&mut self, task_id: &str, now: u64) {
        let Some(storage) = self.config.storage.as_ref() else { return };
        let lease = Lease { owner: storage.instance_id.as_str().into(), until: now.saturating_add(storage.lease_ms) };
        if let Some(t) = self.table.get_mut(task_id) {
            t.lease = Some(Box::new(lease.clone()));
        }
        self.watch_lease(task_id, &lease);
    }

    /// When to look at a lease next: ours, to renew it; another's, to see whether it ran out.
    fn watch_lease(&mut self, task_id: &str, lease: &Lease) {
        let Some(storage) = self.config.storage.as_ref() else { return };
        let at = if self.owns(lease) {
            let period = (storage.lease_ms / 3).min(self.config.poll_interval_ms.unwrap_or(u64::MAX)).max(1);
            lease.until.saturating_sub(storage.lease_ms).saturating_add(period)
        } else {
            lease.until
        };
        self.lease_checks.insert((at, task_id.to_owned()));
    }

    /// The next lease renewal or check, if any.
    pub(super) fn next_lease_check(&self) -> Option<u64> {
        self.lease_checks.first().map(|(at, _)| *at)
    }

    /// Renews our leases that are due and fails tasks whose lease ran out.
    pub(super) fn run_lease_checks(&mut self, now: u64) {
        while let Some((at, task_id)) = self.lease_checks.first().cloned() {
            if at > now {
                break;
            }
            self.lease_checks.remove(&(at, task_id.clone()));
            let Some(t) = self.table.get(&task_id) else { continue };
            let Some(lease) = t.lease.clone().filter(|_| !t.status.is_terminal()) else { continue };
            if self.owns(&lease) {
                let lease_ms = self.config.storage.as_ref().map_or(0, |s| s.lease_ms);
                let renewed = Lease { owner: lease.owner, until: now.saturating_add(lease_ms) };
                if let Some(t) = self.table.get_mut(&task_id) {
                    t.lease = Some(Box::new(renewed.clone()));
                }
                self.changed(&task_id);
                self.watch_lease(&task_id, &renewed);
            } else {
                self.check_lease(&task_id, now);
            }
        }
    }

    /// Fails a running task whose worker's lease ran out.
    fn check_lease(&mut self, task_id: &str, now: u64) {
        let Some(t) = self.table.get(task_id) else { return };
        let Some(lease) = t.lease.as_ref() else { return };
        if t.status.is_terminal() || self.owns(lease) || lease.until > now {
            return;
        }
        let message = format!(
            "The worker running this task stopped: its lease ran out at {} without a heartbeat, so the task cannot finish",
            format_timestamp(lease.until)
        );
        let error = format!("{{\"code\":{},\"message\":{}}}", crate::protocol::jsonrpc::INTERNAL_ERROR, json_string(&message));
        if self.move_task(task_id, TaskStatus::Failed, Some(Some(message)), Some(Outcome::Error(error)), now).is_ok() {
            if let Some(t) = self.table.get_mut(task_id) {
                t.lease = None;
            }
            self.lease_failures += 1;
            self.after_terminal(task_id);
        }
    }
}

impl Engine {
    /// The engine's durable records (see [`Storage`]).
    pub fn storage(&mut self) -> Storage<'_> {
        Storage { engine: self }
    }
}

/// The engine's tasks as durable records, for a host that runs it over a
/// storage ([`Config::storage`](crate::Config::storage)) or keeps snapshots:
/// records out, records back in. A view that borrows the engine:
/// `engine.storage().restore(record)`.
#[derive(Debug)]
pub struct Storage<'e> {
    engine: &'e mut Engine,
}

impl Storage<'_> {
    /// The record of a live task, as [`Output::Persist`] would write it now.
    pub fn export_task(&mut self, task_id: &str) -> Option<String> {
        self.engine.export_task(task_id)
    }

    /// Every live task's record, as a JSON array: a compact snapshot for a
    /// storage that keeps one blob (see [`restore_snapshot`](Self::restore_snapshot)).
    pub fn snapshot(&mut self) -> String {
        self.engine.snapshot()
    }

    /// Restores every record of a [`snapshot`](Self::snapshot). Returns how many.
    pub fn restore_snapshot(&mut self, snapshot: &str) -> Result<usize, HostError> {
        self.engine.restore_snapshot(snapshot)
    }

    /// Puts a task read from the storage in place of the local copy: on start,
    /// before acting on a task another instance may have changed, and after a
    /// failed compare-and-set (then retry the operation). The engine judges
    /// what it reads: a running task whose lease ran out is failed (a
    /// [`Persist`] follows), and work running here on a task that another
    /// instance ended is told to stop ([`Event::Cancelled`]).
    ///
    /// ```
    /// use mcp_task_core::{Config, Engine, ManualClock, Output, RequestKind, SequentialIds, StorageMode, TtlRequest};
    /// let clock = ManualClock::new(1_000);
    /// let config = |id: &str| Config { storage: Some(StorageMode { instance_id: id.into(), lease_ms: 5_000 }), ..Config::default() };
    /// let mut a = Engine::with_sources(config("a"), Box::new(clock.clone()), Box::new(SequentialIds::new("t")));
    /// a.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    /// let Some(Output::Persist(p)) = a.poll_output() else { panic!() };
    /// // Instance a dies. Another instance reads the record after the lease ran out:
    /// let mut b = Engine::with_sources(config("b"), Box::new(clock.clone()), Box::new(SequentialIds::new("u")));
    /// clock.advance(6_000);
    /// b.storage().restore(p.record.as_deref().unwrap()).unwrap();
    /// assert_eq!(b.sdk_store().get_task("t1", Some("s")).unwrap().status, mcp_task_core::TaskStatus::Failed);
    /// ```
    pub fn restore(&mut self, record: &str) -> Result<(), HostError> {
        self.engine.restore(record)
    }

    /// Restores what the storage holds under task `task_id`'s key, as it read
    /// it: `record` (`None`: the key holds something that is not a task
    /// record at all, say a value of another type) and `version`, the version
    /// text the storage keeps beside the record for its compare-and-set (`None`:
    /// it keeps none). Use it for every read of one task and on every conflict;
    /// [`restore`](Self::restore) trusts its record.
    ///
    /// A record that cannot be read, that is another task's, or whose version
    /// disagrees with the storage's is damage, decided here once for every
    /// instance: a task held here fails with a storage-corruption error (its
    /// work is told to stop, waiters are answered) and a [`Persist`] writes
    /// that outcome over the damage with a fresh version
    /// ([`Persist::replaces`] names the damaged version), so every instance
    /// reads the same; `Ok(Some(detail))` then says what was found, for the
    /// operator. A task not held here cannot be rebuilt: the error is
    /// [`HostError::DamagedRecord`] (-32603; its `detail` for the operator), and
    /// list pages leave the task out. Either way an audit record (with
    /// [`Config::audit`](crate::Config::audit)) reports it.
    ///
    /// ```
    /// use mcp_task_core::{Config, Engine, HostError, ManualClock, Output, RequestKind, SequentialIds, StorageMode, TaskStatus, TtlRequest};
    /// let clock = ManualClock::new(1_000);
    /// let config = Config { storage: Some(StorageMode { instance_id: "a".into(), lease_ms: 5_000 }), ..Config::default() };
    /// let mut a = Engine::with_sources(config.clone(), Box::new(clock.clone()), Box::new(SequentialIds::new("t")));
    /// a.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    /// let Some(Output::Persist(p)) = a.poll_output() else { panic!() };
    /// let good = p.record.unwrap();
    /// // The storage's version field was overwritten with garbage:
    /// assert!(a.storage().restore_stored("t1", Some(&good), Some("x")).unwrap().is_some());
    /// assert_eq!(a.sdk_store().get_task("t1", Some("s")).unwrap().status, TaskStatus::Failed);
    /// let Some(Output::Persist(repair)) = a.poll_output() else { panic!() };
    /// assert_eq!((repair.replaces.as_deref(), repair.version), (Some("x"), 2));
    /// // An instance without a copy cannot rebuild the task from the damage:
    /// let mut b = Engine::with_sources(config, Box::new(clock), Box::new(SequentialIds::new("u")));
    /// let err = b.storage().restore_stored("t1", Some("{oops"), Some("1")).unwrap_err();
    /// assert!(matches!(err, HostError::DamagedRecord { .. }) && err.rpc_code() == -32603);
    /// ```
    pub fn restore_stored(&mut self, task_id: &str, record: Option<&str>, version: Option<&str>) -> Result<Option<String>, HostError> {
        self.engine.restore_stored(task_id, record, version)
    }

    /// Forgets the local copy of a task the storage no longer holds (a
    /// compare-and-set found it gone, or its TTL passed there). Returns whether there was one.
    pub fn forget_task(&mut self, task_id: &str) -> bool {
        self.engine.forget_task(task_id)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Dialect, Engine, ManualClock, RequestKind, SequentialIds, TtlRequest};

    /// A record's dialect is read as a request's protocol version is: a later version than
    /// 2026-07-28 speaks the extension.
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn a_record_dialect_is_read_as_a_protocol_version() {
        let mut engine = Engine::with_sources(Config::default(), Box::new(ManualClock::new(0)), Box::new(SequentialIds::new("t")));
        let id = engine.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap().task_id;
        let record = engine.storage().export_task(&id).unwrap();
        assert!(record.contains(r#""dialect":"2025-11-25""#), "{record}");
        for (version, dialect) in [("2025-11-25", Dialect::Legacy), ("2026-07-28", Dialect::Extension), ("2027-01-01", Dialect::Extension)]
        {
            assert!(engine.storage().forget_task(&id));
            engine.storage().restore(&record.replace("2025-11-25", version)).unwrap();
            assert_eq!(engine.table.get(&id).map(|t| t.dialect), Some(dialect), "{version}");
        }
    }
}
