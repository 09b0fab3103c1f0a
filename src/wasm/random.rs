//! Where random bytes come from in JavaScript. By default `crypto.getRandomValues`;
//! an entry point may install another CSPRNG with `setRandomSource` (the Node entry
//! points read `/dev/urandom`: loading `node:crypto` costs milliseconds at start-up,
//! more than the engine's own start).

use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function fillRandom(source, bytes) {
  if (source === undefined) globalThis.crypto.getRandomValues(bytes);
  else source(bytes);
}
")]
extern "C" {
    #[wasm_bindgen(js_name = fillRandom, catch)]
    fn fill_random(source: &JsValue, bytes: &mut [u8]) -> Result<(), JsValue>;
}

thread_local! {
    static SOURCE: RefCell<JsValue> = const { RefCell::new(JsValue::UNDEFINED) };
}

/// Fills `bytes` from the installed source, or `crypto.getRandomValues` (at most
/// 65 536 bytes per call, which every caller here stays under).
pub(crate) fn fill(bytes: &mut [u8]) -> Result<(), JsValue> {
    SOURCE.with(|source| fill_random(&source.borrow(), bytes))
}

/// Sets the source of random bytes for task IDs and cursor keys: `fill(bytes)` must
/// fill the whole `Uint8Array` from a cryptographically secure generator, or throw.
/// `undefined` goes back to `crypto.getRandomValues`.
/// (Receiver builds only: the requestor draws no random bytes.)
#[cfg(feature = "receiver")]
#[wasm_bindgen(js_name = setRandomSource)]
pub fn set_random_source(fill: Option<js_sys::Function>) {
    SOURCE.with(|source| *source.borrow_mut() = fill.map_or(JsValue::UNDEFINED, JsValue::from));
}
