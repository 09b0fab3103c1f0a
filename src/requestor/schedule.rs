//! When to poll next: the receiver's `pollInterval` within a floor and a
//! ceiling, or a doubling backoff when it gave none.

/// Polling policy of a [`Requestor`](super::Requestor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PollPolicy {
    /// Never poll more often than this (ms).
    pub floor_ms: u64,
    /// Never wait longer than this between polls (ms).
    pub ceiling_ms: u64,
    /// First wait when the receiver suggests no interval (ms); doubles after each poll.
    pub initial_backoff_ms: u64,
}

impl Default for PollPolicy {
    fn default() -> Self {
        PollPolicy { floor_ms: 100, ceiling_ms: 30_000, initial_backoff_ms: 500 }
    }
}

impl PollPolicy {
    /// The wait before the next poll. `suggested` is the receiver's
    /// `pollInterval`; `backoff` is the running backoff, updated in place.
    pub fn next_wait(&self, suggested: Option<u64>, backoff: &mut u64) -> u64 {
        let floor = self.floor_ms.max(1);
        let ceiling = self.ceiling_ms.max(floor);
        match suggested {
            Some(ms) => ms.clamp(floor, ceiling),
            None => {
                let wait = (*backoff).clamp(floor, ceiling);
                *backoff = wait.saturating_mul(2).min(ceiling);
                wait
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn honours_the_interval_within_bounds_and_backs_off_without_one() {
        let p = PollPolicy { floor_ms: 200, ceiling_ms: 10_000, initial_backoff_ms: 500 };
        let mut b = p.initial_backoff_ms;
        assert_eq!(p.next_wait(Some(5_000), &mut b), 5_000);
        assert_eq!(p.next_wait(Some(50), &mut b), 200);
        assert_eq!(p.next_wait(Some(60_000), &mut b), 10_000);
        let waits: Vec<u64> = (0..7).map(|_| p.next_wait(None, &mut b)).collect();
        assert_eq!(waits, [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    }
}
