//! JSON-RPC 2.0 envelopes: reading one message without copying its parts,
//! writing responses by splicing raw JSON text, and the error codes.

use super::json::{integer, string_text, Json};
use std::borrow::Cow;

/// Invalid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// Valid JSON but not a valid JSON-RPC message.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters (also: unknown task, bad cursor, terminal cancel).
pub const INVALID_PARAMS: i64 = -32602;
/// A fault inside the receiver.
pub const INTERNAL_ERROR: i64 = -32603;
/// A resource limit of this receiver was reached (implementation-defined server error).
pub const LIMIT_EXCEEDED: i64 = -32000;

/// A JSON-RPC error the engine answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// A message a person can act on.
    pub message: String,
    /// `data`, as raw JSON, when the error carries any.
    pub data: Option<String>,
}

impl RpcError {
    pub(crate) fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }
    pub(crate) fn with_data(mut self, data: String) -> Self {
        self.data = Some(data);
        self
    }
    pub(crate) fn params(message: impl Into<String>) -> Self {
        RpcError::new(INVALID_PARAMS, message)
    }
}

/// One parsed incoming message; every part borrows from the input text.
#[derive(Debug)]
pub(crate) enum Incoming<'a> {
    Request {
        id: &'a str,
        method: Cow<'a, str>,
        params: Option<Json<'a>>,
    },
    Notification {
        method: Cow<'a, str>,
        params: Option<Json<'a>>,
    },
    Response {
        id: &'a str,
        /// Read by the requestor only: the receiver routes responses by id.
        #[cfg(feature = "requestor")]
        result: Option<Json<'a>>,
        #[cfg(feature = "requestor")]
        error: Option<Json<'a>>,
    },
}

/// A message that could not be read, with the id to answer to when one was found.
#[derive(Debug)]
pub(crate) struct Rejected {
    pub id: Option<String>,
    pub error: RpcError,
    /// Refused by a size or depth limit rather than for its shape.
    pub limit_hit: bool,
}

/// The top-level members of a message (present even when `null`).
#[derive(Default)]
struct Envelope<'a> {
    jsonrpc: Option<Json<'a>>,
    id: Option<Json<'a>>,
    method: Option<Json<'a>>,
    params: Option<Json<'a>>,
    result: Option<Json<'a>>,
    error: Option<Json<'a>>,
}

/// Some members of a validated JSON object, by key, in the order of `keys`; a key given twice
/// is an error that names it.
pub(crate) fn members<'a, const N: usize>(object: Json<'a>, keys: [&str; N]) -> Result<[Option<Json<'a>>; N], String> {
    let (mut found, mut duplicate) = ([None; N], None);
    each_member(object.get(), &mut |m| {
        if let Some(i) = keys.iter().position(|k| m.key == *k) {
            if found[i].replace(Json::trusted(m.value)).is_some() {
                duplicate = Some(i);
            }
        }
    })
    .ok_or_else(|| "expected an object".to_owned())?;
    match duplicate {
        Some(i) => Err(format!("duplicate field `{}`", keys[i])),
        None => Ok(found),
    }
}

/// How many `{` and `[` a text holds, eight bytes at a time (a byte loop was
/// a tenth of reading a `tasks/get` in the wasm build).
fn count_openings(text: &[u8]) -> usize {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const EACH: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte of `w` that is zero, and no other bit.
    let zero_bytes = |w: u64| !(((w & LOW7).wrapping_add(LOW7)) | w | LOW7);
    let mut words = text.chunks_exact(8);
    let mut count = 0;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        count += (zero_bytes(w ^ (EACH * u64::from(b'{'))) | zero_bytes(w ^ (EACH * u64::from(b'[')))).count_ones() as usize;
    }
    count + words.remainder().iter().filter(|&&b| b == b'{' || b == b'[').count()
}

/// The nesting depth of a JSON text, counted without parsing (strings skipped).
pub(crate) fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// A JSON string value, borrowed when it has no escapes.
pub(crate) fn as_str(raw: Json<'_>) -> Option<Cow<'_, str>> {
    string_value(raw.get())
}

/// The first non-whitespace byte of a JSON text.
pub(crate) fn first_byte(raw: &str) -> Option<u8> {
    raw.bytes().find(|b| !b.is_ascii_whitespace())
}

/// Whether a raw id is a JSON-RPC/MCP request id: a string or an integer.
fn is_request_id(raw: Json<'_>) -> bool {
    match first_byte(raw.get()) {
        Some(b'"') => true,
        Some(b'-' | b'0'..=b'9') => {
            let text = raw.get();
            let digits = text.strip_prefix('-').unwrap_or(text);
            // Up to 18 digits always fit an i64: no parse needed for the common ids.
            (digits.len() <= 18 && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                || integer::<i64>(text).is_some()
                || integer::<u64>(text).is_some()
        }
        _ => false,
    }
}

/// Skips one JSON string starting at `i` (on its opening quote); returns the
/// index just past the closing quote.
fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Skips one JSON value starting at `i` without recursion (depth does not
/// matter); returns the index just past it. Checks brackets and strings only:
/// enough to find where a value ends, not to validate it.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let end = b[i..].iter().position(|c| matches!(c, b',' | b'}' | b']') || c.is_ascii_whitespace()).map_or(b.len(), |n| i + n);
            (end > i).then_some(end)
        }
    }
}

/// One member of a JSON object: its key (decoded) and the byte ranges of the
/// whole member (`"key": value`) and of its value, within the object text.
#[derive(Debug)]
pub(crate) struct Member<'a> {
    pub key: Cow<'a, str>,
    pub span: std::ops::Range<usize>,
    pub value: &'a str,
}

/// The top-level members of a JSON object text, found by skipping over the
/// values rather than parsing them: linear in the size, whatever the depth.
/// `None` when the text is not an object this scan can read.
pub(crate) fn object_members(text: &str) -> Option<Vec<Member<'_>>> {
    let mut members = Vec::new();
    each_member(text, &mut |m| members.push(m))?;
    Some(members)
}

/// [`object_members`] one at a time, without collecting them; `None` when the
/// text is not an object this scan can read (`each` may have seen some members).
/// `dyn`: one copy of the scan in the `.wasm`, whatever the callers.
pub(crate) fn each_member<'a>(text: &'a str, each: &mut dyn FnMut(Member<'a>)) -> Option<()> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Some(());
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let start = i;
        let key_end = skip_string(b, i)?;
        let key = as_str_text(&text[i..key_end])?;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let value_start = skip_ws(b, i + 1);
        let value_end = skip_value(b, value_start)?;
        each(Member { key, span: start..value_end, value: &text[value_start..value_end] });
        i = skip_ws(b, value_end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Some(()),
            _ => return None,
        }
    }
}

/// Each item of a JSON array text, by the same scan as [`each_member`]; `None` when the text is
/// not an array this scan can read.
pub(crate) fn each_item<'a>(text: &'a str, each: &mut dyn FnMut(&'a str)) -> Option<()> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Some(());
    }
    loop {
        let end = skip_value(b, i)?;
        each(&text[i..end]);
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return Some(()),
            _ => return None,
        }
    }
}

/// The raw values of some top-level members of a JSON object text, read by
/// [`object_members`]' scan (no second parse: for text already validated as
/// JSON). `None` when it is not an object, or when one of `keys` occurs twice
/// (as serde refuses a duplicate field).
pub(crate) fn member_values<'a, const N: usize>(object: &'a str, keys: [&str; N]) -> Option<[Option<&'a str>; N]> {
    let (mut found, mut duplicate) = ([None; N], false);
    each_member(object, &mut |m| {
        if let Some(i) = keys.iter().position(|k| m.key == *k) {
            duplicate |= found[i].replace(m.value).is_some();
        }
    })?;
    (!duplicate).then_some(found)
}

/// A raw JSON value's string, decoded; `None` when it is not a string.
pub(crate) fn string_value(raw: &str) -> Option<Cow<'_, str>> {
    if first_byte(raw) != Some(b'"') {
        return None;
    }
    as_str_text(raw)
}

/// A JSON string literal's text, decoded (borrowed when it has no escapes).
fn as_str_text(literal: &str) -> Option<Cow<'_, str>> {
    string_text(literal)
}

/// What the top level of a message says about it, read without parsing the
/// body, so that a message refused for its size or depth can still be told
/// apart (a response is never answered) and answered under its own id.
#[derive(Debug, Default)]
pub(crate) struct Peek<'a> {
    /// The raw `id`, when it is a valid request id.
    pub id: Option<&'a str>,
    pub has_method: bool,
    pub has_outcome: bool,
}

impl Peek<'_> {
    /// A response (`result` or `error`, no `method`), well formed or not.
    pub fn is_response(&self) -> bool {
        self.has_outcome && !self.has_method
    }
}

/// Reads the top-level `id`, `method`, `result` and `error` of a message.
pub(crate) fn peek(message: &str) -> Peek<'_> {
    let mut p = Peek::default();
    for m in object_members(message).unwrap_or_default() {
        match m.key.as_ref() {
            "id" => p.id = Json::parse(m.value).ok().filter(|id| is_request_id(*id)).map(|_| m.value),
            "method" => p.has_method = true,
            "result" | "error" => p.has_outcome = true,
            _ => {}
        }
    }
    p
}

/// Reads one message, enforcing the size and depth limits first.
pub(crate) fn parse(message: &str, max_bytes: usize, max_depth: usize) -> Result<Incoming<'_>, Rejected> {
    let reject = |id: Option<Json<'_>>, code, text: String| Rejected {
        id: id.filter(|i| is_request_id(*i)).map(|i| i.get().to_owned()),
        error: RpcError::new(code, text),
        limit_hit: false,
    };
    if message.len() > max_bytes {
        let text = format!("Message too large: {} bytes, the limit is {}", message.len(), max_bytes);
        return Err(Rejected { limit_hit: true, ..reject(None, INVALID_REQUEST, text) });
    }
    // Depth never exceeds the number of opening brackets: count them first (a
    // cheap pass), walk the nesting only when there are enough of them.
    let openings = if message.len() > max_depth { count_openings(message.as_bytes()) } else { 0 };
    let depth = if openings > max_depth { nesting_depth(message) } else { 0 };
    if depth > max_depth {
        let text = format!("Message nested too deeply: depth {depth}, the limit is {max_depth}");
        return Err(Rejected { limit_hit: true, ..reject(None, INVALID_REQUEST, text) });
    }
    let value = Json::parse(message).map_err(|e| reject(None, PARSE_ERROR, format!("Parse error: {e}")))?;
    match value.kind() {
        b'{' => {}
        b'[' => return Err(reject(None, INVALID_REQUEST, "Batches are not supported: send one JSON-RPC message at a time".to_owned())),
        _ => return Err(reject(None, INVALID_REQUEST, "Invalid JSON-RPC message: expected a JSON object".to_owned())),
    }
    let env = match members(value, ["jsonrpc", "id", "method", "params", "result", "error"]) {
        Ok([jsonrpc, id, method, params, result, error]) => Envelope { jsonrpc, id, method, params, result, error },
        Err(e) => return Err(reject(None, INVALID_REQUEST, format!("Invalid JSON-RPC message: {e}"))),
    };
    if env.jsonrpc.map(Json::get) != Some("\"2.0\"") {
        return Err(reject(env.id, INVALID_REQUEST, "Invalid JSON-RPC message: \"jsonrpc\" must be \"2.0\"".to_owned()));
    }
    if let Some(id) = env.id {
        if !is_request_id(id) {
            return Err(reject(None, INVALID_REQUEST, "Invalid JSON-RPC message: \"id\" must be a string or an integer".to_owned()));
        }
    }
    if let Some(params) = env.params {
        if !matches!(first_byte(params.get()), Some(b'{' | b'[')) {
            return Err(reject(env.id, INVALID_REQUEST, "Invalid JSON-RPC message: \"params\" must be an object".to_owned()));
        }
    }
    match (env.method, env.id, env.result, env.error) {
        (Some(method), id, None, None) => {
            let Some(method) = as_str(method) else {
                return Err(reject(env.id, INVALID_REQUEST, "Invalid JSON-RPC message: \"method\" must be a string".to_owned()));
            };
            Ok(match id {
                Some(id) => Incoming::Request { id: id.get(), method, params: env.params },
                None => Incoming::Notification { method, params: env.params },
            })
        }
        (None, Some(id), result, error) if result.is_some() != error.is_some() => Ok(Incoming::Response {
            id: id.get(),
            #[cfg(feature = "requestor")]
            result,
            #[cfg(feature = "requestor")]
            error,
        }),
        _ => Err(reject(
            env.id,
            INVALID_REQUEST,
            "Invalid JSON-RPC message: expected a request (method, id), a notification (method) or a response (id with result or error)"
                .to_owned(),
        )),
    }
}

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` from raw parts.
pub(crate) fn result_response(id: &str, result: &str) -> String {
    let mut out = String::with_capacity(result.len() + id.len() + 32);
    out.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    out.push_str(id);
    out.push_str(",\"result\":");
    out.push_str(result);
    out.push('}');
    out
}

/// [`result_response`] around a result the caller owns: the envelope is put
/// in place around it (no second buffer when the result has the room).
pub(crate) fn wrap_result(id: &str, mut result: String) -> String {
    const HEAD: &str = "{\"jsonrpc\":\"2.0\",\"id\":";
    result.reserve(HEAD.len() + id.len() + 11);
    result.insert_str(0, ",\"result\":");
    result.insert_str(0, id);
    result.insert_str(0, HEAD);
    result.push('}');
    result
}

/// An error response with a raw error object.
pub(crate) fn raw_error_response(id: Option<&str>, error: &str) -> String {
    let mut out = String::with_capacity(error.len() + 40);
    out.push_str("{\"jsonrpc\":\"2.0\",");
    if let Some(id) = id {
        out.push_str("\"id\":");
        out.push_str(id);
        out.push(',');
    }
    out.push_str("\"error\":");
    out.push_str(error);
    out.push('}');
    out
}

/// An error response built from a code and a message.
pub(crate) fn error_response(id: Option<&str>, error: &RpcError) -> String {
    raw_error_response(id, &error_object(error))
}

pub(crate) fn error_object(error: &RpcError) -> String {
    match &error.data {
        None => format!("{{\"code\":{},\"message\":{}}}", error.code, json_string(&error.message)),
        Some(data) => format!("{{\"code\":{},\"message\":{},\"data\":{}}}", error.code, json_string(&error.message), data),
    }
}

/// A JSON string literal.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_json_string(&mut out, s);
    out
}

/// Appends `s` as a JSON string literal, exactly as [`json_string`] writes it:
/// copied as is when nothing in it needs escaping (no `"`, `\\` or control
/// character), the common case of IDs and timestamps.
pub(crate) fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    let mut rest = s;
    // Escapes as serde_json writes them: the short forms, else `\u00XX` in lowercase hex.
    while let Some(at) = rest.bytes().position(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&rest[..at]);
        let byte = rest.as_bytes()[at];
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 0xf)]));
            }
        }
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Sets the top-level member `key` of a JSON object text to `value` (raw
/// JSON), replacing it when present, first otherwise; every other member is
/// kept byte for byte. `None` when `object` is not an object.
#[cfg(feature = "requestor")]
pub(crate) fn with_member(object: &str, key: &str, value: &str) -> Option<String> {
    let members = object_members(object)?;
    let mut out = String::with_capacity(object.len() + key.len() + value.len() + 4);
    out.push('{');
    out.push_str(&json_string(key));
    out.push(':');
    out.push_str(value);
    for m in members.iter().filter(|m| m.key != key) {
        out.push(',');
        out.push_str(&object[m.span.clone()]);
    }
    out.push('}');
    Some(out)
}

/// The raw value of the top-level member `key` of a JSON object text.
#[cfg(feature = "requestor")]
pub(crate) fn member<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    object_members(object)?.into_iter().find(|m| m.key == key).map(|m| m.value)
}

/// Inserts `"key": value` into the `_meta` object of a JSON object text,
/// creating `_meta` when absent and replacing the key when present. Every
/// other member is kept byte for byte (numbers of any size included). `None`
/// when `object` is not an object or its `_meta` is not one.
pub(crate) fn with_meta_entry(object: &str, key: &str, value: &str) -> Option<String> {
    let [meta] = members(Json::parse(object).ok()?, ["_meta"]).ok()?;
    put_meta_entry(object, meta.map(Json::get), key, value)
}

/// [`with_meta_entry`] on text already validated as JSON (a stored result):
/// `_meta` is found by a scan instead of a parse.
pub(crate) fn with_meta_entry_in_valid(object: &str, key: &str, value: &str) -> Option<String> {
    let [meta] = member_values(object, ["_meta"])?;
    put_meta_entry(object, meta, key, value)
}

/// [`with_meta_entry`] given the `_meta` value, a slice of `object`.
fn put_meta_entry(object: &str, meta: Option<&str>, key: &str, value: &str) -> Option<String> {
    let mut entry = String::with_capacity(key.len() + value.len() + 3);
    push_json_string(&mut entry, key);
    entry.push(':');
    entry.push_str(value);
    match meta {
        None => {
            let open = object.find('{')?;
            let rest = &object[open + 1..];
            let empty = first_byte(rest) == Some(b'}');
            let mut out = String::with_capacity(object.len() + entry.len() + 12);
            out.push_str(&object[..=open]);
            out.push_str("\"_meta\":{");
            out.push_str(&entry);
            out.push('}');
            if !empty {
                out.push(',');
            }
            out.push_str(rest);
            Some(out)
        }
        Some(meta) => {
            // Byte range of the _meta value inside `object` (it borrows from it).
            let start = meta.as_ptr() as usize - object.as_ptr() as usize;
            let end = start + meta.len();
            let members = object_members(meta)?;
            let mut out = String::with_capacity(object.len() + entry.len() + 2);
            out.push_str(&object[..start]);
            out.push('{');
            out.push_str(&entry);
            for m in members.iter().filter(|m| m.key != key) {
                out.push(',');
                out.push_str(&meta[m.span.clone()]);
            }
            out.push('}');
            out.push_str(&object[end..]);
            Some(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn openings_are_counted_in_every_byte_position() {
        let texts = [
            "",
            "{",
            "[[[",
            "{\"a\":[1,{\"b\":[]}],\"c\":\"{[\"}",
            "ab{cdefg[hijklmno{",
            "{{{{{{{{{{{{{{{{{",
            "\u{7b}\u{5b}\u{fb}\u{db}z{",
        ];
        for text in texts {
            for shift in 0..9 {
                let shifted = format!("{}{text}", "x".repeat(shift));
                let slow = shifted.bytes().filter(|&b| b == b'{' || b == b'[').count();
                assert_eq!(count_openings(shifted.as_bytes()), slow, "{shifted:?}");
            }
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn depth_ignores_brackets_in_strings() {
        assert_eq!(nesting_depth(r#"{"a":"[[[{{{\"]]]"}"#), 1);
        assert_eq!(nesting_depth("[[[]]]"), 3);
        assert_eq!(nesting_depth("1"), 0);
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn wrapped_result_is_the_result_response() {
        for (id, result) in [("1", "{}"), ("\"a\"", r#"{"task":{"taskId":"t"}}"#), ("-9", "")] {
            assert_eq!(wrap_result(id, result.to_owned()), result_response(id, result));
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn pushed_strings_and_numbers_match_serde_json() {
        for s in ["", "plain-id", "q\"uote", "back\\slash", "tab\there", "\u{1}", "del\u{7f}", "é ü 日本", "a/b"] {
            let mut out = String::from("x");
            push_json_string(&mut out, s);
            assert_eq!(out[1..], serde_json::to_string(s).unwrap(), "{s:?}");
        }
        for n in [0, 7, 10, 999, 600_000, u64::from(u32::MAX), u64::MAX] {
            let mut out = String::new();
            push_u64(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn meta_entry_is_inserted_or_merged() {
        let v = r#"{"x":"y"}"#;
        assert_eq!(with_meta_entry(v, "k", "1").unwrap(), r#"{"_meta":{"k":1},"x":"y"}"#);
        assert_eq!(with_meta_entry(" { } ", "k", "1").unwrap(), r#" {"_meta":{"k":1} } "#);
        let merged = with_meta_entry(r#"{"_meta":{"a":2,"k":0},"z":1}"#, "k", "1").unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&merged).unwrap();
        assert_eq!(parsed, serde_json::json!({"_meta":{"a":2,"k":1},"z":1}));
        assert_eq!(with_meta_entry("[1]", "k", "1"), None);
        assert_eq!(with_meta_entry(r#"{"_meta":3}"#, "k", "1"), None);
        for valid in [v, " { } ", r#"{"_meta":{"a":2,"k":0},"z":1}"#, "[1]", r#"{"_meta":3}"#, r#"{"_meta":{},"_meta":{}}"#] {
            assert_eq!(with_meta_entry_in_valid(valid, "k", "1"), with_meta_entry(valid, "k", "1"), "{valid}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn ids_must_be_strings_or_integers() {
        for bad in ["null", "1.5", "true", "{}", "[]"] {
            let m = format!(r#"{{"jsonrpc":"2.0","id":{bad},"method":"ping"}}"#);
            let e = parse(&m, 1 << 20, 64).unwrap_err();
            assert_eq!(e.error.code, INVALID_REQUEST, "{bad}");
            assert!(e.id.is_none());
        }
        let ok = parse(r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#, 1 << 20, 64).unwrap();
        assert!(matches!(ok, Incoming::Request { id: "\"a\"", .. }));
    }
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn meta_entry_keeps_every_other_member_byte_for_byte() {
        let big = r#"{"_meta":{"n":123456789012345678901234567890, "f":1.0e2,"k":0},"x":1e400}"#;
        let out = with_meta_entry(big, "k", "1").unwrap();
        assert_eq!(out, r#"{"_meta":{"k":1,"n":123456789012345678901234567890,"f":1.0e2},"x":1e400}"#);
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn members_are_found_whatever_the_depth() {
        let deep = format!(r#"{{"a":{}1{},"b" : "x\"}}y","c":[{{}}]}}"#, "[".repeat(5000), "]".repeat(5000));
        let members = object_members(&deep).unwrap();
        let keys: Vec<&str> = members.iter().map(|m| m.key.as_ref()).collect();
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(members[1].value, r#""x\"}y""#);
        for bad in ["", "[]", "{", r#"{"a"}"#, r#"{"a":1,}"#, r#"{"a":"#, r#"{"a":[1}"#] {
            assert!(object_members(bad).is_none(), "{bad}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn peek_reads_the_top_level_only() {
        let p = peek(r#"{"jsonrpc":"2.0","result":{"id":5,"method":"x"},"id":"r1"}"#);
        assert_eq!(p.id, Some("\"r1\""));
        assert!(p.is_response());
        let p = peek(r#"{"id":null,"method":"m","error":1}"#);
        assert_eq!(p.id, None);
        assert!(!p.is_response());
    }
}
