//! Reading JSON text without building anything from it: one strict check (RFC 8259) that
//! yields [`Json`], the validated text every other reader here trusts, string decoding and
//! integer reading. Ours rather than serde_json's typed deserializer: that deserializer, with
//! the float formatting its error messages pull in, was the largest part of the receiver's
//! `.wasm` (downloaded and compiled at every cold start), and the protocol only ever needs
//! "is this valid" and "where is this member".

use std::borrow::Cow;
use std::fmt;

/// The text of one valid JSON value, borrowed (no surrounding whitespace). Made by
/// [`Json::parse`], or as a part of a value already checked.
///
/// ```
/// use mcp_task_core::Json;
/// let v = Json::parse(r#" {"a": [1, 2.5e3, "x\n"]} "#).unwrap();
/// assert_eq!(v.get(), r#"{"a": [1, 2.5e3, "x\n"]}"#);
/// let e = Json::parse(r#"{"a": tru}"#).unwrap_err();
/// assert_eq!(e.to_string(), "expected `true` at line 1 column 7");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Json<'a>(&'a str);

impl<'a> Json<'a> {
    /// Checks that `text` is one JSON value (whitespace around it allowed) and returns it.
    pub fn parse(text: &'a str) -> Result<Json<'a>, JsonError> {
        let b = text.as_bytes();
        let fail = |at: usize, what: &'static str| Err(JsonError::at(b, at, what));
        let start = skip_ws(b, 0);
        let mut stack = Nesting::default();
        let mut i = start;
        'value: loop {
            // A value starts at `i`.
            i = match b.get(i) {
                None => return fail(i, "EOF while parsing a value"),
                Some(b'{') => {
                    stack.push(true);
                    i = skip_ws(b, i + 1);
                    if b.get(i) == Some(&b'}') {
                        stack.pop();
                        i + 1
                    } else {
                        i = key(b, i)?;
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    stack.push(false);
                    i = skip_ws(b, i + 1);
                    if b.get(i) == Some(&b']') {
                        stack.pop();
                        i + 1
                    } else {
                        continue 'value;
                    }
                }
                Some(b'"') => string_end(b, i)?,
                Some(b't') => literal(b, i, "true", "expected `true`")?,
                Some(b'f') => literal(b, i, "false", "expected `false`")?,
                Some(b'n') => literal(b, i, "null", "expected `null`")?,
                Some(b'-' | b'0'..=b'9') => number_end(b, i)?,
                Some(_) => return fail(i, "expected value"),
            };
            // After a value: close containers until one takes another member.
            loop {
                let Some(in_object) = stack.top() else {
                    let end = i;
                    if skip_ws(b, i) != b.len() {
                        return fail(skip_ws(b, i), "trailing characters");
                    }
                    return Ok(Json(&text[start..end]));
                };
                i = skip_ws(b, i);
                match (b.get(i), in_object) {
                    (Some(b','), true) => {
                        i = key(b, skip_ws(b, i + 1))?;
                        continue 'value;
                    }
                    (Some(b','), false) => {
                        i = skip_ws(b, i + 1);
                        continue 'value;
                    }
                    (Some(b'}'), true) | (Some(b']'), false) => {
                        stack.pop();
                        i += 1;
                    }
                    (None, true) => return fail(i, "EOF while parsing an object"),
                    (None, false) => return fail(i, "EOF while parsing a list"),
                    (Some(_), true) => return fail(i, "expected `,` or `}`"),
                    (Some(_), false) => return fail(i, "expected `,` or `]`"),
                }
            }
        }
    }

    /// A part of a value already checked (a member found by a scan of it).
    pub(crate) fn trusted(text: &'a str) -> Json<'a> {
        Json(text)
    }

    /// The text.
    pub fn get(self) -> &'a str {
        self.0
    }

    /// Its first byte: `{`, `[`, `"`, `t`, `f`, `n`, `-` or a digit.
    pub(crate) fn kind(self) -> u8 {
        self.0.as_bytes().first().copied().unwrap_or(0)
    }
}

impl fmt::Debug for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Why a text is not JSON, and where (line and column, from 1, in bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    what: &'static str,
    line: usize,
    column: usize,
}

impl JsonError {
    fn at(b: &[u8], at: usize, what: &'static str) -> JsonError {
        let before = &b[..at.min(b.len())];
        let line_start = before.iter().rposition(|&c| c == b'\n').map_or(0, |n| n + 1);
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        JsonError { what, line, column: before.len() - line_start + 1 }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.what, self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

/// Which open containers are objects, 64 levels to a word (no allocation for the usual depth).
#[derive(Default)]
struct Nesting {
    depth: usize,
    bits: u64,
    spilled: Vec<u64>,
}

impl Nesting {
    fn push(&mut self, object: bool) {
        if self.depth > 0 && self.depth % 64 == 0 {
            self.spilled.push(self.bits);
            self.bits = 0;
        }
        self.bits = (self.bits << 1) | u64::from(object);
        self.depth += 1;
    }
    fn pop(&mut self) {
        self.depth -= 1;
        self.bits >>= 1;
        if self.depth > 0 && self.depth % 64 == 0 {
            self.bits = self.spilled.pop().unwrap_or(0);
        }
    }
    fn top(&self) -> Option<bool> {
        (self.depth > 0).then_some(self.bits & 1 == 1)
    }
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// An object key and its colon, from the key's quote: where its value starts.
fn key(b: &[u8], i: usize) -> Result<usize, JsonError> {
    match b.get(i) {
        Some(b'"') => {}
        None => return Err(JsonError::at(b, i, "EOF while parsing an object")),
        Some(_) => return Err(JsonError::at(b, i, "key must be a string")),
    }
    let i = skip_ws(b, string_end(b, i)?);
    match b.get(i) {
        Some(b':') => Ok(skip_ws(b, i + 1)),
        None => Err(JsonError::at(b, i, "EOF while parsing an object")),
        Some(_) => Err(JsonError::at(b, i, "expected `:`")),
    }
}

/// Past the closing quote of the string whose opening quote is at `i`, checking its escapes.
fn string_end(b: &[u8], mut i: usize) -> Result<usize, JsonError> {
    i += 1;
    loop {
        match b.get(i) {
            None => return Err(JsonError::at(b, i, "EOF while parsing a string")),
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => {
                i += 1;
                match b.get(i) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 1,
                    Some(b'u') => {
                        if !b.get(i + 1..i + 5).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                            return Err(JsonError::at(b, i + 1, "invalid escape"));
                        }
                        i += 5;
                    }
                    None => return Err(JsonError::at(b, i, "EOF while parsing a string")),
                    Some(_) => return Err(JsonError::at(b, i, "invalid escape")),
                }
            }
            Some(0..=0x1f) => return Err(JsonError::at(b, i, "control character (\\u0000-\\u001F) found while parsing a string")),
            Some(_) => i += 1,
        }
    }
}

fn literal(b: &[u8], i: usize, word: &str, what: &'static str) -> Result<usize, JsonError> {
    if b[i..].starts_with(word.as_bytes()) {
        Ok(i + word.len())
    } else {
        Err(JsonError::at(b, i, what))
    }
}

fn digits_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// Past the number starting at `i`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn number_end(b: &[u8], mut i: usize) -> Result<usize, JsonError> {
    let invalid = |at| Err(JsonError::at(b, at, "invalid number"));
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits_end(b, i),
        _ => return invalid(i),
    }
    if b.get(i) == Some(&b'.') {
        let end = digits_end(b, i + 1);
        if end == i + 1 {
            return invalid(end);
        }
        i = end;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits_end(b, i);
        if end == i {
            return invalid(end);
        }
        i = end;
    }
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        return invalid(i);
    }
    Ok(i)
}

/// The text of a JSON string literal (quotes included) decoded; borrowed when it has no
/// escapes. `None` when it is not a string literal, or when it escapes a lone surrogate (which
/// no Rust string can hold).
pub(crate) fn string_text(literal: &str) -> Option<Cow<'_, str>> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        // The text may be unchecked (a message refused for its size is still peeked at): only
        // an ASCII escape letter may be stepped over, never half of a multi-byte character.
        let escape = rest.as_bytes().get(at + 1).copied().filter(u8::is_ascii)?;
        rest = &rest[at + 2..];
        out.push(match escape {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = hex4(rest)?;
                rest = &rest[4..];
                match unit {
                    0xd800..=0xdbff => {
                        let low = rest.strip_prefix("\\u").and_then(hex4).filter(|l| (0xdc00..=0xdfff).contains(l))?;
                        rest = &rest[6..];
                        char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))?
                    }
                    _ => char::from_u32(unit)?,
                }
            }
            _ => return None,
        });
    }
    out.push_str(rest);
    Some(Cow::Owned(out))
}

fn hex4(text: &str) -> Option<u32> {
    let digits = text.get(..4)?;
    if !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// A JSON number's text as an integer of type `T` (`None` for a fraction, an exponent, or a
/// value out of range), as serde_json reads an integer.
pub(crate) fn integer<T: std::str::FromStr>(text: &str) -> Option<T> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let plain = !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'));
    // "-0" is a float to serde_json (negative zero), not an integer.
    if !plain || text == "-0" {
        return None;
    }
    text.parse().ok()
}

/// A JSON number's text as a float (`None` when it is not a JSON number).
pub(crate) fn float(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let valid = matches!(b.first(), Some(b'-' | b'0'..=b'9')) && number_end(b, 0).is_ok_and(|end| end == b.len());
    // Past f64's range is an error to serde_json, not infinity.
    if valid {
        text.parse().ok().filter(|f: &f64| f.is_finite())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn agrees(text: &str) {
        let ours = Json::parse(text);
        let theirs = serde_json::from_str::<serde::de::IgnoredAny>(text);
        assert_eq!(ours.is_ok(), theirs.is_ok(), "{text:?}: ours {ours:?}, serde_json {theirs:?}");
        if let Ok(value) = ours {
            assert_eq!(value.get(), text.trim_matches([' ', '\t', '\n', '\r']), "{text:?}");
        }
    }

    #[test]
    fn agrees_with_serde_json_on_hand_picked_texts() {
        for text in [
            "",
            " ",
            "{",
            "}",
            "[",
            "]",
            "{}",
            "[]",
            " [ ] ",
            "{\"a\":1}",
            "{\"a\" : [1 , 2] }",
            "{\"a\":}",
            "{\"a\"}",
            "{a:1}",
            "{\"a\":1,}",
            "[1,]",
            "[,1]",
            "[1 2]",
            "{\"a\":1 \"b\":2}",
            "0",
            "-0",
            "01",
            "-",
            "1.",
            "1.5",
            ".5",
            "1e",
            "1e+",
            "1E-7",
            "1e5x",
            "-1.25e+10",
            "true",
            "tru",
            "truex",
            "false",
            "null",
            "nul",
            "\"\"",
            "\"a",
            "\"\\q\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\ud800\"",
            "\"\\n\\t\\\\\\/\"",
            "\"\u{1}\"",
            "\"é\"",
            "1 2",
            "[[[]]]",
            "[[[]]",
            "{\"a\":{\"b\":{}}}",
            "\t\r\n1\n",
            "\u{a0}1",
            "[1]x",
            "{\"a\":1}}",
            "[\"a\",{\"b\":[null,true,false]}]",
        ] {
            agrees(text);
        }
    }

    #[test]
    fn deep_nesting_needs_no_recursion_and_no_limit() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(Json::parse(&deep).map(|v| v.get().len()), Ok(200_000));
        let mixed = "{\"a\":[".repeat(70) + &"]}".repeat(70);
        assert!(Json::parse(&mixed).is_ok());
        assert!(Json::parse(&mixed[..mixed.len() - 1]).is_err());
        let wrong = "{\"a\":[".repeat(70) + &"}]".repeat(70);
        assert!(Json::parse(&wrong).is_err(), "closers must match their openers past 64 levels");
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(Json::parse("{\n  \"a\": 1,\n  x}").unwrap_err().to_string(), "key must be a string at line 3 column 3");
        assert_eq!(Json::parse("[1] x").unwrap_err().to_string(), "trailing characters at line 1 column 5");
        assert_eq!(Json::parse("\"ab").unwrap_err().to_string(), "EOF while parsing a string at line 1 column 4");
    }

    #[test]
    fn strings_decode_as_serde_json_does() {
        for literal in
            [r#""plain""#, r#""a\"b\\c\/d""#, r#""\b\f\n\r\t""#, r#""\u00e9\u4e2d""#, r#""\ud83d\ude00!""#, r#""\ud800""#, r#""\udc00x""#]
        {
            assert_eq!(string_text(literal).map(Cow::into_owned), serde_json::from_str::<String>(literal).ok(), "{literal}");
        }
        assert!(matches!(string_text(r#""no escapes""#), Some(Cow::Borrowed("no escapes"))));
        // Unchecked text: a backslash before a multi-byte character is no escape, and no panic.
        assert_eq!(string_text("\"\\\u{7b6}20\""), None);
        assert_eq!(string_text("\"\\"), None);
        assert_eq!(string_text("7"), None);
    }

    #[test]
    fn integers_read_as_serde_json_reads_them() {
        for text in [
            "0",
            "-0",
            "7",
            "-7",
            "18446744073709551615",
            "18446744073709551616",
            "9223372036854775807",
            "-9223372036854775808",
            "1.0",
            "1e3",
            "01",
            "-",
            "",
        ] {
            assert_eq!(integer::<u64>(text), serde_json::from_str::<u64>(text).ok(), "u64 {text}");
            assert_eq!(integer::<i64>(text), serde_json::from_str::<i64>(text).ok(), "i64 {text}");
        }
        assert_eq!(float("2.5"), Some(2.5));
        assert_eq!(float("-1e3"), Some(-1000.0));
        assert_eq!(float("1."), None);
        assert_eq!(float("inf"), None);
        assert_eq!(float("1e400"), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        #[test]
        fn agrees_with_serde_json_on_any_text(text in r#"[\[\]{}",:0-9.eE+\-tfrualsn\\ \n]{0,24}"#) {
            agrees(&text);
        }

        #[test]
        fn agrees_with_serde_json_on_mutated_json(
            seed in r#"\{"a":\[1,-2\.5e3,"x\\n",\{"b":null\}\],"c":true\}"#,
            at in 0usize..40,
            byte in proptest::sample::select(br#"{}[]":,0123456789.-+eE tfnul\"#.to_vec()),
        ) {
            let mut bytes = seed.into_bytes();
            let at = at % bytes.len();
            bytes[at] = byte;
            agrees(&String::from_utf8(bytes).unwrap());
        }
    }
}
