//! The SDK 1.x `TaskStore` and `TaskMessageQueue` calls of [`TextTaskEngine`]
//! (used by `mcp-task-core/sdk`) over [`crate::SdkStore`]: the SDK store's rules,
//! errors with their JSON-RPC code.

use super::{opt_string_arg, rpc_error, string_arg, type_error, TextTaskEngine};
use crate::{Outcome, StoreError};
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function taskOutcome(kind, json) {
  return { kind, json };
}
export function outcomeKind(outcome) {
  try {
    const kind = outcome.kind;
    return kind === 'result' ? 1 : kind === 'error' ? 2 : 0;
  } catch {
    return 0;
  }
}
export function outcomeJson(outcome) {
  try {
    return outcome.json;
  } catch {
    return undefined;
  }
}
")]
extern "C" {
    /// `{ kind, json }` made by one call (the text crosses borrowed, as in `outputs`).
    #[wasm_bindgen(js_name = taskOutcome)]
    fn task_outcome(kind: &str, json: &str) -> JsValue;
    /// A `TextTaskOutcome`'s kind, read in one call (where `Reflect.get` took four): 1
    /// `"result"`, 2 `"error"`, 0 anything else (also when reading it throws).
    #[wasm_bindgen(js_name = outcomeKind)]
    fn outcome_kind(outcome: &JsValue) -> u32;
    /// A `TextTaskOutcome`'s `json` (`undefined` if reading it throws).
    #[wasm_bindgen(js_name = outcomeJson)]
    fn outcome_json(outcome: &JsValue) -> JsValue;
}

fn store_error(e: StoreError) -> JsValue {
    rpc_error(e.code, e.rpc_code, &e.message)
}

/// A task ID argument that is not a string names no task (the SDK store's "not found"):
/// its text for that message. (JSON.stringify, not Rust's float formatting, which would
/// grow the wasm, for numbers.)
fn task_id_text(value: &JsValue) -> JsValue {
    let text = js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string());
    JsValue::from(text.unwrap_or_else(|| value.js_typeof().as_string().unwrap_or_default()))
}

impl TextTaskEngine {
    /// A task ID (a string, or anything else as its text, which names no task) and a context
    /// (`null` or `undefined`: none) through the reused argument buffer, and the engine once
    /// the clock has been read for this call.
    fn task_and_context(&mut self, task_id: &JsValue, context: &JsValue) -> Result<(&mut crate::Engine, &str, Option<&str>), JsValue> {
        let (task_id, context) = match self.args.pair(task_id, context) {
            Ok(ranges) => ranges,
            Err(super::args::ArgError::First) => self.args.pair(&task_id_text(task_id), context).map_err(|_| context_error(context))?,
            Err(super::args::ArgError::Second) => return Err(context_error(context)),
        };
        self.clock.read()?;
        let args = &self.args;
        Ok((&mut self.engine, args.text(task_id), context.map(|c| args.text(c))))
    }
}

/// The task JSON of `task_id` after a change the caller just made (it was checked visible to
/// the caller's context, and the clock stands still within a call), written from the record: a
/// store caches it, as the SDK reads the task again after each change.
fn task_now(engine: &mut crate::Engine, task_id: &str) -> Result<String, JsValue> {
    engine.held(task_id).map(|t| crate::task_json::task_json(t.view())).ok_or_else(|| store_error(StoreError::not_found(task_id)))
}

fn context_error(context: &JsValue) -> JsValue {
    type_error("context", "a string, null or undefined", context)
}

/// A `number | null | undefined` cap: `None` for no cap (also `Infinity`).
fn opt_cap(value: &JsValue, name: &str) -> Result<Option<usize>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n == f64::INFINITY => Ok(None),
        Some(n) if n >= 0.0 => Ok(Some(n.floor().min(usize::MAX as f64) as usize)),
        _ => Err(type_error(name, "a non-negative number, null or undefined", value)),
    }
}

#[wasm_bindgen(js_class = TextTaskEngine)]
impl TextTaskEngine {
    /// SDK store: `updateTaskStatus` for a task of `context` (same status: message only; a
    /// move without a message keeps the current one; no move out of a terminal status).
    /// Returns the task JSON as it now is (see [`task_now`]).
    #[wasm_bindgen(js_name = updateTaskStatus)]
    pub fn update_task_status(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] status: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] message: JsValue,
    ) -> Result<String, JsValue> {
        let (status, message) = (string_arg(&status, "status")?, opt_string_arg(&message, "message")?);
        let (engine, task_id, context) = self.task_and_context(&task_id, &context)?;
        engine.sdk_store().update_task_status(task_id, context, &status, message.as_deref()).map_err(store_error)?;
        task_now(engine, task_id)
    }

    /// SDK store: `storeTaskResult` for a task of `context`: `{kind: "result" | "error", json}`.
    /// The outcome's text crosses through the reused argument buffer (the host's UTF-8
    /// encoder), however large. Returns the task JSON as it now is (see [`task_now`]).
    #[wasm_bindgen(js_name = storeTaskResult)]
    pub fn store_task_result(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] status: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TextTaskOutcome")] outcome: JsValue,
    ) -> Result<String, JsValue> {
        let status = string_arg(&status, "status")?;
        let task_id = match task_id.as_string() {
            Some(id) => id,
            None => task_id_text(&task_id).as_string().unwrap_or_default(),
        };
        let is_error = match outcome_kind(&outcome) {
            1 => false,
            2 => true,
            _ => {
                let kind = Reflect::get(&outcome, &"kind".into()).unwrap_or(JsValue::UNDEFINED);
                return Err(type_error("outcome.kind", "\"result\" or \"error\"", &kind));
            }
        };
        let json = outcome_json(&outcome);
        let (json, context) = self.args.pair(&json, &context).map_err(|refused| match refused {
            super::args::ArgError::First => type_error("outcome.json", "a string", &json),
            super::args::ArgError::Second => context_error(&context),
        })?;
        self.clock.read()?;
        let (json, context) = (self.args.text(json).to_owned(), context.map(|c| self.args.text(c)));
        let outcome = if is_error { Outcome::Error(json) } else { Outcome::Result(json) };
        self.engine.sdk_store().store_task_result(&task_id, context, &status, outcome).map_err(store_error)?;
        task_now(&mut self.engine, &task_id)
    }

    /// SDK store: `getTaskResult` for a task of `context`: `{kind: "result" | "error", json}`,
    /// the text read straight from the engine's copy; throws `no_result` while it has none.
    #[wasm_bindgen(js_name = getTaskResult, unchecked_return_type = "TextTaskOutcome")]
    pub fn get_task_result(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (engine, task_id, context) = self.task_and_context(&task_id, &context)?;
        match engine.sdk_store().get_task_result(task_id, context).map_err(store_error)? {
            Outcome::Result(json) => Ok(task_outcome("result", json)),
            Outcome::Error(json) => Ok(task_outcome("error", json)),
        }
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
        self.engine()?.sdk_store().enqueue_message(&task_id, named, &message_json, max_size).map_err(store_error)
    }

    /// SDK message queue: the oldest queued message (JSON text) `context` may read, or `null`.
    #[wasm_bindgen(js_name = dequeueMessage, unchecked_return_type = "string | null")]
    pub fn dequeue_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (engine, task_id, context) = self.task_and_context(&task_id, &context)?;
        let taken = engine.sdk_store().dequeue_messages(task_id, context, false);
        Ok(taken.into_iter().next().map_or(JsValue::NULL, JsValue::from))
    }

    /// SDK message queue: every queued message `context` may read, as a JSON array text.
    #[wasm_bindgen(js_name = dequeueAllMessages)]
    pub fn dequeue_all_messages(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<String, JsValue> {
        let (engine, task_id, context) = self.task_and_context(&task_id, &context)?;
        let taken = engine.sdk_store().dequeue_messages(task_id, context, true);
        Ok(format!("[{}]", taken.join(",")))
    }

    /// SDK message queue: messages queued for one task, or (`null`/`undefined`) for every
    /// task, which needs no look-up (an empty engine answers every dequeue at once).
    #[wasm_bindgen(js_name = queuedMessageCount)]
    pub fn queued_message_count(&mut self, #[wasm_bindgen(unchecked_param_type = "string | null")] task_id: JsValue) -> usize {
        self.engine.sdk_store().queued_message_count(task_id.as_string().as_deref())
    }

    /// SDK message queue: drops every queued message.
    #[wasm_bindgen(js_name = clearMessages)]
    pub fn clear_messages(&mut self) {
        self.engine.sdk_store().clear_messages();
    }
}
