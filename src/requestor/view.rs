//! The requestor's typed view of a receiver's task.

use crate::core::TaskStatus;
use serde_json::Value;

/// A task as the receiver last described it, read from its `Task` object in
/// either dialect (`ttl`/`pollInterval` of 2025-11-25, `ttlMs`/`pollIntervalMs`
/// of the tasks extension). Timestamps stay the receiver's ISO 8601 text.
///
/// ```
/// use mcp_task_core::{TaskStatus, TaskView};
/// let json = r#"{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null,"pollInterval":500}"#;
/// let task = TaskView::from_json(json).unwrap();
/// assert_eq!((task.task_id.as_str(), task.status), ("t1", TaskStatus::Working));
/// assert_eq!((task.ttl_ms, task.poll_interval_ms), (None, Some(500)));
/// assert_eq!(task.json(), json);
/// assert!(TaskView::from_json(r#"{"taskId":"t1","status":"sleeping"}"#).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskView {
    /// The receiver-generated identifier.
    pub task_id: String,
    /// Current status.
    pub status: TaskStatus,
    /// Human-readable description of the current status, if any.
    pub status_message: Option<String>,
    /// `createdAt`, as the receiver wrote it.
    pub created_at: Option<String>,
    /// `lastUpdatedAt`, as the receiver wrote it.
    pub last_updated_at: Option<String>,
    /// Retention from creation in ms; `None` when unlimited or not given.
    pub ttl_ms: Option<u64>,
    /// The receiver's suggested polling interval in ms.
    pub poll_interval_ms: Option<u64>,
    json: String,
}

impl TaskView {
    /// Reads a `Task` object; `None` unless it has a string `taskId` and a known `status`.
    pub fn from_json(json: &str) -> Option<TaskView> {
        let value: Value = serde_json::from_str(json).ok()?;
        let mut view = TaskView::from_value(&value)?;
        json.clone_into(&mut view.json);
        Some(view)
    }

    pub(crate) fn from_value(task: &Value) -> Option<TaskView> {
        let text = |key: &str| task.get(key).and_then(Value::as_str).map(str::to_owned);
        let number = |keys: [&str; 2]| keys.iter().find_map(|k| task.get(*k)).and_then(Value::as_u64);
        Some(TaskView {
            task_id: text("taskId")?,
            status: task.get("status").and_then(Value::as_str).and_then(TaskStatus::parse)?,
            status_message: text("statusMessage"),
            created_at: text("createdAt"),
            last_updated_at: text("lastUpdatedAt"),
            ttl_ms: number(["ttl", "ttlMs"]),
            poll_interval_ms: number(["pollInterval", "pollIntervalMs"]),
            json: task.to_string(),
        })
    }

    /// The `Task` object as JSON text (the receiver's, without `_meta`).
    pub fn json(&self) -> &str {
        &self.json
    }
}
