//! Wire formats. `jsonrpc` reads and writes envelopes; each task dialect is
//! one module that decodes its requests and encodes its replies: `legacy`
//! (MCP 2025-11-25, tasks in the core protocol) and `extension` (the
//! `io.modelcontextprotocol/tasks` extension of MCP 2026-07-28). What differs
//! between them as rules, not shapes, is data on [`Dialect`]; what differs as
//! shapes is behind the `Codec` trait (the receiver's side) and the
//! `RequestorCodec` trait, reached through `codec(dialect)` and
//! `requestor_codec(dialect)`. The engine and the requestor name no dialect
//! module: a request's `Negotiation` says which codec reads it. Shapes both
//! dialects share live in `shapes`.

pub(crate) mod client_capabilities;
pub mod constants;
pub mod extension;
pub mod json;
pub mod jsonrpc;
pub mod legacy;
pub(crate) mod params;
pub mod raw_id;
#[cfg(feature = "requestor")]
mod requesting;
mod shapes;
pub(crate) mod task_members;

use crate::config::Config;
pub use crate::core::Dialect;
use crate::core::{InputCapabilities, Outcome, RequestKind, TaskSupport, TaskView};
use json::Json;
use jsonrpc::RpcError;
#[cfg(feature = "requestor")]
pub(crate) use requesting::{requestor_codec, Acknowledged, Declaration, InputAnswer, ReadTask, RequestorCodec};
#[cfg(feature = "requestor")]
pub(crate) use shapes::related_task_id;
pub use shapes::TtlRequest;
pub(crate) use shapes::{input_request, related_task_value, InputRequest, RELATED_TASK};
use std::borrow::Cow;

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

    /// Whether requests the task sends the requestor travel on a waiting
    /// `tasks/result` (2025-11-25) rather than in `inputRequests`.
    pub fn side_channel(self) -> bool {
        self == Dialect::Legacy
    }

    /// Whether `tasks/cancel` on a finished task is an error (2025-11-25:
    /// `-32602`) rather than an acknowledgement (the extension's cancel is idempotent).
    pub fn cancel_of_terminal_is_error(self) -> bool {
        self == Dialect::Legacy
    }

    /// The dialect a protocol version speaks: the tasks extension from
    /// 2026-07-28 on, 2025-11-25's tasks before it. Every version the crate
    /// reads (a request's `_meta`, a stored record, an option) goes through here.
    ///
    /// ```
    /// use mcp_task_core::Dialect;
    /// assert_eq!(Dialect::of_version("2026-07-28"), Dialect::Extension);
    /// assert_eq!(Dialect::of_version("2027-01-01"), Dialect::Extension);
    /// assert_eq!(Dialect::of_version("2025-06-18"), Dialect::Legacy);
    /// ```
    pub fn of_version(version: &str) -> Dialect {
        if version >= EXTENSION_PROTOCOL_VERSION {
            Dialect::Extension
        } else {
            Dialect::Legacy
        }
    }

    /// The dialect whose [`protocol_version`](Self::protocol_version) is
    /// exactly `version`, as options and saved states name a dialect.
    ///
    /// ```
    /// use mcp_task_core::Dialect;
    /// assert_eq!(Dialect::named("2025-11-25"), Some(Dialect::Legacy));
    /// assert_eq!(Dialect::named("2027-01-01"), None);
    /// ```
    pub fn named(version: &str) -> Option<Dialect> {
        let dialect = Dialect::of_version(version);
        (dialect.protocol_version() == version).then_some(dialect)
    }

    /// The dialect a request speaks, from its own `_meta` (see the rule above).
    fn of_meta(meta: &extension::RequestMeta<'_>) -> Dialect {
        meta.protocol_version.as_deref().map_or(Dialect::Legacy, Dialect::of_version)
    }
}

/// What a request's `_meta` says before a codec reads it: the dialect it
/// speaks, and the client's declaration it carries. Read once per request.
pub(crate) struct Negotiation<'a> {
    pub dialect: Dialect,
    meta: extension::RequestMeta<'a>,
}

impl<'a> Negotiation<'a> {
    /// Reads `params._meta`; `forced` is the dialect the host knows the
    /// request speaks (2025-11-25 then skips the read: it has no such `_meta`).
    pub fn read(params: Option<Json<'a>>, forced: Option<Dialect>) -> Self {
        let meta = match forced {
            Some(Dialect::Legacy) => extension::RequestMeta::default(),
            _ => extension::RequestMeta::read(params),
        };
        let dialect = forced.unwrap_or_else(|| Dialect::of_meta(&meta));
        Negotiation { dialect, meta }
    }

    /// The request declares the tasks extension in its own `_meta`.
    pub fn declares_tasks(&self) -> bool {
        self.meta.declares_tasks
    }

    /// The declaration that governs what a new task may ask its requestor: in
    /// the tasks extension the creating request's own `_meta` (every 2026-07-28
    /// request carries the client's capabilities, and nothing earlier may stand
    /// in for them); in 2025-11-25 the session's `initialize` capabilities
    /// (`session`, JSON text), when the host passes them. Without either nothing
    /// can be judged.
    pub fn input_capabilities(&self, session: Option<&str>) -> InputCapabilities {
        match self.dialect {
            Dialect::Extension => self.meta.capabilities.map_or(InputCapabilities::NONE, client_capabilities::declared),
            Dialect::Legacy => session.map_or(InputCapabilities::UNDECLARED, client_capabilities::declared),
        }
    }
}

/// The tasks a `subscriptions/listen` request (`params.notifications.taskIds`)
/// asks to follow, none when it names none; `Err` when its client did not
/// declare the tasks extension, the only dialect with such streams.
pub(crate) fn listened_tasks(params: Option<Json<'_>>) -> Result<Vec<String>, RpcError> {
    extension::listened_tasks(params)
}

/// Writes the response to a request that waited for a task's outcome (2025-11-25
/// `tasks/result`), from the ended task, its outcome and the request's raw id.
pub(crate) type OutcomeResponse = fn(TaskView<'_>, Option<&Outcome>, &str) -> String;

/// Writes a result listing a page of tasks (2025-11-25 `tasks/list`), with the next cursor.
pub(crate) type ListPage = fn(&mut dyn Iterator<Item = TaskView<'_>>, Option<&str>) -> String;

/// A peer request as its dialect reads it: what the engine is asked to do.
/// The engine carries it out the same way whichever dialect spoke. A request
/// only one dialect has brings the writer of its answer along.
pub(crate) enum TaskRequest<'a> {
    Get {
        task_id: Cow<'a, str>,
    },
    /// 2025-11-25: wait for the outcome.
    Result {
        task_id: Cow<'a, str>,
        /// Writes the answer once the task has ended (now, or for a waiter later).
        respond: OutcomeResponse,
    },
    /// 2025-11-25: a page of the context's tasks (the codec has checked they may be listed).
    List {
        cursor: Option<Cow<'a, str>>,
        page: ListPage,
    },
    Cancel {
        task_id: Cow<'a, str>,
    },
    /// Tasks extension: answers to the task's outstanding input requests, by key.
    Update {
        task_id: Cow<'a, str>,
        responses: Vec<(Cow<'a, str>, &'a str)>,
        /// The result to answer with once they are applied.
        ack: &'static str,
    },
    /// A request to run as a task.
    CreateTask {
        kind: RequestKind,
        ttl: TtlRequest,
        progress_token: Option<String>,
    },
    /// Not the engine's business (including a request to run plainly): the host handles it.
    Other,
}

/// What a dialect needs to know to read a request.
pub(crate) struct Env<'e> {
    pub config: &'e Config,
    /// The context the request came from.
    pub context: Option<&'e str>,
    /// The task policy of a tool.
    pub tool: &'e dyn Fn(&str) -> TaskSupport,
    /// The `Mcp-Name` header, when the transport has one.
    pub mcp_name: Option<&'e str>,
    /// The request's `_meta` declares the tasks extension (read once per
    /// request; only the extension's codec asks).
    pub declares_tasks: bool,
}

/// One task dialect: how its requests read and its answers are written.
/// Adding a dialect is one more implementation of this, in one more module.
pub(crate) trait Codec {
    /// Reads one request; `Err` is the JSON-RPC error to answer with.
    fn decode<'a>(&self, method: &str, params: Option<Json<'a>>, env: &Env<'_>) -> Result<TaskRequest<'a>, RpcError>;
    /// The result that hands out a new task.
    fn created(&self, t: TaskView<'_>, config: &Config) -> String;
    /// The `tasks/get` result.
    fn task_result(&self, t: TaskView<'_>, outcome: Option<&Outcome>, inputs: &mut dyn Iterator<Item = InputRequest<'_>>) -> String;
    /// The `tasks/cancel` result for a task now cancelled, or left as it ended
    /// (only where [`Dialect::cancel_of_terminal_is_error`] is false).
    fn cancel_result(&self, t: TaskView<'_>) -> String;
    /// A status notification: to the task's context when `stream` is `None`,
    /// else on that `subscriptions/listen` stream (its raw JSON id); `None`
    /// where the dialect pushes none there.
    fn status_notification(
        &self,
        t: TaskView<'_>,
        outcome: Option<&Outcome>,
        inputs: &mut dyn Iterator<Item = InputRequest<'_>>,
        stream: Option<&str>,
    ) -> Option<String>;
    /// What a receiver declares of tasks in its capabilities, for a session in
    /// `context`: the `tasks` object of `initialize` (2025-11-25), or the
    /// value for `capabilities.extensions` (tasks extension).
    fn capabilities(&self, config: &Config, context: Option<&str>) -> String;
    /// The params of a request the task sends the requestor; `None` when not a usable object.
    fn input_params(&self, params: &str, task_id: &str) -> Option<String>;
}

/// The codec of a dialect.
pub(crate) fn codec(dialect: Dialect) -> &'static dyn Codec {
    match dialect {
        Dialect::Legacy => &legacy::Legacy,
        Dialect::Extension => &extension::Extension,
    }
}
