//! What the engine hands the host: messages to send and events to act on.

use crate::audit::AuditEvent;
use crate::core::RequestKind;
use crate::protocol::raw_id::RawId;

/// One item from [`Engine::poll_output`](crate::Engine::poll_output).
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// A JSON-RPC message for the peer.
    Send(Transmit),
    /// With [`Config::storage`](crate::Config::storage): make this task change
    /// durable before delivering any output after it. Persists always come
    /// first in the queue.
    Persist(Persist),
    /// Something the host must act on.
    Event(Event),
}

/// One task change for the external storage: a compare-and-set on the task's version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Persist {
    pub task_id: String,
    /// The version the storage must hold now; `None`: the task must not exist yet.
    pub expected_version: Option<u64>,
    /// The version written.
    pub version: u64,
    /// The task's record (JSON text, see [`Storage::restore`](crate::Storage::restore));
    /// `None`: delete it (its TTL passed).
    pub record: Option<String>,
    /// When the storage may drop the record by itself (the task's TTL deadline, epoch ms).
    pub expires_at: Option<u64>,
    /// A repair: the storage holds a damaged record under this task's key, whose
    /// version its storage reported as this text (see
    /// [`Storage::restore_stored`](crate::Storage::restore_stored)); the
    /// compare-and-set expects this text instead of `expected_version`.
    pub replaces: Option<String>,
}

/// A JSON-RPC message to deliver to the peer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmit {
    /// The authorization context (session) the message belongs to.
    pub context: Option<String>,
    /// The raw JSON id of the waiting `tasks/result` request this message
    /// answers or travels with (over Streamable HTTP: that request's SSE stream).
    /// `None` for messages that go on any stream the context has open.
    pub in_reply_to: Option<RawId>,
    /// The JSON-RPC message text.
    pub message: String,
}

/// Work for the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Run this task-augmented request as task `task_id`, then report its outcome
    /// with [`complete`](crate::Engine::complete) or [`fail`](crate::Engine::fail).
    /// `request` is the original JSON-RPC request text (its `task` field is the engine's business).
    Execute { task_id: String, context: Option<String>, kind: RequestKind, request: String },
    /// Not the engine's business: process this message as usual (including
    /// requests run normally because they carry no task, or their type is not
    /// declared for tasks, whose `task` field must then be ignored).
    Forward { context: Option<String>, message: String },
    /// The task was cancelled: stop its work. Any later outcome is dropped.
    Cancelled { task_id: String, context: Option<String> },
    /// The task's TTL ran out and it was deleted; stop its work if it still runs.
    Expired { task_id: String, context: Option<String>, was_terminal: bool },
    /// The requestor answered a side-channel request of the task (see
    /// [`request_input`](crate::Engine::request_input)). `response` is the JSON-RPC response text.
    InputResponse { task_id: String, context: Option<String>, request_id: RawId, response: String },
    /// A record for the host's audit log (only with [`Config::audit`](crate::Config::audit)).
    Audit(AuditEvent),
    /// The output queue was full ([`Limits::max_pending_outputs`](crate::Limits::max_pending_outputs)):
    /// this many notifications, forwarded notifications and audit records were
    /// dropped since the last such event. Drain outputs after every call.
    OutputsDropped { count: u64 },
}
