//! The task table: storage, the status state machine, TTL deadlines, per-context
//! listing. It knows nothing of JSON-RPC; the protocol layer maps onto it.

use super::deadlines::Deadlines;
use super::dialect::Dialect;
use super::fast_map::{FastMap, FastSet};
use super::quota::{Footprint, QuotaKey, QuotaRefusal, Quotas, RECORD_BYTES};
use super::status::TaskStatus;
use super::task::{InputCapabilities, Outcome, RequestKind, Task, TaskView};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// How many expired task IDs are remembered, so that a late request hears
/// "expired" rather than "not found".
const EXPIRED_MEMORY: usize = 4096;

type ContextKey = Option<Arc<str>>;

#[derive(Debug)]
pub(crate) struct TaskRecord {
    pub id: Arc<str>,
    pub seq: u64,
    pub context: ContextKey,
    pub kind: RequestKind,
    pub status: TaskStatus,
    pub status_message: Option<Box<str>>,
    pub created_at: u64,
    pub updated_at: u64,
    pub ttl: OptionalMs,
    pub poll_interval: OptionalMs,
    pub outcome: Option<Outcome>,
    /// The raw JSON `progressToken` of the original request, valid for the task's life.
    pub progress_token: Option<Box<str>>,
    /// The task surface that created the task; it decides the task's rules
    /// (e.g. what `isError` means) and how status changes are pushed.
    pub dialect: Dialect,
    /// What the requestor declared it can answer when it asked for the task:
    /// the task asks nothing else of it.
    pub input_capabilities: InputCapabilities,
    /// Side-channel requests this task has sent: numbers each one, so no id
    /// is ever used twice with the requestor.
    pub requests_sent: u32,
    /// Bumped by every change written to an external storage (compare-and-set).
    pub version: u64,
    /// Who runs the task and until when, in storage mode. Boxed: a record without one (every
    /// record outside storage mode) is smaller, and the task map holds a record per slot.
    pub lease: Option<Box<Lease>>,
}

/// An optional count of milliseconds in 8 bytes, where `Option<u64>` takes 16: the task map
/// holds a record per slot, so each byte saved here is saved again in its spare slots.
/// `u64::MAX` stands for none; a count of `u64::MAX` (no TTL or interval reaches it) is kept
/// as `u64::MAX - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OptionalMs(u64);

impl OptionalMs {
    pub fn new(ms: Option<u64>) -> Self {
        OptionalMs(ms.map_or(u64::MAX, |ms| ms.min(u64::MAX - 1)))
    }

    pub fn get(self) -> Option<u64> {
        (self.0 != u64::MAX).then_some(self.0)
    }
}

/// The right to run a task, renewed by its instance's heartbeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lease {
    pub owner: Box<str>,
    pub until: u64,
}

impl TaskRecord {
    pub fn snapshot(&self) -> Task {
        Task {
            task_id: self.id.to_string(),
            status: self.status,
            status_message: self.status_message.as_deref().map(str::to_owned),
            created_at_ms: self.created_at,
            last_updated_at_ms: self.updated_at,
            ttl_ms: self.ttl.get(),
            poll_interval_ms: self.poll_interval.get(),
        }
    }

    pub fn view(&self) -> TaskView<'_> {
        TaskView {
            id: &self.id,
            status: self.status,
            status_message: self.status_message.as_deref(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            ttl: self.ttl.get(),
            poll_interval: self.poll_interval.get(),
        }
    }

    pub fn context(&self) -> Option<&str> {
        self.context.as_deref()
    }

    pub(crate) fn deadline(&self) -> Option<u64> {
        self.ttl.get().map(|ttl| self.created_at.saturating_add(ttl))
    }

    /// What the task counts against its quota key: running or not, and its stored size.
    fn footprint(&self) -> Footprint {
        let text = |t: Option<&str>| t.map_or(0, str::len);
        let texts = self.id.len()
            + text(self.status_message.as_deref())
            + text(self.outcome.as_ref().map(Outcome::json))
            + text(self.progress_token.as_deref());
        Footprint { running: !self.status.is_terminal(), bytes: RECORD_BYTES + texts }
    }
}

/// What the table needs to create a task.
#[derive(Debug)]
pub(crate) struct NewTask {
    pub id: String,
    pub context: Option<String>,
    /// Whose allowance the task spends, when the host named one (else the context's).
    pub quota_key: Option<String>,
    pub kind: RequestKind,
    pub ttl: Option<u64>,
    pub poll_interval: Option<u64>,
    pub progress_token: Option<String>,
    pub dialect: Dialect,
    pub input_capabilities: InputCapabilities,
}

/// Why a task could not be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CreateRefusal {
    EmptyId,
    DuplicateId,
    Quota(QuotaRefusal),
}

/// The result of looking a task up on behalf of a context.
#[derive(Debug)]
pub(crate) enum Lookup<'a> {
    Found(&'a TaskRecord),
    /// The task existed for this context and its TTL ran out.
    Expired,
    /// No such task for this context (it may exist for another one).
    NotFound,
}

/// Why a host-requested status change was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MoveRefusal {
    Unknown,
    /// The task was cancelled; the work's late outcome is dropped.
    Cancelled,
    Illegal {
        from: TaskStatus,
        to: TaskStatus,
    },
}

/// A task removed because its TTL passed.
#[derive(Debug)]
pub(crate) struct Expired {
    pub id: Arc<str>,
    pub context: ContextKey,
    pub was_terminal: bool,
    pub version: u64,
}

#[derive(Debug, Default)]
pub(crate) struct TaskTable {
    tasks: FastMap<Arc<str>, TaskRecord>,
    /// Creation order per context: the list index and the cursor space.
    by_context: FastMap<ContextKey, BTreeMap<u64, Arc<str>>>,
    deadlines: Deadlines,
    expired: FastMap<Arc<str>, ContextKey>,
    expired_order: VecDeque<Arc<str>>,
    next_seq: u64,
    /// Storage mode: creation numbers come from the record (creation time and
    /// ID), so every instance sharing a storage lists a context in the same
    /// order and a cursor made by one is understood by another.
    stable_order: bool,
    /// The creation numbers in use (only with `stable_order`, to avoid collisions).
    used_seqs: FastSet<u64>,
    /// Running tasks and stored bytes per quota key.
    quotas: Quotas,
    /// The quota key of each task whose host named one other than its context
    /// (a side map: tasks without one, e.g. every SDK store task, cost nothing).
    given_keys: FastMap<Arc<str>, Arc<str>>,
}

/// The quota key a task's usage is counted under.
fn quota_key(given_keys: &FastMap<Arc<str>, Arc<str>>, t: &TaskRecord) -> QuotaKey {
    match given_keys.get(&t.id) {
        Some(key) => QuotaKey::Given(key.clone()),
        None => QuotaKey::Context(t.context.clone()),
    }
}

/// FNV-1a of a task ID: the low bits of a storage-mode creation number.
fn id_hash(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn context_key(context: Option<&str>) -> ContextKey {
    context.map(Arc::from)
}

impl TaskTable {
    /// A table whose creation numbers derive from each task's creation time
    /// and ID (storage mode), the same on every instance that holds the task.
    pub fn with_stable_order() -> Self {
        TaskTable { stable_order: true, ..Default::default() }
    }

    /// The creation number of a new entry: the next one, or in storage mode
    /// `created_at << 16 | hash(id) & 0xffff`, moved up past any in use.
    fn assign_seq(&mut self, id: &str, created_at: u64) -> u64 {
        if !self.stable_order {
            self.next_seq += 1;
            return self.next_seq;
        }
        let mut seq = (created_at.min(u64::MAX >> 17) << 16) | (id_hash(id) & 0xffff);
        while !self.used_seqs.insert(seq) {
            seq += 1;
        }
        seq
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether a new task of `quota_key` (or of `context`, when the host named no key) fits the limits.
    pub fn admit(&self, quota_key: Option<&str>, context: Option<&str>, limits: &crate::Limits) -> Result<(), QuotaRefusal> {
        self.quotas.admit(&QuotaKey::of(quota_key, context), limits)
    }

    pub fn create(&mut self, new: NewTask, now: u64, limits: &crate::Limits) -> Result<&TaskRecord, CreateRefusal> {
        if new.id.is_empty() {
            return Err(CreateRefusal::EmptyId);
        }
        if self.tasks.contains_key(new.id.as_str()) {
            return Err(CreateRefusal::DuplicateId);
        }
        let key = QuotaKey::of(new.quota_key.as_deref(), new.context.as_deref());
        self.quotas.admit(&key, limits).map_err(CreateRefusal::Quota)?;
        let context: ContextKey = new.context.map(Arc::from);
        // Every task of a context shares the index's copy of its name.
        let context = match self.by_context.get_key_value(&context) {
            Some((shared, _)) => shared.clone(),
            None => context,
        };
        let id: Arc<str> = Arc::from(new.id);
        let seq = self.assign_seq(&id, now);
        let record = TaskRecord {
            id: id.clone(),
            seq,
            context: context.clone(),
            kind: new.kind,
            status: TaskStatus::Working,
            status_message: None,
            created_at: now,
            updated_at: now,
            ttl: OptionalMs::new(new.ttl),
            poll_interval: OptionalMs::new(new.poll_interval),
            outcome: None,
            progress_token: new.progress_token.map(String::into_boxed_str),
            requests_sent: 0,
            dialect: new.dialect,
            input_capabilities: new.input_capabilities,
            version: 0,
            lease: None,
        };
        if let Some(due) = record.deadline() {
            self.deadlines.insert(due, seq, id.clone());
        }
        // A reused ID (host-injected) must not inherit an old "expired" verdict.
        self.expired.remove(&id);
        self.by_context.entry(context).or_default().insert(seq, id.clone());
        if let QuotaKey::Given(given) = &key {
            self.given_keys.insert(id.clone(), given.clone());
        }
        self.quotas.change(&key, None, Some(record.footprint()));
        Ok(self.tasks.entry(id).or_insert(record))
    }

    /// Looks a task up for a context. A task past its deadline counts as
    /// expired even before the sweep removes it.
    pub fn lookup(&self, id: &str, context: Option<&str>, now: u64) -> Lookup<'_> {
        match self.tasks.get(id) {
            Some(t) if t.context() == context => match t.deadline() {
                Some(due) if due <= now => Lookup::Expired,
                _ => Lookup::Found(t),
            },
            Some(_) => Lookup::NotFound,
            None => match self.expired.get(id) {
                Some(c) if c.as_deref() == context => Lookup::Expired,
                _ => Lookup::NotFound,
            },
        }
    }

    /// A task by ID, ignoring contexts and deadlines (host-side access).
    /// Numbers the next side-channel request of a task (1, 2, ...; never reused).
    pub fn next_request_number(&mut self, id: &str) -> Option<u32> {
        let t = self.tasks.get_mut(id)?;
        t.requests_sent = t.requests_sent.saturating_add(1);
        Some(t.requests_sent)
    }

    pub fn get(&self, id: &str) -> Option<&TaskRecord> {
        self.tasks.get(id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut TaskRecord> {
        self.tasks.get_mut(id)
    }

    /// All live tasks, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &TaskRecord> {
        self.tasks.values()
    }

    /// Puts a task read back from a storage in place of the local copy (or adds
    /// it), keeping its place in the context's list.
    pub fn put_restored(&mut self, mut record: TaskRecord) {
        let id = record.id.clone();
        // A copy made here keeps the quota key it was created with; one from another instance counts under its context.
        if let Some(old) = self.tasks.get(&id) {
            self.quotas.change(&quota_key(&self.given_keys, old), Some(old.footprint()), None);
        }
        self.quotas.change(&quota_key(&self.given_keys, &record), None, Some(record.footprint()));
        match self.tasks.remove(&id) {
            Some(old) => {
                if let Some(due) = old.deadline() {
                    self.deadlines.remove(due, old.seq);
                }
                record.seq = old.seq;
                if old.context != record.context {
                    if let Some(index) = self.by_context.get_mut(&old.context) {
                        index.remove(&old.seq);
                    }
                    self.by_context.entry(record.context.clone()).or_default().insert(record.seq, id.clone());
                }
            }
            None => {
                // A memory snapshot's place is kept when it is past every place in use (a
                // fresh engine restoring in list order), so the cursors that name it hold.
                record.seq = if !self.stable_order && record.seq > self.next_seq {
                    self.next_seq = record.seq;
                    record.seq
                } else {
                    self.assign_seq(&id, record.created_at)
                };
                self.by_context.entry(record.context.clone()).or_default().insert(record.seq, id.clone());
            }
        }
        if let Some(due) = record.deadline() {
            self.deadlines.insert(due, record.seq, id.clone());
        }
        self.expired.remove(&id);
        self.tasks.insert(id, record);
    }

    /// Drops the local copy of a task (the storage no longer has it).
    pub fn forget(&mut self, id: &str) -> Option<TaskRecord> {
        let t = self.tasks.get(id)?;
        if let Some(due) = t.deadline() {
            let seq = t.seq;
            self.deadlines.remove(due, seq);
        }
        self.unlink(id)
    }

    /// Moves a task to a non-terminal status, or to a terminal one with an outcome.
    pub fn move_to(
        &mut self,
        id: &str,
        to: TaskStatus,
        message: Option<Option<String>>,
        outcome: Option<Outcome>,
        now: u64,
    ) -> Result<&TaskRecord, MoveRefusal> {
        let t = self.tasks.get_mut(id).ok_or(MoveRefusal::Unknown)?;
        if t.status == TaskStatus::Cancelled {
            return Err(MoveRefusal::Cancelled);
        }
        if !t.status.can_move_to(to) {
            return Err(MoveRefusal::Illegal { from: t.status, to });
        }
        let before = t.footprint();
        t.status = to;
        if to.is_terminal() {
            // Nothing runs any more: no heartbeat to keep.
            t.lease = None;
        }
        if let Some(message) = message {
            t.status_message = message.map(String::into_boxed_str);
        }
        if outcome.is_some() {
            t.outcome = outcome;
        }
        t.updated_at = now.max(t.updated_at);
        self.quotas.change(&quota_key(&self.given_keys, t), Some(before), Some(t.footprint()));
        Ok(t)
    }

    /// Changes only the status message of a live, non-terminal task.
    pub fn set_message(&mut self, id: &str, message: Option<String>, now: u64) -> Result<&TaskRecord, MoveRefusal> {
        let t = self.tasks.get_mut(id).ok_or(MoveRefusal::Unknown)?;
        if t.status == TaskStatus::Cancelled {
            return Err(MoveRefusal::Cancelled);
        }
        if t.status.is_terminal() {
            return Err(MoveRefusal::Illegal { from: t.status, to: t.status });
        }
        let before = t.footprint();
        t.status_message = message.map(String::into_boxed_str);
        t.updated_at = now.max(t.updated_at);
        self.quotas.change(&quota_key(&self.given_keys, t), Some(before), Some(t.footprint()));
        Ok(t)
    }

    /// One page of a context's tasks in creation order, after creation number
    /// `after`. Returns the page and, when more remain, the last number shown.
    pub fn page(&self, context: Option<&str>, after: u64, size: usize) -> (Vec<&TaskRecord>, Option<u64>) {
        let Some(index) = self.by_context.get(&context_key(context)) else {
            return (Vec::new(), None);
        };
        let size = size.max(1);
        let mut page = Vec::with_capacity(size.min(index.len()));
        let mut more = false;
        for (_, id) in index.range(after.saturating_add(1)..) {
            if page.len() == size {
                more = true;
                break;
            }
            if let Some(t) = self.tasks.get(id) {
                page.push(t);
            }
        }
        let next = if more { page.last().map(|t| t.seq) } else { None };
        (page, next)
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.deadlines.next()
    }

    /// Removes the next task whose deadline is at or before `now`.
    pub fn pop_expired(&mut self, now: u64) -> Option<Expired> {
        loop {
            let id = self.deadlines.pop_due(now)?;
            // The deadline entry is already gone: unlink the rest only.
            let Some(t) = self.unlink(&id) else { continue };
            self.remember_expired(t.id.clone(), t.context.clone());
            return Some(Expired { id: t.id, context: t.context, was_terminal: t.status.is_terminal(), version: t.version });
        }
    }

    /// Removes a task from the map and its context index. Tasks leave only by
    /// expiry, whose deadline entry the sweep has already taken.
    fn unlink(&mut self, id: &str) -> Option<TaskRecord> {
        let t = self.tasks.remove(id)?;
        self.quotas.change(&quota_key(&self.given_keys, &t), Some(t.footprint()), None);
        self.given_keys.remove(id);
        if self.stable_order {
            self.used_seqs.remove(&t.seq);
        }
        if let Some(index) = self.by_context.get_mut(&t.context) {
            index.remove(&t.seq);
            if index.is_empty() {
                self.by_context.remove(&t.context);
            }
        }
        Some(t)
    }

    fn remember_expired(&mut self, id: Arc<str>, context: ContextKey) {
        if self.expired_order.len() >= EXPIRED_MEMORY {
            if let Some(old) = self.expired_order.pop_front() {
                self.expired.remove(&old);
            }
        }
        self.expired_order.push_back(id.clone());
        self.expired.insert(id, context);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::quota::Usage;

    fn new_task(id: &str, context: Option<&str>, quota_key: Option<&str>) -> NewTask {
        NewTask {
            id: id.to_owned(),
            context: context.map(str::to_owned),
            quota_key: quota_key.map(str::to_owned),
            kind: RequestKind::ToolsCall,
            ttl: Some(1_000),
            poll_interval: None,
            progress_token: None,
            dialect: Dialect::Legacy,
            input_capabilities: InputCapabilities::UNDECLARED,
        }
    }

    #[test]
    fn usage_follows_every_change_of_a_task_until_it_leaves() {
        let limits = crate::Limits::default();
        let mut t = TaskTable::with_stable_order();
        let key = QuotaKey::of(Some("10.0.0.1"), None);
        t.create(new_task("t1", None, Some("10.0.0.1")), 0, &limits).unwrap();
        assert_eq!(t.quotas.usage(&key), Usage { running: 1, bytes: RECORD_BYTES + 2 });
        assert_eq!(t.quotas.usage(&QuotaKey::of(None, None)), Usage::default(), "not the context's");
        t.set_message("t1", Some("half".into()), 1).unwrap();
        assert_eq!(t.quotas.usage(&key).bytes, RECORD_BYTES + 6);
        t.move_to("t1", TaskStatus::Completed, Some(None), Some(Outcome::Result("{}".into())), 2).unwrap();
        assert_eq!(t.quotas.usage(&key), Usage { running: 0, bytes: RECORD_BYTES + 4 }, "finished: its size only");
        // A newer copy from the storage replaces the local one under the same key.
        let mut copy = t.forget("t1").unwrap();
        assert_eq!(t.quotas.total(), Usage::default());
        t.create(new_task("t1", None, Some("10.0.0.1")), 0, &limits).unwrap();
        copy.status_message = Some("from a storage".into());
        t.put_restored(copy);
        assert_eq!(t.quotas.usage(&key), Usage { running: 0, bytes: RECORD_BYTES + 4 + 14 });
        assert_eq!(t.quotas.total(), t.quotas.usage(&key));
        // A task first seen in the storage counts under its context; expiry frees it all.
        let mut other = t.forget("t1").unwrap();
        t.create(new_task("t1", None, Some("10.0.0.1")), 0, &limits).unwrap();
        t.forget("t1");
        other.id = Arc::from("t2");
        t.put_restored(other);
        assert_eq!(t.quotas.usage(&QuotaKey::of(None, None)).bytes, RECORD_BYTES + 4 + 14);
        while t.pop_expired(10_000).is_some() {}
        assert_eq!((t.quotas.keys(), t.quotas.total()), (0, Usage::default()));
    }

    #[test]
    fn storage_mode_creation_numbers_come_from_the_record_and_never_collide() {
        let mut a = TaskTable::with_stable_order();
        let mut b = TaskTable::with_stable_order();
        // The same task gets the same number on any instance, whatever came before it there.
        b.assign_seq("other", 1_000);
        assert_eq!(a.assign_seq("t1", 1_000), b.assign_seq("t1", 1_000));
        // Later creation time, later position, whatever the IDs.
        assert!(a.assign_seq("zzz", 1_001) > a.assign_seq("aaa", 1_000));
        // A number in use is never handed out twice (the same ID and time again: the next one).
        let first = a.assign_seq("dup", 2_000);
        assert_eq!(a.assign_seq("dup", 2_000), first + 1);
        // Without storage mode, numbers count up.
        let mut plain = TaskTable::default();
        assert_eq!((plain.assign_seq("x", 5), plain.assign_seq("y", 1)), (1, 2));
    }
}
