//! Request shapes both dialects read or write, so neither borrows from the other.

use super::jsonrpc::{json_string, push_json_string};

/// What a requestor asked for in `params.task.ttl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TtlRequest {
    /// No `ttl`: the policy's default.
    Default,
    /// `ttl: null`: unlimited, if the policy allows it.
    Unlimited,
    /// A number of milliseconds.
    Ms(u64),
}

/// One outstanding server-to-client request of a task: its key and its
/// `{"method", "params"}` object.
pub(crate) struct InputRequest<'a> {
    pub key: &'a str,
    pub request: &'a str,
}

/// `_meta` key that ties a message to its task.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// `{"taskId": "..."}`, the value of the related-task `_meta` entry.
pub(crate) fn related_task_value(task_id: &str) -> String {
    let mut out = String::with_capacity(task_id.len() + 13);
    out.push_str("{\"taskId\":");
    push_json_string(&mut out, task_id);
    out.push('}');
    out
}

/// `_meta["io.modelcontextprotocol/related-task"].taskId` of a params or result object.
#[cfg(feature = "requestor")]
pub(crate) fn related_task_id(object: &serde_json::Value) -> Option<&str> {
    object.get("_meta")?.get(RELATED_TASK)?.get("taskId")?.as_str()
}

/// A request for the client as a task keeps it: `{"method", "params"}` (the
/// tasks extension lists it in `inputRequests` as it is).
pub(crate) fn input_request(method: &str, params: &str) -> String {
    format!("{{\"method\":{},\"params\":{}}}", json_string(method), params)
}
