//! The host's JSON of a task: what a host call that answers with a task as
//! text (`complete`, a task store lookup, the wasm classes) returns. It is the
//! host API's view of the typed task ([`Task`]), written in one place and the
//! same whatever dialect created the task; it is not a wire message, so a
//! dialect's encoding may change without moving it.
//!
//! The shape, one JSON object with these members in this order:
//!
//! | member          | value                                                        |
//! |-----------------|--------------------------------------------------------------|
//! | `taskId`        | string                                                       |
//! | `status`        | `"working"`, `"input_required"`, `"completed"`, `"failed"` or `"cancelled"`, as stored (never the extension's display status) |
//! | `statusMessage` | string; absent when there is none                           |
//! | `createdAt`     | ISO 8601 UTC text with milliseconds (`format_timestamp`)     |
//! | `lastUpdatedAt` | the same, for the last change                                |
//! | `ttl`           | retention from creation in ms, or `null` for unlimited       |
//! | `pollInterval`  | suggested polling interval in ms; absent when none           |
//!
//! The member names are those of the 2025-11-25 `Task` object, so a host reads
//! one spelling (`ttl`, not the extension's `ttlMs`).

use crate::core::{Task, TaskView};
use crate::protocol::task_members::{write_task_members, TaskKeys};

/// The names of the two members whose spelling differs between dialects.
const KEYS: TaskKeys = TaskKeys { ttl: "ttl", poll_interval: "pollInterval" };

/// The host's JSON of a task (see the module documentation for its shape).
pub(crate) fn task_json(t: TaskView<'_>) -> String {
    // Room for a task with a short status message and a response envelope
    // around it, so neither grows the buffer.
    let mut out = String::with_capacity(320);
    out.push('{');
    write_task_members(&mut out, t, t.status, &KEYS);
    out.push('}');
    out
}

impl Task {
    /// The task as the host's JSON view: `taskId`, `status`, `statusMessage`
    /// (when set), `createdAt`, `lastUpdatedAt`, `ttl` (`null`: unlimited) and
    /// `pollInterval` (when set). The same shape whatever dialect created the task.
    ///
    /// ```
    /// let task = mcp_task_core::Task {
    ///     task_id: "t1".into(), status: mcp_task_core::TaskStatus::Working, status_message: None,
    ///     created_at_ms: 0, last_updated_at_ms: 0, ttl_ms: None, poll_interval_ms: Some(500),
    /// };
    /// assert_eq!(task.to_json(), r#"{"taskId":"t1","status":"working","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.000Z","ttl":null,"pollInterval":500}"#);
    /// ```
    pub fn to_json(&self) -> String {
        task_json(TaskView::from(self))
    }
}

#[cfg(test)]
mod tests {
    use super::task_json;
    use crate::core::{TaskStatus, TaskView};

    /// Every member, in order; a task of either dialect reads the same.
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn the_host_view_has_one_shape() {
        let t = TaskView {
            id: "t\"1",
            status: TaskStatus::InputRequired,
            status_message: Some("asks"),
            created_at: 1_000,
            updated_at: 2_000,
            ttl: Some(60_000),
            poll_interval: None,
        };
        assert_eq!(
            task_json(t),
            r#"{"taskId":"t\"1","status":"input_required","statusMessage":"asks","createdAt":"1970-01-01T00:00:01.000Z","lastUpdatedAt":"1970-01-01T00:00:02.000Z","ttl":60000}"#
        );
    }
}
