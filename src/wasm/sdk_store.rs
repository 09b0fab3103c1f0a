//! The SDK 1.x `TaskStore` and `TaskMessageQueue` calls of [`TaskEngine`]
//! (used by `mcp-task-core/sdk`): the engine's store rules, errors with their
//! JSON-RPC code.

use super::{opt_string_arg, rpc_error, set, string_arg, type_error_message, TaskEngine};
use crate::{Outcome, StoreError};
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

fn store_error(e: StoreError) -> JsValue {
    rpc_error(e.code, e.rpc_code, &e.message)
}

/// A task ID argument; anything else names no task (the SDK store's "not found").
fn task_id_arg(value: &JsValue) -> String {
    // JSON.stringify, not Rust's float formatting (which would grow the wasm), for numbers.
    value
        .as_string()
        .or_else(|| js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| value.js_typeof().as_string().unwrap_or_default())
}

impl TaskEngine {
    /// A task ID and a context (`null` or `undefined`: none) through the reused argument
    /// buffer, and the engine once the clock has been read for this call.
    fn task_and_context(&mut self, task_id: &JsValue, context: &JsValue) -> Result<(&mut crate::Engine, &str, Option<&str>), JsValue> {
        let (task_id, context) = self.text_args((task_id, "taskId"), (context, "context", "a string, null or undefined"))?;
        self.clock.read()?;
        let args = &self.args;
        Ok((&mut self.engine, args.text(task_id), context.map(|c| args.text(c))))
    }
}

fn outcome_object(outcome: Outcome) -> JsValue {
    let obj = Object::new();
    let (kind, json) = match outcome {
        Outcome::Result(json) => ("result", json),
        Outcome::Error(json) => ("error", json),
    };
    set(&obj, "kind", kind);
    set(&obj, "json", json);
    obj.into()
}

/// A `number | null | undefined` cap: `None` for no cap (also `Infinity`).
fn opt_cap(value: &JsValue, name: &str) -> Result<Option<usize>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n == f64::INFINITY => Ok(None),
        Some(n) if n >= 0.0 => Ok(Some(n.floor().min(usize::MAX as f64) as usize)),
        _ => Err(super::type_error(name, "a non-negative number, null or undefined", value)),
    }
}

#[wasm_bindgen(js_class = TextTaskEngine)]
impl TaskEngine {
    /// SDK store: `updateTaskStatus` for a task of `context` (same status: message only; a
    /// move without a message keeps the current one; no move out of a terminal status).
    #[wasm_bindgen(js_name = updateTaskStatus)]
    pub fn update_task_status(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] status: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] message: JsValue,
    ) -> Result<(), JsValue> {
        let (context, status) = (opt_string_arg(&context, "context")?, string_arg(&status, "status")?);
        let message = opt_string_arg(&message, "message")?;
        self.engine()?.update_task_status(&task_id_arg(&task_id), context.as_deref(), &status, message.as_deref()).map_err(store_error)
    }

    /// SDK store: `storeTaskResult` for a task of `context`: `{kind: "result" | "error", json}`.
    #[wasm_bindgen(js_name = storeTaskResult)]
    pub fn store_task_result(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] status: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TaskOutcome")] outcome: JsValue,
    ) -> Result<(), JsValue> {
        let (context, status) = (opt_string_arg(&context, "context")?, string_arg(&status, "status")?);
        let kind = Reflect::get(&outcome, &"kind".into()).unwrap_or(JsValue::UNDEFINED);
        let json = string_arg(&Reflect::get(&outcome, &"json".into()).unwrap_or(JsValue::UNDEFINED), "outcome.json")?;
        let outcome = match kind.as_string().as_deref() {
            Some("result") => Outcome::Result(json),
            Some("error") => Outcome::Error(json),
            _ => return Err(super::type_error("outcome.kind", "\"result\" or \"error\"", &kind)),
        };
        self.engine()?.store_task_result(&task_id_arg(&task_id), context.as_deref(), &status, outcome).map_err(store_error)
    }

    /// SDK store: `getTaskResult` for a task of `context`; throws `no_result` while it has none.
    #[wasm_bindgen(js_name = getTaskResult, unchecked_return_type = "TaskOutcome")]
    pub fn get_task_result(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let context = opt_string_arg(&context, "context")?;
        self.engine()?.task_result(&task_id_arg(&task_id), context.as_deref()).map(outcome_object).map_err(store_error)
    }

    /// SDK message queue: queues a message (JSON text) for a task's requestor; `context`
    /// `null`/`undefined` names none. `maxSize` lowers the per-task limit for this call.
    #[wasm_bindgen(js_name = enqueueMessage)]
    pub fn enqueue_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] message_json: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | null")] max_size: JsValue,
    ) -> Result<(), JsValue> {
        let (task_id, message_json) = (string_arg(&task_id, "taskId")?, string_arg(&message_json, "messageJson")?);
        let context = opt_string_arg(&context, "context")?;
        let max_size = opt_cap(&max_size, "maxSize")?;
        let named = context.as_deref().map(crate::TaskBinding::Context);
        self.engine()?.enqueue_message(&task_id, named, &message_json, max_size).map_err(store_error)
    }

    /// SDK message queue: the oldest queued message (JSON text) `context` may read, or `null`.
    #[wasm_bindgen(js_name = dequeueMessage, unchecked_return_type = "string | null")]
    pub fn dequeue_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let context = opt_string_arg(&context, "context")?;
        let taken = self.engine()?.dequeue_messages(&task_id_arg(&task_id), context.as_deref(), false);
        Ok(taken.into_iter().next().map_or(JsValue::NULL, JsValue::from))
    }

    /// SDK message queue: every queued message `context` may read, as a JSON array text.
    #[wasm_bindgen(js_name = dequeueAllMessages)]
    pub fn dequeue_all_messages(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<String, JsValue> {
        let context = opt_string_arg(&context, "context")?;
        let taken = self.engine()?.dequeue_messages(&task_id_arg(&task_id), context.as_deref(), true);
        Ok(format!("[{}]", taken.join(",")))
    }

    /// SDK message queue: messages queued for one task, or for every task.
    #[wasm_bindgen(js_name = queuedMessageCount)]
    pub fn queued_message_count(&self, #[wasm_bindgen(unchecked_param_type = "string | null")] task_id: JsValue) -> usize {
        self.engine.queued_message_count(task_id.as_string().as_deref())
    }

    /// SDK message queue: drops every queued message.
    #[wasm_bindgen(js_name = clearMessages)]
    pub fn clear_messages(&mut self) {
        self.engine.clear_messages();
    }
}

/// The SDK store's hot calls, with typed string arguments: wasm-bindgen copies each straight
/// into wasm memory, where a `JsValue` costs a round trip through JS per argument. A value that
/// is not a string must never reach them (the glue does not check and the call traps), so
/// `mcp-task-core/sdk` calls them only with strings, and the checked calls above otherwise.
#[wasm_bindgen(js_class = TextTaskEngine)]
impl TaskEngine {
    /// SDK store read cache: `createTask` without a progress token, answering the new
    /// task's record (see `taskEntry`).
    #[wasm_bindgen(js_name = createTaskEntry)]
    pub fn create_task_entry(
        &mut self,
        context: Option<String>,
        method: &str,
        #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] ttl: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | null | undefined")] poll_interval_ms: JsValue,
    ) -> Result<String, JsValue> {
        let (ttl, poll_interval) = self.creation_numbers(&ttl, &poll_interval_ms)?;
        let kind = crate::RequestKind::from_method(method);
        self.engine()?.create_task_cache_entry(context.as_deref(), kind, ttl, poll_interval).map_err(super::host_error)
    }

    /// SDK store read cache: the record of a task of `context` (see
    /// `Engine::task_cache_entry`: its fields as text separated by NUL), or `null`. The answer
    /// holds while the clock is before `validUntil` (empty: always) and no call changes the
    /// task; in store mode it never does (`validUntil` is now).
    #[wasm_bindgen(js_name = taskEntry, unchecked_return_type = "string | null")]
    pub fn task_entry(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (engine, task_id, context) = self.task_and_context(&task_id, &context)?;
        Ok(engine.task_cache_entry(task_id, context).map_or(JsValue::NULL, JsValue::from))
    }

    /// SDK store: `getTaskResult`: the stored result's JSON text, or `{ error }` with the
    /// JSON-RPC error object's text for a task that failed with one. The text is read
    /// straight from the engine's copy (no wrapper built, no second copy made).
    #[wasm_bindgen(js_name = taskResultText, unchecked_return_type = "string | { error: string }")]
    pub fn task_result_text(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (engine, task_id, context) = self.task_and_context(&task_id, &context)?;
        match engine.task_result_ref(task_id, context).map_err(store_error)? {
            Outcome::Result(json) => Ok(JsValue::from_str(json)),
            Outcome::Error(json) => {
                let failed = Object::new();
                set(&failed, "error", json.as_str());
                Ok(failed.into())
            }
        }
    }

    /// SDK store: `storeTaskResult` with the outcome as UTF-8 JSON (`TextEncoder`: copied
    /// into wasm memory in one go), the result or with `isError` the JSON-RPC error object.
    /// Answers the task as it is now, as `taskEntry` would (the SDK reads it right after).
    #[wasm_bindgen(js_name = storeTaskResultUtf8)]
    pub fn store_task_result_utf8(
        &mut self,
        task_id: &str,
        context: Option<String>,
        status: &str,
        json: Vec<u8>,
        is_error: bool,
    ) -> Result<String, JsValue> {
        let json = String::from_utf8(json).map_err(|_| type_error_message("json must be UTF-8 text"))?;
        let outcome = if is_error { Outcome::Error(json) } else { Outcome::Result(json) };
        let engine = self.engine()?;
        engine.store_task_result(task_id, context.as_deref(), status, outcome).map_err(store_error)?;
        Ok(engine.cache_entry_now(task_id).unwrap_or_default())
    }

    /// SDK store: `updateTaskStatus` (see the checked call of the same rules above).
    #[wasm_bindgen(js_name = setTaskStatus)]
    pub fn set_task_status(
        &mut self,
        task_id: &str,
        context: Option<String>,
        status: &str,
        message: Option<String>,
    ) -> Result<(), JsValue> {
        self.engine()?.update_task_status(task_id, context.as_deref(), status, message.as_deref()).map_err(store_error)
    }

    /// SDK message queue: messages queued for every task (no look-up: an empty engine answers
    /// every dequeue at once).
    #[wasm_bindgen(getter, js_name = queuedMessages)]
    pub fn queued_messages(&self) -> usize {
        self.engine.queued_message_count(None)
    }
}
