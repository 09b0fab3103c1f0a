//! The engine as a task store: typed calls for hosts (such as SDK adapters)
//! that route JSON-RPC themselves. Same rules as the wire: context-scoped,
//! expired tasks invisible, cursors checked.

use super::peer::Creation;
use super::Engine;
use crate::core::table::{CreateRefusal, Lookup};
use crate::core::{Outcome, RequestKind, Task, TaskStatus};
use crate::error::HostError;
use crate::protocol::legacy::{self, TtlRequest};
use crate::protocol::Dialect;

/// One page of [`Engine::list_tasks`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPage {
    /// Tasks in creation order.
    pub tasks: Vec<Task>,
    /// Pass back to get the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

impl Engine {
    /// Creates a task in `working` for a request the host runs itself, with the
    /// TTL policy applied. No [`Execute`](crate::Event::Execute) event is emitted.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TtlRequest};
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
        let now = self.tick();
        // The token is pasted into notifications/progress as raw JSON: only a JSON string
        // or integer (what MCP allows) may pass.
        if let Some(token) = progress_token {
            let valid = serde_json::from_str::<serde_json::Value>(token).is_ok_and(|v| v.is_string() || v.is_i64() || v.is_u64());
            if !valid {
                return Err(HostError::invalid(
                    "progressToken must be raw JSON of a string or an integer, e.g. \"\\\"tok-1\\\"\" or \"7\"",
                ));
            }
        }
        let token = progress_token.map(str::to_owned);
        let request = Creation { kind, ttl, progress_token: token, poll_interval: poll_interval_ms, dialect: Dialect::Legacy };
        match self.create(context, request, now) {
            Ok(id) => self.table.get(&id).map(|t| t.snapshot()).ok_or(HostError::UnknownTask { task_id: id }),
            Err(CreateRefusal::ContextFull { limit }) => {
                Err(HostError::LimitExceeded { message: format!("Too many live tasks for this context (limit {limit})") })
            }
            Err(CreateRefusal::TableFull { limit }) => {
                Err(HostError::LimitExceeded { message: format!("The engine holds its maximum of {limit} live tasks") })
            }
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

    /// The wire `Task` JSON of a task as `context` may see it.
    pub fn get_task_json(&mut self, task_id: &str, context: Option<&str>) -> Option<String> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Some(legacy::task_json(t.view())),
            _ => None,
        }
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
    pub fn cancel_task(&mut self, task_id: &str, context: Option<&str>, status_message: Option<&str>) -> Result<Task, HostError> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) if t.status.is_terminal() => Err(HostError::AlreadyTerminal { task_id: task_id.to_owned(), status: t.status }),
            Lookup::Found(_) => self.cancel_now(task_id, status_message, now).map(|t| t.snapshot()),
            _ => Err(HostError::UnknownTask { task_id: task_id.to_owned() }),
        }
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
    /// live task has this ID; `Some(None)` for a task created without a context.
    /// A host that acts on a task for itself (not for a peer) looks its context up
    /// here, then calls the context-scoped store methods with it.
    ///
    /// ```
    /// use mcp_task_core::{Engine, RequestKind, TtlRequest};
    /// let mut engine = Engine::new(Default::default());
    /// let task = engine.create_task(Some("alice"), RequestKind::ToolsCall, TtlRequest::Ms(100), None).unwrap();
    /// assert_eq!(engine.task_context(&task.task_id), Some(Some("alice".to_owned())));
    /// assert_eq!(engine.task_context("nope"), None);
    /// let mine = engine.create_task(None, RequestKind::ToolsCall, TtlRequest::Default, None).unwrap();
    /// assert_eq!(engine.task_context(&mine.task_id), Some(None));
    /// ```
    pub fn task_context(&mut self, task_id: &str) -> Option<Option<String>> {
        self.tick();
        self.table.get(task_id).map(|t| t.context().map(str::to_owned))
    }

    /// How many live tasks the engine holds.
    pub fn task_count(&self) -> usize {
        self.table.len()
    }

    /// The kind of request a live task wraps.
    pub fn task_kind(&self, task_id: &str) -> Option<RequestKind> {
        self.table.get(task_id).map(|t| t.kind)
    }
}
