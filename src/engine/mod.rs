//! The engine: the task table driven by JSON-RPC messages from the peer and
//! calls from the host, with one output queue and one next deadline.

mod channel;
mod durable;
mod extension_requests;
mod host;
mod host_tasks;
mod peer;
mod rate;
mod subscriptions;

pub use crate::core::TaskSupport;
pub(crate) use channel::EnqueueRefusal;
pub use durable::Storage;
pub use rate::RateLimit;

use crate::audit::{AuditAction, AuditEvent};
use crate::config::Config;
use crate::core::cursor::CursorCodec;
use crate::core::fast_map::FastMap;
use crate::core::table::MoveRefusal;
use crate::core::table::{Lookup, TaskRecord, TaskTable};
use crate::core::{Outcome, TaskStatus};
use crate::ids::BoxedIdSource;
use crate::output::{Event, Output, Transmit};
use crate::protocol::jsonrpc::{self, Incoming, RpcError};
use crate::protocol::raw_id::RawId;
use crate::protocol::Dialect;
use crate::time::BoxedClock;
use channel::Channels;
use std::collections::VecDeque;

/// What the transport knows of an incoming message beside its body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inbound<'a> {
    /// The authenticated context (session, user) the message came from.
    pub context: Option<&'a str>,
    /// The dialect, when the host knows it (e.g. from the session's protocol
    /// version); `None` reads it from the message (see [`Dialect`]).
    pub dialect: Option<Dialect>,
    /// The `Mcp-Name` header of a Streamable HTTP request, checked against
    /// `params.taskId` of extension `tasks/*` requests (`-32020` on mismatch).
    pub mcp_name: Option<&'a str>,
    /// Whose allowance the message spends (the rate limit and the `per_key`
    /// [`Limits`](crate::Limits)), apart from whose tasks it sees (`context`):
    /// a session ID, an authenticated user, a client address. `None` counts it
    /// against its context, so clients that share a context share its allowance.
    pub quota_key: Option<&'a str>,
    /// 2025-11-25: the `capabilities` object (JSON text) the client sent in
    /// its session's `initialize`. A task the request creates then never
    /// asks the client for input it did not declare
    /// ([`Engine::request_input`] refuses with
    /// [`HostError::CapabilityNotDeclared`](crate::HostError::CapabilityNotDeclared)).
    /// `None`: no declaration to judge by, every request is allowed. Not used
    /// for the tasks extension, whose requests carry their own declaration
    /// (`_meta["io.modelcontextprotocol/clientCapabilities"]`), which governs.
    pub client_capabilities: Option<&'a str>,
}

impl<'a> Inbound<'a> {
    /// Only a context.
    pub fn from_context(context: Option<&'a str>) -> Self {
        Inbound { context, ..Inbound::default() }
    }
}

/// Only a context.
impl<'a> From<Option<&'a str>> for Inbound<'a> {
    fn from(context: Option<&'a str>) -> Self {
        Inbound::from_context(context)
    }
}

impl<'a> From<&Inbound<'a>> for Inbound<'a> {
    fn from(inbound: &Inbound<'a>) -> Self {
        *inbound
    }
}

/// The sans-IO task runtime of one receiver.
///
/// The host loop: feed every incoming message to [`handle_message`](Self::handle_message)
/// and send back the reply it returns; report the work's progress and outcome
/// through the host calls; after every call drain [`poll_output`](Self::poll_output);
/// then sleep until the next message or [`next_deadline`](Self::next_deadline),
/// and on waking past it call [`handle_timeout`](Self::handle_timeout).
///
/// ```
/// use mcp_task_core::{Config, Engine, Event, ManualClock, Output, SequentialIds, TaskSupport};
///
/// let clock = ManualClock::new(1_764_066_600_000);
/// let mut engine = Engine::with_sources(Config::default(), Box::new(clock.clone()), Box::new(SequentialIds::new("t")));
/// engine.register_tool("slow", TaskSupport::Required);
///
/// // A task-augmented tool call is answered at once with a CreateTaskResult...
/// let reply = engine.handle_message(
///     r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":60000}}}"#,
///     Some("session-a"),
/// ).unwrap();
/// assert!(reply.contains(r#""status":"working""#));
///
/// // ...and the host is told to run it.
/// let Some(Output::Event(Event::Execute { task_id, .. })) = engine.poll_output() else { panic!() };
/// engine.complete(&task_id, r#"{"content":[{"type":"text","text":"done"}]}"#).unwrap();
///
/// let result = engine.handle_message(
///     r#"{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"t1"}}"#,
///     Some("session-a"),
/// ).unwrap();
/// assert!(result.contains(r#""io.modelcontextprotocol/related-task":{"taskId":"t1"}"#));
/// ```
pub struct Engine {
    config: Config,
    clock: BoxedClock,
    ids: BoxedIdSource,
    table: TaskTable,
    tools: FastMap<String, TaskSupport>,
    channels: Channels,
    subscriptions: subscriptions::Subscriptions,
    outputs: VecDeque<Output>,
    cursors: CursorCodec,
    rate: rate::RateLimiter,
    last_now: u64,
    /// Outputs dropped because the queue was full, not yet reported.
    dropped_outputs: u64,
    /// Storage mode: tasks changed since the last drain, with the version the storage holds.
    journal: Vec<(String, Option<u64>)>,
    /// Storage mode: deletions waiting to go out.
    persists: Vec<crate::output::Persist>,
    /// Storage mode: tasks whose next write replaces a damaged record, with the
    /// version text the storage reported for it.
    repairs: Vec<(String, String)>,
    /// Storage mode: lease renewals (ours) and expiry checks (others'), by due time.
    lease_checks: std::collections::BTreeSet<(u64, String)>,
    /// Storage mode: answers to input requests of tasks whose work runs on another instance,
    /// kept in the record (raw request id, response) until that instance takes them.
    relayed: FastMap<String, Vec<(String, String)>>,
    /// Storage mode: tasks failed here because their worker's lease ran out (for dashboards).
    lease_failures: u32,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("tasks", &self.table.len()).field("outputs", &self.outputs.len()).finish()
    }
}

impl Engine {
    /// An engine on the system clock with random UUID v4 task IDs.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(config: Config) -> Self {
        Self::with_sources(config, Box::new(crate::time::SystemClock), Box::<crate::ids::UuidV4Ids>::default())
    }

    /// An engine with the host's clock and ID source.
    pub fn with_sources(config: Config, clock: BoxedClock, mut ids: BoxedIdSource) -> Self {
        // No entropy source: cursors stay tamper-evident against casual edits only.
        let key = config.cursor_key.or_else(|| ids.secret_key()).unwrap_or(*b"mcp-task-cursors");
        let cursors = CursorCodec::new(key);
        // Over a storage, list positions must mean the same on every instance.
        let table = if config.storage.is_some() { TaskTable::with_stable_order() } else { TaskTable::default() };
        Engine {
            config,
            clock,
            ids,
            table,
            tools: FastMap::default(),
            channels: Channels::default(),
            subscriptions: Default::default(),
            outputs: VecDeque::new(),
            cursors,
            rate: rate::RateLimiter::default(),
            last_now: 0,
            dropped_outputs: 0,
            journal: Vec::new(),
            persists: Vec::new(),
            repairs: Vec::new(),
            lease_checks: Default::default(),
            relayed: FastMap::default(),
            lease_failures: 0,
        }
    }

    /// The key of this engine's list cursors: another engine configured with
    /// it ([`Config::cursor_key`]) accepts them, e.g. one that restores this
    /// one's [`snapshot`](Storage::snapshot) in its place.
    pub fn cursor_key(&self) -> [u8; 16] {
        self.cursors.key()
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The `tasks` capability object to put in the `initialize` answer of a
    /// session whose requests carry `context`. `list` is declared only where
    /// `tasks/list` answers: to a session the receiver can identify.
    ///
    /// ```
    /// let engine = mcp_task_core::Engine::new(Default::default());
    /// assert_eq!(engine.capabilities_json(Some("session-1")), r#"{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}"#);
    /// assert_eq!(engine.capabilities_json(None), r#"{"cancel":{},"requests":{"tools":{"call":{}}}}"#);
    /// ```
    pub fn capabilities_json(&self, context: Option<&str>) -> String {
        crate::protocol::codec(Dialect::Legacy).capabilities(&self.config, context)
    }

    /// Declares a tool's `execution.taskSupport`. Tools never registered count as absent.
    pub fn register_tool(&mut self, name: &str, support: TaskSupport) {
        self.tools.insert(name.to_owned(), support);
    }

    /// Feeds one JSON-RPC message from the peer, with what the transport knows beside the body
    /// ([`Inbound`]: the context, the dialect, the `Mcp-Name` header, ...; or just the context,
    /// an `Option<&str>`). Returns the response to send now, if there is one; everything else is
    /// in [`poll_output`](Self::poll_output). Malformed input gets a JSON-RPC error response and
    /// changes nothing. Without a dialect in `inbound` it is read from the message (see [`Dialect`]).
    ///
    /// A reply that creates a task (a `CreateTaskResult`) is returned only once
    /// the task is in the table, so a `tasks/get` for it resolves. With
    /// [`Config::storage`] that is not enough: the reply to a request is then
    /// queued (a `Send` whose `in_reply_to` is the request's id) behind the
    /// [`Persist`](crate::Output::Persist) of what it changed, and this returns `None`.
    ///
    /// ```
    /// use mcp_task_core::{Config, Dialect, Engine, Inbound, TaskSupport};
    /// let mut engine = Engine::new(Config::default());
    /// engine.register_tool("slow", TaskSupport::Required);
    /// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{
    ///   "io.modelcontextprotocol/protocolVersion":"2026-07-28",
    ///   "io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}"#;
    /// let reply = engine.handle_message(call, Some("s1")).unwrap();
    /// assert!(reply.contains(r#""resultType":"task""#));
    /// // The same request with the legacy dialect forced is refused: it lacks params.task.
    /// let legacy = Inbound { context: Some("s1"), dialect: Some(Dialect::Legacy), ..Inbound::default() };
    /// assert!(engine.handle_message(call, legacy).unwrap().contains("-32601"));
    /// ```
    pub fn handle_message<'i>(&mut self, message: &str, inbound: impl Into<Inbound<'i>>) -> Option<String> {
        self.handle(message, &inbound.into())
    }

    fn handle(&mut self, message: &str, inbound: &Inbound<'_>) -> Option<String> {
        let context = inbound.context;
        let now = self.tick();
        let limits = &self.config.limits;
        let incoming = match jsonrpc::parse(message, limits.max_message_bytes, limits.max_json_depth) {
            Ok(incoming) => incoming,
            Err(rejected) => {
                // The top level still tells a response (never answered: two
                // peers would trade errors forever) and the id to answer under.
                let peek = jsonrpc::peek(message);
                if peek.is_response() {
                    // Limits guard what the engine parses; a response is only routed by id.
                    let ours = peek.id.is_some_and(|id| self.on_input_response(id, message, context, now));
                    if !ours {
                        self.forward(message, context, false);
                    }
                    return None;
                }
                if rejected.limit_hit {
                    self.audit(AuditAction::LimitHit, None, context, Some(rejected.error.message.clone()));
                }
                let id = rejected.id.as_deref().or(peek.id);
                return Some(jsonrpc::error_response(id, &rejected.error));
            }
        };
        match incoming {
            Incoming::Request { id, .. } if self.outputs_full() => {
                let limit = self.config.limits.max_pending_outputs;
                let error = RpcError::new(
                    jsonrpc::LIMIT_EXCEEDED,
                    format!("The receiver is overloaded ({limit} outputs wait to be processed): retry later"),
                );
                self.audit(AuditAction::LimitHit, None, context, Some(format!("undrained outputs (limit {limit})")));
                Some(jsonrpc::error_response(Some(id), &error))
            }
            Incoming::Request { id, method, params } => {
                let reply = match self.on_request(id, &method, params, message, inbound, now) {
                    peer::Reply::Result(result) => Some(jsonrpc::wrap_result(id, result)),
                    peer::Reply::Error(error) => Some(jsonrpc::error_response(Some(id), &error)),
                    peer::Reply::Response(response) => Some(response),
                    peer::Reply::Later => None,
                };
                match reply {
                    // Storage mode: the reply waits behind the Persists of what it changed.
                    Some(reply) if self.config.storage.is_some() => {
                        self.send(context.map(str::to_owned), Some(id.to_owned()), reply);
                        None
                    }
                    reply => reply,
                }
            }
            Incoming::Notification { method, params } => {
                if method == "notifications/cancelled" {
                    self.on_request_cancelled(params, context);
                }
                self.forward(message, context, true);
                None
            }
            Incoming::Response { id, .. } => {
                if !self.on_input_response(id, message, context, now) {
                    self.forward(message, context, false);
                }
                None
            }
        }
    }

    /// The next thing for the host to do, or `None` when there is nothing now.
    /// Drain it after every call into the engine.
    pub fn poll_output(&mut self) -> Option<Output> {
        if !self.journal.is_empty() || !self.persists.is_empty() {
            self.flush_journal();
        }
        if self.dropped_outputs > 0 {
            let count = std::mem::take(&mut self.dropped_outputs);
            return Some(Output::Event(Event::OutputsDropped { count }));
        }
        self.outputs.pop_front()
    }

    fn outputs_full(&self) -> bool {
        self.outputs.len() >= self.config.limits.max_pending_outputs
    }

    /// Queues an output; when the queue is full, what no one waits on (a
    /// notification, a forwarded notification, an audit record) is dropped and counted.
    fn push(&mut self, output: Output, droppable: bool) {
        if droppable && self.outputs_full() {
            self.dropped_outputs = self.dropped_outputs.saturating_add(1);
        } else {
            self.outputs.push_back(output);
        }
    }

    /// The number of outputs waiting to be drained.
    pub fn pending_outputs(&self) -> usize {
        self.outputs.len() + usize::from(self.dropped_outputs > 0) + self.journal.len() + self.persists.len()
    }

    /// When the engine next needs [`handle_timeout`](Self::handle_timeout)
    /// (epoch milliseconds), or `None` when no task has a deadline.
    pub fn next_deadline(&self) -> Option<u64> {
        match (self.table.next_deadline(), self.next_lease_check()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Deletes tasks whose TTL has passed. Harmless when called early or twice;
    /// every other call also expires what is due, so a late timer never
    /// exposes an expired task.
    pub fn handle_timeout(&mut self) {
        self.tick();
    }

    /// Reads the clock (never backwards) and expires what is due.
    fn tick(&mut self) -> u64 {
        let now = self.clock.now_ms().max(self.last_now);
        self.last_now = now;
        while let Some(expired) = self.table.pop_expired(now) {
            for waiter in self.channels.close(&expired.id) {
                let error = RpcError::params("Failed to retrieve task: Task has expired");
                self.send(waiter.context.clone(), Some(waiter.id.clone()), jsonrpc::error_response(Some(&waiter.id), &error));
            }
            self.channels.drop_messages(Some(&expired.id));
            self.subscriptions.forget_task(&expired.id);
            self.deleted(&expired.id, expired.version);
            let context = expired.context.as_deref().map(str::to_owned);
            self.audit(AuditAction::Expired, Some(&expired.id), expired.context.as_deref(), None);
            self.event(Event::Expired { task_id: expired.id.to_string(), context, was_terminal: expired.was_terminal });
        }
        if !self.lease_checks.is_empty() {
            self.run_lease_checks(now);
        }
        now
    }

    fn audit(&mut self, action: AuditAction, task_id: Option<&str>, context: Option<&str>, detail: Option<String>) {
        if self.config.audit {
            let record = AuditEvent { action, task_id: task_id.map(str::to_owned), context: context.map(str::to_owned), detail };
            self.event(Event::Audit(record));
        }
    }

    /// The one place a task changes status, so every change is audited.
    fn move_task(
        &mut self,
        task_id: &str,
        to: TaskStatus,
        message: Option<Option<String>>,
        outcome: Option<Outcome>,
        now: u64,
    ) -> Result<(), MoveRefusal> {
        // The look-ups the audit alone needs are made only with it on.
        let from = if self.config.audit { self.table.get(task_id).map_or(to, |t| t.status) } else { to };
        self.table.move_to(task_id, to, message, outcome, now)?;
        self.changed(task_id);
        if self.config.audit {
            let context = self.table.get(task_id).and_then(|t| t.context().map(str::to_owned));
            let action = if to == TaskStatus::Cancelled { AuditAction::Cancelled { from } } else { AuditAction::Transitioned { from, to } };
            self.audit(action, Some(task_id), context.as_deref(), None);
        }
        Ok(())
    }

    /// Hands a peer message to the host. Requests are refused at the door when
    /// the queue is full and responses are always kept (someone waits on them),
    /// so only notifications are dropped.
    fn forward(&mut self, message: &str, context: Option<&str>, droppable: bool) {
        self.push(Output::Event(Event::Forward { context: context.map(str::to_owned), message: message.to_owned() }), droppable);
    }

    fn event(&mut self, event: Event) {
        let droppable = matches!(event, Event::Audit(_));
        self.push(Output::Event(event), droppable);
    }

    fn send(&mut self, context: Option<String>, in_reply_to: Option<String>, message: String) {
        self.outputs.push_back(Output::Send(Transmit { context, in_reply_to: in_reply_to.map(RawId::trusted), message }));
    }

    /// A notification for the peer (status, progress): dropped when the queue is full.
    fn notify(&mut self, context: Option<String>, message: String) {
        self.push(Output::Send(Transmit { context, in_reply_to: None, message }), true);
    }

    /// Tells the requestor about a status change: a 2025-11-25 task with
    /// `notifications/tasks/status` (if so configured), and every
    /// `subscriptions/listen` stream that follows the task with `notifications/tasks`.
    fn notify_status(&mut self, task_id: &str) {
        // No notifications and no stream following the task: nothing to write.
        if !self.config.status_notifications && !self.subscriptions.follows(task_id) {
            return;
        }
        let Some(t) = self.table.get(task_id) else { return };
        let mut sends = Vec::new();
        let inputs = || self.channels.pending(task_id).iter().map(|p| p.as_input_request());
        if self.config.status_notifications {
            let codec = crate::protocol::codec(t.dialect);
            if let Some(message) = codec.status_notification(t.view(), t.outcome.as_ref(), &mut inputs(), None) {
                sends.push((t.context().map(str::to_owned), None, message));
            }
        }
        for listener in self.subscriptions.listeners(task_id) {
            // Streams are opened by the tasks extension's subscriptions/listen.
            let codec = crate::protocol::codec(Dialect::Extension);
            let Some(message) = codec.status_notification(t.view(), t.outcome.as_ref(), &mut inputs(), Some(&listener.subscription_id))
            else {
                continue;
            };
            // On the stream the subscriptions/listen request opened.
            sends.push((listener.context.clone(), Some(listener.subscription_id.clone()), message));
        }
        if t.status.is_terminal() {
            self.subscriptions.forget_task(task_id);
        }
        for (context, stream, message) in sends {
            self.push(Output::Send(Transmit { context, in_reply_to: stream.map(RawId::trusted), message }), true);
        }
    }

    /// Finds a task for a context, or the spec's error for its absence.
    fn find(&self, task_id: &str, context: Option<&str>, now: u64, action: &str) -> Result<&TaskRecord, RpcError> {
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Ok(t),
            Lookup::Expired => Err(RpcError::params(format!("Failed to {action} task: Task has expired"))),
            Lookup::NotFound => Err(RpcError::params(format!("Failed to {action} task: Task not found"))),
        }
    }

    /// Records a peer's failed lookup (the peer only hears "not found" or "expired").
    fn audit_refused(&mut self, task_id: &str, context: Option<&str>) {
        if self.config.audit {
            let detail = match self.table.get(task_id) {
                Some(t) if t.context() != context => "the task belongs to another context",
                Some(_) => "the task has expired",
                None => "no such task",
            };
            self.audit(AuditAction::AccessRefused, Some(task_id), context, Some(detail.to_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Engine;
    use crate::{Config, IdSource, ManualClock, SequentialIds};

    /// Counting IDs whose secret key is fixed.
    struct KeyedIds(SequentialIds, [u8; 16]);

    impl IdSource for KeyedIds {
        fn next_id(&mut self) -> String {
            self.0.next_id()
        }
        fn secret_key(&mut self) -> Option<[u8; 16]> {
            Some(self.1)
        }
    }

    /// The cursor key comes from the ID source unless the configuration sets one.
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn the_cursor_key_comes_from_the_id_source() {
        let engine = |cursor_key, key| {
            let ids = KeyedIds(SequentialIds::new("t"), key);
            Engine::with_sources(Config { cursor_key, ..Config::default() }, Box::new(ManualClock::new(0)), Box::new(ids))
        };
        let cursor = |e: &Engine| e.cursors.encode(Some("s"), 7);
        assert_eq!(cursor(&engine(None, [1; 16])), cursor(&engine(Some([1; 16]), [2; 16])));
        assert_ne!(cursor(&engine(None, [1; 16])), cursor(&engine(None, [2; 16])));
        assert_eq!(cursor(&engine(Some([3; 16]), [1; 16])), cursor(&engine(Some([3; 16]), [2; 16])), "the configured key wins");
    }
}
