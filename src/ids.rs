//! Task identifiers: where they come from.

/// A source of task IDs. The engine asks it once per created task and refuses
/// an ID that is empty or already in use rather than overwrite a task.
pub trait IdSource {
    /// A new task ID.
    fn next_id(&mut self) -> String;
}

impl<F: FnMut() -> String> IdSource for F {
    fn next_id(&mut self) -> String {
        self()
    }
}

/// The default source: random UUID v4 strings (122 random bits from the
/// platform's CSPRNG), unguessable as the spec asks when there is no
/// authorization context.
///
/// ```
/// use mcp_task_core::{IdSource, UuidV4Ids};
/// let id = UuidV4Ids.next_id();
/// assert_eq!(id.len(), 36);
/// assert_eq!(&id[14..15], "4");
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct UuidV4Ids;

impl IdSource for UuidV4Ids {
    fn next_id(&mut self) -> String {
        uuid::Uuid::new_v4().to_string()
    }
}

/// Counting IDs with a prefix (`task-1`, `task-2`, ...): deterministic, for
/// tests and simulations only. They are guessable; never use them where a
/// peer could probe for other requestors' tasks.
#[derive(Debug, Clone)]
pub struct SequentialIds {
    prefix: String,
    next: u64,
}

impl SequentialIds {
    /// IDs `"{prefix}1"`, `"{prefix}2"`, ...
    pub fn new(prefix: &str) -> Self {
        SequentialIds { prefix: prefix.to_owned(), next: 1 }
    }
}

impl IdSource for SequentialIds {
    fn next_id(&mut self) -> String {
        let id = format!("{}{}", self.prefix, self.next);
        self.next += 1;
        id
    }
}
