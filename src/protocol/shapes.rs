//! Request shapes both dialects read or write, so neither borrows from the other.

/// What a requestor asked for in `params.task.ttl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TtlRequest {
    /// No `ttl`: the policy's default.
    Default,
    /// `ttl: null`: unlimited, if the policy allows it.
    Unlimited,
    /// A number of milliseconds.
    Ms(u64),
}

/// One outstanding server-to-client request of a task: its key and its
/// `{"method", "params"}` object.
pub(crate) struct InputRequest<'a> {
    pub key: &'a str,
    pub request: &'a str,
}
