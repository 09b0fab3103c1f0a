//! The requestor role: decide whether to augment, create tasks on a remote
//! receiver, poll them on the receiver's schedule, relay their side-channel
//! requests, and collect exactly what `tasks/result` returns. Sans-IO like the
//! receiver: the host sends what [`Requestor::poll_output`] yields and feeds
//! back what arrives.

mod decide;
mod schedule;
mod state;
mod view;

pub use crate::protocol::raw_id::RawId;
pub use decide::{should_augment, Decision};
pub use schedule::PollPolicy;
use schedule::Timers;
pub use view::TaskView;

use crate::core::TaskStatus;
use crate::error::HostError;
use crate::protocol::json::Json;
use crate::protocol::jsonrpc::{self, first_byte, json_string, Incoming, INTERNAL_ERROR, INVALID_PARAMS};
use crate::protocol::{related_task_id, requestor_codec, Acknowledged, Declaration, Dialect, InputAnswer, ReadTask, RequestorCodec};
use crate::time::BoxedClock;
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

/// Code of the error responses the requestor makes up for a request that got
/// no answer in time (the MCP SDKs' "request timeout").
const TIMED_OUT: i64 = -32001;
/// Code of the error responses the requestor makes up for a request the host
/// reported lost in transport (the MCP SDKs' "connection closed").
const TRANSPORT_FAILED: i64 = -32000;
/// Tasks one [`Requestor::list`] collects at most, whatever the page limit.
const MAX_LISTED_TASKS: usize = 1_000_000;

/// How a [`Requestor`] behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestorConfig {
    /// Polling floor, backoff ceiling, and how long to wait for answers.
    pub poll: PollPolicy,
    /// Prefix of the JSON-RPC ids the requestor gives its requests (string ids
    /// `"{prefix}{n}"`), so they cannot clash with the host's own.
    pub request_id_prefix: String,
    /// Pages one [`Requestor::list`] fetches at most; at the limit it stops
    /// with an error (a receiver could hand out new cursors forever). Default 1 000.
    pub max_list_pages: usize,
    /// The task surface the receiver speaks (see [`Requestor::use_server_info`]
    /// to read it from the receiver's `server/discover` or `initialize` answer).
    pub dialect: Dialect,
    /// The client's capabilities (`ClientCapabilities`, e.g. `{"elicitation":{}}`).
    /// In 2026-07-28 the per-request `_meta` *is* the client's declaration
    /// (basic/index.mdx), so every request carries them, with the tasks extension
    /// added where the request asks for or follows a task. Default: none.
    pub client_capabilities: Map<String, Value>,
    /// The client's name and version (`Implementation`), which every 2026-07-28
    /// request carries when set (a SHOULD of basic/index.mdx). Default: none.
    pub client_info: Option<Map<String, Value>>,
    /// Ask the receiver to push each task's status where the dialect has a
    /// request for it (2026-07-28: a `subscriptions/listen` naming the task,
    /// sent once the task is created). The request stays open while the task
    /// runs, so the host's transport must carry a long-lived request (Streamable
    /// HTTP: its own SSE stream); when the task ends the requestor sends
    /// `notifications/cancelled` for it (Streamable HTTP: close that stream). A
    /// receiver that refuses it, or acknowledges no `taskIds`, is not asked
    /// again. Pushed statuses (and 2025-11-25's `notifications/tasks/status`,
    /// which come unasked) are always taken in; polling goes on beside them, on
    /// the receiver's interval, as the guard against a lost notification.
    /// Default: false.
    pub listen: bool,
}

impl Default for RequestorConfig {
    fn default() -> Self {
        RequestorConfig {
            poll: PollPolicy::default(),
            request_id_prefix: "mcp-task-core:".to_owned(),
            max_list_pages: 1_000,
            dialect: Dialect::Legacy,
            client_capabilities: Map::new(),
            client_info: None,
            listen: false,
        }
    }
}

/// How [`Requestor::call`] sends a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallMode {
    /// A plain request: the answer is its result.
    Plain,
    /// Ask for a task. 2025-11-25: `params.task`, with `ttl_ms` as its `ttl`
    /// (`None`: the receiver's default). Tasks extension: the request declares
    /// the extension (added to the `clientCapabilities` the host put in
    /// `params._meta`, else to [`RequestorConfig::client_capabilities`]) and the
    /// receiver decides (it takes no TTL from the client).
    Task { ttl_ms: Option<u64> },
}

/// One item from [`Requestor::poll_output`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestorOutput {
    /// A JSON-RPC message for the receiver.
    Send(String),
    /// Something for the host.
    Event(RequestorEvent),
}

impl RequestorOutput {
    /// The raw JSON id of a [`Send`](Self::Send) that is a request (what
    /// [`Requestor::request_failed`] takes); `None` for responses and events.
    ///
    /// ```
    /// use mcp_task_core::{CallMode, ManualClock, Requestor, RequestorConfig};
    /// let mut requestor = Requestor::new(RequestorConfig::default(), Box::new(ManualClock::new(0)));
    /// let call = requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    /// let out = requestor.poll_output().unwrap();
    /// assert_eq!(out.request_id(), Some(call.clone()));
    /// // The transport lost it: the requestor reports the call as failed.
    /// assert!(requestor.request_failed(&call));
    /// ```
    pub fn request_id(&self) -> Option<RawId> {
        let RequestorOutput::Send(message) = self else { return None };
        match jsonrpc::parse(message, usize::MAX, usize::MAX) {
            Ok(Incoming::Request { id, .. }) => Some(RawId::trusted(id)),
            _ => None,
        }
    }

    /// The `Mcp-Name` header a Streamable HTTP transport sets for this request
    /// (2026-07-28): `params.taskId` of `tasks/*`, `params.name` of `tools/call`.
    ///
    /// ```
    /// use mcp_task_core::RequestorOutput;
    /// let get = RequestorOutput::Send(r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t-1"}}"#.into());
    /// assert_eq!(get.mcp_name().as_deref(), Some("t-1"));
    /// ```
    pub fn mcp_name(&self) -> Option<String> {
        let RequestorOutput::Send(message) = self else { return None };
        let Ok(Incoming::Request { method, params, .. }) = jsonrpc::parse(message, usize::MAX, usize::MAX) else { return None };
        let key = match method.as_ref() {
            "tools/call" => "name",
            m if m.starts_with("tasks/") => "taskId",
            _ => return None,
        };
        let raw = jsonrpc::member(params?.get(), key)?;
        crate::protocol::json::string_text(raw).map(|s| s.into_owned())
    }
}

/// What the requestor tells its host.
///
/// Where a request got no answer in time, or the host reported it lost
/// ([`Requestor::request_failed`]), the `response` of [`CallRefused`](Self::CallRefused),
/// [`CancelAnswered`](Self::CancelAnswered), [`Listed`](Self::Listed) and
/// [`Retrying`](Self::Retrying) is a JSON-RPC error response the requestor made
/// up: code -32001 (timeout) or -32000 (transport), with `error.data.requestor`
/// set to `"timeout"` or `"transport"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestorEvent {
    /// The receiver created a task for call `call_id`.
    Created { call_id: RawId, task_id: String, task: TaskView },
    /// The receiver ran call `call_id` as a plain request; this is its response.
    PlainResponse { call_id: RawId, response: String },
    /// The receiver refused call `call_id`, or no answer came (see above), or
    /// the answer was not a valid one; `response` is the JSON-RPC error
    /// response. A call is never sent again: it may not be safe to repeat.
    CallRefused { call_id: RawId, response: String },
    /// The last known state of a task changed.
    ///
    /// Every event about a task names the call that created it in `call_id`
    /// (`None` only for a task imported from a state saved without it).
    Status { call_id: Option<RawId>, task_id: String, task: TaskView },
    /// The receiver asks something for the task (e.g. `elicitation/create`).
    /// Answer with [`Requestor::respond`] using `request_id`.
    InputRequest { call_id: Option<RawId>, task_id: String, request_id: RawId, request: String },
    /// A `notifications/progress` for the task's progress token.
    Progress { call_id: Option<RawId>, task_id: String, notification: String },
    /// The task ended; `status` is terminal and `response` is the `tasks/result`
    /// response exactly as the receiver sent it (a result, or the underlying
    /// JSON-RPC error).
    Finished { call_id: Option<RawId>, task_id: String, status: TaskStatus, response: String },
    /// The receiver no longer knows the task (expired or deleted); `error` is its error object.
    Lost { call_id: Option<RawId>, task_id: String, error: String },
    /// A `tasks/get` or `tasks/result` (`method`) for the task failed and will be
    /// sent again on the poll schedule, with backoff. `response` is the answer
    /// that was not taken (a receiver error such as a rate limit, or a
    /// `tasks/result` answer for a task still running), or the requestor's own
    /// error response for a timeout or a transport failure. For information:
    /// nothing to do, though a host may [`forget`](Requestor::forget) the task.
    Retrying { call_id: Option<RawId>, task_id: String, method: String, response: String },
    /// The answer to [`Requestor::cancel`] (the cancelled task, or an error response).
    CancelAnswered { call_id: Option<RawId>, task_id: String, response: String },
    /// [`Requestor::list`] finished: every page's tasks (entries that are not a task,
    /// without a string `taskId` or a known `status`, are left out), or (with
    /// the tasks read so far) the error response that stopped it, which the
    /// requestor makes up (code -32603, `error.data.requestor` `"repeatedCursor"`
    /// or `"pageLimit"`) when the receiver repeats a cursor or the page limit is reached.
    Listed { tasks: Vec<TaskView>, error: Option<String> },
    /// A message that is none of the requestor's business (including a late
    /// answer to a request the requestor already gave up on).
    Forward { message: String },
}

impl RequestorEvent {
    /// The call this event is about, if any: what a host routes events by.
    ///
    /// ```
    /// use mcp_task_core::{RawId, RequestorEvent};
    /// let event = RequestorEvent::PlainResponse { call_id: RawId::string("c1"), response: "{}".into() };
    /// assert_eq!(event.call_id(), Some(&RawId::string("c1")));
    /// assert_eq!(RequestorEvent::Forward { message: "{}".into() }.call_id(), None);
    /// ```
    pub fn call_id(&self) -> Option<&RawId> {
        match self {
            RequestorEvent::Created { call_id, .. }
            | RequestorEvent::PlainResponse { call_id, .. }
            | RequestorEvent::CallRefused { call_id, .. } => Some(call_id),
            RequestorEvent::Status { call_id, .. }
            | RequestorEvent::InputRequest { call_id, .. }
            | RequestorEvent::Progress { call_id, .. }
            | RequestorEvent::Finished { call_id, .. }
            | RequestorEvent::Lost { call_id, .. }
            | RequestorEvent::Retrying { call_id, .. }
            | RequestorEvent::CancelAnswered { call_id, .. } => call_id.as_ref(),
            RequestorEvent::Listed { .. } | RequestorEvent::Forward { .. } => None,
        }
    }
}

#[derive(Debug)]
enum Pending {
    Call {
        method: String,
        progress_token: Option<String>,
        augmented: bool,
    },
    /// `seq`: the number of this request, to tell answers that predate a `tasks/result` answer.
    Get {
        task_id: String,
        seq: u64,
    },
    Result {
        task_id: String,
    },
    Cancel {
        task_id: String,
        call_id: Option<RawId>,
    },
    /// A `tasks/update` answering the task's input request `key` (tasks extension).
    Update {
        task_id: String,
        key: String,
    },
    List {
        tasks: Vec<TaskView>,
        pages: usize,
        /// Hashes of the cursors followed so far (a receiver's cursors may be large); at most
        /// `max_list_pages`, so a list, not a set (one hash-table instance fewer in the wasm).
        cursors: Vec<u64>,
    },
}

impl Pending {
    fn method(&self) -> &str {
        match self {
            Pending::Call { method, .. } => method,
            Pending::Get { .. } => "tasks/get",
            Pending::Result { .. } => "tasks/result",
            Pending::Cancel { .. } => "tasks/cancel",
            Pending::Update { .. } => "tasks/update",
            Pending::List { .. } => "tasks/list",
        }
    }
}

/// A request awaiting its answer.
#[derive(Debug)]
struct Outstanding {
    what: Pending,
    sent_at: u64,
    deadline: u64,
}

/// What a deadline is for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    /// Send the task's next `tasks/get`.
    Poll(String),
    /// Send the task's `tasks/result` again (after a failure).
    Result(String),
    /// Give up waiting for the answer to this request id.
    Expire(String),
}

/// How long until the next `tasks/get`.
#[derive(Debug, Clone, Copy)]
enum Wait {
    Fixed(u64),
    /// The receiver's `pollInterval`, or the running backoff.
    Normal,
    /// After a failure: the normal wait or the retry backoff, whichever is longer.
    Retry,
}

/// Why the requestor gave up on a request.
#[derive(Debug, Clone, Copy)]
enum Failure {
    Timeout,
    Transport,
}

/// A success answer to `tasks/result` that came while the task still looked
/// running: the outcome once a status confirms the task ended.
#[derive(Debug, Clone)]
struct Candidate {
    response: String,
    /// Requests numbered above this were sent after the answer came.
    after: u64,
}

#[derive(Debug, Clone)]
pub(crate) struct Tracked {
    pub task_id: String,
    pub method: String,
    /// Last known `Task` object.
    pub task: Value,
    pub progress_token: Option<String>,
    /// When the next `tasks/get` is due.
    poll_due: Option<u64>,
    /// A `tasks/get` is in flight.
    polling: bool,
    /// Running backoff between polls when the receiver gives no interval.
    backoff: u64,
    /// Backoff of `tasks/get` retries; back to the start after a good answer.
    poll_retry_backoff: u64,
    /// Backoff of `tasks/result` retries; back to the start when the status changes.
    result_backoff: u64,
    /// Id of the `tasks/result` in flight.
    result_request: Option<String>,
    /// When to send `tasks/result` again after a failure.
    result_due: Option<u64>,
    candidate: Option<Candidate>,
    /// The call that created the task (`None` in states saved without it).
    pub call_id: Option<RawId>,
    /// `inputRequests` keys already surfaced (tasks extension), sorted: each is shown once.
    /// A few per task, so a sorted list rather than a set (one hash-table instance fewer in the wasm).
    pub seen_inputs: Vec<String>,
    /// Raw id of the open `subscriptions/listen` pushing this task's status.
    listen: Option<String>,
}

impl Tracked {
    pub(crate) fn new(task_id: String, method: String, task: Value, progress_token: Option<String>, backoff: u64) -> Self {
        Tracked {
            task_id,
            method,
            task,
            progress_token,
            poll_due: None,
            polling: false,
            backoff,
            poll_retry_backoff: backoff,
            result_backoff: backoff,
            result_request: None,
            result_due: None,
            candidate: None,
            call_id: None,
            seen_inputs: Vec::new(),
            listen: None,
        }
    }

    fn status(&self) -> Option<TaskStatus> {
        task_status(&self.task)
    }

    fn poll_interval(&self) -> Option<u64> {
        self.task.get("pollInterval").or_else(|| self.task.get("pollIntervalMs")).and_then(Value::as_u64)
    }
}

fn task_status(task: &Value) -> Option<TaskStatus> {
    task.get("status").and_then(Value::as_str).and_then(TaskStatus::parse)
}

/// `tasks/result` is wanted on `input_required` (to receive the receiver's
/// requests) and at the end (the outcome).
fn wants_result(status: TaskStatus) -> bool {
    status == TaskStatus::InputRequired || status.is_terminal()
}

fn error_code(error: Json<'_>) -> Option<i64> {
    serde_json::from_str::<Value>(error.get()).ok()?.get("code")?.as_i64()
}

/// An error response the requestor makes up; `kind` goes to `error.data.requestor`.
fn own_error(id: &str, code: i64, message: &str, kind: &str) -> String {
    let error = format!("{{\"code\":{code},\"message\":{},\"data\":{{\"requestor\":{}}}}}", json_string(message), json_string(kind));
    jsonrpc::raw_error_response(Some(id), &error)
}

/// The terminal status a `tasks/result` success answer implies, when it names
/// the task in its related-task `_meta` (the spec requires it there): `failed`
/// for a tool result with `isError`, else `completed`.
fn implied_status(response: &str, task_id: &str) -> Option<TaskStatus> {
    let v: Value = serde_json::from_str(response).ok()?;
    let result = v.get("result")?;
    if related_task_id(result)? != task_id {
        return None;
    }
    Some(if result.get("isError") == Some(&Value::Bool(true)) { TaskStatus::Failed } else { TaskStatus::Completed })
}

/// The requestor side of MCP tasks, for one receiver.
///
/// Every request it sends has a timeout ([`PollPolicy`]); a `tasks/get` or
/// `tasks/result` that fails (timeout, transport failure reported with
/// [`request_failed`](Self::request_failed), or an error answer that is not the
/// task's outcome) is sent again on the poll schedule, with backoff. While a
/// task is tracked there is always a deadline or an answer that can still come.
///
/// ```
/// use mcp_task_core::{CallMode, ManualClock, Requestor, RequestorConfig, RequestorOutput};
/// let clock = ManualClock::new(0);
/// let mut requestor = Requestor::new(RequestorConfig::default(), Box::new(clock.clone()));
/// let call = requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: Some(60_000) }, None).unwrap();
/// let Some(RequestorOutput::Send(request)) = requestor.poll_output() else { panic!() };
/// assert!(request.contains(r#""task":{"ttl":60000}"#));
/// // The receiver answers with a CreateTaskResult: polling starts on its schedule.
/// requestor.handle_message(&format!(r#"{{"jsonrpc":"2.0","id":{call},"result":{{"task":{{"taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":60000,"pollInterval":2000}}}}}}"#));
/// assert_eq!(requestor.next_deadline(), Some(2_000));
/// ```
pub struct Requestor {
    config: RequestorConfig,
    /// What 2026-07-28 requests declare of the client, written once.
    declaration: Declaration,
    clock: BoxedClock,
    last_now: u64,
    next_id: u64,
    pending: HashMap<String, Outstanding>,
    /// Side-channel requests from the receiver: raw id -> task.
    inputs: HashMap<String, String>,
    pub(crate) tasks: HashMap<String, Tracked>,
    /// Every deadline: polls, `tasks/result` retries, request timeouts.
    timers: Timers<Timer>,
    outputs: VecDeque<RequestorOutput>,
    /// The receiver refused `subscriptions/listen`, or pushes no task status on it: not asked again.
    listen_refused: bool,
}

impl std::fmt::Debug for Requestor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requestor").field("tasks", &self.tasks.len()).field("pending", &self.pending.len()).finish()
    }
}

fn is_object(raw: &str) -> bool {
    first_byte(raw) == Some(b'{')
}

impl Requestor {
    /// A requestor on the host's clock.
    pub fn new(config: RequestorConfig, clock: BoxedClock) -> Self {
        Requestor {
            declaration: Declaration::new(&config.client_capabilities, config.client_info.as_ref()),
            config,
            clock,
            last_now: 0,
            next_id: 0,
            pending: HashMap::new(),
            inputs: HashMap::new(),
            tasks: HashMap::new(),
            timers: Timers::new(),
            outputs: VecDeque::new(),
            listen_refused: false,
        }
    }

    fn now(&mut self) -> u64 {
        self.last_now = self.clock.now_ms().max(self.last_now);
        self.last_now
    }

    fn send_request(&mut self, method: &str, params: &str, pending: Pending, timeout_ms: u64) -> String {
        self.send(method, params, Some((pending, timeout_ms)))
    }

    /// Sends a request; `awaited`: what its answer is for, and how long to wait for it
    /// (`None`: a listen request, answered only when its stream ends).
    fn send(&mut self, method: &str, params: &str, awaited: Option<(Pending, u64)>) -> String {
        let now = self.now();
        self.next_id += 1;
        let id = json_string(&format!("{}{}", self.config.request_id_prefix, self.next_id));
        let message = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{},\"params\":{params}}}", json_string(method));
        if let Some((pending, timeout_ms)) = awaited {
            // At least 1 ms, so that a request never expires the moment it is sent.
            let deadline = now.saturating_add(timeout_ms.max(1));
            self.timers.insert((deadline, Timer::Expire(id.clone())));
            self.pending.insert(id.clone(), Outstanding { what: pending, sent_at: now, deadline });
        }
        self.outputs.push_back(RequestorOutput::Send(message));
        id
    }

    fn take_pending(&mut self, id: &str) -> Option<Outstanding> {
        let out = self.pending.remove(id)?;
        self.timers.remove(&(out.deadline, Timer::Expire(id.to_owned())));
        Some(out)
    }

    fn event(&mut self, event: RequestorEvent) {
        self.outputs.push_back(RequestorOutput::Event(event));
    }

    /// Sends `method` with `params_json` (an object), plain or as a task
    /// ([`CallMode`]). `progress_token` (raw JSON string or number) goes into
    /// `_meta.progressToken` and stays valid for the task's life. Returns the
    /// call id (the request's raw JSON id) that events refer to. Without an
    /// answer within [`PollPolicy::request_timeout_ms`] (task-augmented) or
    /// [`PollPolicy::result_timeout_ms`] (plain), the call is reported as
    /// [`CallRefused`](RequestorEvent::CallRefused).
    pub fn call(
        &mut self,
        method: &str,
        params_json: Option<&str>,
        mode: CallMode,
        progress_token: Option<&str>,
    ) -> Result<RawId, HostError> {
        let task = match mode {
            CallMode::Plain => None,
            CallMode::Task { ttl_ms } => Some(ttl_ms),
        };
        // Spliced, not re-serialized: the caller's arguments go out byte for byte.
        let not_object = || HostError::invalid("params must be a JSON object");
        let mut params = match params_json {
            None => "{}".to_owned(),
            Some(p) if is_object(p) && Json::parse(p).is_ok() => p.to_owned(),
            Some(_) => return Err(not_object()),
        };
        let bad_meta = || HostError::invalid("params._meta must be an object");
        params = self.codec().call_params(&params, task, &self.declaration).map_err(HostError::invalid)?;
        if let Some(token) = progress_token {
            // The rule of a JSON-RPC id: a string or an integer.
            if crate::RawId::parse(token).is_err() {
                return Err(HostError::invalid("progressToken must be raw JSON: a string or an integer"));
            }
            params = jsonrpc::with_meta_entry(&params, "progressToken", token.trim()).ok_or_else(bad_meta)?;
        }
        let augmented = task.is_some();
        // A plain request runs to its end before it is answered, like a blocking
        // tasks/result; so may an extension call the receiver chooses to run plainly.
        let timeout = if augmented && !self.config.dialect.receiver_decides() {
            self.config.poll.request_timeout_ms
        } else {
            self.config.poll.result_timeout_ms
        };
        let pending = Pending::Call { method: method.to_owned(), progress_token: progress_token.map(str::to_owned), augmented };
        Ok(RawId::trusted(self.send_request(method, &params, pending, timeout)))
    }

    /// Answers the receiver's side-channel request `request_id` with a result
    /// object; the answer carries the task's related-task `_meta`.
    pub fn respond(&mut self, request_id: &RawId, result_json: &str) -> Result<(), HostError> {
        let request_id = request_id.as_str();
        let task_id = self
            .inputs
            .get(request_id)
            .cloned()
            .ok_or_else(|| HostError::invalid(format!("No open request from the receiver has id {request_id}")))?;
        if !is_object(result_json) || Json::parse(result_json).is_err() {
            return Err(HostError::invalid("The answer must be a JSON object"));
        }
        match self.codec().input_answer(request_id, &task_id, result_json, &self.declaration) {
            Some(InputAnswer::Update { key, params }) => {
                self.inputs.remove(request_id);
                let timeout = self.config.poll.request_timeout_ms;
                self.send_request("tasks/update", &params, Pending::Update { task_id, key }, timeout);
            }
            Some(InputAnswer::Response(response)) => {
                self.inputs.remove(request_id);
                self.outputs.push_back(RequestorOutput::Send(response));
            }
            None => return Err(HostError::invalid("The answer must be a JSON object whose _meta, if any, is an object")),
        }
        Ok(())
    }

    /// Answers the receiver's side-channel request `request_id` with a JSON-RPC error object.
    pub fn respond_error(&mut self, request_id: &RawId, error_json: &str) -> Result<(), HostError> {
        let request_id = request_id.as_str();
        if !self.inputs.contains_key(request_id) {
            return Err(HostError::invalid(format!("No open request from the receiver has id {request_id}")));
        }
        if !self.config.dialect.side_channel() {
            return Err(HostError::invalid(
                "The tasks extension answers input requests with results only: answer with respond(), e.g. {\"action\":\"decline\"}",
            ));
        }
        if !is_object(error_json) || Json::parse(error_json).is_err() {
            return Err(HostError::invalid("The error must be a JSON-RPC error object"));
        }
        self.inputs.remove(request_id);
        self.outputs.push_back(RequestorOutput::Send(jsonrpc::raw_error_response(Some(request_id), error_json)));
        Ok(())
    }

    /// Asks the receiver to cancel a tracked task (answered by [`RequestorEvent::CancelAnswered`]).
    pub fn cancel(&mut self, task_id: &str) -> Result<RawId, HostError> {
        let Some(t) = self.tasks.get(task_id) else {
            return Err(HostError::UnknownTask { task_id: task_id.to_owned() });
        };
        let pending = Pending::Cancel { task_id: task_id.to_owned(), call_id: t.call_id.clone() };
        let params = self.task_params(task_id);
        let timeout = self.config.poll.request_timeout_ms;
        Ok(RawId::trusted(self.send_request("tasks/cancel", &params, pending, timeout)))
    }

    /// Lists every task the receiver shows us, one page at a time, following
    /// `nextCursor` to the end (answered by [`RequestorEvent::Listed`]). A
    /// repeated cursor, or more than [`RequestorConfig::max_list_pages`] pages,
    /// ends it with an error. The tasks extension has no `tasks/list`: refused there.
    pub fn list(&mut self) -> Result<RawId, HostError> {
        if !self.config.dialect.serves("tasks/list") {
            return Err(HostError::invalid("The tasks extension (2026-07-28) has no tasks/list: keep the task IDs you created"));
        }
        let timeout = self.config.poll.request_timeout_ms;
        let pending = Pending::List { tasks: Vec::new(), pages: 0, cursors: Vec::new() };
        Ok(RawId::trusted(self.send_request("tasks/list", "{}", pending, timeout)))
    }

    /// The codec of the dialect spoken.
    fn codec(&self) -> &'static dyn RequestorCodec {
        requestor_codec(self.config.dialect)
    }

    /// `{"taskId": ...}`, with what the dialect adds to every request (the tasks extension's `_meta`).
    fn task_params(&self, task_id: &str) -> String {
        self.codec().task_params(format!("{{\"taskId\":{}}}", json_string(task_id)), &self.declaration)
    }

    /// The dialect this requestor speaks.
    pub fn dialect(&self) -> Dialect {
        self.config.dialect
    }

    /// Reads the receiver's `server/discover` or `initialize` result (JSON
    /// text) and speaks what it offers: the tasks extension when
    /// `capabilities.extensions` lists `io.modelcontextprotocol/tasks`, else
    /// 2025-11-25. Returns the dialect chosen.
    ///
    /// ```
    /// use mcp_task_core::{Dialect, ManualClock, Requestor, RequestorConfig};
    /// let mut r = Requestor::new(RequestorConfig::default(), Box::new(ManualClock::new(0)));
    /// let discover = r#"{"supportedVersions":["2026-07-28"],"capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;
    /// assert_eq!(r.use_server_info(discover), Dialect::Extension);
    /// assert_eq!(r.use_server_info(r#"{"protocolVersion":"2025-11-25","capabilities":{"tasks":{}}}"#), Dialect::Legacy);
    /// ```
    pub fn use_server_info(&mut self, result_json: &str) -> Dialect {
        self.config.dialect = Dialect::offered_by(result_json);
        self.config.dialect
    }

    /// Tells the requestor that its request `request_id` (as in
    /// [`RequestorOutput::request_id`]) failed in transport: it could not be
    /// sent, or the stream that would carry its answer was dropped. The
    /// requestor stops waiting for it and recovers as after a timeout: a
    /// `tasks/get` or `tasks/result` is sent again on the poll schedule; a
    /// call, cancel or list is reported failed. Returns whether it was a
    /// request still awaiting its answer.
    pub fn request_failed(&mut self, request_id: &RawId) -> bool {
        if let Some(task_id) = self.listener(request_id.as_str()) {
            // The push stream is gone; polling goes on.
            self.listen_ended(&task_id, false);
            return true;
        }
        if !self.pending.contains_key(request_id.as_str()) {
            return false;
        }
        self.now();
        self.give_up(request_id.as_str(), Failure::Transport);
        true
    }

    /// The call that created a tracked task.
    fn call_of(&self, task_id: &str) -> Option<RawId> {
        self.tasks.get(task_id).and_then(|t| t.call_id.clone())
    }

    /// The last known `Task` JSON of a tracked task.
    pub fn task(&self, task_id: &str) -> Option<String> {
        self.tasks.get(task_id).map(|t| t.task.to_string())
    }

    /// IDs of the tasks being tracked.
    pub fn tracked(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.tasks.keys().cloned().collect();
        ids.sort_unstable();
        ids
    }

    /// Stops tracking a task (no more polls or events for it).
    pub fn forget(&mut self, task_id: &str) {
        self.unlisten(task_id);
        if let Some(t) = self.tasks.remove(task_id) {
            if let Some(due) = t.poll_due {
                self.timers.remove(&(due, Timer::Poll(t.task_id.clone())));
            }
            if let Some(due) = t.result_due {
                self.timers.remove(&(due, Timer::Result(t.task_id)));
            }
        }
        self.inputs.retain(|_, owner| owner != task_id);
    }

    /// The next output, or `None`.
    pub fn poll_output(&mut self) -> Option<RequestorOutput> {
        self.outputs.pop_front()
    }

    /// When [`handle_timeout`](Self::handle_timeout) is next due (epoch ms): a
    /// poll, a retry or a request timeout; `None` when nothing is tracked or
    /// awaited. It may be far off (a receiver's long `pollInterval`).
    pub fn next_deadline(&self) -> Option<u64> {
        self.timers.first().map(|(due, _)| *due)
    }

    /// Sends the polls and retries that are due and gives up on requests past
    /// their timeout. Harmless when early or repeated.
    pub fn handle_timeout(&mut self) {
        let now = self.now();
        while let Some((due, timer)) = self.timers.first().cloned() {
            if due > now {
                break;
            }
            self.timers.remove(&(due, timer.clone()));
            match timer {
                Timer::Poll(task_id) => {
                    let Some(t) = self.tasks.get_mut(&task_id) else { continue };
                    t.poll_due = None;
                    self.poll(&task_id);
                }
                Timer::Result(task_id) => {
                    let Some(t) = self.tasks.get_mut(&task_id) else { continue };
                    t.result_due = None;
                    if t.status().is_some_and(wants_result) {
                        self.fetch_result(&task_id);
                    }
                }
                Timer::Expire(id) => self.give_up(&id, Failure::Timeout),
            }
        }
    }

    /// Sends a `tasks/get` now, unless one is in flight.
    fn poll(&mut self, task_id: &str) {
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if t.polling {
            return;
        }
        t.polling = true;
        let params = self.task_params(task_id);
        let pending = Pending::Get { task_id: task_id.to_owned(), seq: self.next_id + 1 };
        let timeout = self.config.poll.request_timeout_ms;
        self.send_request("tasks/get", &params, pending, timeout);
    }

    fn schedule(&mut self, task_id: &str, wait: Wait) {
        let now = self.now();
        let policy = &self.config.poll;
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if let Some(due) = t.poll_due.take() {
            self.timers.remove(&(due, Timer::Poll(t.task_id.clone())));
        }
        let wait = match wait {
            Wait::Fixed(ms) => ms,
            Wait::Normal => policy.next_wait(t.poll_interval(), &mut t.backoff),
            Wait::Retry => policy.retry_wait(t.poll_interval(), &mut t.poll_retry_backoff),
        };
        let due = now.saturating_add(wait);
        t.poll_due = Some(due);
        self.timers.insert((due, Timer::Poll(t.task_id.clone())));
    }

    fn unschedule(&mut self, task_id: &str) {
        if let Some(t) = self.tasks.get_mut(task_id) {
            if let Some(due) = t.poll_due.take() {
                self.timers.remove(&(due, Timer::Poll(t.task_id.clone())));
            }
        }
    }

    /// Sends `tasks/result`, unless one is in flight or a retry is already scheduled.
    fn fetch_result(&mut self, task_id: &str) {
        let Some(t) = self.tasks.get(task_id) else { return };
        if t.result_request.is_some() || t.result_due.is_some() {
            return;
        }
        // Once the task has ended the answer comes at once; before, it blocks until the end.
        let timeout = if t.status().is_some_and(TaskStatus::is_terminal) {
            self.config.poll.request_timeout_ms
        } else {
            self.config.poll.result_timeout_ms
        };
        let params = format!("{{\"taskId\":{}}}", json_string(task_id));
        let id = self.send_request("tasks/result", &params, Pending::Result { task_id: task_id.to_owned() }, timeout);
        if let Some(t) = self.tasks.get_mut(task_id) {
            t.result_request = Some(id);
        }
    }

    /// Schedules the next `tasks/result` after a failure, with backoff.
    fn retry_result(&mut self, task_id: &str) {
        let now = self.now();
        let policy = &self.config.poll;
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if let Some(due) = t.result_due.take() {
            self.timers.remove(&(due, Timer::Result(t.task_id.clone())));
        }
        let due = now.saturating_add(policy.retry_wait(t.poll_interval(), &mut t.result_backoff));
        t.result_due = Some(due);
        self.timers.insert((due, Timer::Result(t.task_id.clone())));
    }

    /// The task ended: a blocking `tasks/result` in flight should now be
    /// answered promptly, so it gets the shorter request timeout.
    fn tighten_result_timeout(&mut self, task_id: &str) {
        let Some(id) = self.tasks.get(task_id).and_then(|t| t.result_request.clone()) else { return };
        let limit = self.last_now.saturating_add(self.config.poll.request_timeout_ms.max(1));
        let Some(out) = self.pending.get_mut(&id) else { return };
        if out.deadline > limit {
            self.timers.remove(&(out.deadline, Timer::Expire(id.clone())));
            out.deadline = limit;
            self.timers.insert((limit, Timer::Expire(id)));
        }
    }

    fn finish(&mut self, task_id: &str, status: TaskStatus, response: String) {
        let call_id = self.call_of(task_id);
        self.forget(task_id);
        self.event(RequestorEvent::Finished { call_id, task_id: task_id.to_owned(), status, response });
    }

    /// The receiver no longer knows the task. A success answer to
    /// `tasks/result` we hold, naming the task, is still its outcome.
    fn gone(&mut self, task_id: &str, error: &str) {
        let candidate = self.tasks.get_mut(task_id).and_then(|t| t.candidate.take());
        let call_id = self.call_of(task_id);
        self.forget(task_id);
        let task_id = task_id.to_owned();
        match candidate.and_then(|c| implied_status(&c.response, &task_id).map(|s| (s, c.response))) {
            Some((status, response)) => self.event(RequestorEvent::Finished { call_id, task_id, status, response }),
            None => self.event(RequestorEvent::Lost { call_id, task_id, error: error.to_owned() }),
        }
    }

    fn retrying(&mut self, task_id: &str, method: &str, response: String) {
        let call_id = self.call_of(task_id);
        self.event(RequestorEvent::Retrying { call_id, task_id: task_id.to_owned(), method: method.to_owned(), response });
    }

    /// Stops waiting for request `id` and recovers: tasks/get and tasks/result
    /// are retried on the schedule, the others reported failed.
    fn give_up(&mut self, id: &str, failure: Failure) {
        let Some(out) = self.take_pending(id) else { return };
        let method = out.what.method().to_owned();
        let response = match failure {
            Failure::Timeout => {
                let waited = self.last_now.saturating_sub(out.sent_at);
                own_error(id, TIMED_OUT, &format!("Request timed out: no answer to {method} within {waited} ms"), "timeout")
            }
            Failure::Transport => own_error(
                id,
                TRANSPORT_FAILED,
                &format!("Request failed: the host reported {method} or its answer lost in transport"),
                "transport",
            ),
        };
        match out.what {
            Pending::Call { .. } => self.event(RequestorEvent::CallRefused { call_id: RawId::trusted(id), response }),
            Pending::Get { task_id, .. } => {
                let Some(t) = self.tasks.get_mut(&task_id) else { return };
                t.polling = false;
                self.retrying(&task_id, &method, response);
                self.schedule(&task_id, Wait::Retry);
            }
            Pending::Result { task_id } => {
                let Some(t) = self.tasks.get_mut(&task_id) else { return };
                t.result_request = None;
                // While the task just runs, no tasks/result is needed until its status says so.
                if t.status().is_some_and(wants_result) {
                    self.retrying(&task_id, &method, response);
                    self.retry_result(&task_id);
                }
            }
            Pending::Cancel { task_id, call_id } => self.event(RequestorEvent::CancelAnswered { call_id, task_id, response }),
            Pending::Update { task_id, key } => self.update_failed(&task_id, &key, response),
            Pending::List { tasks, .. } => self.event(RequestorEvent::Listed { tasks, error: Some(response) }),
        }
    }

    /// A `tasks/update` got no good answer: the request is surfaced again by
    /// the next poll that still lists it, so the host can answer again.
    fn update_failed(&mut self, task_id: &str, key: &str, response: String) {
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if let Ok(at) = t.seen_inputs.binary_search_by(|k| k.as_str().cmp(key)) {
            t.seen_inputs.remove(at);
        }
        self.retrying(task_id, "tasks/update", response);
    }

    /// Asks the receiver to push the task's status, where the dialect can and
    /// the receiver has not refused it ([`RequestorConfig::listen`]).
    fn listen(&mut self, task_id: &str) {
        if !self.config.listen || self.listen_refused {
            return;
        }
        let Some(params) = self.codec().listen_params(task_id, &self.declaration) else { return };
        if !self.tasks.contains_key(task_id) {
            return;
        }
        let id = self.send("subscriptions/listen", &params, None);
        if let Some(t) = self.tasks.get_mut(task_id) {
            t.listen = Some(id);
        }
    }

    /// Closes the task's listen stream, if open: `notifications/cancelled` for it.
    fn unlisten(&mut self, task_id: &str) {
        let Some(id) = self.tasks.get_mut(task_id).and_then(|t| t.listen.take()) else { return };
        let mut params = String::from("{\"requestId\":");
        params.push_str(&id);
        params.push('}');
        let mut message = String::from("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":");
        message.push_str(&self.codec().task_params(params, &self.declaration));
        message.push('}');
        self.outputs.push_back(RequestorOutput::Send(message));
    }

    /// The task whose listen stream has raw id `id` (as our requests write it).
    fn listener(&self, id: &str) -> Option<String> {
        self.tasks.values().find(|t| t.listen.as_deref() == Some(id)).map(|t| t.task_id.clone())
    }

    /// The task's listen stream ended; `refused`: with an error, so none is asked for again.
    fn listen_ended(&mut self, task_id: &str, refused: bool) {
        if let Some(t) = self.tasks.get_mut(task_id) {
            t.listen = None;
        }
        self.listen_refused |= refused;
    }

    /// A listen acknowledgement: the stream pushes the task's status, or it is closed.
    fn on_acknowledged(&mut self, ack: Acknowledged<'_>, message: &str) {
        let Some(task_id) = self.listener(&ack.subscription_id.to_string()) else {
            return self.event(RequestorEvent::Forward { message: message.to_owned() });
        };
        match ack.task_ids {
            Some(ids) if ids.iter().any(|id| id.as_str() == Some(&task_id)) => {}
            // The receiver does not push task status on listen streams.
            None => {
                self.listen_refused = true;
                self.unlisten(&task_id);
            }
            Some(_) => self.unlisten(&task_id),
        }
    }

    /// A `tasks/get` answer in the tasks extension: a `DetailedTask` with the
    /// outcome or the outstanding `inputRequests` inlined.
    fn on_detailed_task(&mut self, task_id: &str, read: ReadTask, seq: u64) {
        let ReadTask { task, result, error, inputs } = read;
        self.update(task_id, task, Some(seq));
        let Some(t) = self.tasks.get(task_id) else { return };
        let Some(status) = t.status() else { return };
        if status.is_terminal() {
            // The outcome as the call itself would have answered it.
            let call_id = t.call_id.as_ref().map_or("null", RawId::as_str).to_owned();
            let response = match (status, result, error) {
                (TaskStatus::Failed, _, Some(e)) => jsonrpc::raw_error_response(Some(&call_id), &e.to_string()),
                (_, Some(r), _) => jsonrpc::result_response(&call_id, &r.to_string()),
                _ => {
                    own_error(&call_id, INVALID_PARAMS, &format!("Task '{task_id}' was cancelled before it produced a result"), "cancelled")
                }
            };
            return self.finish(task_id, status, response);
        }
        if let Some(Value::Object(requests)) = inputs {
            for (key, request) in requests {
                let Some(t) = self.tasks.get_mut(task_id) else { return };
                match t.seen_inputs.binary_search(&key) {
                    Ok(_) => continue, // Shown on an earlier poll: once is enough.
                    Err(at) => t.seen_inputs.insert(at, key.clone()),
                }
                let request_id = json_string(&key);
                self.inputs.insert(request_id.clone(), task_id.to_owned());
                // Surfaced as the standalone request it stands for.
                let message = match request.as_object() {
                    Some(r) => {
                        let method = r.get("method").cloned().unwrap_or(Value::Null);
                        let params = r.get("params").cloned().unwrap_or_else(|| serde_json::json!({}));
                        format!("{{\"jsonrpc\":\"2.0\",\"id\":{request_id},\"method\":{method},\"params\":{params}}}")
                    }
                    None => continue,
                };
                let call_id = self.call_of(task_id);
                let request_id = RawId::trusted(request_id);
                self.event(RequestorEvent::InputRequest { call_id, task_id: task_id.to_owned(), request_id, request: message });
            }
        }
        let Some(t) = self.tasks.get(task_id) else { return };
        if !t.status().is_some_and(TaskStatus::is_terminal) {
            self.schedule(task_id, Wait::Normal);
        }
    }

    /// Takes in a new view of a task (from `tasks/get`, a notification, a
    /// cancel answer). `seq`: the number of the `tasks/get` that brought it.
    fn update(&mut self, task_id: &str, task: Value, seq: Option<u64>) {
        let Some(status) = task_status(&task) else { return };
        let initial_backoff = self.config.poll.initial_backoff_ms;
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if t.status().is_some_and(TaskStatus::is_terminal) && !status.is_terminal() {
            // A terminal status is final: this view is older than the one we hold.
            return;
        }
        let changed = ["status", "statusMessage", "lastUpdatedAt"].iter().any(|k| t.task.get(*k) != task.get(*k));
        if t.task.get("status") != task.get("status") {
            t.result_backoff = initial_backoff;
        }
        t.task = task;
        if changed {
            let call_id = t.call_id.clone();
            if let Some(task) = TaskView::from_value(&t.task) {
                self.event(RequestorEvent::Status { call_id, task_id: task_id.to_owned(), task });
            }
        }
        if status.is_terminal() {
            self.unschedule(task_id);
            match self.tasks.get_mut(task_id).and_then(|t| t.candidate.take()) {
                Some(candidate) => self.finish(task_id, status, candidate.response),
                // The extension inlines the outcome: the caller finishes it.
                None if self.config.dialect.inlines_outcome() => {}
                // For a cancelled task this brings the receiver's "no result" answer.
                None => {
                    self.tighten_result_timeout(task_id);
                    self.fetch_result(task_id);
                }
            }
            return;
        }
        let stale = self.tasks.get_mut(task_id).and_then(|t| match (&t.candidate, seq) {
            (Some(c), Some(seq)) if seq > c.after => t.candidate.take(),
            _ => None,
        });
        if let Some(candidate) = stale {
            // A tasks/get sent after that answer still shows the task running:
            // the answer was not the outcome. Ask again later.
            self.retrying(task_id, "tasks/result", candidate.response);
            self.retry_result(task_id);
        }
        if status == TaskStatus::InputRequired && !self.config.dialect.inlines_outcome() {
            self.fetch_result(task_id);
        }
    }

    /// Feeds one message from the receiver.
    pub fn handle_message(&mut self, message: &str) {
        self.now();
        let parsed = match jsonrpc::parse(message, usize::MAX, 256) {
            Ok(p) => p,
            Err(_) => return self.event(RequestorEvent::Forward { message: message.to_owned() }),
        };
        match parsed {
            Incoming::Response { id, result, error } => match self.take_pending(id) {
                Some(out) => self.on_response(id, out.what, result, error, message),
                // The end of a listen stream: the receiver closed it, or refused it.
                None => match self.listener(id) {
                    Some(task_id) => self.listen_ended(&task_id, error.is_some()),
                    None => self.event(RequestorEvent::Forward { message: message.to_owned() }),
                },
            },
            Incoming::Notification { method, params } => self.on_notification(&method, params, message),
            Incoming::Request { id, params, .. } => match params.and_then(related_task_of) {
                Some(task_id) if self.tasks.contains_key(&task_id) => {
                    self.inputs.insert(id.to_owned(), task_id.clone());
                    let call_id = self.call_of(&task_id);
                    let request_id = RawId::trusted(id);
                    self.event(RequestorEvent::InputRequest { call_id, task_id, request_id, request: message.to_owned() });
                }
                _ => self.event(RequestorEvent::Forward { message: message.to_owned() }),
            },
        }
    }

    fn on_notification(&mut self, method: &str, params: Option<Json<'_>>, message: &str) {
        let params: Option<Value> = params.and_then(|p| serde_json::from_str(p.get()).ok());
        let forward = |r: &mut Self| r.event(RequestorEvent::Forward { message: message.to_owned() });
        if self.codec().pushes_task(method) {
            // A status pushed unasked (2025-11-25) or on a listen stream (tasks extension: a full DetailedTask).
            let task_id = params.as_ref().and_then(|p| p.get("taskId")).and_then(Value::as_str).map(str::to_owned);
            let valid = params.as_ref().and_then(task_status).is_some();
            return match (task_id, params) {
                (Some(id), Some(task)) if valid && self.tasks.contains_key(&id) => {
                    let read = self.codec().read_task(task);
                    if self.config.dialect.inlines_outcome() {
                        self.on_detailed_task(&id, read, 0)
                    } else {
                        // A terminal status fetches the outcome with tasks/result.
                        self.update(&id, read.task, None)
                    }
                }
                _ => forward(self),
            };
        }
        if let Some(ack) = params.as_ref().and_then(|p| self.codec().acknowledged(method, p)) {
            return self.on_acknowledged(ack, message);
        }
        match method {
            // The receiver ended a listen stream (stdio).
            "notifications/cancelled" => {
                let listen = params.as_ref().and_then(|p| p.get("requestId")).and_then(|id| self.listener(&id.to_string()));
                match listen {
                    Some(task_id) => self.listen_ended(&task_id, false),
                    None => forward(self),
                }
            }
            "notifications/progress" => {
                let token = params.as_ref().and_then(|p| p.get("progressToken")).map(Value::to_string);
                let owner = token.and_then(|tok| {
                    self.tasks
                        .values()
                        .find(|t| {
                            t.progress_token.as_deref().and_then(|p| serde_json::from_str::<Value>(p).ok()).map(|v| v.to_string())
                                == Some(tok.clone())
                        })
                        .map(|t| (t.call_id.clone(), t.task_id.clone()))
                });
                match owner {
                    Some((call_id, task_id)) => self.event(RequestorEvent::Progress { call_id, task_id, notification: message.to_owned() }),
                    None => self.event(RequestorEvent::Forward { message: message.to_owned() }),
                }
            }
            _ => self.event(RequestorEvent::Forward { message: message.to_owned() }),
        }
    }

    /// Tracks the task a call created and starts polling it.
    fn track(&mut self, call_id: RawId, method: String, progress_token: Option<String>, task: Value, view: TaskView) {
        let task_id = view.task_id.clone();
        // A reused ID starts over: no timers of the old one linger.
        self.forget(&task_id);
        let backoff = self.config.poll.initial_backoff_ms;
        let mut tracked = Tracked::new(task_id.clone(), method, task, progress_token, backoff);
        tracked.call_id = Some(call_id.clone());
        self.tasks.insert(task_id.clone(), tracked);
        let status = view.status;
        // The last known state is seeded without a Status event for the creation itself.
        self.event(RequestorEvent::Created { call_id, task_id: task_id.clone(), task: view });
        if wants_result(status) && !self.config.dialect.inlines_outcome() {
            self.fetch_result(&task_id);
        }
        if !status.is_terminal() {
            self.schedule(&task_id, Wait::Normal);
            self.listen(&task_id);
        }
    }

    fn on_response(&mut self, id: &str, pending: Pending, result: Option<Json<'_>>, error: Option<Json<'_>>, message: &str) {
        let result_value: Option<Value> = result.and_then(|r| serde_json::from_str(r.get()).ok());
        match pending {
            Pending::Call { method, progress_token, augmented } => {
                let task = result_value.as_ref().and_then(|r| self.codec().created_task(r));
                let task = task.as_ref().filter(|t| t.get("taskId").is_some_and(Value::is_string));
                let call_id = RawId::trusted(id);
                match (error, task) {
                    (Some(_), _) => self.event(RequestorEvent::CallRefused { call_id, response: message.to_owned() }),
                    // Only tools/call may become a task in the extension: anything
                    // else answered with a task is an invalid response.
                    (None, Some(_)) if self.config.dialect.receiver_decides() && method != "tools/call" => {
                        let why = format!(
                            "Invalid response: {method} cannot become a task in the tasks extension, yet the receiver answered with one"
                        );
                        self.event(RequestorEvent::CallRefused {
                            call_id,
                            response: own_error(id, INTERNAL_ERROR, &why, "invalidResponse"),
                        })
                    }
                    (None, Some(task)) if augmented => match TaskView::from_value(task) {
                        Some(view) => self.track(call_id, method, progress_token, task.clone(), view),
                        None => {
                            let why = format!("Invalid response: the task {method} created has no status this requestor knows: {task}");
                            let response = own_error(id, INTERNAL_ERROR, &why, "invalidResponse");
                            self.event(RequestorEvent::CallRefused { call_id, response })
                        }
                    },
                    _ => self.event(RequestorEvent::PlainResponse { call_id, response: message.to_owned() }),
                }
            }
            Pending::Get { task_id, seq } => {
                let Some(t) = self.tasks.get_mut(&task_id) else { return };
                t.polling = false;
                let task = result_value.filter(|v| error.is_none() && task_status(v).is_some());
                match (error, task) {
                    (Some(e), _) if error_code(e) == Some(INVALID_PARAMS) => self.gone(&task_id, e.get()),
                    (_, Some(task)) if self.config.dialect.inlines_outcome() => {
                        t.poll_retry_backoff = self.config.poll.initial_backoff_ms;
                        let read = self.codec().read_task(task);
                        self.on_detailed_task(&task_id, read, seq);
                    }
                    (_, Some(task)) => {
                        t.poll_retry_backoff = self.config.poll.initial_backoff_ms;
                        let read = self.codec().read_task(task);
                        self.update(&task_id, read.task, Some(seq));
                        let Some(t) = self.tasks.get(&task_id) else { return };
                        if !t.status().is_some_and(TaskStatus::is_terminal) {
                            if t.candidate.is_some() {
                                // This view predates the tasks/result answer we hold: check again now.
                                self.poll(&task_id);
                            } else {
                                self.schedule(&task_id, Wait::Normal);
                            }
                        }
                    }
                    // An error (rate limit, internal...) or an unreadable answer: try again later.
                    _ => {
                        self.retrying(&task_id, "tasks/get", message.to_owned());
                        self.schedule(&task_id, Wait::Retry);
                    }
                }
            }
            Pending::Result { task_id } => {
                let Some(t) = self.tasks.get_mut(&task_id) else { return };
                t.result_request = None;
                match (t.status(), error) {
                    // A completed task has a result, not an error: this one is the receiver's.
                    (Some(TaskStatus::Completed), Some(e)) if error_code(e) == Some(INVALID_PARAMS) => self.gone(&task_id, e.get()),
                    (Some(TaskStatus::Completed), Some(_)) => {
                        self.retrying(&task_id, "tasks/result", message.to_owned());
                        self.retry_result(&task_id);
                    }
                    // Known terminal: whatever the receiver answers now is the outcome.
                    (Some(status), _) if status.is_terminal() => self.finish(&task_id, status, message.to_owned()),
                    // An error while the task looks running: a receiver error (rate
                    // limit...), or its failure that we will read again once the
                    // status shows it. Not the outcome yet.
                    (_, Some(_)) => {
                        self.retrying(&task_id, "tasks/result", message.to_owned());
                        self.retry_result(&task_id);
                    }
                    // A result before we saw the end: the outcome once a tasks/get
                    // sent from now on shows a terminal status.
                    (_, None) => {
                        t.candidate = Some(Candidate { response: message.to_owned(), after: self.next_id });
                        self.poll(&task_id);
                    }
                }
            }
            Pending::Cancel { task_id, call_id } if self.config.dialect.inlines_outcome() => {
                // An acknowledgement only: the final status comes from polling, soon.
                self.event(RequestorEvent::CancelAnswered { call_id, task_id: task_id.clone(), response: message.to_owned() });
                if error.is_none() && self.tasks.contains_key(&task_id) {
                    self.schedule(&task_id, Wait::Fixed(0));
                }
            }
            Pending::Update { task_id, key } => {
                if error.is_some() {
                    self.update_failed(&task_id, &key, message.to_owned());
                } else if self.tasks.contains_key(&task_id) {
                    // Acknowledged; poll soon to see the task move on.
                    self.schedule(&task_id, Wait::Normal);
                }
            }
            Pending::Cancel { task_id, call_id } => {
                if let Some(mut task) = result_value.filter(|_| error.is_none()) {
                    if let Some(obj) = task.as_object_mut() {
                        obj.remove("_meta");
                    }
                    self.event(RequestorEvent::CancelAnswered { call_id, task_id: task_id.clone(), response: message.to_owned() });
                    // A terminal status fetches the receiver's final word, so a
                    // cancelled task ends with `Finished` as in every other way.
                    self.update(&task_id, task, None);
                } else {
                    self.event(RequestorEvent::CancelAnswered { call_id, task_id, response: message.to_owned() });
                }
            }
            Pending::List { mut tasks, pages, mut cursors } => {
                if error.is_some() {
                    return self.event(RequestorEvent::Listed { tasks, error: Some(message.to_owned()) });
                }
                // A page: `tasks` (an array, absent if none) and `nextCursor` (a string, or absent or null at the end).
                let page = result_value.as_ref().and_then(Value::as_object).and_then(|page| {
                    let listed = match page.get("tasks") {
                        None => &[][..],
                        Some(Value::Array(listed)) => listed.as_slice(),
                        Some(_) => return None,
                    };
                    match page.get("nextCursor") {
                        None | Some(Value::Null) => Some((listed, None)),
                        Some(Value::String(cursor)) => Some((listed, Some(cursor.clone()))),
                        Some(_) => None,
                    }
                });
                let Some((listed, next_cursor)) = page else {
                    return self.event(RequestorEvent::Listed { tasks, error: Some(message.to_owned()) });
                };
                tasks.extend(listed.iter().filter_map(TaskView::from_value));
                let pages = pages + 1;
                let Some(cursor) = next_cursor else {
                    return self.event(RequestorEvent::Listed { tasks, error: None });
                };
                let cursor_hash = {
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    cursor.hash(&mut h);
                    h.finish()
                };
                let stop = if cursors.contains(&cursor_hash) {
                    let shown: String = cursor.chars().take(100).collect();
                    Some((
                        format!(
                            "tasks/list stopped: the receiver repeated the cursor {} (it would list the same pages forever)",
                            json_string(&shown)
                        ),
                        "repeatedCursor",
                    ))
                } else if pages >= self.config.max_list_pages.max(1) || tasks.len() >= MAX_LISTED_TASKS {
                    Some((
                        format!(
                            "tasks/list stopped after {pages} pages ({} tasks): the requestor's page limit is {}",
                            tasks.len(),
                            self.config.max_list_pages.max(1)
                        ),
                        "pageLimit",
                    ))
                } else {
                    None
                };
                match stop {
                    Some((why, kind)) => {
                        let error = own_error(id, INTERNAL_ERROR, &why, kind);
                        self.event(RequestorEvent::Listed { tasks, error: Some(error) });
                    }
                    None => {
                        let params = format!("{{\"cursor\":{}}}", json_string(&cursor));
                        cursors.push(cursor_hash);
                        let timeout = self.config.poll.request_timeout_ms;
                        self.send_request("tasks/list", &params, Pending::List { tasks, pages, cursors }, timeout);
                    }
                }
            }
        }
    }
}

/// `params._meta["io.modelcontextprotocol/related-task"].taskId` of a request.
fn related_task_of(params: Json<'_>) -> Option<String> {
    let v: Value = serde_json::from_str(params.get()).ok()?;
    related_task_id(&v).map(str::to_owned)
}
