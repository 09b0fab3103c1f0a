//! TTL deadlines in an ordered index: O(log n) to add or remove, the next one
//! in O(log n), and a sweep that touches only what is due.

use std::collections::BTreeMap;
use std::sync::Arc;

/// Task IDs keyed by `(due_ms, seq)`; `seq` is the task's unique creation
/// number, so equal deadlines never collide.
#[derive(Debug, Default)]
pub(crate) struct Deadlines {
    index: BTreeMap<(u64, u64), Arc<str>>,
}

impl Deadlines {
    pub fn insert(&mut self, due_ms: u64, seq: u64, id: Arc<str>) {
        self.index.insert((due_ms, seq), id);
    }

    pub fn remove(&mut self, due_ms: u64, seq: u64) {
        self.index.remove(&(due_ms, seq));
    }

    /// The earliest deadline, if any.
    pub fn next(&self) -> Option<u64> {
        self.index.first_key_value().map(|(&(due, _), _)| due)
    }

    /// Removes and returns the ID of the next task due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<Arc<str>> {
        match self.index.first_key_value() {
            Some((&(due, _), _)) if due <= now_ms => self.index.pop_first().map(|(_, id)| id),
            _ => None,
        }
    }
}
