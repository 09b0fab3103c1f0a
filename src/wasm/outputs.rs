//! Output objects for JavaScript, each made by one call into a small JS
//! factory: setting fields one by one with `Reflect` crossed the boundary
//! (and re-decoded the key) per field, a measurable part of every request.
//! Strings go over borrowed (`&str`): an owned `String` would be freed by the
//! glue with one more call back into wasm per field.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function sendOutput(context, inReplyTo, message) {
  return { kind: 'send', context: context ?? null, inReplyTo: inReplyTo ?? null, message };
}
export function executeOutput(taskId, context, method, request) {
  return { kind: 'execute', taskId, context: context ?? null, method, request };
}
export function forwardOutput(context, message) {
  return { kind: 'forward', context: context ?? null, message };
}
export function cancelledOutput(taskId, context) {
  return { kind: 'cancelled', taskId, context: context ?? null };
}
export function expiredOutput(taskId, context, wasTerminal) {
  return { kind: 'expired', taskId, context: context ?? null, wasTerminal };
}
export function inputResponseOutput(taskId, context, requestId, response) {
  return { kind: 'inputResponse', taskId, context: context ?? null, requestId, response };
}
")]
extern "C" {
    #[wasm_bindgen(js_name = sendOutput)]
    pub(super) fn send_output(context: Option<&str>, in_reply_to: Option<&str>, message: &str) -> JsValue;
    #[wasm_bindgen(js_name = executeOutput)]
    pub(super) fn execute_output(task_id: &str, context: Option<&str>, method: &str, request: &str) -> JsValue;
    #[wasm_bindgen(js_name = forwardOutput)]
    pub(super) fn forward_output(context: Option<&str>, message: &str) -> JsValue;
    #[wasm_bindgen(js_name = cancelledOutput)]
    pub(super) fn cancelled_output(task_id: &str, context: Option<&str>) -> JsValue;
    #[wasm_bindgen(js_name = expiredOutput)]
    pub(super) fn expired_output(task_id: &str, context: Option<&str>, was_terminal: bool) -> JsValue;
    #[wasm_bindgen(js_name = inputResponseOutput)]
    pub(super) fn input_response_output(task_id: &str, context: Option<&str>, request_id: &str, response: &str) -> JsValue;
}
