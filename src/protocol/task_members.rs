//! The members of a `Task` object both dialects write: the same fields, two
//! spellings of the TTL and the poll interval.

use super::jsonrpc::json_string;
use crate::core::{TaskStatus, TaskView};
use crate::time::format_timestamp;
use std::fmt::Write;

/// How a dialect names the two fields that differ.
pub(crate) struct TaskKeys {
    pub ttl: &'static str,
    pub poll_interval: &'static str,
}

/// Writes `"taskId":…,"status":…,…` (no braces), with `status` as shown.
pub(crate) fn write_task_members(out: &mut String, t: TaskView<'_>, status: TaskStatus, keys: &TaskKeys) {
    out.push_str("\"taskId\":");
    out.push_str(&json_string(t.id));
    out.push_str(",\"status\":\"");
    out.push_str(status.as_str());
    out.push('"');
    if let Some(m) = t.status_message {
        out.push_str(",\"statusMessage\":");
        out.push_str(&json_string(m));
    }
    let _ = write!(out, ",\"createdAt\":\"{}\"", format_timestamp(t.created_at));
    let _ = write!(out, ",\"lastUpdatedAt\":\"{}\"", format_timestamp(t.updated_at));
    match t.ttl {
        Some(ttl) => {
            let _ = write!(out, ",\"{}\":{ttl}", keys.ttl);
        }
        None => {
            let _ = write!(out, ",\"{}\":null", keys.ttl);
        }
    }
    if let Some(p) = t.poll_interval {
        let _ = write!(out, ",\"{}\":{p}", keys.poll_interval);
    }
}
