//! The receiver's hash maps and sets. Their keys (task IDs, contexts, tool names, the
//! engine's own request ids) are chosen by the engine or its host, never by a peer, so a
//! fast hash that is not built to resist chosen-key collisions is safe here: foldhash,
//! where std's SipHash-1-3 took about a third of a task look-up (3 to 6% of a request).
//! (The requestor's maps, keyed by task IDs the receiving peer picks, keep std's hasher.)

/// A `HashMap` hashed with foldhash (seeded per process where the platform allows).
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// A `HashSet` hashed with foldhash.
pub(crate) type FastSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
