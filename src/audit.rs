//! Audit events: what happened to which task, for whom, for the host's log
//! (the spec's security section asks receivers to log creation, completion,
//! retrieval and suspicious patterns such as failed lookups).

use crate::core::TaskStatus;

/// What an [`AuditEvent`] records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditAction {
    /// A task was created.
    Created,
    /// A task changed status (other than by cancellation).
    Transitioned { from: TaskStatus, to: TaskStatus },
    /// A task was cancelled (by the peer or the host).
    Cancelled { from: TaskStatus },
    /// A `tasks/result` was answered with the task's payload.
    ResultFetched,
    /// A task's TTL ran out and it was deleted.
    Expired,
    /// A peer asked for a task it may not see (unknown, or another context's).
    AccessRefused,
    /// A configured limit refused a request or a host call.
    LimitHit,
    /// The `tasks/*` rate limit refused a request.
    RateLimited,
    /// Storage mode: the storage held something under a task's key that is not its
    /// record; the detail says what (see [`Storage::restore_stored`](crate::Storage::restore_stored)).
    RecordDamaged,
}

impl AuditAction {
    /// A short stable name (`"created"`, `"transitioned"`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            AuditAction::Created => "created",
            AuditAction::Transitioned { .. } => "transitioned",
            AuditAction::Cancelled { .. } => "cancelled",
            AuditAction::ResultFetched => "result_fetched",
            AuditAction::Expired => "expired",
            AuditAction::AccessRefused => "access_refused",
            AuditAction::LimitHit => "limit_hit",
            AuditAction::RateLimited => "rate_limited",
            AuditAction::RecordDamaged => "record_damaged",
        }
    }
}

/// One audit record. Emitted as [`Event::Audit`](crate::Event::Audit) when
/// [`Config::audit`](crate::Config::audit) is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEvent {
    /// What happened.
    pub action: AuditAction,
    /// The task concerned, when there is one.
    pub task_id: Option<String>,
    /// The authorization context of the requestor (or of the task).
    pub context: Option<String>,
    /// Details for a person reading the log.
    pub detail: Option<String>,
}
