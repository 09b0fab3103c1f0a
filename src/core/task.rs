//! What a task is: its public snapshot and its stored outcome.

use super::status::TaskStatus;

/// A snapshot of one task, as `tasks/get` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// The receiver-generated identifier.
    pub task_id: String,
    /// Current status.
    pub status: TaskStatus,
    /// Optional human-readable description of the current status.
    pub status_message: Option<String>,
    /// Creation time, epoch milliseconds.
    pub created_at_ms: u64,
    /// Time of the last status change, epoch milliseconds.
    pub last_updated_at_ms: u64,
    /// Granted retention from creation in milliseconds; `None` is unlimited.
    pub ttl_ms: Option<u64>,
    /// Suggested polling interval in milliseconds.
    pub poll_interval_ms: Option<u64>,
}

/// The kind of request a task wraps. It decides how a result is judged:
/// a `tools/call` result with `isError: true` fails the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestKind {
    /// `tools/call` (server-side tasks).
    ToolsCall,
    /// `sampling/createMessage` (client-side tasks).
    SamplingCreateMessage,
    /// `elicitation/create` (client-side tasks).
    ElicitationCreate,
    /// Any other request a host chose to run as a task through the store API.
    Other,
}

impl RequestKind {
    /// The JSON-RPC method of this kind, if it is one the spec names.
    pub fn method(self) -> Option<&'static str> {
        match self {
            RequestKind::ToolsCall => Some("tools/call"),
            RequestKind::SamplingCreateMessage => Some("sampling/createMessage"),
            RequestKind::ElicitationCreate => Some("elicitation/create"),
            RequestKind::Other => None,
        }
    }

    /// The kind for a JSON-RPC method name.
    pub fn from_method(method: &str) -> RequestKind {
        match method {
            "tools/call" => RequestKind::ToolsCall,
            "sampling/createMessage" => RequestKind::SamplingCreateMessage,
            "elicitation/create" => RequestKind::ElicitationCreate,
            _ => RequestKind::Other,
        }
    }
}

/// What the underlying request returned, kept as the raw JSON text it arrived in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A JSON-RPC result object (e.g. a `CallToolResult`).
    Result(String),
    /// A JSON-RPC error object `{code, message, data?}`.
    Error(String),
}

impl Outcome {
    /// The raw JSON text.
    pub fn json(&self) -> &str {
        match self {
            Outcome::Result(s) | Outcome::Error(s) => s,
        }
    }
}

/// A borrowed view of a task, for writing it out without copying.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskView<'a> {
    pub id: &'a str,
    pub status: TaskStatus,
    pub status_message: Option<&'a str>,
    pub created_at: u64,
    pub updated_at: u64,
    pub ttl: Option<u64>,
    pub poll_interval: Option<u64>,
}

impl<'a> From<&'a Task> for TaskView<'a> {
    fn from(t: &'a Task) -> Self {
        TaskView {
            id: &t.task_id,
            status: t.status,
            status_message: t.status_message.as_deref(),
            created_at: t.created_at_ms,
            updated_at: t.last_updated_at_ms,
            ttl: t.ttl_ms,
            poll_interval: t.poll_interval_ms,
        }
    }
}
