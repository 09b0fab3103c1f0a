//! What the host declares and decides: capabilities, TTL and polling policy, limits.

/// Which task features this receiver offers; becomes the `tasks` capability.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// Support `tasks/list` (advertised only with [`Config::context_binding`]).
    pub list: bool,
    /// Support `tasks/cancel`.
    pub cancel: bool,
    /// Accept task-augmented `tools/call` (a server).
    pub tools_call: bool,
    /// Accept task-augmented `sampling/createMessage` (a client).
    pub sampling_create_message: bool,
    /// Accept task-augmented `elicitation/create` (a client).
    pub elicitation_create: bool,
}

impl Capabilities {
    /// A server that runs tool calls as tasks, with list and cancel.
    pub fn server() -> Self {
        Capabilities { list: true, cancel: true, tools_call: true, ..Default::default() }
    }
    /// A client that runs sampling and elicitation requests as tasks, with list and cancel.
    pub fn client() -> Self {
        Capabilities { list: true, cancel: true, sampling_create_message: true, elicitation_create: true, ..Default::default() }
    }
}

/// How requested TTLs become granted ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TtlPolicy {
    /// Granted when the request names no `ttl`.
    pub default_ms: u64,
    /// Requested TTLs above this are clamped to it; also granted for
    /// `ttl: null` when unlimited retention is not allowed.
    pub max_ms: u64,
    /// Whether `ttl: null` may be granted as unlimited.
    pub allow_unlimited: bool,
}

impl Default for TtlPolicy {
    fn default() -> Self {
        TtlPolicy { default_ms: 3_600_000, max_ms: 86_400_000, allow_unlimited: false }
    }
}

/// Resource limits. Going past one gives a JSON-RPC error (for a peer) or a
/// [`HostError`](crate::HostError) (for the host), and changes nothing.
///
/// The `per_key` limits and the rate limit apply per quota key: whose allowance a
/// request spends, which the host names per request
/// ([`Inbound::quota_key`](crate::Inbound::quota_key): a session, a user, a client
/// address), and which is the request's context when it names none. The defaults
/// are sized for a public server: they count what each limit protects (running
/// work, stored bytes), so finished tasks count only by their size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Running tasks (`working` or `input_required`) one quota key may hold.
    pub max_running_tasks_per_key: usize,
    /// Running tasks in the whole engine.
    pub max_running_tasks_total: usize,
    /// Stored bytes one quota key's tasks may hold: every live task counts its
    /// record (256 bytes) and the texts it keeps (ID, status message, result or
    /// error). A new task is refused while its key is full; a result is always kept.
    pub max_stored_bytes_per_key: usize,
    /// Stored bytes of every task in the engine, counted the same way.
    pub max_stored_bytes_total: usize,
    /// Size of a stored result or error, in bytes of JSON text.
    pub max_result_bytes: usize,
    /// Side-channel requests (e.g. elicitations) queued for one task.
    pub max_queued_messages_per_task: usize,
    /// Size of one incoming message, in bytes.
    pub max_message_bytes: usize,
    /// Nesting depth of one incoming message.
    pub max_json_depth: usize,
    /// Token bucket for `tasks/*` requests per quota key; `None` for no limit.
    pub rate_limit: Option<crate::RateLimit>,
    /// `tasks/result` requests that may wait on one task at once.
    pub max_waiters_per_task: usize,
    /// Undrained outputs. Past it, new peer requests are refused (`-32000`),
    /// notifications and audit records are dropped and counted
    /// ([`Event::OutputsDropped`](crate::Event::OutputsDropped)); replies and
    /// task events are always kept (they are bounded by the task limits).
    pub max_pending_outputs: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_running_tasks_per_key: 1_000,
            max_running_tasks_total: 10_000,
            max_stored_bytes_per_key: 64 << 20,
            max_stored_bytes_total: 1 << 30,
            max_result_bytes: 4 << 20,
            max_queued_messages_per_task: 64,
            max_message_bytes: 4 << 20,
            max_json_depth: 64,
            // One client polling 40 tasks at 200 ms, or 200 at 1 s, with room for bursts.
            rate_limit: Some(crate::RateLimit { burst: 1_000, per_second: 200 }),
            max_waiters_per_task: 16,
            max_pending_outputs: 10_000,
        }
    }
}

/// Everything an [`Engine`](crate::Engine) is configured with.
///
/// ```
/// use mcp_task_core::{Capabilities, Config};
/// let config = Config { capabilities: Capabilities::server(), page_size: 20, ..Config::default() };
/// assert_eq!(config.poll_interval_ms, Some(1_000));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Task features offered.
    pub capabilities: Capabilities,
    /// Whether the host passes an authenticated context with every call.
    /// Without it `tasks.list` is not advertised and `tasks/list` is refused,
    /// as the spec's security section asks.
    pub context_binding: bool,
    /// TTL policy.
    pub ttl: TtlPolicy,
    /// Suggested polling interval reported with every task.
    pub poll_interval_ms: Option<u64>,
    /// Tasks per `tasks/list` page.
    pub page_size: usize,
    /// Text for `_meta["io.modelcontextprotocol/model-immediate-response"]` of a
    /// `CreateTaskResult`, if any.
    pub model_immediate_response: Option<String>,
    /// Send `notifications/tasks/status` on every status change.
    pub status_notifications: bool,
    /// Resource limits.
    pub limits: Limits,
    /// Emit [`Event::Audit`](crate::Event::Audit) records.
    pub audit: bool,
    /// Key for list cursors; random when `None`. Set it to keep cursors valid
    /// across engine instances that share state.
    pub cursor_key: Option<[u8; 16]>,
    /// Run over an external storage (see [`StorageMode`]); `None` keeps tasks in memory only.
    pub storage: Option<StorageMode>,
}

/// How an engine runs over an external storage (Redis, Durable Object storage,
/// a database): every task change it decides comes out as an
/// [`Output::Persist`](crate::Output::Persist) the host makes durable before it
/// delivers what follows, and replies to peers are queued behind them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageMode {
    /// Names this engine's process for as long as it lives (a boot token):
    /// unique per start, never reused, so a restarted process does not mistake
    /// the dead one's work for its own.
    pub instance_id: String,
    /// How long a running task's lease lasts without a heartbeat. The engine
    /// renews the leases of the work it runs well before that (at most every
    /// `poll_interval_ms`); a task whose lease ran out is `failed`.
    pub lease_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            capabilities: Capabilities::server(),
            context_binding: true,
            ttl: TtlPolicy::default(),
            poll_interval_ms: Some(1_000),
            page_size: 50,
            model_immediate_response: None,
            status_notifications: true,
            limits: Limits::default(),
            audit: false,
            cursor_key: None,
            storage: None,
        }
    }
}
