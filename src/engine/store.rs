//! The engine as a task store: typed calls for hosts (such as SDK adapters)
//! that route JSON-RPC themselves. Same rules as the wire: context-scoped,
//! expired tasks invisible, cursors checked.

use super::Engine;
use crate::core::table::{CreateRefusal, Lookup};
use crate::core::{Outcome, RequestKind, Task};
use crate::error::HostError;
use crate::protocol::legacy::{self, TtlRequest};

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
        let now = self.tick();
        let token = progress_token.map(str::to_owned);
        match self.create(context, kind, ttl, token, now) {
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
        Ok(TaskPage {
            tasks: page.iter().map(|t| t.snapshot()).collect(),
            next_cursor: next.map(|seq| self.cursors.encode(context, seq)),
        })
    }

    /// Cancels a task on behalf of `context` (the store-level `tasks/cancel`).
    pub fn cancel_task(&mut self, task_id: &str, context: Option<&str>, status_message: Option<&str>) -> Result<Task, HostError> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) if t.status.is_terminal() => {
                Err(HostError::AlreadyTerminal { task_id: task_id.to_owned(), status: t.status })
            }
            Lookup::Found(_) => self.cancel_now(task_id, status_message, now).map(|t| t.snapshot()),
            _ => Err(HostError::UnknownTask { task_id: task_id.to_owned() }),
        }
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
