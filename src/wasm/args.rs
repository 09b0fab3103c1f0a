//! String arguments of the hot methods (`handle`, `complete`), copied into one
//! buffer the engine keeps and reuses. The host's own UTF-8 encoder
//! (`TextEncoder.encodeInto`, native code) writes them: the default glue encodes
//! a string one character at a time in JavaScript and allocates (and frees) a
//! new copy per argument, which cost more than reading a `tasks/get`.
//!
//! Both arguments of a call cross in one call, written through a view of the
//! buffer the JS side keeps until the buffer moves: a call into JS and a new
//! `Uint8Array` per argument were a tenth of a `tasks/get`.

use std::ops::Range;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
const encoder = new TextEncoder();
let memory = null;
let view = null;
let viewAt = -1;
export function setArgMemory(m) {
  memory = m;
}
function writeShort(value, at) {
  // Short ASCII (a context, a task ID prefix): cheaper than calling the encoder.
  const length = value.length;
  if (length >= 16 || at + length > view.length) return -1;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0x7f) return -1;
    view[at + i] = code;
  }
  return length;
}
export function encodeArgs(first, second, at, room) {
  if (typeof first !== 'string') return -1;
  const none = second === undefined || second === null;
  if (!none && typeof second !== 'string') return -2;
  // A view that grew memory detached has length 0: made again.
  if (viewAt !== at || view.length !== room) {
    view = new Uint8Array(memory.buffer, at, room);
    viewAt = at;
  }
  const need = 4 + (first.length + (none ? 0 : second.length)) * 3;
  let n = writeShort(first, 0);
  if (n < 0) {
    const { read, written } = encoder.encodeInto(first, view);
    if (read !== first.length) return -need;
    n = written;
  }
  if (none) return n * 2097152;
  let m = writeShort(second, n);
  if (m < 0) {
    const { read, written } = encoder.encodeInto(second, view.subarray(n));
    if (read !== second.length) return -need;
    m = written;
  }
  // Both lengths in one exact number: the second below 2^21, the first below 2^32.
  return m < 2097151 ? n * 2097152 + m + 1 : -3;
}
")]
extern "C" {
    #[wasm_bindgen(js_name = setArgMemory)]
    fn set_arg_memory(memory: &JsValue);
    /// Writes `first` and then `second` as UTF-8 into the `room` bytes at `at`:
    /// `n * 2^21 + (m + 1)` for `n` and `m` bytes (`m + 1 = 0`: `second` is `null`
    /// or `undefined`); `-1` when `first` is not a string, `-2` when `second` is
    /// neither a string nor absent, `-3` when `second` is 2 MiB or more, or
    /// `-n` (n > 3) when they need up to `n - 3` bytes of room.
    #[wasm_bindgen(js_name = encodeArgs)]
    fn encode_args(first: &JsValue, second: &JsValue, at: *mut u8, room: usize) -> f64;
}

/// `2^21`: the second argument's length is the low part of [`encode_args`]'s answer.
const SECOND_SPAN: f64 = 2_097_152.0;

/// Room kept between calls; a buffer grown past this for one large argument is let go after it.
const KEPT_BYTES: usize = 64 * 1024;
const START_BYTES: usize = 1024;

/// Which argument of a call was refused.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ArgError {
    First,
    Second,
}

/// The reused buffer: always fully initialised (its length is its room), filled from the front.
pub(super) struct ArgBuffer {
    bytes: Vec<u8>,
}

impl Default for ArgBuffer {
    fn default() -> Self {
        set_arg_memory(&wasm_bindgen::memory());
        ArgBuffer { bytes: vec![0; START_BYTES] }
    }
}

impl ArgBuffer {
    /// Copies the two string arguments of a call (`second` may be `null` or
    /// `undefined`: `None`); they stay readable with [`text`](Self::text) until
    /// the next call.
    pub fn pair(&mut self, first: &JsValue, second: &JsValue) -> Result<(Range<usize>, Option<Range<usize>>), ArgError> {
        if self.bytes.len() > KEPT_BYTES {
            self.bytes = vec![0; START_BYTES];
        }
        loop {
            let n = encode_args(first, second, self.bytes.as_mut_ptr(), self.bytes.len());
            if n >= 0.0 {
                let first_len = (n / SECOND_SPAN).floor();
                let second_code = (n - first_len * SECOND_SPAN) as usize;
                let first_len = first_len as usize;
                let second = (second_code > 0).then(|| first_len..first_len + second_code - 1);
                return Ok((0..first_len, second));
            }
            match n {
                -1.0 => return Err(ArgError::First),
                -2.0 => return Err(ArgError::Second),
                -3.0 => return self.pair_apart(first, second),
                _ => {
                    let need = (-n) as usize;
                    self.bytes.resize(need.max(self.bytes.len() * 2), 0);
                }
            }
        }
    }

    /// [`pair`](Self::pair) for a second argument too long for its answer: each on its own.
    #[cold]
    fn pair_apart(&mut self, first: &JsValue, second: &JsValue) -> Result<(Range<usize>, Option<Range<usize>>), ArgError> {
        let (first_range, _) = self.pair(first, &JsValue::UNDEFINED)?;
        let first = self.bytes[first_range].to_vec();
        let (second_range, _) = self.pair(second, &JsValue::UNDEFINED).map_err(|_| ArgError::Second)?;
        let second_len = second_range.len();
        let mut joined = first;
        let first_len = joined.len();
        joined.extend_from_slice(&self.bytes[second_range]);
        joined.resize(joined.len().max(START_BYTES), 0);
        self.bytes = joined;
        Ok((0..first_len, Some(first_len..first_len + second_len)))
    }

    /// An argument of the last call. The encoder writes only valid UTF-8, so
    /// the check never fails; it keeps this free of `unsafe`.
    pub fn text(&self, range: Range<usize>) -> &str {
        std::str::from_utf8(&self.bytes[range]).unwrap_or_default()
    }
}
