//! What a task is: its public snapshot and its stored outcome.

use super::status::TaskStatus;

/// A snapshot of one task, as `tasks/get` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// The receiver-generated identifier.
    pub task_id: String,
    /// Current status.
    pub status: TaskStatus,
    /// Optional human-readable description of the current status.
    pub status_message: Option<String>,
    /// Creation time, epoch milliseconds.
    pub created_at_ms: u64,
    /// Time of the last status change, epoch milliseconds.
    pub last_updated_at_ms: u64,
    /// Granted retention from creation in milliseconds; `None` is unlimited.
    pub ttl_ms: Option<u64>,
    /// Suggested polling interval in milliseconds.
    pub poll_interval_ms: Option<u64>,
}

/// The kind of request a task wraps. It decides how a result is judged:
/// a `tools/call` result with `isError: true` fails the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestKind {
    /// `tools/call` (server-side tasks).
    ToolsCall,
    /// `sampling/createMessage` (client-side tasks).
    SamplingCreateMessage,
    /// `elicitation/create` (client-side tasks).
    ElicitationCreate,
    /// Any other request a host chose to run as a task through the SDK store ([`crate::SdkStore`]).
    Other,
}

impl RequestKind {
    /// The JSON-RPC method of this kind, if it is one the spec names.
    pub fn method(self) -> Option<&'static str> {
        match self {
            RequestKind::ToolsCall => Some("tools/call"),
            RequestKind::SamplingCreateMessage => Some("sampling/createMessage"),
            RequestKind::ElicitationCreate => Some("elicitation/create"),
            RequestKind::Other => None,
        }
    }

    /// The kind for a JSON-RPC method name.
    pub fn from_method(method: &str) -> RequestKind {
        match method {
            "tools/call" => RequestKind::ToolsCall,
            "sampling/createMessage" => RequestKind::SamplingCreateMessage,
            "elicitation/create" => RequestKind::ElicitationCreate,
            _ => RequestKind::Other,
        }
    }
}

/// The kinds of input a requestor declared it can give (its client capabilities
/// for elicitation, sampling and roots), kept with the task so that the task
/// never asks for what its requestor cannot answer. One byte: the task table
/// holds one per task. [`UNDECLARED`](Self::UNDECLARED): no declaration reached
/// the engine, so nothing can be judged and every kind is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct InputCapabilities(u8);

impl InputCapabilities {
    pub const UNDECLARED: Self = InputCapabilities(0);
    /// A declaration that names no input kind.
    pub const NONE: Self = InputCapabilities(Self::DECLARED);
    pub const ELICITATION_FORM: Self = InputCapabilities(1);
    pub const ELICITATION_URL: Self = InputCapabilities(2);
    pub const SAMPLING: Self = InputCapabilities(4);
    pub const SAMPLING_TOOLS: Self = InputCapabilities(8);
    pub const ROOTS: Self = InputCapabilities(16);
    const DECLARED: u8 = 0x80;

    /// Each kind with its capability path (as in `elicitation.form`), the names
    /// messages and stored records use.
    pub const KINDS: [(Self, &'static str); 5] = [
        (Self::ELICITATION_FORM, "elicitation.form"),
        (Self::ELICITATION_URL, "elicitation.url"),
        (Self::SAMPLING, "sampling"),
        (Self::SAMPLING_TOOLS, "sampling.tools"),
        (Self::ROOTS, "roots"),
    ];

    /// Whether a declaration reached the engine.
    pub fn is_declared(self) -> bool {
        self.0 & Self::DECLARED != 0
    }

    /// Adds the kinds of `other` (and makes this a declaration).
    pub fn with(self, other: Self) -> Self {
        InputCapabilities(self.0 | other.0 | Self::DECLARED)
    }

    /// Whether every kind of `needed` is declared (always, when nothing was declared).
    pub fn allows(self, needed: Self) -> bool {
        !self.is_declared() || self.0 & needed.0 == needed.0
    }

    /// The first kind of `needed` that is not declared, by its path.
    pub fn missing(self, needed: Self) -> Option<&'static str> {
        if self.allows(needed) {
            return None;
        }
        Self::KINDS.iter().find(|(kind, _)| needed.0 & kind.0 != 0 && self.0 & kind.0 == 0).map(|(_, name)| *name)
    }

    /// The declared kinds' paths.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::KINDS.into_iter().filter(move |(kind, _)| self.0 & kind.0 != 0).map(|(_, name)| name)
    }

    /// A declaration from paths (unknown ones, e.g. from a later version, are skipped).
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        names.into_iter().fold(Self::NONE, |caps, name| match Self::KINDS.iter().find(|(_, n)| *n == name) {
            Some((kind, _)) => caps.with(*kind),
            None => caps,
        })
    }
}

/// What the underlying request returned, kept as the raw JSON text it arrived in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A JSON-RPC result object (e.g. a `CallToolResult`).
    Result(String),
    /// A JSON-RPC error object `{code, message, data?}`.
    Error(String),
}

impl Outcome {
    /// The raw JSON text.
    pub fn json(&self) -> &str {
        match self {
            Outcome::Result(s) | Outcome::Error(s) => s,
        }
    }
}

/// A borrowed view of a task, for writing it out without copying.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskView<'a> {
    pub id: &'a str,
    pub status: TaskStatus,
    pub status_message: Option<&'a str>,
    pub created_at: u64,
    pub updated_at: u64,
    pub ttl: Option<u64>,
    pub poll_interval: Option<u64>,
}

impl<'a> From<&'a Task> for TaskView<'a> {
    fn from(t: &'a Task) -> Self {
        TaskView {
            id: &t.task_id,
            status: t.status,
            status_message: t.status_message.as_deref(),
            created_at: t.created_at_ms,
            updated_at: t.last_updated_at_ms,
            ttl: t.ttl_ms,
            poll_interval: t.poll_interval_ms,
        }
    }
}
