//! JSON-RPC ids as the public API hands them out (the engine and the requestor): the raw JSON
//! text of the id, so that `"7"` (a string) and `7` (a number) stay apart.

use crate::error::HostError;
use crate::protocol::json::{integer, string_text, Json};
use crate::protocol::jsonrpc::json_string;
use std::fmt;

/// A JSON-RPC request id as raw JSON text: a JSON string (`"r1"` with its
/// quotes) or an integer (`7`). Made only from valid ids.
///
/// ```
/// use mcp_task_core::RawId;
/// let id = RawId::parse(r#""mcp-task-core:1""#).unwrap();
/// assert_eq!(id.as_str(), r#""mcp-task-core:1""#);
/// assert_eq!(id.as_string_id(), Some("mcp-task-core:1".to_owned()));
/// assert_eq!(RawId::string("r1"), RawId::parse(r#""r1""#).unwrap());
/// assert_eq!(RawId::parse("7").unwrap().as_str(), "7");
/// assert!(RawId::parse("r1").is_err(), "an unquoted string is not JSON");
/// assert!(RawId::parse("1.5").is_err() && RawId::parse("null").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawId(String);

impl RawId {
    /// Checks that `raw` is a JSON string or integer (surrounding whitespace is dropped).
    pub fn parse(raw: &str) -> Result<RawId, HostError> {
        let raw = raw.trim();
        let valid = Json::parse(raw).is_ok_and(|v| match v.kind() {
            b'"' => string_text(v.get()).is_some(),
            _ => integer::<i64>(v.get()).is_some() || integer::<u64>(v.get()).is_some(),
        });
        if valid {
            Ok(RawId(raw.to_owned()))
        } else {
            Err(HostError::invalid(format!(
                "Not a JSON-RPC id: {} (expected raw JSON, a string in quotes or an integer)",
                json_string(&raw.chars().take(100).collect::<String>())
            )))
        }
    }

    /// The id of string `id` (quoted and escaped as JSON).
    pub fn string(id: &str) -> RawId {
        RawId(json_string(id))
    }

    /// Trusted raw text (an id read from a parsed message, or one we made).
    pub(crate) fn trusted(raw: impl Into<String>) -> RawId {
        RawId(raw.into())
    }

    /// The raw JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The string inside a string id; `None` for an integer id.
    pub fn as_string_id(&self) -> Option<String> {
        string_text(&self.0).map(|s| s.into_owned())
    }
}

impl fmt::Display for RawId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for RawId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for RawId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RawId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl From<RawId> for String {
    fn from(id: RawId) -> String {
        id.0
    }
}

impl PartialEq<RawId> for String {
    fn eq(&self, other: &RawId) -> bool {
        *self == other.0
    }
}

impl PartialEq<RawId> for &str {
    fn eq(&self, other: &RawId) -> bool {
        *self == other.0
    }
}
