//! Errors of host calls. Peer mistakes never become these: they are answered
//! with JSON-RPC errors on the wire.

use crate::core::TaskStatus;
use std::fmt;

/// Why a host call was refused. Nothing stored changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostError {
    /// No live task has this ID (never created, or expired and deleted).
    UnknownTask { task_id: String },
    /// The task was cancelled; the work's late outcome was dropped.
    TaskCancelled { task_id: String },
    /// The task is terminal; its status and result never change again.
    AlreadyTerminal { task_id: String, status: TaskStatus },
    /// The spec does not allow this status change.
    IllegalTransition { task_id: String, from: TaskStatus, to: TaskStatus },
    /// An argument was not what the call needs (bad JSON, wrong shape, NaN, ...).
    InvalidArgument { message: String },
    /// A configured limit was reached.
    LimitExceeded { message: String },
    /// The ID source produced an empty ID or one already in use.
    DuplicateId { task_id: String },
    /// A `tasks/list` cursor that this engine did not issue to this context.
    InvalidCursor,
    /// Listing is not available (not declared, or no context to scope it to).
    ListUnavailable { message: String },
    /// The storage holds something under this task's key that is not its record
    /// (unparseable, another task's, a version that disagrees). `detail` says
    /// what for the operator's log; it never reaches a peer.
    DamagedRecord { task_id: String, detail: String },
    /// The task asked its requestor for input of a kind the requestor did not
    /// declare in its client capabilities (e.g. `elicitation/create` without
    /// `elicitation`); nothing was sent and the task did not change.
    CapabilityNotDeclared {
        task_id: String,
        /// The request's method.
        method: String,
        /// The missing capability's path, e.g. `elicitation.form`, `sampling.tools`, `roots`.
        capability: &'static str,
    },
}

impl HostError {
    /// A stable, machine-readable code (`"unknown_task"`, `"task_cancelled"`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            HostError::UnknownTask { .. } => "unknown_task",
            HostError::TaskCancelled { .. } => "task_cancelled",
            HostError::AlreadyTerminal { .. } => "already_terminal",
            HostError::IllegalTransition { .. } => "illegal_transition",
            HostError::InvalidArgument { .. } => "invalid_argument",
            HostError::LimitExceeded { .. } => "limit_exceeded",
            HostError::DuplicateId { .. } => "duplicate_id",
            HostError::InvalidCursor => "invalid_cursor",
            HostError::ListUnavailable { .. } => "list_unavailable",
            HostError::DamagedRecord { .. } => "damaged_record",
            HostError::CapabilityNotDeclared { .. } => "capability_not_declared",
        }
    }

    /// The JSON-RPC error code a host that answers a peer for this call sends
    /// (as SDK task stores do): `-32602` (Invalid params) when the request named
    /// something wrong, `-32603` (Internal error) when the receiver could not serve it.
    ///
    /// ```
    /// use mcp_task_core::HostError;
    /// assert_eq!(HostError::InvalidCursor.rpc_code(), -32602);
    /// assert_eq!(HostError::LimitExceeded { message: "full".into() }.rpc_code(), -32603);
    /// ```
    pub fn rpc_code(&self) -> i64 {
        match self {
            HostError::UnknownTask { .. }
            | HostError::TaskCancelled { .. }
            | HostError::AlreadyTerminal { .. }
            | HostError::IllegalTransition { .. }
            | HostError::InvalidArgument { .. }
            | HostError::InvalidCursor => crate::protocol::jsonrpc::INVALID_PARAMS,
            HostError::LimitExceeded { .. }
            | HostError::DuplicateId { .. }
            | HostError::ListUnavailable { .. }
            | HostError::DamagedRecord { .. } => crate::protocol::jsonrpc::INTERNAL_ERROR,
            HostError::CapabilityNotDeclared { .. } => crate::protocol::extension::MISSING_CLIENT_CAPABILITY,
        }
    }

    /// For [`CapabilityNotDeclared`](Self::CapabilityNotDeclared): the
    /// `data.requiredCapabilities` object of a `-32021` error, as JSON text.
    ///
    /// ```
    /// use mcp_task_core::HostError;
    /// let e = HostError::CapabilityNotDeclared { task_id: "t1".into(), method: "elicitation/create".into(), capability: "elicitation.url" };
    /// assert_eq!(e.required_capabilities_json().unwrap(), r#"{"elicitation":{"url":{}}}"#);
    /// ```
    pub fn required_capabilities_json(&self) -> Option<String> {
        match self {
            HostError::CapabilityNotDeclared { capability, .. } => Some(crate::protocol::client_capabilities::required_json(capability)),
            _ => None,
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        HostError::InvalidArgument { message: message.into() }
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::UnknownTask { task_id } => write!(f, "No live task with ID '{task_id}' (never created, or expired)"),
            HostError::TaskCancelled { task_id } => {
                write!(f, "Task '{task_id}' was cancelled; it stays cancelled and this outcome was dropped")
            }
            HostError::AlreadyTerminal { task_id, status } => {
                write!(f, "Task '{task_id}' is already in terminal status '{status}' and cannot change")
            }
            HostError::IllegalTransition { task_id, from, to } => {
                write!(f, "Task '{task_id}' cannot move from '{from}' to '{to}'")
            }
            HostError::InvalidArgument { message } | HostError::LimitExceeded { message } | HostError::ListUnavailable { message } => {
                f.write_str(message)
            }
            HostError::DuplicateId { task_id } => {
                write!(f, "The task ID source returned '{task_id}', which is empty or already in use; no task was created")
            }
            HostError::InvalidCursor => f.write_str("Invalid cursor: use a nextCursor from an earlier list page of the same context"),
            HostError::DamagedRecord { task_id, .. } => {
                write!(f, "The stored state of task '{task_id}' is damaged and cannot be read; the server has reported it")
            }
            HostError::CapabilityNotDeclared { task_id, method, capability } => write!(
                f,
                "The client did not declare the capability '{capability}' that {method} needs, so task '{task_id}' cannot send it (nothing was sent)"
            ),
        }
    }
}

impl std::error::Error for HostError {}
