//! The SDK 1.x `TaskStore` and `TaskMessageQueue` over the engine, for hosts
//! (such as SDK adapters) that route JSON-RPC themselves: [`Engine::sdk_store`].
//! The SDK store's rules and wording live here; the task rules stay in the engine.

use crate::core::{Outcome, RequestKind, Task, TaskStatus};
use crate::engine::{Engine, EnqueueRefusal};
use crate::error::HostError;
use crate::protocol::json::Json;
use crate::protocol::jsonrpc::{first_byte, members, INTERNAL_ERROR, INVALID_PARAMS};
use crate::protocol::TtlRequest;
use std::fmt;

/// One page of [`SdkStore::list_tasks`].
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
/// use mcp_task_core::Engine;
/// let mut engine = Engine::new(Default::default());
/// let err = engine.sdk_store().update_task_status("nope", Some("alice"), "working", None).unwrap_err();
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
    pub(crate) fn not_found(task_id: &str) -> Self {
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

/// Which requestor context a task belongs to: [`SdkStore::task_context`] answers
/// with one, and [`SdkStore::enqueue_message`] takes one for the context a caller
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

impl Engine {
    /// The SDK 1.x task store over this engine (see [`SdkStore`]).
    pub fn sdk_store(&mut self) -> SdkStore<'_> {
        SdkStore { engine: self }
    }
}

/// The engine as an SDK 1.x `TaskStore` and `TaskMessageQueue`: typed calls
/// scoped to a context like the wire (expired tasks invisible, cursors checked),
/// with the SDK store's rules and wording (see [`StoreError`]). A view that
/// borrows the engine: `engine.sdk_store().get_task(id, context)`.
#[derive(Debug)]
pub struct SdkStore<'e> {
    engine: &'e mut Engine,
}

impl<'e> SdkStore<'e> {
    /// Creates a task in `working` for a request the host runs itself, with the
    /// TTL policy applied. No [`Execute`](crate::Event::Execute) event is emitted.
    /// `poll_interval_ms`: this task's suggested poll interval (SDK tools choose
    /// it per task); `None` for the configured one, `Some(None)` for none.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let mut store = engine.sdk_store();
    /// let task = store.create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Ms(0), None, None).unwrap();
    /// assert_eq!(task.ttl_ms, Some(0));
    /// // ttl 0 is a real TTL: the task is gone at once.
    /// assert!(store.get_task(&task.task_id, Some("alice")).is_none());
    /// ```
    pub fn create_task(
        &mut self,
        context: Option<&str>,
        kind: RequestKind,
        ttl: TtlRequest,
        progress_token: Option<&str>,
        poll_interval_ms: Option<Option<u64>>,
    ) -> Result<Task, HostError> {
        self.engine.create_host_task(context, kind, ttl, progress_token, poll_interval_ms)
    }

    /// A task as `context` may see it: `None` when unknown, expired or another context's.
    pub fn get_task(&mut self, task_id: &str, context: Option<&str>) -> Option<Task> {
        self.engine.visible(task_id, context).map(|t| t.snapshot())
    }

    /// One page of `context`'s tasks. Refused without a context (see
    /// [`Config::context_binding`](crate::Config::context_binding)).
    pub fn list_tasks(&mut self, context: Option<&str>, cursor: Option<&str>) -> Result<TaskPage, HostError> {
        let (tasks, next_cursor) = self.engine.task_page(context, cursor)?;
        Ok(TaskPage { tasks, next_cursor })
    }

    /// Cancels a task on behalf of `context` (the store-level `tasks/cancel`).
    /// A task already cancelled is `TaskCancelled`, as for every host call.
    pub fn cancel_task(&mut self, task_id: &str, context: Option<&str>, message: Option<&str>) -> Result<Task, HostError> {
        self.engine.cancel_for(task_id, context, message)
    }

    /// The context of a live task, whichever it is (host-side: never answer a
    /// peer with it). `None` when no live task has this ID. A host that acts on
    /// a task for itself (not for a peer) looks its context up here, then calls
    /// the context-scoped methods with it.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TaskBinding, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let mut store = engine.sdk_store();
    /// let task = store.create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Ms(100), None, None).unwrap();
    /// assert_eq!(store.task_context(&task.task_id), Some(TaskBinding::Context("alice".to_owned())));
    /// assert_eq!(store.task_context("nope"), None);
    /// let mine = store.create_task(None, RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    /// assert_eq!(store.task_context(&mine.task_id), Some(TaskBinding::Unbound));
    /// ```
    pub fn task_context(&mut self, task_id: &str) -> Option<TaskBinding> {
        self.engine.held(task_id).map(|t| TaskBinding::from_context(t.context()).map(str::to_owned))
    }

    /// SDK `updateTaskStatus`: moves a task of `context`. `completed` and
    /// `failed` end it without a stored outcome (use
    /// [`store_task_result`](Self::store_task_result) to keep one); `cancelled`
    /// cancels it. The same status again only updates the status message;
    /// without a (non-empty) `message`, a move between `working` and
    /// `input_required` keeps the current one. Any move out of a terminal
    /// status is refused, a cancelled task's included.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let mut store = engine.sdk_store();
    /// let id = store.create_task(Some("a"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap().task_id;
    /// store.update_task_status(&id, Some("a"), "input_required", Some("need a city")).unwrap();
    /// store.update_task_status(&id, Some("a"), "working", None).unwrap();
    /// assert_eq!(store.get_task(&id, Some("a")).unwrap().status_message.as_deref(), Some("need a city"));
    /// store.update_task_status(&id, Some("a"), "cancelled", None).unwrap();
    /// let err = store.update_task_status(&id, Some("a"), "working", None).unwrap_err();
    /// assert_eq!(err.message, format!("Cannot update task {id} from terminal status 'cancelled' to 'working'"));
    /// ```
    pub fn update_task_status(
        &mut self,
        task_id: &str,
        context: Option<&str>,
        status: &str,
        message: Option<&str>,
    ) -> Result<(), StoreError> {
        let given = message.filter(|m| !m.is_empty());
        let Some(t) = self.engine.visible(task_id, context) else { return Err(StoreError::not_found(task_id)) };
        let current = t.status;
        let kept = t.status_message.as_deref().map(str::to_owned);
        let to = TaskStatus::parse(status).ok_or_else(|| StoreError::invalid(format!("Unknown task status '{status}'")))?;
        if current.is_terminal() {
            return Err(StoreError::terminal(task_id, current, status));
        }
        if to == current {
            self.engine.set_status_message(task_id, given.map(str::to_owned).or(kept).as_deref())?;
        } else {
            let message = given.map(str::to_owned).or_else(|| if to.is_terminal() { None } else { kept });
            self.engine.set_status(task_id, to, message.as_deref())?;
        }
        Ok(())
    }

    /// SDK `storeTaskResult`: ends a task of `context` with `status`
    /// (`completed` or `failed`, which the host judges: a result stored as
    /// `failed` fails the task) and its outcome: a result object, or a JSON-RPC
    /// error object (only with `failed`) that `tasks/result` replays.
    pub fn store_task_result(&mut self, task_id: &str, context: Option<&str>, status: &str, outcome: Outcome) -> Result<(), StoreError> {
        if self.engine.visible(task_id, context).is_none() {
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
            Outcome::Error(json) => self.engine.end_with_error(task_id, json).map_err(StoreError::from),
            Outcome::Result(json) => self.engine.end_with_result(task_id, status, json).map_err(StoreError::from),
        }
    }

    /// SDK `getTaskResult`: the stored outcome of a task of `context`, borrowed
    /// from the engine (a host hands its text on without a copy); refused
    /// (`no_result`, -32603) while it runs or when it was cancelled. Takes the
    /// view, so the outcome lives as long as the engine's borrow.
    ///
    /// ```
    /// use mcp_task_core::{Engine, Outcome, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let task = engine.sdk_store().create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    /// assert_eq!(engine.sdk_store().get_task_result(&task.task_id, Some("alice")).unwrap_err().code, "no_result");
    /// let result = Outcome::Result(r#"{"content":[]}"#.into());
    /// engine.sdk_store().store_task_result(&task.task_id, Some("alice"), "completed", result.clone()).unwrap();
    /// assert_eq!(engine.sdk_store().get_task_result(&task.task_id, Some("alice")), Ok(&result));
    /// assert_eq!(engine.sdk_store().get_task_result(&task.task_id, Some("bob")).unwrap_err().code, "unknown_task");
    /// ```
    pub fn get_task_result(self, task_id: &str, context: Option<&str>) -> Result<&'e Outcome, StoreError> {
        match self.engine.visible(task_id, context) {
            Some(t) => t.outcome.as_ref().ok_or_else(|| StoreError::no_result(task_id, t.status)),
            None => Err(StoreError::not_found(task_id)),
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
    /// let mut store = engine.sdk_store();
    /// let ping = r#"{"type":"request","message":{"jsonrpc":"2.0","id":0,"method":"ping"},"timestamp":0}"#;
    /// store.enqueue_message("t1", Some(TaskBinding::Context("a")), ping, None).unwrap();
    /// assert_eq!(store.enqueue_message("t1", Some(TaskBinding::Context("b")), ping, None).unwrap_err().code, "unknown_task");
    /// assert!(store.dequeue_messages("t1", Some("b"), true).is_empty());
    /// assert_eq!(store.dequeue_messages("t1", Some("a"), false), vec![ping.to_owned()]);
    /// ```
    pub fn enqueue_message(
        &mut self,
        task_id: &str,
        context: Option<TaskBinding<&str>>,
        message_json: &str,
        max_size: Option<usize>,
    ) -> Result<(), StoreError> {
        let bad = || StoreError::invalid("A queued message must be an object with type 'request', 'notification', 'response' or 'error'");
        if first_byte(message_json) != Some(b'{') {
            return Err(bad());
        }
        let [kind] = Json::parse(message_json).ok().and_then(|m| members(m, ["type"]).ok()).ok_or_else(bad)?;
        if !matches!(kind.map(Json::get), Some(r#""request""# | r#""notification""# | r#""response""# | r#""error""#)) {
            return Err(bad());
        }
        let configured = self.engine.config().limits.max_queued_messages_per_task;
        let limit = max_size.map_or(configured, |m| m.min(configured));
        match self.engine.enqueue_message(task_id, context.map(TaskBinding::context), message_json, limit) {
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
        self.engine.dequeue_messages(task_id, context, all)
    }

    /// Messages queued for one task, or for every task.
    pub fn queued_message_count(&self, task_id: Option<&str>) -> usize {
        self.engine.queued_message_count(task_id)
    }

    /// Drops every queued message of every task.
    pub fn clear_messages(&mut self) {
        self.engine.clear_messages();
    }
}
