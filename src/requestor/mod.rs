//! The requestor role: decide whether to augment, create tasks on a remote
//! receiver, poll them on the receiver's schedule, relay their side-channel
//! requests, and collect exactly what `tasks/result` returns. Sans-IO like the
//! receiver: the host sends what [`Requestor::poll_output`] yields and feeds
//! back what arrives.

mod decide;
mod schedule;
mod state;

pub use decide::{should_augment, Decision};
pub use schedule::PollPolicy;

use crate::core::TaskStatus;
use crate::error::HostError;
use crate::protocol::jsonrpc::{self, first_byte, json_string, Incoming};
use crate::protocol::legacy::{related_task_value, RELATED_TASK};
use crate::time::Clock;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, VecDeque};

/// How a [`Requestor`] behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestorConfig {
    /// Polling floor, ceiling and backoff.
    pub poll: PollPolicy,
    /// Prefix of the JSON-RPC ids the requestor gives its requests (string ids
    /// `"{prefix}{n}"`), so they cannot clash with the host's own.
    pub request_id_prefix: String,
}

impl Default for RequestorConfig {
    fn default() -> Self {
        RequestorConfig { poll: PollPolicy::default(), request_id_prefix: "mcp-task-core:".to_owned() }
    }
}

/// One item from [`Requestor::poll_output`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestorOutput {
    /// A JSON-RPC message for the receiver.
    Send(String),
    /// Something for the host.
    Event(RequestorEvent),
}

/// What the requestor tells its host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestorEvent {
    /// The receiver created a task for call `call_id`; `task` is its `Task` JSON.
    Created { call_id: String, task_id: String, task: String },
    /// The receiver ran call `call_id` as a plain request; this is its response.
    PlainResponse { call_id: String, response: String },
    /// The receiver refused call `call_id`; `response` is its JSON-RPC error response.
    CallRefused { call_id: String, response: String },
    /// The last known state of a task changed; `task` is its `Task` JSON.
    Status { task_id: String, task: String },
    /// The receiver asks something for the task (e.g. `elicitation/create`).
    /// Answer with [`Requestor::respond`] using `request_id`.
    InputRequest { task_id: String, request_id: String, request: String },
    /// A `notifications/progress` for the task's progress token.
    Progress { task_id: String, notification: String },
    /// The task ended; `response` is the `tasks/result` response exactly as
    /// the receiver sent it (a result, or the underlying JSON-RPC error).
    Finished { task_id: String, status: TaskStatus, response: String },
    /// The receiver no longer knows the task (expired or deleted); `error` is its error object.
    Lost { task_id: String, error: String },
    /// The answer to [`Requestor::cancel`] (the cancelled task, or an error response).
    CancelAnswered { task_id: String, response: String },
    /// [`Requestor::list`] finished: every page's tasks as a JSON array, or the error response that stopped it.
    Listed { tasks: String, error: Option<String> },
    /// A message that is none of the requestor's business.
    Forward { message: String },
}

#[derive(Debug)]
enum Pending {
    Call { method: String, progress_token: Option<String>, augmented: bool },
    Get { task_id: String },
    Result { task_id: String },
    Cancel { task_id: String },
    List { tasks: Vec<Box<RawValue>> },
}

#[derive(Debug, Clone)]
pub(crate) struct Tracked {
    pub task_id: String,
    pub method: String,
    /// Last known `Task` object.
    pub task: Value,
    pub progress_token: Option<String>,
    due: Option<u64>,
    polling: bool,
    backoff: u64,
    result_pending: bool,
    /// A `tasks/result` answer that came before we saw a terminal status.
    early_payload: Option<String>,
}

impl Tracked {
    pub(crate) fn new(task_id: String, method: String, task: Value, progress_token: Option<String>, backoff: u64) -> Self {
        Tracked { task_id, method, task, progress_token, due: None, polling: false, backoff, result_pending: false, early_payload: None }
    }

    fn status(&self) -> Option<TaskStatus> {
        self.task.get("status").and_then(Value::as_str).and_then(TaskStatus::parse)
    }

    fn poll_interval(&self) -> Option<u64> {
        self.task.get("pollInterval").and_then(Value::as_u64)
    }
}

/// The requestor side of MCP tasks, for one receiver.
///
/// ```
/// use mcp_task_core::{ManualClock, Requestor, RequestorConfig, RequestorOutput};
/// let clock = ManualClock::new(0);
/// let mut requestor = Requestor::new(RequestorConfig::default(), Box::new(clock.clone()));
/// let call = requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(Some(60_000)), None).unwrap();
/// let Some(RequestorOutput::Send(request)) = requestor.poll_output() else { panic!() };
/// assert!(request.contains(r#""task":{"ttl":60000}"#));
/// // The receiver answers with a CreateTaskResult: polling starts on its schedule.
/// requestor.handle_message(&format!(r#"{{"jsonrpc":"2.0","id":{call},"result":{{"task":{{"taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":60000,"pollInterval":2000}}}}}}"#));
/// assert_eq!(requestor.next_deadline(), Some(2_000));
/// ```
pub struct Requestor {
    config: RequestorConfig,
    clock: Box<dyn Clock>,
    last_now: u64,
    next_id: u64,
    pending: HashMap<String, Pending>,
    /// Side-channel requests from the receiver: raw id -> task.
    inputs: HashMap<String, String>,
    pub(crate) tasks: HashMap<String, Tracked>,
    polls: BTreeSet<(u64, String)>,
    outputs: VecDeque<RequestorOutput>,
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
    pub fn new(config: RequestorConfig, clock: Box<dyn Clock>) -> Self {
        Requestor {
            config,
            clock,
            last_now: 0,
            next_id: 0,
            pending: HashMap::new(),
            inputs: HashMap::new(),
            tasks: HashMap::new(),
            polls: BTreeSet::new(),
            outputs: VecDeque::new(),
        }
    }

    fn now(&mut self) -> u64 {
        self.last_now = self.clock.now_ms().max(self.last_now);
        self.last_now
    }

    fn send_request(&mut self, method: &str, params: &str, pending: Pending) -> String {
        self.next_id += 1;
        let id = json_string(&format!("{}{}", self.config.request_id_prefix, self.next_id));
        let message = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{},\"params\":{params}}}", json_string(method));
        self.pending.insert(id.clone(), pending);
        self.outputs.push_back(RequestorOutput::Send(message));
        id
    }

    fn event(&mut self, event: RequestorEvent) {
        self.outputs.push_back(RequestorOutput::Event(event));
    }

    /// Sends `method` with `params_json` (an object). `task`: `None` for a plain
    /// request, `Some(ttl)` to augment it (`Some(None)`: no `ttl`, the receiver's
    /// default). `progress_token` (raw JSON string or number) goes into
    /// `_meta.progressToken` and stays valid for the task's life. Returns the
    /// call id (the request's raw JSON id) that events refer to.
    pub fn call(
        &mut self,
        method: &str,
        params_json: Option<&str>,
        task: Option<Option<u64>>,
        progress_token: Option<&str>,
    ) -> Result<String, HostError> {
        let mut params: serde_json::Map<String, Value> = match params_json {
            None => serde_json::Map::new(),
            Some(p) => serde_json::from_str(p).map_err(|_| HostError::invalid("params must be a JSON object"))?,
        };
        if let Some(ttl) = task {
            let meta = match ttl {
                Some(ms) => serde_json::json!({ "ttl": ms }),
                None => serde_json::json!({}),
            };
            params.insert("task".to_owned(), meta);
        }
        if let Some(token) = progress_token {
            let token: Value =
                serde_json::from_str(token).map_err(|_| HostError::invalid("progressToken must be raw JSON: a string or a number"))?;
            if !(token.is_string() || token.is_i64() || token.is_u64()) {
                return Err(HostError::invalid("progressToken must be a string or an integer"));
            }
            let meta = params.entry("_meta").or_insert_with(|| Value::Object(Default::default()));
            let Some(meta) = meta.as_object_mut() else { return Err(HostError::invalid("params._meta must be an object")) };
            meta.insert("progressToken".to_owned(), token);
        }
        let params = Value::Object(params).to_string();
        let pending =
            Pending::Call { method: method.to_owned(), progress_token: progress_token.map(str::to_owned), augmented: task.is_some() };
        Ok(self.send_request(method, &params, pending))
    }

    /// Answers the receiver's side-channel request `request_id` with a result
    /// object; the answer carries the task's related-task `_meta`.
    pub fn respond(&mut self, request_id: &str, result_json: &str) -> Result<(), HostError> {
        let task_id = self
            .inputs
            .get(request_id)
            .cloned()
            .ok_or_else(|| HostError::invalid(format!("No open request from the receiver has id {request_id}")))?;
        if !is_object(result_json) {
            return Err(HostError::invalid("The answer must be a JSON object"));
        }
        let result = jsonrpc::with_meta_entry(result_json, RELATED_TASK, &related_task_value(&task_id))
            .ok_or_else(|| HostError::invalid("The answer must be a JSON object whose _meta, if any, is an object"))?;
        self.inputs.remove(request_id);
        self.outputs.push_back(RequestorOutput::Send(jsonrpc::result_response(request_id, &result)));
        Ok(())
    }

    /// Answers the receiver's side-channel request `request_id` with a JSON-RPC error object.
    pub fn respond_error(&mut self, request_id: &str, error_json: &str) -> Result<(), HostError> {
        if !self.inputs.contains_key(request_id) {
            return Err(HostError::invalid(format!("No open request from the receiver has id {request_id}")));
        }
        if !is_object(error_json) || serde_json::from_str::<serde::de::IgnoredAny>(error_json).is_err() {
            return Err(HostError::invalid("The error must be a JSON-RPC error object"));
        }
        self.inputs.remove(request_id);
        self.outputs.push_back(RequestorOutput::Send(jsonrpc::raw_error_response(Some(request_id), error_json)));
        Ok(())
    }

    /// Asks the receiver to cancel a tracked task (answered by [`RequestorEvent::CancelAnswered`]).
    pub fn cancel(&mut self, task_id: &str) -> Result<String, HostError> {
        if !self.tasks.contains_key(task_id) {
            return Err(HostError::UnknownTask { task_id: task_id.to_owned() });
        }
        let params = format!("{{\"taskId\":{}}}", json_string(task_id));
        Ok(self.send_request("tasks/cancel", &params, Pending::Cancel { task_id: task_id.to_owned() }))
    }

    /// Lists every task the receiver shows us, following `nextCursor` to the
    /// end (answered by [`RequestorEvent::Listed`]).
    pub fn list(&mut self) -> String {
        self.send_request("tasks/list", "{}", Pending::List { tasks: Vec::new() })
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
        if let Some(t) = self.tasks.remove(task_id) {
            if let Some(due) = t.due {
                self.polls.remove(&(due, t.task_id));
            }
        }
        self.inputs.retain(|_, owner| owner != task_id);
    }

    /// The next output, or `None`.
    pub fn poll_output(&mut self) -> Option<RequestorOutput> {
        self.outputs.pop_front()
    }

    /// When the next poll is due (epoch ms), or `None`.
    pub fn next_deadline(&self) -> Option<u64> {
        self.polls.first().map(|(due, _)| *due)
    }

    /// Sends the `tasks/get` polls that are due. Harmless when early or repeated.
    pub fn handle_timeout(&mut self) {
        let now = self.now();
        while let Some((due, task_id)) = self.polls.first().cloned() {
            if due > now {
                break;
            }
            self.polls.remove(&(due, task_id.clone()));
            let Some(t) = self.tasks.get_mut(&task_id) else { continue };
            t.due = None;
            if t.polling {
                continue;
            }
            t.polling = true;
            let params = format!("{{\"taskId\":{}}}", json_string(&task_id));
            self.send_request("tasks/get", &params, Pending::Get { task_id });
        }
    }

    fn schedule(&mut self, task_id: &str, wait: Option<u64>) {
        let now = self.now();
        let policy = self.config.poll.clone();
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if let Some(due) = t.due.take() {
            self.polls.remove(&(due, t.task_id.clone()));
        }
        let wait = wait.unwrap_or_else(|| policy.next_wait(t.poll_interval(), &mut t.backoff));
        let due = now.saturating_add(wait);
        t.due = Some(due);
        self.polls.insert((due, t.task_id.clone()));
    }

    fn unschedule(&mut self, task_id: &str) {
        if let Some(t) = self.tasks.get_mut(task_id) {
            if let Some(due) = t.due.take() {
                self.polls.remove(&(due, t.task_id.clone()));
            }
        }
    }

    fn fetch_result(&mut self, task_id: &str) {
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        if t.result_pending {
            return;
        }
        t.result_pending = true;
        let params = format!("{{\"taskId\":{}}}", json_string(task_id));
        self.send_request("tasks/result", &params, Pending::Result { task_id: task_id.to_owned() });
    }

    fn finish(&mut self, task_id: &str, response: String) {
        let status = self.tasks.get(task_id).and_then(Tracked::status).unwrap_or(TaskStatus::Completed);
        self.forget(task_id);
        self.event(RequestorEvent::Finished { task_id: task_id.to_owned(), status, response });
    }

    /// Takes in a new view of a task (from `tasks/get`, a notification, a cancel answer).
    fn update(&mut self, task_id: &str, task: Value) {
        let Some(t) = self.tasks.get_mut(task_id) else { return };
        let changed = ["status", "statusMessage", "lastUpdatedAt"].iter().any(|k| t.task.get(*k) != task.get(*k));
        t.task = task;
        let status = t.status();
        let early = t.early_payload.take();
        if changed {
            let task = t.task.to_string();
            self.event(RequestorEvent::Status { task_id: task_id.to_owned(), task });
        }
        match status {
            Some(s) if s.is_terminal() => {
                self.unschedule(task_id);
                match early {
                    Some(payload) => self.finish(task_id, payload),
                    // For a cancelled task this brings the receiver's "no result" answer.
                    None => self.fetch_result(task_id),
                }
            }
            Some(TaskStatus::InputRequired) => {
                if let Some(t) = self.tasks.get_mut(task_id) {
                    t.early_payload = early;
                }
                self.fetch_result(task_id);
            }
            _ => {
                if let Some(t) = self.tasks.get_mut(task_id) {
                    t.early_payload = early;
                }
            }
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
            Incoming::Response { id, result, error } => match self.pending.remove(id) {
                Some(pending) => self.on_response(id, pending, result, error, message),
                None => self.event(RequestorEvent::Forward { message: message.to_owned() }),
            },
            Incoming::Notification { method, params } => self.on_notification(&method, params, message),
            Incoming::Request { id, params, .. } => match params.and_then(related_task_of) {
                Some(task_id) if self.tasks.contains_key(&task_id) => {
                    self.inputs.insert(id.to_owned(), task_id.clone());
                    self.event(RequestorEvent::InputRequest { task_id, request_id: id.to_owned(), request: message.to_owned() });
                }
                _ => self.event(RequestorEvent::Forward { message: message.to_owned() }),
            },
        }
    }

    fn on_notification(&mut self, method: &str, params: Option<&RawValue>, message: &str) {
        let params: Option<Value> = params.and_then(|p| serde_json::from_str(p.get()).ok());
        match method {
            "notifications/tasks/status" => {
                let task_id = params.as_ref().and_then(|p| p.get("taskId")).and_then(Value::as_str).map(str::to_owned);
                match (task_id, params) {
                    (Some(id), Some(mut task)) if self.tasks.contains_key(&id) => {
                        if let Some(obj) = task.as_object_mut() {
                            obj.remove("_meta");
                        }
                        self.update(&id, task);
                    }
                    _ => self.event(RequestorEvent::Forward { message: message.to_owned() }),
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
                        .map(|t| t.task_id.clone())
                });
                match owner {
                    Some(task_id) => self.event(RequestorEvent::Progress { task_id, notification: message.to_owned() }),
                    None => self.event(RequestorEvent::Forward { message: message.to_owned() }),
                }
            }
            _ => self.event(RequestorEvent::Forward { message: message.to_owned() }),
        }
    }

    fn on_response(&mut self, id: &str, pending: Pending, result: Option<&RawValue>, error: Option<&RawValue>, message: &str) {
        let result_value: Option<Value> = result.and_then(|r| serde_json::from_str(r.get()).ok());
        match pending {
            Pending::Call { method, progress_token, augmented } => {
                let task = result_value.as_ref().and_then(|r| r.get("task")).filter(|t| t.get("taskId").is_some_and(Value::is_string));
                match (error, task) {
                    (Some(_), _) => self.event(RequestorEvent::CallRefused { call_id: id.to_owned(), response: message.to_owned() }),
                    (None, Some(task)) if augmented => {
                        let task = task.clone();
                        let task_id = task["taskId"].as_str().unwrap_or_default().to_owned();
                        let backoff = self.config.poll.initial_backoff_ms;
                        self.tasks.insert(task_id.clone(), Tracked::new(task_id.clone(), method, Value::Null, progress_token, backoff));
                        self.event(RequestorEvent::Created { call_id: id.to_owned(), task_id: task_id.clone(), task: task.to_string() });
                        // Seed the last known state without a Status event for the creation itself.
                        if let Some(t) = self.tasks.get_mut(&task_id) {
                            t.task = task;
                        }
                        match self.tasks.get(&task_id).and_then(Tracked::status) {
                            Some(s) if s.is_terminal() || s == TaskStatus::InputRequired => self.fetch_result(&task_id),
                            _ => {}
                        }
                        if self.tasks.get(&task_id).and_then(Tracked::status).is_some_and(|s| !s.is_terminal()) {
                            self.schedule(&task_id, None);
                        }
                    }
                    _ => self.event(RequestorEvent::PlainResponse { call_id: id.to_owned(), response: message.to_owned() }),
                }
            }
            Pending::Get { task_id } => {
                let Some(t) = self.tasks.get_mut(&task_id) else { return };
                t.polling = false;
                match (error, result_value) {
                    (Some(e), _) => {
                        let code = serde_json::from_str::<Value>(e.get()).ok().and_then(|v| v.get("code").and_then(Value::as_i64));
                        if code == Some(jsonrpc::INVALID_PARAMS) {
                            let early = t.early_payload.take();
                            match early {
                                // We already hold the payload: the task finished, then vanished.
                                Some(payload) => self.finish(&task_id, payload),
                                None => {
                                    self.forget(&task_id);
                                    self.event(RequestorEvent::Lost { task_id, error: e.get().to_owned() });
                                }
                            }
                        } else {
                            self.schedule(&task_id, None);
                        }
                    }
                    (None, Some(mut task)) => {
                        if let Some(obj) = task.as_object_mut() {
                            obj.remove("_meta");
                        }
                        self.update(&task_id, task);
                        if self.tasks.get(&task_id).and_then(Tracked::status).is_some_and(|s| !s.is_terminal()) {
                            self.schedule(&task_id, None);
                        }
                    }
                    (None, None) => self.schedule(&task_id, None),
                }
            }
            Pending::Result { task_id } => {
                let Some(t) = self.tasks.get_mut(&task_id) else { return };
                t.result_pending = false;
                if t.status().is_some_and(TaskStatus::is_terminal) {
                    self.finish(&task_id, message.to_owned());
                } else {
                    // Answered before we saw the end (or an error while it runs):
                    // keep it and poll now to learn the final status.
                    t.early_payload = Some(message.to_owned());
                    if !t.polling {
                        self.schedule(&task_id, Some(0));
                        self.handle_timeout();
                    }
                }
            }
            Pending::Cancel { task_id } => {
                if let Some(mut task) = result_value.filter(|_| error.is_none()) {
                    if let Some(obj) = task.as_object_mut() {
                        obj.remove("_meta");
                    }
                    self.event(RequestorEvent::CancelAnswered { task_id: task_id.clone(), response: message.to_owned() });
                    let cancelled = task.get("status").and_then(Value::as_str) == Some("cancelled");
                    self.update(&task_id, task);
                    if cancelled {
                        // Nothing more to collect from a cancelled task.
                        self.forget(&task_id);
                    }
                } else {
                    self.event(RequestorEvent::CancelAnswered { task_id, response: message.to_owned() });
                }
            }
            Pending::List { mut tasks } => {
                if error.is_some() {
                    let all = format!("[{}]", tasks.iter().map(|t| t.get()).collect::<Vec<_>>().join(","));
                    return self.event(RequestorEvent::Listed { tasks: all, error: Some(message.to_owned()) });
                }
                #[derive(serde::Deserialize)]
                struct Page {
                    #[serde(default)]
                    tasks: Vec<Box<RawValue>>,
                    #[serde(rename = "nextCursor")]
                    next_cursor: Option<String>,
                }
                let page: Option<Page> = result.and_then(|r| serde_json::from_str(r.get()).ok());
                let Some(page) = page else {
                    return self.event(RequestorEvent::Listed { tasks: "[]".to_owned(), error: Some(message.to_owned()) });
                };
                tasks.extend(page.tasks);
                match page.next_cursor {
                    Some(cursor) if tasks.len() < 1_000_000 => {
                        let params = format!("{{\"cursor\":{}}}", json_string(&cursor));
                        self.send_request("tasks/list", &params, Pending::List { tasks });
                    }
                    _ => {
                        let all = format!("[{}]", tasks.iter().map(|t| t.get()).collect::<Vec<_>>().join(","));
                        self.event(RequestorEvent::Listed { tasks: all, error: None });
                    }
                }
            }
        }
    }
}

/// `params._meta["io.modelcontextprotocol/related-task"].taskId` of a request.
fn related_task_of(params: &RawValue) -> Option<String> {
    let v: Value = serde_json::from_str(params.get()).ok()?;
    v.get("_meta")?.get(RELATED_TASK)?.get("taskId")?.as_str().map(str::to_owned)
}
