//! Whether to turn a request into a task, from the receiver's declared
//! capabilities and (for `tools/call`) the tool's `execution.taskSupport`.

use crate::core::TaskSupport;
use serde_json::Value;

/// The answer of [`should_augment`], with the reason in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Send the request with a `task` field.
    pub augment: bool,
    /// Why, for logs and UIs.
    pub reason: &'static str,
}

fn declared(capabilities: &Value, method: &str) -> bool {
    let Some((group, name)) = method.split_once('/') else { return false };
    capabilities
        .get("tasks")
        .and_then(|t| t.get("requests"))
        .and_then(|r| r.get(group))
        .and_then(|g| g.get(name))
        .is_some_and(Value::is_object)
}

/// Decides whether to augment `method` with a task.
///
/// `capabilities` is the receiver's capabilities object from `initialize`
/// (JSON text); `task_support` is the tool's `execution.taskSupport` from
/// `tools/list` (parse it with [`TaskSupport::parse`]; absent is
/// [`TaskSupport::Absent`]); `prefer_task` is the host's wish where the
/// receiver leaves the choice open.
///
/// ```
/// use mcp_task_core::{should_augment, TaskSupport};
/// let caps = r#"{"tasks":{"requests":{"tools":{"call":{}}}}}"#;
/// assert!(should_augment(caps, "tools/call", TaskSupport::Required, false).augment);
/// assert!(!should_augment(caps, "tools/call", TaskSupport::Absent, true).augment);
/// assert!(!should_augment("{}", "tools/call", TaskSupport::Required, true).augment);
/// ```
pub fn should_augment(capabilities: &str, method: &str, task_support: TaskSupport, prefer_task: bool) -> Decision {
    let caps: Value = serde_json::from_str(capabilities).unwrap_or(Value::Null);
    if caps.get("tasks").is_none_or(|t| !t.is_object()) {
        return Decision { augment: false, reason: "the receiver declares no tasks capability" };
    }
    if !declared(&caps, method) {
        return Decision { augment: false, reason: "the receiver does not declare task support for this request type" };
    }
    if method == "tools/call" {
        return match task_support {
            TaskSupport::Required => Decision { augment: true, reason: "the tool requires task-augmented execution" },
            TaskSupport::Optional | TaskSupport::PerCall if prefer_task => {
                Decision { augment: true, reason: "the tool allows tasks and the host prefers one" }
            }
            TaskSupport::Optional | TaskSupport::PerCall => {
                Decision { augment: false, reason: "the tool allows tasks but the host prefers a plain call" }
            }
            TaskSupport::Absent | TaskSupport::Forbidden => {
                Decision { augment: false, reason: "the tool forbids task-augmented execution (taskSupport absent or \"forbidden\")" }
            }
        };
    }
    if prefer_task {
        Decision { augment: true, reason: "the receiver supports tasks for this request type and the host prefers one" }
    } else {
        Decision { augment: false, reason: "the receiver supports tasks for this request type but the host prefers a plain request" }
    }
}
