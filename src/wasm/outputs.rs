//! Output objects for JavaScript, each made by one call into a small JS
//! factory: setting fields one by one with `Reflect` crossed the boundary
//! (and re-decoded the key) per field, a measurable part of every request.
//! Strings go over borrowed (`&str`): an owned `String` would be freed by the
//! glue with one more call back into wasm per field. Text the host handed in
//! (the message of a `tools/call` and its context, see [`Echo`]) goes back as
//! the host's own string, not decoded again.

use super::args::ArgBuffer;
use std::ops::Range;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function sendOutput(context, inReplyTo, message) {
  return { kind: 'send', context, inReplyTo: inReplyTo ?? null, message };
}
export function executeOutput(taskId, context, method, request) {
  return { kind: 'execute', taskId, context, method, request };
}
export function forwardOutput(context, message) {
  return { kind: 'forward', context: context ?? null, message };
}
export function cancelledOutput(taskId, context) {
  return { kind: 'cancelled', taskId, context };
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
    pub(super) fn send_output(context: &JsValue, in_reply_to: Option<&str>, message: &str) -> JsValue;
    #[wasm_bindgen(js_name = executeOutput)]
    pub(super) fn execute_output(task_id: &str, context: &JsValue, method: &JsValue, request: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = forwardOutput)]
    pub(super) fn forward_output(context: Option<&str>, message: &str) -> JsValue;
    #[wasm_bindgen(js_name = cancelledOutput)]
    pub(super) fn cancelled_output(task_id: &str, context: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = expiredOutput)]
    pub(super) fn expired_output(task_id: &str, context: Option<&str>, was_terminal: bool) -> JsValue;
    #[wasm_bindgen(js_name = inputResponseOutput)]
    pub(super) fn input_response_output(task_id: &str, context: Option<&str>, request_id: &str, response: &str) -> JsValue;
}

/// The host's own strings of the last `handle` call, handed back for outputs
/// that carry the same text: a context (every output of a session names it),
/// the message of a request that became a task (its `execute` output), and the
/// method names. Text is reused only when it is ASCII, whose UTF-8 round trip is
/// exact (an ill-formed JS string would not come back as it went in).
#[derive(Default)]
pub(super) struct Echo {
    context: Option<(Box<str>, JsValue)>,
    message: Option<(u64, Range<usize>, JsValue)>,
    methods: Vec<(&'static str, JsValue)>,
}

impl Echo {
    /// Remembers the context of a `handle` call (kept while the same one recurs).
    pub fn context_in(&mut self, text: Option<&str>, value: &JsValue) {
        let Some(text) = text else { return };
        if self.context.as_ref().is_some_and(|(kept, _)| same_text(kept, text)) || !text.is_ascii() {
            return;
        }
        self.context = Some((text.into(), value.clone()));
    }

    /// Remembers the message of a `handle` call (argument `call` of the
    /// buffer, bytes `at`) that queued outputs: an `execute` among them carries it.
    pub fn message_in(&mut self, call: u64, at: Range<usize>, text: &str, value: &JsValue) {
        self.message = text.is_ascii().then(|| (call, at, value.clone()));
    }

    /// The JS string of a context (`null` for none).
    pub fn context(&self, text: Option<&str>) -> JsValue {
        match (text, &self.context) {
            (None, _) => JsValue::NULL,
            (Some(text), Some((kept, value))) if same_text(kept, text) => value.clone(),
            (Some(text), _) => JsValue::from_str(text),
        }
    }

    /// The JS string of a request handed to the host: the message it came in
    /// as, while the argument buffer still holds that message.
    pub fn message(&mut self, args: &ArgBuffer, text: &str) -> JsValue {
        match self.message.take() {
            Some((call, at, value)) if call == args.call() && same_text(args.text(at.clone()), text) => value,
            _ => JsValue::from_str(text),
        }
    }

    /// The JS string of a method name, made once.
    pub fn method(&mut self, name: &'static str) -> JsValue {
        if let Some((_, value)) = self.methods.iter().find(|(kept, _)| *kept == name) {
            return value.clone();
        }
        let value = JsValue::from_str(name);
        self.methods.push((name, value.clone()));
        value
    }
}

/// Equal texts, compared eight bytes at a time (the byte-wise `memcmp` of the
/// wasm build is slower than decoding a short string).
fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let (mut a8, mut b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let words = a8
        .by_ref()
        .zip(b8.by_ref())
        .all(|(x, y)| u64::from_le_bytes(x.try_into().unwrap_or_default()) == u64::from_le_bytes(y.try_into().unwrap_or_default()));
    words && a8.remainder().iter().zip(b8.remainder()).all(|(x, y)| x == y)
}
