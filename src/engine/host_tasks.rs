//! Tasks a host creates and reads for a context itself, not through the wire:
//! the primitives the SDK store façade ([`crate::sdk_store`]) is built on. Same
//! rules as the wire: context-scoped, expired tasks invisible, cursors checked.

use super::channel::EnqueueRefusal;
use super::peer::Creation;
use super::Engine;
use crate::core::table::{CreateRefusal, Lookup, TaskRecord};
use crate::core::{RequestKind, Task, TaskStatus};
use crate::error::HostError;
use crate::protocol::Dialect;
use crate::protocol::TtlRequest;

impl Engine {
    /// Creates a task in `working` for a request the host runs itself, with the
    /// TTL policy applied; returns its ID. `poll_interval_ms`: `None` for the
    /// configured interval, `Some(None)` for none. No `Execute` event is emitted.
    /// Answers the task as it is at its creation (no clock read after it: a TTL
    /// of 0 has already run out).
    pub(crate) fn create_host_task(
        &mut self,
        context: Option<&str>,
        kind: RequestKind,
        ttl: TtlRequest,
        progress_token: Option<&str>,
        poll_interval_ms: Option<Option<u64>>,
    ) -> Result<Task, HostError> {
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
        let poll_interval = poll_interval_ms.unwrap_or(self.config.poll_interval_ms);
        let request = Creation { kind, ttl, progress_token: token, poll_interval, dialect: Dialect::Legacy, input_capabilities };
        match self.create(context, None, request, now) {
            Ok(id) => self.table.get(&id).map(TaskRecord::snapshot).ok_or(HostError::UnknownTask { task_id: id }),
            Err(CreateRefusal::Quota(refusal)) => Err(HostError::LimitExceeded { message: refusal.message() }),
            Err(CreateRefusal::EmptyId | CreateRefusal::DuplicateId) => Err(HostError::DuplicateId { task_id: String::new() }),
        }
    }

    /// A task as `context` may see it: `None` when unknown, expired or another context's.
    pub(crate) fn visible(&mut self, task_id: &str, context: Option<&str>) -> Option<&TaskRecord> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Some(t),
            _ => None,
        }
    }

    /// A live task in any context (host-side: the host owns every task; never
    /// answer a peer with it).
    pub(crate) fn held(&mut self, task_id: &str) -> Option<&TaskRecord> {
        self.tick();
        self.table.get(task_id)
    }

    /// One page of `context`'s tasks and the cursor of the next. Refused without a context.
    pub(crate) fn task_page(&mut self, context: Option<&str>, cursor: Option<&str>) -> Result<(Vec<Task>, Option<String>), HostError> {
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
        Ok((page.iter().map(|t| t.snapshot()).collect(), next.map(|seq| self.cursors.encode(context, seq))))
    }

    /// Cancels a task on behalf of `context` (the store-level `tasks/cancel`).
    /// A task already cancelled is `TaskCancelled`, as for every host call.
    pub(crate) fn cancel_for(&mut self, task_id: &str, context: Option<&str>, message: Option<&str>) -> Result<Task, HostError> {
        let now = self.tick();
        if !matches!(self.table.lookup(task_id, context, now), Lookup::Found(_)) {
            return Err(HostError::UnknownTask { task_id: task_id.to_owned() });
        }
        self.running(task_id)?;
        self.cancel_now(task_id, message, now).map(|t| t.snapshot())
    }

    /// Moves a task to another status directly, as stores driven by an SDK do:
    /// `completed` and `failed` end it without a stored outcome.
    pub(crate) fn set_status(&mut self, task_id: &str, status: TaskStatus, message: Option<&str>) -> Result<(), HostError> {
        let now = self.tick();
        if status == TaskStatus::Cancelled {
            return self.cancel_now(task_id, message, now).map(|_| ());
        }
        let message = Some(message.map(str::to_owned));
        self.move_task(task_id, status, message, None, now).map_err(|r| super::host::refusal(task_id, r))?;
        if status.is_terminal() {
            self.after_terminal(task_id);
        } else {
            self.notify_status(task_id);
        }
        Ok(())
    }

    /// Ends a task with a result (kept as given, no copy) and the host's own terminal status.
    pub(crate) fn end_with_result(&mut self, task_id: &str, status: TaskStatus, result_json: String) -> Result<(), HostError> {
        self.complete_in_place(task_id, result_json, Some(status))
    }

    /// Queues a message for a task's requestor on its channel (see [`crate::sdk_store`]).
    pub(crate) fn enqueue_message(
        &mut self,
        task_id: &str,
        named: Option<Option<&str>>,
        message_json: &str,
        limit: usize,
    ) -> Result<(), EnqueueRefusal> {
        self.tick();
        let owner = self.table.get(task_id).map(|t| t.context());
        self.channels.enqueue_message(task_id, owner, named, message_json.to_owned(), limit)
    }

    /// Takes the oldest (`all`: every) queued message of a task, if `context` may read them.
    pub(crate) fn dequeue_messages(&mut self, task_id: &str, context: Option<&str>, all: bool) -> Vec<String> {
        self.tick();
        let owner = self.table.get(task_id).map(|t| t.context());
        self.channels.dequeue_messages(task_id, owner, context, all)
    }

    /// Messages queued for one task, or for every task.
    pub(crate) fn queued_message_count(&self, task_id: Option<&str>) -> usize {
        self.channels.message_count(task_id)
    }

    /// Drops every queued message of every task.
    pub(crate) fn clear_messages(&mut self) {
        self.channels.drop_messages(None);
    }

    /// How many live tasks the engine holds.
    pub fn task_count(&self) -> usize {
        self.table.len()
    }

    /// A figure for a dashboard: `0`-`4` the live tasks held with that status (in the order of
    /// [`TaskStatus`](crate::TaskStatus): working, input_required, completed, failed,
    /// cancelled), `5` the tasks failed here since start because their lease ran out.
    pub fn figure(&self, which: u32) -> u32 {
        if which == 5 {
            return self.lease_failures;
        }
        self.table.iter().filter(|t| t.status as u32 == which).count() as u32
    }
}
