//! The engine as a task store: typed calls for hosts (such as SDK adapters)
//! that route JSON-RPC themselves. Same rules as the wire: context-scoped,
//! expired tasks invisible, cursors checked.

use super::channel::EnqueueRefusal;
use super::peer::Creation;
use super::Engine;
use crate::core::table::{CreateRefusal, Lookup};
use crate::core::{Outcome, RequestKind, Task, TaskStatus};
use crate::error::HostError;
use crate::protocol::json::Json;
use crate::protocol::jsonrpc::{first_byte, members, INTERNAL_ERROR, INVALID_PARAMS};
use crate::protocol::Dialect;
use crate::protocol::TtlRequest;
use std::fmt;

/// One page of [`Engine::list_tasks`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPage {
    /// Tasks in creation order.
    pub tasks: Vec<Task>,
    /// Pass back to get the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// Why an SDK 1.x task store call was refused: the machine-readable `code`
/// (as [`HostError::code`], plus `"no_result"`), the JSON-RPC error code the
/// SDK sends the client for it, and the message in the SDK store's words.
///
/// ```
/// use mcp_task_core::{Engine, RequestKind, TtlRequest};
/// let mut engine = Engine::new(Default::default());
/// let err = engine.update_task_status("nope", Some("alice"), "working", None).unwrap_err();
/// assert_eq!((err.code, err.rpc_code, err.message.as_str()), ("unknown_task", -32602, "Task not found: nope"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// `"unknown_task"`, `"already_terminal"`, `"no_result"`, ... (see [`HostError::code`]).
    pub code: &'static str,
    /// `-32602` when the request named something wrong, `-32603` otherwise.
    pub rpc_code: i64,
    pub message: String,
}

impl StoreError {
    fn not_found(task_id: &str) -> Self {
        StoreError { code: "unknown_task", rpc_code: INVALID_PARAMS, message: format!("Task not found: {task_id}") }
    }

    fn invalid(message: impl Into<String>) -> Self {
        StoreError { code: "invalid_argument", rpc_code: INVALID_PARAMS, message: message.into() }
    }

    /// Any move out of a terminal status, worded as the SDK's InMemoryTaskStore words it.
    fn terminal(task_id: &str, from: TaskStatus, to: &str) -> Self {
        let message = format!("Cannot update task {task_id} from terminal status '{from}' to '{to}'");
        StoreError { code: "already_terminal", rpc_code: INVALID_PARAMS, message }
    }

    fn no_result(task_id: &str, status: TaskStatus) -> Self {
        let message = if status == TaskStatus::Cancelled {
            format!("Task {task_id} was cancelled before it produced a result")
        } else {
            format!("Task {task_id} is '{status}' and has no stored result")
        };
        StoreError { code: "no_result", rpc_code: INTERNAL_ERROR, message }
    }
}

impl From<HostError> for StoreError {
    fn from(e: HostError) -> Self {
        StoreError { code: e.code(), rpc_code: e.rpc_code(), message: e.to_string() }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

impl Engine {
    /// Creates a task in `working` for a request the host runs itself, with the
    /// TTL policy applied. No [`Execute`](crate::Event::Execute) event is emitted.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TaskBinding, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let task = engine.create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Ms(0), None).unwrap();
    /// assert_eq!(task.ttl_ms, Some(0));
    /// // ttl 0 is a real TTL: the task is gone at once.
    /// assert!(engine.get_task(&task.task_id, Some("alice")).is_none());
    /// ```
    pub fn create_task(
        &mut self,
        context: Option<&str>,
        kind: RequestKind,
        ttl: TtlRequest,
        progress_token: Option<&str>,
    ) -> Result<Task, HostError> {
        self.create_task_with_poll_interval(context, kind, ttl, progress_token, self.config.poll_interval_ms)
    }

    /// [`create_task`](Self::create_task) with this task's own suggested poll
    /// interval instead of the configured one (SDK tools choose it per task).
    pub fn create_task_with_poll_interval(
        &mut self,
        context: Option<&str>,
        kind: RequestKind,
        ttl: TtlRequest,
        progress_token: Option<&str>,
        poll_interval_ms: Option<u64>,
    ) -> Result<Task, HostError> {
        let id = self.create_host_task(context, kind, ttl, progress_token, poll_interval_ms)?;
        self.table.get(&id).map(|t| t.snapshot()).ok_or(HostError::UnknownTask { task_id: id })
    }

    /// [`create_task_with_poll_interval`](Self::create_task_with_poll_interval) answering the
    /// new task's ID only.
    pub(crate) fn create_host_task(
        &mut self,
        context: Option<&str>,
        kind: RequestKind,
        ttl: TtlRequest,
        progress_token: Option<&str>,
        poll_interval_ms: Option<u64>,
    ) -> Result<String, HostError> {
        let now = self.tick();
        // The token is pasted into notifications/progress as raw JSON: only a JSON string
        // or integer (what MCP allows) may pass.
        if let Some(token) = progress_token {
            // The rule of a JSON-RPC id: a string or an integer.
            if crate::RawId::parse(token).is_err() {
                return Err(HostError::invalid(
                    "progressToken must be raw JSON of a string or an integer, e.g. \"\\\"tok-1\\\"\" or \"7\"",
                ));
            }
        }
        let token = progress_token.map(str::to_owned);
        // The SDK that calls here holds the session's declaration and checks its own sends.
        let input_capabilities = crate::core::InputCapabilities::UNDECLARED;
        let poll_interval = poll_interval_ms;
        let request = Creation { kind, ttl, progress_token: token, poll_interval, dialect: Dialect::Legacy, input_capabilities };
        match self.create(context, None, request, now) {
            Ok(id) => Ok(id),
            Err(CreateRefusal::Quota(refusal)) => Err(HostError::LimitExceeded { message: refusal.message() }),
            Err(CreateRefusal::EmptyId | CreateRefusal::DuplicateId) => Err(HostError::DuplicateId { task_id: String::new() }),
        }
    }

    /// A task as `context` may see it: `None` when unknown, expired or another context's.
    pub fn get_task(&mut self, task_id: &str, context: Option<&str>) -> Option<Task> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Some(t.snapshot()),
            _ => None,
        }
    }

    /// The host's JSON of a task ([`Task::to_json`]) as `context` may see it.
    pub fn get_task_json(&mut self, task_id: &str, context: Option<&str>) -> Option<String> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Some(crate::task_json::task_json(t.view())),
            _ => None,
        }
    }

    /// A task as `context` may see it, for a host's read cache: a [task record](Self::task_record_of).
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let task = engine.create_task(Some("a"), RequestKind::ToolsCall, TtlRequest::Ms(5000), None).unwrap();
    /// let record = engine.task_cache_entry(&task.task_id, Some("a")).unwrap();
    /// let fields: Vec<&str> = record.split('\0').collect();
    /// let due = task.created_at_ms + 5000;
    /// assert_eq!((fields[0], fields[1], fields[3]), (due.to_string().as_str(), "5000", "working"));
    /// assert_eq!((fields[6], fields[7], fields.len()), ("36", task.task_id.as_str(), 8));
    /// assert_eq!(engine.task_cache_entry(&task.task_id, Some("b")), None);
    /// ```
    pub fn task_cache_entry(&mut self, task_id: &str, context: Option<&str>) -> Option<String> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Some(self.task_record_of(t, now)),
            _ => None,
        }
    }

    /// [`create_task_with_poll_interval`](Self::create_task_with_poll_interval) answering
    /// the new task as [`task_cache_entry`](Self::task_cache_entry) does, at the instant
    /// of its creation.
    #[cfg(all(target_arch = "wasm32", feature = "receiver"))]
    pub(crate) fn create_task_cache_entry(
        &mut self,
        context: Option<&str>,
        kind: RequestKind,
        ttl: TtlRequest,
        poll_interval_ms: Option<u64>,
    ) -> Result<String, HostError> {
        let id = self.create_host_task(context, kind, ttl, None, poll_interval_ms)?;
        self.cache_entry_now(&id).ok_or(HostError::UnknownTask { task_id: id })
    }

    /// The [task record](Self::task_record_of) of task `task_id` as the last call left it
    /// (no clock read, no context check: for the answer of a call that just changed it).
    #[cfg(all(target_arch = "wasm32", feature = "receiver"))]
    pub(crate) fn cache_entry_now(&self, task_id: &str) -> Option<String> {
        self.table.get(task_id).map(|t| self.task_record_of(t, self.last_now))
    }

    /// A task as a host's read cache keeps it: its wire `Task` fields as text separated by
    /// NUL, cheaper for JavaScript to take apart than JSON. In order: `validUntil`, `ttl`,
    /// `pollInterval` (decimal; empty for null or absent), `status`, `createdAt`,
    /// `lastUpdatedAt`, the length of `taskId` in UTF-16 units, then `taskId` and, when the
    /// task has one, NUL and the status message (the rest of the text, whatever it holds).
    /// `validUntil` (epoch ms, exclusive) is when this answer stops holding without a call
    /// that changes the task: its expiry deadline, empty when it never expires. In store
    /// mode other instances write the same tasks, so it is `now`: never reuse.
    fn task_record_of(&self, t: &crate::core::table::TaskRecord, now: u64) -> String {
        use crate::protocol::jsonrpc::push_u64;
        let until = if self.config.store.is_some() { Some(now) } else { t.deadline() };
        let view = t.view();
        // At least 256 bytes, as the JSON entry had: smaller records left wasm memory ~10 B
        // per stored task larger (the allocator reuses the freed chunks less well).
        let mut out = String::with_capacity(256.max(112 + view.id.len() + view.status_message.map_or(0, str::len)));
        for n in [until, view.ttl, view.poll_interval] {
            if let Some(n) = n {
                push_u64(&mut out, n);
            }
            out.push('\0');
        }
        out.push_str(view.status.as_str());
        out.push('\0');
        crate::time::write_timestamp(&mut out, view.created_at);
        out.push('\0');
        crate::time::write_timestamp(&mut out, view.updated_at);
        out.push('\0');
        push_u64(&mut out, view.id.encode_utf16().count() as u64);
        out.push('\0');
        out.push_str(view.id);
        if let Some(message) = view.status_message {
            out.push('\0');
            out.push_str(message);
        }
        out
    }

    /// The stored outcome of a task as `context` may see it (`None` also while it runs).
    pub fn get_outcome(&mut self, task_id: &str, context: Option<&str>) -> Option<Outcome> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => t.outcome.clone(),
            _ => None,
        }
    }

    /// One page of `context`'s tasks. Refused without a context (see
    /// [`Config::context_binding`](crate::Config::context_binding)).
    pub fn list_tasks(&mut self, context: Option<&str>, cursor: Option<&str>) -> Result<TaskPage, HostError> {
        self.tick();
        if context.is_none() {
            return Err(HostError::ListUnavailable {
                message: "Listing tasks requires a context: tasks are never listed to a requestor that cannot be identified".to_owned(),
            });
        }
        let after = match cursor {
            None => 0,
            Some(c) => self.cursors.decode(context, c).ok_or(HostError::InvalidCursor)?,
        };
        let (page, next) = self.table.page(context, after, self.config.page_size);
        Ok(TaskPage { tasks: page.iter().map(|t| t.snapshot()).collect(), next_cursor: next.map(|seq| self.cursors.encode(context, seq)) })
    }

    /// Cancels a task on behalf of `context` (the store-level `tasks/cancel`).
    /// A task already cancelled is `TaskCancelled`, as for every host call.
    pub fn cancel_task(&mut self, task_id: &str, context: Option<&str>, status_message: Option<&str>) -> Result<Task, HostError> {
        let now = self.tick();
        if !matches!(self.table.lookup(task_id, context, now), Lookup::Found(_)) {
            return Err(HostError::UnknownTask { task_id: task_id.to_owned() });
        }
        self.running(task_id)?;
        self.cancel_now(task_id, status_message, now).map(|t| t.snapshot())
    }

    /// Store API: sets a task's status directly, as stores driven by an SDK
    /// do. `working` and `input_required` move a running task; `cancelled`
    /// cancels it; `completed` and `failed` end it without a stored outcome
    /// (use [`store_result`](Self::store_result) or [`fail`](Self::fail) to keep one).
    pub fn update_status(&mut self, task_id: &str, status: TaskStatus, message: Option<&str>) -> Result<Task, HostError> {
        let now = self.tick();
        if status == TaskStatus::Cancelled {
            return self.cancel_now(task_id, message, now).map(|t| t.snapshot());
        }
        let message = Some(message.map(str::to_owned));
        self.move_task(task_id, status, message, None, now).map_err(|r| super::host::refusal(task_id, r))?;
        if status.is_terminal() {
            self.after_terminal(task_id);
        } else {
            self.notify_status(task_id);
        }
        self.table.get(task_id).map(|t| t.snapshot()).ok_or(HostError::UnknownTask { task_id: task_id.to_owned() })
    }

    /// Store API: ends a task with a result and an explicit terminal status
    /// (`completed` or `failed`), for hosts that judge the result themselves.
    pub fn store_result(&mut self, task_id: &str, status: TaskStatus, result_json: &str) -> Result<Task, HostError> {
        if !matches!(status, TaskStatus::Completed | TaskStatus::Failed) {
            return Err(HostError::invalid(format!("A result can be stored only with status 'completed' or 'failed', not '{status}'")));
        }
        self.complete_with(task_id, result_json, Some(status))
    }

    /// Whether a live task has this ID, in any context (host-side: the host
    /// owns every task; never answer a peer with it).
    pub fn has_task(&mut self, task_id: &str) -> bool {
        self.tick();
        self.table.get(task_id).is_some()
    }

    /// The context of a live task, whichever it is (host-side, like
    /// [`has_task`](Self::has_task): never answer a peer with it). `None` when no
    /// live task has this ID.
    /// A host that acts on a task for itself (not for a peer) looks its context up
    /// here, then calls the context-scoped store methods with it.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TaskBinding, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let task = engine.create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Ms(100), None).unwrap();
    /// assert_eq!(engine.task_context(&task.task_id), Some(TaskBinding::Context("alice".to_owned())));
    /// assert_eq!(engine.task_context("nope"), None);
    /// let mine = engine.create_task(None, RequestKind::ToolsCall, TtlRequest::Default, None).unwrap();
    /// assert_eq!(engine.task_context(&mine.task_id), Some(TaskBinding::Unbound));
    /// ```
    pub fn task_context(&mut self, task_id: &str) -> Option<TaskBinding> {
        self.tick();
        self.table.get(task_id).map(|t| TaskBinding::from_context(t.context()).map(str::to_owned))
    }

    /// How many live tasks the engine holds.
    pub fn task_count(&self) -> usize {
        self.table.len()
    }

    /// The kind of request a live task wraps.
    pub fn task_kind(&self, task_id: &str) -> Option<RequestKind> {
        self.table.get(task_id).map(|t| t.kind)
    }

    // SDK 1.x `TaskStore` calls: scoped to `context` like the store calls above,
    // with the SDK store's rules and wording (see [`StoreError`]).

    /// SDK `updateTaskStatus`: moves a task of `context`. The same status again
    /// only updates the status message; without a (non-empty) `message`, a move
    /// between `working` and `input_required` keeps the current one. Any move
    /// out of a terminal status is refused, a cancelled task's included.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let id = engine.create_task(Some("a"), RequestKind::ToolsCall, TtlRequest::Default, None).unwrap().task_id;
    /// engine.update_task_status(&id, Some("a"), "input_required", Some("need a city")).unwrap();
    /// engine.update_task_status(&id, Some("a"), "working", None).unwrap();
    /// assert_eq!(engine.get_task(&id, Some("a")).unwrap().status_message.as_deref(), Some("need a city"));
    /// engine.update_task_status(&id, Some("a"), "cancelled", None).unwrap();
    /// let err = engine.update_task_status(&id, Some("a"), "working", None).unwrap_err();
    /// assert_eq!(err.message, format!("Cannot update task {id} from terminal status 'cancelled' to 'working'"));
    /// ```
    pub fn update_task_status(
        &mut self,
        task_id: &str,
        context: Option<&str>,
        status: &str,
        message: Option<&str>,
    ) -> Result<(), StoreError> {
        let now = self.tick();
        let given = message.filter(|m| !m.is_empty());
        let Lookup::Found(t) = self.table.lookup(task_id, context, now) else { return Err(StoreError::not_found(task_id)) };
        let current = t.status;
        let kept = t.status_message.as_deref().map(str::to_owned);
        let to = TaskStatus::parse(status).ok_or_else(|| StoreError::invalid(format!("Unknown task status '{status}'")))?;
        if current.is_terminal() {
            return Err(StoreError::terminal(task_id, current, status));
        }
        if to == TaskStatus::Cancelled {
            self.cancel_now(task_id, given, now)?;
        } else if to == current {
            self.set_status_message(task_id, given.map(str::to_owned).or(kept).as_deref())?;
        } else {
            let message = given.map(str::to_owned).or_else(|| if to.is_terminal() { None } else { kept });
            self.update_status(task_id, to, message.as_deref())?;
        }
        Ok(())
    }

    /// SDK `storeTaskResult`: ends a task of `context` with `status`
    /// (`completed` or `failed`) and its outcome: a result object, or a JSON-RPC
    /// error object (only with `failed`) that `tasks/result` replays.
    pub fn store_task_result(&mut self, task_id: &str, context: Option<&str>, status: &str, outcome: Outcome) -> Result<(), StoreError> {
        let now = self.tick();
        if !matches!(self.table.lookup(task_id, context, now), Lookup::Found(_)) {
            return Err(StoreError::not_found(task_id));
        }
        let status = match TaskStatus::parse(status) {
            Some(s @ (TaskStatus::Completed | TaskStatus::Failed)) => s,
            _ => {
                return Err(StoreError::invalid(format!("A result can be stored only with status 'completed' or 'failed', not '{status}'")))
            }
        };
        match outcome {
            Outcome::Error(_) if status != TaskStatus::Failed => {
                Err(StoreError::invalid("A JSON-RPC error can be stored only with status 'failed'"))
            }
            Outcome::Error(json) => self.fail(task_id, &json).map(|_| ()).map_err(StoreError::from),
            Outcome::Result(json) => self.store_result(task_id, status, &json).map(|_| ()).map_err(StoreError::from),
        }
    }

    /// SDK `getTaskResult`: the stored outcome of a task of `context`; refused
    /// (`no_result`, -32603) while it runs or when it was cancelled.
    pub fn task_result(&mut self, task_id: &str, context: Option<&str>) -> Result<Outcome, StoreError> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => t.outcome.clone().ok_or_else(|| StoreError::no_result(task_id, t.status)),
            _ => Err(StoreError::not_found(task_id)),
        }
    }

    /// [`task_result`](Self::task_result) without the copy: the stored outcome,
    /// borrowed, so a host hands its text to JavaScript straight from the engine.
    ///
    /// ```
    /// use mcp_task_core::{Engine, Outcome, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let task = engine.create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Default, None).unwrap();
    /// assert_eq!(engine.task_result_ref(&task.task_id, Some("alice")).unwrap_err().code, "no_result");
    /// let result = Outcome::Result(r#"{"content":[]}"#.into());
    /// engine.store_task_result(&task.task_id, Some("alice"), "completed", result.clone()).unwrap();
    /// assert_eq!(engine.task_result_ref(&task.task_id, Some("alice")), Ok(&result));
    /// assert_eq!(engine.task_result_ref(&task.task_id, Some("bob")).unwrap_err().code, "unknown_task");
    /// ```
    pub fn task_result_ref(&mut self, task_id: &str, context: Option<&str>) -> Result<&Outcome, StoreError> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => t.outcome.as_ref().ok_or_else(|| StoreError::no_result(task_id, t.status)),
            _ => Err(StoreError::not_found(task_id)),
        }
    }

    // SDK 1.x `TaskMessageQueue` calls: host messages for a task's requestor, on
    // the task's channel. One limit per task, `limits.max_queued_messages_per_task`,
    // as for side-channel requests; `max_size` may lower it for one call.

    /// Queues `message_json`, a queued-message object (`type` `request`,
    /// `notification`, `response` or `error`). `context`: the caller's, or
    /// `None` when it names none. The queue belongs to its task's context when
    /// the engine holds the task, else to the first context named; another
    /// context is refused as if there were no such task.
    ///
    /// ```
    /// use mcp_task_core::{Engine, TaskBinding};
    /// let mut engine = Engine::new(Default::default());
    /// let ping = r#"{"type":"request","message":{"jsonrpc":"2.0","id":0,"method":"ping"},"timestamp":0}"#;
    /// engine.enqueue_message("t1", Some(TaskBinding::Context("a")), ping, None).unwrap();
    /// assert_eq!(engine.enqueue_message("t1", Some(TaskBinding::Context("b")), ping, None).unwrap_err().code, "unknown_task");
    /// assert!(engine.dequeue_messages("t1", Some("b"), true).is_empty());
    /// assert_eq!(engine.dequeue_messages("t1", Some("a"), false), vec![ping.to_owned()]);
    /// ```
    pub fn enqueue_message(
        &mut self,
        task_id: &str,
        context: Option<TaskBinding<&str>>,
        message_json: &str,
        max_size: Option<usize>,
    ) -> Result<(), StoreError> {
        self.tick();
        let bad = || StoreError::invalid("A queued message must be an object with type 'request', 'notification', 'response' or 'error'");
        if first_byte(message_json) != Some(b'{') {
            return Err(bad());
        }
        let [kind] = Json::parse(message_json).ok().and_then(|m| members(m, ["type"]).ok()).ok_or_else(bad)?;
        if !matches!(kind.map(Json::get), Some(r#""request""# | r#""notification""# | r#""response""# | r#""error""#)) {
            return Err(bad());
        }
        let limit =
            max_size.map_or(self.config.limits.max_queued_messages_per_task, |m| m.min(self.config.limits.max_queued_messages_per_task));
        let owner = self.table.get(task_id).map(|t| t.context());
        let named = context.map(TaskBinding::context);
        match self.channels.enqueue_message(task_id, owner, named, message_json.to_owned(), limit) {
            Ok(()) => Ok(()),
            Err(EnqueueRefusal::OtherContext) => Err(StoreError::not_found(task_id)),
            Err(EnqueueRefusal::Full { queued, limit }) => Err(StoreError {
                code: "limit_exceeded",
                rpc_code: INTERNAL_ERROR,
                message: format!("Task message queue overflow: task {task_id} already has {queued} queued messages (limit {limit})"),
            }),
        }
    }

    /// Takes the oldest (`all`: every) queued message of a task, oldest first,
    /// if `context` may read them (else none).
    pub fn dequeue_messages(&mut self, task_id: &str, context: Option<&str>, all: bool) -> Vec<String> {
        self.tick();
        let owner = self.table.get(task_id).map(|t| t.context());
        self.channels.dequeue_messages(task_id, owner, context, all)
    }

    /// Messages queued for one task, or for every task.
    pub fn queued_message_count(&self, task_id: Option<&str>) -> usize {
        self.channels.message_count(task_id)
    }

    /// Drops every queued message of every task.
    pub fn clear_messages(&mut self) {
        self.channels.drop_messages(None);
    }
}

/// Which requestor context a task belongs to: [`Engine::task_context`] answers
/// with one, and [`Engine::enqueue_message`] takes one for the context a caller
/// names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskBinding<S = String> {
    /// Created for this context (a session, a tenant): only it sees the task.
    Context(S),
    /// Created without a context (a host with no sessions): only calls that
    /// name no context see it.
    Unbound,
}

impl<S> TaskBinding<S> {
    fn from_context(context: Option<S>) -> Self {
        context.map_or(TaskBinding::Unbound, TaskBinding::Context)
    }

    /// `Some(context)`, or `None` when unbound.
    pub fn context(self) -> Option<S> {
        match self {
            TaskBinding::Context(c) => Some(c),
            TaskBinding::Unbound => None,
        }
    }

    /// The same binding with the context mapped.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> TaskBinding<T> {
        match self {
            TaskBinding::Context(c) => TaskBinding::Context(f(c)),
            TaskBinding::Unbound => TaskBinding::Unbound,
        }
    }
}
