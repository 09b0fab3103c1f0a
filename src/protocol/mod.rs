//! Wire formats. `jsonrpc` reads and writes envelopes; each task dialect is
//! one module that decodes its requests and encodes its replies: `legacy`
//! (MCP 2025-11-25, tasks in the core protocol) and `extension` (the
//! `io.modelcontextprotocol/tasks` extension of MCP 2026-07-28). What differs
//! between them as rules, not shapes, is data on [`Dialect`].

pub mod extension;
pub mod jsonrpc;
pub mod legacy;
pub(crate) mod params;

use serde_json::value::RawValue;

/// Which task surface a message speaks.
///
/// The engine decides per request: a request whose
/// `params._meta["io.modelcontextprotocol/protocolVersion"]` names 2026-07-28
/// or later speaks [`Extension`](Dialect::Extension) (the 2026-07-28 base
/// protocol requires that field on every request); anything else speaks
/// [`Legacy`](Dialect::Legacy). A host that knows better (for example from the
/// session's negotiated version or the `MCP-Protocol-Version` header) passes
/// the dialect in [`Inbound`](crate::Inbound).
///
/// ```
/// use mcp_task_core::Dialect;
/// assert_eq!(Dialect::Extension.protocol_version(), "2026-07-28");
/// assert!(Dialect::Legacy.serves("tasks/result") && !Dialect::Extension.serves("tasks/result"));
/// assert!(!Dialect::Extension.tool_error_fails_task());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// MCP 2025-11-25: `params.task`, `tasks/get|result|list|cancel`, side channel on `tasks/result`.
    #[default]
    Legacy,
    /// MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`: server-decided
    /// tasks, `tasks/get|update|cancel`, outcome inlined, `inputRequests`.
    Extension,
}

/// The first protocol version that speaks the tasks extension.
pub const EXTENSION_PROTOCOL_VERSION: &str = "2026-07-28";

impl Dialect {
    /// The protocol version this dialect belongs to.
    pub fn protocol_version(self) -> &'static str {
        match self {
            Dialect::Legacy => "2025-11-25",
            Dialect::Extension => EXTENSION_PROTOCOL_VERSION,
        }
    }

    /// Whether `method` is a `tasks/*` method of this dialect.
    pub fn serves(self, method: &str) -> bool {
        match self {
            Dialect::Legacy => matches!(method, "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel"),
            Dialect::Extension => matches!(method, "tasks/get" | "tasks/update" | "tasks/cancel"),
        }
    }

    /// Whether a `tools/call` result with `isError: true` makes the task
    /// `failed` (2025-11-25) rather than `completed` (the extension keeps
    /// `failed` for JSON-RPC errors only).
    pub fn tool_error_fails_task(self) -> bool {
        self == Dialect::Legacy
    }

    /// Whether `tasks/cancel` on a finished task is an error (2025-11-25:
    /// `-32602`) rather than an acknowledgement (the extension's cancel is idempotent).
    pub fn cancel_of_terminal_is_error(self) -> bool {
        self == Dialect::Legacy
    }

    /// Whether only `tools/call` can become a task (the extension has no
    /// client-hosted tasks).
    pub fn tools_only(self) -> bool {
        self == Dialect::Extension
    }

    /// The dialect a request speaks, from its own `_meta` (see the rule above).
    pub fn of_request(params: Option<&RawValue>) -> Dialect {
        match extension::RequestMeta::read(params).protocol_version {
            Some(v) if v.as_ref() >= EXTENSION_PROTOCOL_VERSION => Dialect::Extension,
            _ => Dialect::Legacy,
        }
    }
}
