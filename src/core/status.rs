//! The task status state machine of the spec.

use std::fmt;

/// The status of a task.
///
/// ```text
/// working ──► input_required ──► working
///    │              │
///    └──────┬───────┘
///           ▼
///  completed | failed | cancelled   (terminal: never change again)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// The request is being processed.
    Working,
    /// The receiver needs input from the requestor (via `tasks/result`).
    InputRequired,
    /// The request finished and its result is stored.
    Completed,
    /// The request did not succeed (a JSON-RPC error, or a tool result with `isError: true`).
    Failed,
    /// The request was cancelled before it finished.
    Cancelled,
}

impl TaskStatus {
    /// The wire name (`"working"`, `"input_required"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Option<TaskStatus> {
        Some(match name {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }

    /// `completed`, `failed` and `cancelled` are terminal.
    pub fn is_terminal(self) -> bool {
        matches!(self, TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled)
    }

    /// Whether the spec allows moving from `self` to `to`.
    ///
    /// ```
    /// use mcp_task_core::TaskStatus::*;
    /// assert!(Working.can_move_to(InputRequired));
    /// assert!(InputRequired.can_move_to(Working));
    /// assert!(!Completed.can_move_to(Working));
    /// assert!(!Working.can_move_to(Working));
    /// ```
    pub fn can_move_to(self, to: TaskStatus) -> bool {
        match self {
            TaskStatus::Working => to != TaskStatus::Working,
            TaskStatus::InputRequired => to != TaskStatus::InputRequired,
            _ => false,
        }
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
