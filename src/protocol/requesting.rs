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

/// A `notifications/subscriptions/acknowledged` as the requestor reads it.
pub(crate) struct Acknowledged<'a> {
    /// The subscription id: the `subscriptions/listen` request's id.
    pub subscription_id: &'a Value,
    /// The task IDs the receiver agreed to push; `None` when it left `taskIds`
    /// out (it pushes no task status on listen streams).
    pub task_ids: Option<&'a Vec<Value>>,
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
    /// `params` of a `subscriptions/listen` for the task's pushed status, or
    /// `None` where the dialect has none (2025-11-25: the receiver pushes
    /// `notifications/tasks/status` unasked).
    fn listen_params(&self, task_id: &str, declaration: &Declaration) -> Option<String>;
    /// Whether `method` is the dialect's notification pushing a task's status.
    fn pushes_task(&self, method: &str) -> bool;
    /// A listen acknowledgement, read; `None` when the notification is none.
    fn acknowledged<'a>(&self, method: &str, params: &'a Value) -> Option<Acknowledged<'a>>;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    /// 2025-11-25 asks for a task in `params.task`; the extension declares itself in `_meta`.
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn each_dialect_writes_its_own_call() {
        let info: Map<String, Value> = serde_json::from_str(r#"{"name":"c","version":"1"}"#).unwrap();
        let d = Declaration::new(&Map::new(), Some(&info));
        let legacy = requestor_codec(Dialect::Legacy);
        assert_eq!(json(&legacy.call_params(r#"{"name":"x"}"#, Some(Some(5)), &d).unwrap())["task"], json(r#"{"ttl":5}"#));
        assert_eq!(legacy.call_params(r#"{"name":"x"}"#, None, &d).unwrap(), r#"{"name":"x"}"#);
        assert_eq!(legacy.task_params(r#"{"taskId":"t"}"#.into(), &d), r#"{"taskId":"t"}"#);

        let extension = requestor_codec(Dialect::Extension);
        let task_call = json(&extension.call_params(r#"{"name":"x"}"#, Some(Some(5)), &d).unwrap());
        assert_eq!(task_call.get("task"), None, "the extension takes no TTL from the client");
        let meta = &task_call["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
        assert!(meta["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"].is_object());
        assert_eq!(meta["io.modelcontextprotocol/clientInfo"], Value::Object(info));
        let plain = json(&extension.call_params("{}", None, &d).unwrap());
        assert_eq!(plain["_meta"]["io.modelcontextprotocol/clientCapabilities"], json("{}"), "a plain call declares no extension");
        assert_eq!(extension.call_params(r#"{"_meta":1}"#, None, &d), Err("params._meta must be an object"));
    }

    /// An answer to an input request: a response tied to its task, or a `tasks/update`.
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn each_dialect_answers_input_its_own_way() {
        let d = Declaration::new(&Map::new(), None);
        let Some(InputAnswer::Response(response)) = requestor_codec(Dialect::Legacy).input_answer("7", "t1", r#"{"ok":1}"#, &d) else {
            panic!("2025-11-25 answers with a response")
        };
        let response = json(&response);
        assert_eq!((response["id"].clone(), response["result"]["ok"].clone()), (json("7"), json("1")));
        assert_eq!(super::super::shapes::related_task_id(&response["result"]), Some("t1"));
        assert!(requestor_codec(Dialect::Legacy).input_answer("7", "t1", r#"{"_meta":1}"#, &d).is_none());

        let Some(InputAnswer::Update { key, params }) = requestor_codec(Dialect::Extension).input_answer(r#""k""#, "t1", "{}", &d) else {
            panic!("the extension answers with tasks/update")
        };
        let params = json(&params);
        assert_eq!((key.as_str(), &params["taskId"], &params["inputResponses"]["k"]), ("k", &json(r#""t1""#), &json("{}")));
    }

    /// What each dialect's answers carry beside the task.
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn each_dialect_reads_its_own_answers() {
        let task = r#"{"taskId":"t","status":"completed","_meta":{}}"#;
        assert_eq!(requestor_codec(Dialect::Legacy).created_task(&json(&format!(r#"{{"task":{task}}}"#))), Some(json(task)));
        let flat = json(r#"{"resultType":"task","taskId":"t","status":"working","_meta":{}}"#);
        assert_eq!(requestor_codec(Dialect::Extension).created_task(&flat), Some(json(r#"{"taskId":"t","status":"working"}"#)));
        assert_eq!(requestor_codec(Dialect::Legacy).created_task(&flat), None);

        let detailed = json(r#"{"resultType":"complete","taskId":"t","status":"completed","result":{"x":1},"_meta":{}}"#);
        let read = requestor_codec(Dialect::Extension).read_task(detailed.clone());
        assert_eq!((read.task, read.result), (json(r#"{"taskId":"t","status":"completed"}"#), Some(json(r#"{"x":1}"#))));
        let read = requestor_codec(Dialect::Legacy).read_task(detailed);
        assert_eq!((read.task["result"].clone(), read.result), (json(r#"{"x":1}"#), None));
        assert_eq!(Dialect::offered_by(r#"{"capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#), Dialect::Extension);
        assert_eq!(Dialect::offered_by(r#"{"capabilities":{"tasks":{}}}"#), Dialect::Legacy);
    }
}
