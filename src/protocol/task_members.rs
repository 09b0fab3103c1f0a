//! The members of a `Task` object both dialects write: the same fields, two
//! spellings of the TTL and the poll interval.

use super::jsonrpc::{push_json_string, push_u64};
use crate::core::{TaskStatus, TaskView};
use crate::time::write_timestamp;

/// How a dialect names the two fields that differ.
pub(crate) struct TaskKeys {
    pub ttl: &'static str,
    pub poll_interval: &'static str,
}

/// Writes `"taskId":…,"status":…,…` (no braces), with `status` as shown.
pub(crate) fn write_task_members(out: &mut String, t: TaskView<'_>, status: TaskStatus, keys: &TaskKeys) {
    out.push_str("\"taskId\":");
    push_json_string(out, t.id);
    out.push_str(",\"status\":\"");
    out.push_str(status.as_str());
    out.push('"');
    if let Some(m) = t.status_message {
        out.push_str(",\"statusMessage\":");
        push_json_string(out, m);
    }
    out.push_str(",\"createdAt\":\"");
    write_timestamp(out, t.created_at);
    out.push_str("\",\"lastUpdatedAt\":\"");
    write_timestamp(out, t.updated_at);
    out.push_str("\",\"");
    out.push_str(keys.ttl);
    out.push_str("\":");
    match t.ttl {
        Some(ttl) => push_u64(out, ttl),
        None => out.push_str("null"),
    }
    if let Some(p) = t.poll_interval {
        out.push_str(",\"");
        out.push_str(keys.poll_interval);
        out.push_str("\":");
        push_u64(out, p);
    }
}
