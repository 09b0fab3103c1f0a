//! What each quota key holds: running tasks and stored bytes, kept up to date
//! by the task table, checked before a task is created.
//!
//! A quota key names whose allowance a request spends (a session, a user, a
//! client address), apart from the context that decides whose tasks it sees.
//! Without one supplied by the host, the context is the key.

use super::fast_map::FastMap;
use crate::config::Limits;
use std::sync::Arc;

/// Bytes counted for a task's record besides the texts it holds (its ID,
/// status message, result or error, progress token): about what a finished
/// task with a short result costs in the table.
pub(crate) const RECORD_BYTES: usize = 256;

/// Whose allowance a task or request spends. The host's keys and contexts are
/// kept apart, so a key can never draw on a context's allowance by sharing its name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum QuotaKey {
    Given(Arc<str>),
    Context(Option<Arc<str>>),
}

impl QuotaKey {
    /// The host's key when it gave one (and it is not the context itself), else the context.
    pub fn of(quota_key: Option<&str>, context: Option<&str>) -> QuotaKey {
        match quota_key {
            Some(key) if Some(key) != context => QuotaKey::Given(Arc::from(key)),
            _ => QuotaKey::Context(context.map(Arc::from)),
        }
    }
}

/// What one key (or the whole engine) holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// Tasks `working` or `input_required`.
    pub running: usize,
    /// Stored size of every live task, finished or not.
    pub bytes: usize,
}

/// What a single task adds to its key's [`Usage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Footprint {
    pub running: bool,
    pub bytes: usize,
}

/// Why a new task would pass a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QuotaRefusal {
    RunningPerKey { limit: usize },
    RunningTotal { limit: usize },
    BytesPerKey { limit: usize },
    BytesTotal { limit: usize },
}

impl QuotaRefusal {
    /// The refusal as the requestor reads it (JSON-RPC error or host error message).
    pub fn message(self) -> String {
        match self {
            QuotaRefusal::RunningPerKey { limit } => {
                format!("Too many running tasks for this client (limit {limit}): wait for some to finish, or cancel some")
            }
            QuotaRefusal::RunningTotal { limit } => format!("This receiver runs its maximum of {limit} tasks: try again later"),
            QuotaRefusal::BytesPerKey { limit } => {
                format!("The tasks of this client hold their maximum of {limit} bytes: wait for finished ones to expire, or cancel some")
            }
            QuotaRefusal::BytesTotal { limit } => format!("This receiver holds its maximum of {limit} bytes of tasks: try again later"),
        }
    }

    /// The limit as an audit record names it.
    pub fn audit_detail(self) -> String {
        match self {
            QuotaRefusal::RunningPerKey { limit } => format!("running tasks of the quota key (limit {limit})"),
            QuotaRefusal::RunningTotal { limit } => format!("running tasks in the engine (limit {limit})"),
            QuotaRefusal::BytesPerKey { limit } => format!("stored bytes of the quota key (limit {limit})"),
            QuotaRefusal::BytesTotal { limit } => format!("stored bytes in the engine (limit {limit})"),
        }
    }
}

/// Usage per key and in all. A key leaves the map when it holds nothing.
#[derive(Debug, Default)]
pub(crate) struct Quotas {
    by_key: FastMap<QuotaKey, Usage>,
    total: Usage,
}

impl Quotas {
    pub fn usage(&self, key: &QuotaKey) -> Usage {
        self.by_key.get(key).copied().unwrap_or_default()
    }

    /// Whether a new running task of `RECORD_BYTES` fits `key`'s allowance and the engine's.
    pub fn admit(&self, key: &QuotaKey, limits: &Limits) -> Result<(), QuotaRefusal> {
        let mine = self.usage(key);
        if mine.running >= limits.max_running_tasks_per_key {
            return Err(QuotaRefusal::RunningPerKey { limit: limits.max_running_tasks_per_key });
        }
        if self.total.running >= limits.max_running_tasks_total {
            return Err(QuotaRefusal::RunningTotal { limit: limits.max_running_tasks_total });
        }
        if mine.bytes.saturating_add(RECORD_BYTES) > limits.max_stored_bytes_per_key {
            return Err(QuotaRefusal::BytesPerKey { limit: limits.max_stored_bytes_per_key });
        }
        if self.total.bytes.saturating_add(RECORD_BYTES) > limits.max_stored_bytes_total {
            return Err(QuotaRefusal::BytesTotal { limit: limits.max_stored_bytes_total });
        }
        Ok(())
    }

    /// Moves `key`'s usage from what a task held (`before`) to what it holds now (`after`).
    pub fn change(&mut self, key: &QuotaKey, before: Option<Footprint>, after: Option<Footprint>) {
        if before == after {
            return;
        }
        let (run_out, bytes_out) = before.map_or((0, 0), |f| (usize::from(f.running), f.bytes));
        let (run_in, bytes_in) = after.map_or((0, 0), |f| (usize::from(f.running), f.bytes));
        let apply = |u: &mut Usage| {
            u.running = u.running.saturating_sub(run_out).saturating_add(run_in);
            u.bytes = u.bytes.saturating_sub(bytes_out).saturating_add(bytes_in);
        };
        apply(&mut self.total);
        match self.by_key.get_mut(key) {
            Some(u) => {
                apply(u);
                if *u == Usage::default() {
                    self.by_key.remove(key);
                }
            }
            None => {
                let mut u = Usage::default();
                apply(&mut u);
                if u != Usage::default() {
                    self.by_key.insert(key.clone(), u);
                }
            }
        }
    }

    /// Keys holding anything (for tests).
    #[cfg(test)]
    pub fn keys(&self) -> usize {
        self.by_key.len()
    }

    #[cfg(test)]
    pub fn total(&self) -> Usage {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(running: usize, bytes: usize) -> Limits {
        Limits {
            max_running_tasks_per_key: running,
            max_running_tasks_total: 3,
            max_stored_bytes_per_key: bytes,
            max_stored_bytes_total: 10 * RECORD_BYTES,
            ..Limits::default()
        }
    }

    const RUNNING: Option<Footprint> = Some(Footprint { running: true, bytes: RECORD_BYTES });

    #[test]
    fn keys_spend_their_own_allowance_and_the_host_key_never_shares_a_context_name() {
        let a = QuotaKey::of(Some("10.0.0.1"), None);
        let b = QuotaKey::of(Some("10.0.0.2"), None);
        assert_ne!(QuotaKey::of(Some("alice"), Some("bob")), QuotaKey::of(None, Some("alice")));
        assert_eq!(
            QuotaKey::of(Some("alice"), Some("alice")),
            QuotaKey::of(None, Some("alice")),
            "a key equal to the context is the context"
        );
        let l = limits(2, 100 * RECORD_BYTES);
        let mut q = Quotas::default();
        q.change(&a, None, RUNNING);
        q.change(&a, None, RUNNING);
        assert_eq!(q.admit(&a, &l), Err(QuotaRefusal::RunningPerKey { limit: 2 }));
        assert_eq!(q.admit(&b, &l), Ok(()), "another key is not starved by a full one");
        q.change(&b, None, RUNNING);
        assert_eq!(q.admit(&b, &l), Err(QuotaRefusal::RunningTotal { limit: 3 }), "the engine-wide limit still holds");
    }

    #[test]
    fn a_finished_task_counts_by_its_stored_size_not_as_running_work() {
        let a = QuotaKey::of(None, Some("ctx"));
        let l = limits(1, 4 * RECORD_BYTES);
        let mut q = Quotas::default();
        q.change(&a, None, RUNNING);
        assert!(q.admit(&a, &l).is_err());
        let finished = Some(Footprint { running: false, bytes: RECORD_BYTES + 300 });
        q.change(&a, RUNNING, finished);
        assert_eq!(q.usage(&a), Usage { running: 0, bytes: RECORD_BYTES + 300 });
        assert_eq!(q.admit(&a, &l), Ok(()), "finished tasks no longer hold a running slot");
        q.change(&a, None, finished);
        assert_eq!(q.admit(&a, &l), Err(QuotaRefusal::BytesPerKey { limit: 4 * RECORD_BYTES }), "but their bytes count");
        q.change(&a, finished, None);
        q.change(&a, finished, None);
        assert_eq!((q.keys(), q.total()), (0, Usage::default()), "a key that holds nothing is forgotten");
    }
}
