//! String arguments of the hot methods (`handle`, `complete`), copied into one
//! buffer the engine keeps and reuses. The host's own UTF-8 encoder
//! (`TextEncoder.encodeInto`, native code) writes them: the default glue encodes
//! a string one character at a time in JavaScript and allocates (and frees) a
//! new copy per argument, which cost more than reading a `tasks/get`.

use std::ops::Range;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
const encoder = new TextEncoder();
export function encodeArg(value, into) {
  if (typeof value !== 'string') return value == null ? -3 : -1;
  const length = value.length;
  if (length < 16 && length <= into.length) {
    // Short ASCII (a context, a task ID prefix): cheaper than calling the encoder.
    let i = 0;
    for (; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code > 0x7f) break;
      into[i] = code;
    }
    if (i === length) return length;
  }
  const { read, written } = encoder.encodeInto(value, into);
  return read === length ? written : -2 - length * 3;
}
")]
extern "C" {
    /// Writes `value` as UTF-8 into `into`: the byte count, `-1` when `value` is
    /// not a string, `-3` when it is `null` or `undefined`, or `-2 - n` when it
    /// needs `n` bytes of room.
    #[wasm_bindgen(js_name = encodeArg)]
    fn encode_arg(value: &JsValue, into: &mut [u8]) -> f64;
}

/// Room kept between calls; a buffer grown past this for one large argument is let go after it.
const KEPT_BYTES: usize = 64 * 1024;

/// The reused buffer: always fully initialised (its length is its room), filled from the front.
pub(super) struct ArgBuffer {
    bytes: Vec<u8>,
    used: usize,
}

impl Default for ArgBuffer {
    fn default() -> Self {
        ArgBuffer { bytes: vec![0; 1024], used: 0 }
    }
}

impl ArgBuffer {
    /// Starts the arguments of a new call.
    pub fn clear(&mut self) {
        self.used = 0;
        if self.bytes.len() > KEPT_BYTES {
            *self = ArgBuffer::default();
        }
    }

    /// Appends a string argument: `Ok(None)` for `null` or `undefined`, `Err(())` for anything else not a string.
    pub fn push(&mut self, value: &JsValue) -> Result<Option<Range<usize>>, ()> {
        loop {
            let n = encode_arg(value, &mut self.bytes[self.used..]);
            if n >= 0.0 {
                let range = self.used..self.used + n as usize;
                self.used = range.end;
                return Ok(Some(range));
            }
            if n == -3.0 {
                return Ok(None);
            }
            if n == -1.0 {
                return Err(());
            }
            let need = (-n - 2.0) as usize;
            self.bytes.resize(self.used + need, 0);
        }
    }

    /// An argument appended since [`clear`](Self::clear). The encoder writes
    /// only valid UTF-8, so the check never fails; it keeps this free of `unsafe`.
    pub fn text(&self, range: Range<usize>) -> &str {
        std::str::from_utf8(&self.bytes[range]).unwrap_or_default()
    }
}
