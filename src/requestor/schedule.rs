//! When to poll next: the receiver's `pollInterval` (never below a floor), or
//! the requestor's own doubling backoff when it gave none; a growing backoff
//! between retries after failures; and how long to wait for each answer.

/// Polling policy of a [`Requestor`](super::Requestor).
///
/// ```
/// use mcp_task_core::PollPolicy;
/// let policy = PollPolicy::default();
/// let mut backoff = policy.initial_backoff_ms;
/// // A receiver's pollInterval is honoured, even above the ceiling...
/// assert_eq!(policy.next_wait(Some(300_000), &mut backoff), 300_000);
/// // ...and the ceiling bounds only the requestor's own backoff.
/// assert_eq!(policy.next_wait(None, &mut backoff), 500);
/// assert_eq!(policy.next_wait(None, &mut backoff), 1_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PollPolicy {
    /// Never poll more often than this (ms), whatever `pollInterval` says.
    pub floor_ms: u64,
    /// Longest wait of the requestor's own backoff (ms): between polls when the
    /// receiver gives no `pollInterval`, and between retries after failures.
    /// A receiver's `pollInterval` is honoured even when longer.
    pub ceiling_ms: u64,
    /// First wait when the receiver suggests no interval, and first retry
    /// backoff after a failure (ms); doubles each time, up to the ceiling.
    pub initial_backoff_ms: u64,
    /// How long to wait for the answer to a `tasks/get`, `tasks/cancel`,
    /// `tasks/list` page or task-augmented request (ms). Then a `tasks/get`
    /// is retried; the others are reported as failed.
    pub request_timeout_ms: u64,
    /// How long to wait for the answer to a `tasks/result` sent while the
    /// task runs (it blocks until the task ends) or to a plain request (ms).
    /// Once the task is known to be terminal, its `tasks/result` gets
    /// `request_timeout_ms` instead.
    pub result_timeout_ms: u64,
}

impl Default for PollPolicy {
    fn default() -> Self {
        PollPolicy { floor_ms: 100, ceiling_ms: 30_000, initial_backoff_ms: 500, request_timeout_ms: 30_000, result_timeout_ms: 300_000 }
    }
}

impl PollPolicy {
    fn bounds(&self) -> (u64, u64) {
        let floor = self.floor_ms.max(1);
        (floor, self.ceiling_ms.max(floor))
    }

    /// The wait before the next poll. `suggested` is the receiver's
    /// `pollInterval` (honoured, but not below the floor); without one,
    /// `backoff` is the running backoff, doubled in place up to the ceiling.
    pub fn next_wait(&self, suggested: Option<u64>, backoff: &mut u64) -> u64 {
        let (floor, ceiling) = self.bounds();
        match suggested {
            Some(ms) => ms.max(floor),
            None => {
                let wait = (*backoff).clamp(floor, ceiling);
                *backoff = wait.saturating_mul(2).min(ceiling);
                wait
            }
        }
    }

    /// The wait before a retry after a failure (an error answer, a timeout, a
    /// lost request): never sooner than the normal schedule, and at least the
    /// running `backoff`, which doubles in place up to the ceiling.
    pub fn retry_wait(&self, suggested: Option<u64>, backoff: &mut u64) -> u64 {
        let (floor, ceiling) = self.bounds();
        let wait = (*backoff).clamp(floor, ceiling);
        *backoff = wait.saturating_mul(2).min(ceiling);
        suggested.map_or(floor, |ms| ms.max(floor)).max(wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn honours_the_interval_above_the_floor_and_backs_off_without_one() {
        let p = PollPolicy { floor_ms: 200, ceiling_ms: 10_000, initial_backoff_ms: 500, ..PollPolicy::default() };
        let mut b = p.initial_backoff_ms;
        assert_eq!(p.next_wait(Some(5_000), &mut b), 5_000);
        assert_eq!(p.next_wait(Some(50), &mut b), 200);
        assert_eq!(p.next_wait(Some(60_000), &mut b), 60_000, "the ceiling is for our own backoff only");
        assert_eq!(p.next_wait(Some(u64::MAX), &mut b), u64::MAX);
        let waits: Vec<u64> = (0..7).map(|_| p.next_wait(None, &mut b)).collect();
        assert_eq!(waits, [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn retries_back_off_on_top_of_the_interval() {
        let p = PollPolicy { floor_ms: 100, ceiling_ms: 8_000, initial_backoff_ms: 500, ..PollPolicy::default() };
        let mut b = p.initial_backoff_ms;
        let waits: Vec<u64> = (0..6).map(|_| p.retry_wait(Some(1_000), &mut b)).collect();
        assert_eq!(waits, [1_000, 1_000, 2_000, 4_000, 8_000, 8_000]);
        let mut b = p.initial_backoff_ms;
        assert_eq!(p.retry_wait(Some(60_000), &mut b), 60_000);
        assert_eq!(p.retry_wait(None, &mut b), 1_000);
        let mut b = 0;
        assert_eq!(p.retry_wait(None, &mut b), 100, "never below the floor");
    }
}

/// Deadlines, soonest first, each once: a sorted list, as a requestor follows a few tasks (a
/// `BTreeSet` of them weighed kilobytes in the wasm). Insert and remove cost O(n).
#[derive(Debug)]
pub(super) struct Timers<T>(Vec<(u64, T)>);

impl<T: Ord> Timers<T> {
    pub fn new() -> Self {
        Timers(Vec::new())
    }

    pub fn insert(&mut self, entry: (u64, T)) {
        if let Err(at) = self.0.binary_search(&entry) {
            self.0.insert(at, entry);
        }
    }

    pub fn remove(&mut self, entry: &(u64, T)) {
        if let Ok(at) = self.0.binary_search(entry) {
            self.0.remove(at);
        }
    }

    pub fn first(&self) -> Option<&(u64, T)> {
        self.0.first()
    }
}
