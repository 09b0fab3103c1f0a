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

    /// Ends a task with a result and the host's own terminal status.
    pub(crate) fn end_with_result(&mut self, task_id: &str, status: TaskStatus, result_json: &str) -> Result<(), HostError> {
        self.complete_with(task_id, result_json, Some(status)).map(|_| ())
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

    /// A task as `context` may see it, as a host's read cache keeps it (see [`Self::cache_record_of`]).
    #[cfg(any(test, all(target_arch = "wasm32", feature = "receiver")))]
    pub(crate) fn cache_record(&mut self, task_id: &str, context: Option<&str>) -> Option<String> {
        let now = self.tick();
        match self.table.lookup(task_id, context, now) {
            Lookup::Found(t) => Some(self.cache_record_of(t, now)),
            _ => None,
        }
    }

    /// The cache record of task `task_id` as the last call left it (no clock read, no
    /// context check: for the answer of a call that just changed it).
    #[cfg(all(target_arch = "wasm32", feature = "receiver"))]
    pub(crate) fn cache_record_now(&self, task_id: &str) -> Option<String> {
        self.table.get(task_id).map(|t| self.cache_record_of(t, self.last_now))
    }

    /// A task as a host's read cache keeps it: its wire `Task` fields as text separated by
    /// NUL, cheaper for JavaScript to take apart than JSON. In order: `validUntil`, `ttl`,
    /// `pollInterval` (decimal; empty for null or absent), `status`, `createdAt`,
    /// `lastUpdatedAt`, the length of `taskId` in UTF-16 units, then `taskId` and, when the
    /// task has one, NUL and the status message (the rest of the text, whatever it holds).
    /// `validUntil` (epoch ms, exclusive) is when this answer stops holding without a call
    /// that changes the task: its expiry deadline, empty when it never expires. Over a
    /// storage other instances write the same tasks, so it is `now`: never reuse.
    #[cfg(any(test, all(target_arch = "wasm32", feature = "receiver")))]
    fn cache_record_of(&self, t: &TaskRecord, now: u64) -> String {
        use crate::protocol::jsonrpc::push_u64;
        let until = if self.config.storage.is_some() { Some(now) } else { t.deadline() };
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
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::{Engine, RequestKind, TtlRequest};

    /// The read-cache record: its fields, and nothing for another context.
    #[test]
    fn a_cache_record_holds_the_task_fields_separated_by_nul() {
        let mut engine = Engine::new(Default::default());
        let task = engine.sdk_store().create_task(Some("a"), RequestKind::ToolsCall, TtlRequest::Ms(5000), None, None).unwrap();
        let record = engine.cache_record(&task.task_id, Some("a")).unwrap();
        let fields: Vec<&str> = record.split('\0').collect();
        let due = task.created_at_ms + 5000;
        assert_eq!((fields[0], fields[1], fields[3]), (due.to_string().as_str(), "5000", "working"));
        assert_eq!((fields[6], fields[7], fields.len()), ("36", task.task_id.as_str(), 8));
        assert_eq!(engine.cache_record(&task.task_id, Some("b")), None);
    }
}
