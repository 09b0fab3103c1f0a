//! TTL deadlines in an ordered index: O(log n) to add or remove, the next one
//! in O(log n), and a sweep that touches only what is due.

use std::collections::BTreeSet;

/// Deadlines keyed by `(due_ms, seq)`; `seq` is the task's unique creation number.
#[derive(Debug, Default)]
pub(crate) struct Deadlines {
    index: BTreeSet<(u64, u64)>,
}

impl Deadlines {
    pub fn insert(&mut self, due_ms: u64, seq: u64) {
        self.index.insert((due_ms, seq));
    }

    pub fn remove(&mut self, due_ms: u64, seq: u64) {
        self.index.remove(&(due_ms, seq));
    }

    /// The earliest deadline, if any.
    pub fn next(&self) -> Option<u64> {
        self.index.first().map(|&(due, _)| due)
    }

    /// Removes and returns the next entry due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<u64> {
        match self.index.first() {
            Some(&(due, _)) if due <= now_ms => self.index.pop_first().map(|(_, seq)| seq),
            _ => None,
        }
    }
}
