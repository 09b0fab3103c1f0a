//! Which task surface created a task. The task table keeps it as a tag; its
//! rules and its wire formats are the protocol layer's (`impl Dialect` in `protocol/`).

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
