//! The codecs from the requestor's side: the requests a requestor writes and
//! the answers it reads, per dialect. The requestor names no dialect module:
//! it asks [`requestor_codec`] and the rules on [`Dialect`].

use super::{extension, legacy, Dialect};
use serde_json::{Map, Value};

/// The client's declaration as 2026-07-28 requests put it in `_meta`,
/// serialized once (2025-11-25 declares in `initialize` only, and ignores it).
#[derive(Debug)]
pub(crate) struct Declaration {
    /// `clientCapabilities` as configured (a plain call: it asks for no task).
    pub(super) capabilities: String,
    /// `clientCapabilities` with the tasks extension (task calls and `tasks/*`).
    pub(super) with_extension: String,
    /// `clientInfo`, when configured.
    pub(super) info: Option<String>,
}

impl Declaration {
    /// `capabilities`: the client's `ClientCapabilities`; `info`: its `Implementation`.
    pub fn new(capabilities: &Map<String, Value>, info: Option<&Map<String, Value>>) -> Self {
        let capabilities = Value::Object(capabilities.clone());
        Declaration {
            capabilities: capabilities.to_string(),
            with_extension: extension::with_extension(capabilities).to_string(),
            info: info.map(|info| Value::Object(info.clone()).to_string()),
        }
    }
}

/// How the host's answer to an input request goes back to the receiver.
pub(crate) enum InputAnswer {
    /// A JSON-RPC response to send as it is (2025-11-25: the request came on `tasks/result`).
    Response(String),
    /// A `tasks/update` with these params, answering `inputRequests` key `key` (tasks extension).
    Update { key: String, params: String },
}

/// A task as a `tasks/get` result carries it: the `Task` object, and what the
/// dialect inlines beside it (the outcome, or the outstanding input requests).
pub(crate) struct ReadTask {
    /// The task's members, without `_meta` or anything inlined.
    pub task: Value,
    pub result: Option<Value>,
    pub error: Option<Value>,
    /// `inputRequests`, as sent.
    pub inputs: Option<Value>,
}

/// One dialect as a requestor speaks it.
pub(crate) trait RequestorCodec {
    /// `params` (an object) of a call, asking for a task (`Some(ttl_ms)`, the
    /// TTL where the dialect takes one) or not; `Err` says what is wrong with `params`.
    fn call_params(&self, params: &str, task: Option<Option<u64>>, declaration: &Declaration) -> Result<String, &'static str>;
    /// `params` of a request about a task (`tasks/get`, `tasks/cancel`), with
    /// what the dialect adds to every request.
    fn task_params(&self, params: String, declaration: &Declaration) -> String;
    /// The answer to the receiver's input request `request_id` (raw JSON) for
    /// `task_id`; `None` when `result` cannot carry what the dialect adds to it.
    fn input_answer(&self, request_id: &str, task_id: &str, result: &str, declaration: &Declaration) -> Option<InputAnswer>;
    /// The task a call's result hands out, when the result is a `CreateTaskResult`.
    fn created_task(&self, result: &Value) -> Option<Value>;
    /// A `tasks/get` result (or a pushed task) taken apart.
    fn read_task(&self, task: Value) -> ReadTask;
}

/// The requestor's codec of a dialect.
pub(crate) fn requestor_codec(dialect: Dialect) -> &'static dyn RequestorCodec {
    match dialect {
        Dialect::Legacy => &legacy::Legacy,
        Dialect::Extension => &extension::Extension,
    }
}

impl Dialect {
    /// The dialect a receiver offers in its `server/discover` or `initialize`
    /// result (JSON text): the tasks extension when its `capabilities.extensions`
    /// lists it, else 2025-11-25.
    pub(crate) fn offered_by(server_info: &str) -> Dialect {
        if extension::offered_by(server_info) {
            Dialect::Extension
        } else {
            Dialect::Legacy
        }
    }

    /// Whether a task's outcome and status come inlined in `tasks/get`
    /// (tasks extension: its `tasks/cancel` only acknowledges) rather than
    /// from `tasks/result` and the `Task` objects answers carry (2025-11-25).
    pub(crate) fn inlines_outcome(self) -> bool {
        !self.serves("tasks/result")
    }

    /// Whether the receiver decides which calls become tasks (tasks extension:
    /// only a `tools/call`, and it may run it plainly to its end) rather than
    /// the requestor asking for one in `params.task` (2025-11-25).
    pub(crate) fn receiver_decides(self) -> bool {
        self == Dialect::Extension
    }
}
