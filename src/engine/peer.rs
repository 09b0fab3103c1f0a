//! Requests from the peer: `tasks/*` and task-augmented requests.

use super::channel::Waiter;
use super::{Engine, Inbound, TaskSupport};
use crate::core::table::{CreateRefusal, NewTask, TaskRecord};
use crate::core::{Outcome, RequestKind, TaskStatus};
use crate::output::Event;
use crate::protocol::jsonrpc::{self, RpcError, INTERNAL_ERROR, LIMIT_EXCEEDED, METHOD_NOT_FOUND};
use crate::protocol::legacy::{self, TtlRequest, RELATED_TASK};
use crate::protocol::Dialect;
use serde::Deserialize;
use serde_json::value::RawValue;

/// What a new task is asked for, by a peer or by the host.
pub(super) struct TaskRequest {
    pub kind: RequestKind,
    pub ttl: TtlRequest,
    /// Raw JSON `progressToken` of the request, if any.
    pub progress_token: Option<String>,
    pub poll_interval: Option<u64>,
    /// The flow that creates the task.
    pub dialect: Dialect,
}

/// The engine's answer to a request.
pub(super) enum Reply {
    /// A result object to send now.
    Result(String),
    /// An error to send now.
    Error(RpcError),
    /// A whole response text to send now.
    Response(String),
    /// Nothing now: deferred, or forwarded to the host.
    Later,
}

impl From<Result<String, RpcError>> for Reply {
    fn from(r: Result<String, RpcError>) -> Self {
        match r {
            Ok(s) => Reply::Result(s),
            Err(e) => Reply::Error(e),
        }
    }
}

/// The response `tasks/result` gives for a finished task.
pub(super) fn payload_response(t: &TaskRecord, request_id: &str) -> String {
    match &t.outcome {
        Some(Outcome::Result(result)) => {
            match jsonrpc::with_meta_entry(result, RELATED_TASK, &legacy::related_task_value(&t.id)) {
                Some(with_meta) => jsonrpc::result_response(request_id, &with_meta),
                // Results are checked when stored, so this is a fault of ours.
                None => jsonrpc::error_response(
                    Some(request_id),
                    &RpcError::new(INTERNAL_ERROR, "Internal error: the stored result is not a JSON object"),
                ),
            }
        }
        Some(Outcome::Error(error)) => jsonrpc::raw_error_response(Some(request_id), error),
        None => {
            let why = match t.status {
                TaskStatus::Cancelled => format!("Task '{}' was cancelled before it produced a result", t.id),
                status => format!("Task '{}' is '{status}' but has no stored result", t.id),
            };
            jsonrpc::error_response(Some(request_id), &RpcError::params(why))
        }
    }
}

#[derive(Deserialize)]
struct CancelledParams<'a> {
    #[serde(rename = "requestId", default, borrow, deserialize_with = "jsonrpc::present")]
    request_id: Option<&'a RawValue>,
}

impl Engine {
    pub(super) fn on_request(
        &mut self,
        id: &str,
        method: &str,
        params: Option<&RawValue>,
        message: &str,
        inbound: &Inbound<'_>,
        now: u64,
    ) -> Reply {
        let context = inbound.context;
        if method.starts_with("tasks/") {
            if let Some(limit) = self.config.limits.rate_limit {
                if !self.rate.allow(limit, context, now) {
                    let message = format!(
                        "Too many tasks/* requests: at most {} per second (bursts of {}); slow down and retry",
                        limit.per_second, limit.burst
                    );
                    self.audit(crate::AuditAction::RateLimited, None, context, Some(method.to_owned()));
                    return Reply::Error(RpcError::new(LIMIT_EXCEEDED, message));
                }
            }
        }
        let dialect = inbound.dialect.unwrap_or_else(|| Dialect::of_request(params));
        if dialect == Dialect::Extension {
            return self.extension_request(method, params, message, inbound, now);
        }
        let caps = &self.config.capabilities;
        match method {
            "tasks/get" => self.get(params, context, now).into(),
            "tasks/result" => self.result(id, params, context, now),
            "tasks/list" => self.list(params, context, now).into(),
            "tasks/cancel" => self.cancel_request(params, context, now).into(),
            "tools/call" if caps.tools_call => self.augmented(RequestKind::ToolsCall, method, params, message, context, now),
            "sampling/createMessage" if caps.sampling_create_message => {
                self.augmented(RequestKind::SamplingCreateMessage, method, params, message, context, now)
            }
            "elicitation/create" if caps.elicitation_create => {
                self.augmented(RequestKind::ElicitationCreate, method, params, message, context, now)
            }
            _ => {
                self.forward(message, context, false);
                Reply::Later
            }
        }
    }

    fn get(&mut self, params: Option<&RawValue>, context: Option<&str>, now: u64) -> Result<String, RpcError> {
        let task_id = legacy::task_id_param(params, "tasks/get")?;
        match self.find(&task_id, context, now, "retrieve") {
            Ok(t) => Ok(legacy::task_json(t.view())),
            Err(e) => {
                self.audit_refused(&task_id, context);
                Err(e)
            }
        }
    }

    fn result(&mut self, id: &str, params: Option<&RawValue>, context: Option<&str>, now: u64) -> Reply {
        let task_id = match legacy::task_id_param(params, "tasks/result") {
            Ok(task_id) => task_id,
            Err(e) => return Reply::Error(e),
        };
        let t = match self.find(&task_id, context, now, "retrieve") {
            Ok(t) => t,
            Err(e) => {
                self.audit_refused(&task_id, context);
                return Reply::Error(e);
            }
        };
        if t.status.is_terminal() {
            let response = payload_response(t, id);
            self.audit(crate::AuditAction::ResultFetched, Some(&task_id), context, None);
            return Reply::Response(response);
        }
        let task_id = task_id.into_owned();
        let limit = self.config.limits.max_waiters_per_task;
        if self.channels.waiter_count(&task_id) >= limit {
            self.audit(
                crate::AuditAction::LimitHit,
                Some(&task_id),
                context,
                Some(format!("waiting tasks/result requests (limit {limit})")),
            );
            return Reply::Error(RpcError::new(
                LIMIT_EXCEEDED,
                format!("Too many tasks/result requests are already waiting on this task (limit {limit})"),
            ));
        }
        let waiter = Waiter { id: id.to_owned(), context: context.map(str::to_owned) };
        for queued in self.channels.add_waiter(&task_id, waiter) {
            self.send(context.map(str::to_owned), Some(id.to_owned()), queued);
        }
        Reply::Later
    }

    fn list(&self, params: Option<&RawValue>, context: Option<&str>, _now: u64) -> Result<String, RpcError> {
        if !self.config.capabilities.list {
            return Err(RpcError::new(METHOD_NOT_FOUND, "Method not found: this receiver does not support tasks/list"));
        }
        if !legacy::lists_for(&self.config, context) {
            return Err(RpcError::new(
                METHOD_NOT_FOUND,
                "tasks/list requires an authorization context: this receiver does not list tasks to requestors it cannot identify",
            ));
        }
        let cursor = legacy::cursor_param(params)?;
        let after = match cursor {
            None => 0,
            Some(c) => self.cursors.decode(context, &c).ok_or_else(|| {
                RpcError::params("Invalid params: tasks/list cursor is not valid; pass a nextCursor from an earlier tasks/list response")
            })?,
        };
        let (page, next) = self.table.page(context, after, self.config.page_size);
        let mut out = String::with_capacity(16 + page.len() * 224);
        out.push_str("{\"tasks\":[");
        for (i, t) in page.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            legacy::write_task(&mut out, t.view());
        }
        out.push(']');
        if let Some(seq) = next {
            out.push_str(",\"nextCursor\":\"");
            out.push_str(&self.cursors.encode(context, seq));
            out.push('"');
        }
        out.push('}');
        Ok(out)
    }

    fn cancel_request(&mut self, params: Option<&RawValue>, context: Option<&str>, now: u64) -> Result<String, RpcError> {
        if !self.config.capabilities.cancel {
            return Err(RpcError::new(METHOD_NOT_FOUND, "Method not found: this receiver does not support tasks/cancel"));
        }
        let task_id = legacy::task_id_param(params, "tasks/cancel")?;
        let t = match self.find(&task_id, context, now, "cancel") {
            Ok(t) => t,
            Err(e) => {
                self.audit_refused(&task_id, context);
                return Err(e);
            }
        };
        if t.status.is_terminal() {
            return Err(RpcError::params(format!("Cannot cancel task: already in terminal status '{}'", t.status)));
        }
        let task_id = task_id.into_owned();
        let t = self.cancel_now(&task_id, None, now).map_err(|e| RpcError::new(INTERNAL_ERROR, format!("Internal error: {e}")))?;
        Ok(legacy::task_json(t.view()))
    }

    /// Runs a request that may carry `task` as a task, as a plain request, or refuses it.
    fn augmented(
        &mut self,
        kind: RequestKind,
        method: &str,
        params: Option<&RawValue>,
        message: &str,
        context: Option<&str>,
        now: u64,
    ) -> Reply {
        let aug = match legacy::augmentation(params, method) {
            Ok(aug) => aug,
            Err(e) => return Reply::Error(e),
        };
        if kind == RequestKind::ToolsCall {
            let Some(name) = aug.tool_name.as_deref() else {
                return Reply::Error(RpcError::params("Invalid params: tools/call requires params.name (a string)"));
            };
            let support = self.tools.get(name).copied().unwrap_or_default();
            match (support, aug.task.is_some()) {
                (TaskSupport::Required, false) => {
                    return Reply::Error(RpcError::new(
                        METHOD_NOT_FOUND,
                        format!(
                        "Tool '{name}' requires task-augmented execution (execution.taskSupport is \"required\"): call it with params.task"
                    ),
                    ))
                }
                (TaskSupport::Absent | TaskSupport::Forbidden, true) => {
                    return Reply::Error(RpcError::new(
                        METHOD_NOT_FOUND,
                        format!("Tool '{name}' does not support task-augmented execution: call it without params.task"),
                    ))
                }
                _ => {}
            }
        }
        let Some(ttl) = aug.task else {
            self.forward(message, context, false);
            return Reply::Later;
        };
        let progress_token = aug.progress_token.map(|t| t.get().to_owned());
        let request = TaskRequest { kind, ttl, progress_token, poll_interval: self.config.poll_interval_ms, dialect: Dialect::Legacy };
        match self.create(context, request, now) {
            Ok(task_id) => {
                let Some(t) = self.table.get(&task_id) else {
                    return Reply::Error(RpcError::new(INTERNAL_ERROR, "Internal error: the new task vanished"));
                };
                let result = legacy::create_task_result(t.view(), self.config.model_immediate_response.as_deref());
                self.event(Event::Execute { task_id, context: context.map(str::to_owned), kind, request: message.to_owned() });
                Reply::Result(result)
            }
            Err(CreateRefusal::ContextFull { limit }) => Reply::Error(RpcError::new(
                LIMIT_EXCEEDED,
                format!("Too many live tasks for this requestor (limit {limit}): wait for some to finish or expire, or cancel some"),
            )),
            Err(CreateRefusal::TableFull { limit }) => Reply::Error(RpcError::new(
                LIMIT_EXCEEDED,
                format!("This receiver holds its maximum of {limit} live tasks: try again later"),
            )),
            Err(CreateRefusal::EmptyId | CreateRefusal::DuplicateId) => Reply::Error(RpcError::new(
                INTERNAL_ERROR,
                "Internal error: the task ID source returned an empty or duplicate ID; no task was created",
            )),
        }
    }

    /// Creates a task with the granted TTL; returns its ID.
    pub(super) fn create(&mut self, context: Option<&str>, request: TaskRequest, now: u64) -> Result<String, CreateRefusal> {
        let TaskRequest { kind, ttl, progress_token, poll_interval, dialect } = request;
        let policy = &self.config.ttl;
        let granted = match ttl {
            TtlRequest::Default => Some(policy.default_ms.min(policy.max_ms)),
            TtlRequest::Unlimited if policy.allow_unlimited => None,
            TtlRequest::Unlimited => Some(policy.max_ms),
            TtlRequest::Ms(ms) => Some(ms.min(policy.max_ms)),
        };
        let limits = &self.config.limits;
        let (per_context, total) = (limits.max_tasks_per_context, limits.max_tasks_total);
        // Check limits before asking the ID source, so a refusal consumes nothing.
        if self.table.len() >= total {
            self.audit(crate::AuditAction::LimitHit, None, context, Some(format!("live tasks in the engine (limit {total})")));
            return Err(CreateRefusal::TableFull { limit: total });
        }
        if self.table.count_in(context) >= per_context {
            self.audit(crate::AuditAction::LimitHit, None, context, Some(format!("live tasks of the context (limit {per_context})")));
            return Err(CreateRefusal::ContextFull { limit: per_context });
        }
        let id = self.ids.next_id();
        let new = NewTask { id, context: context.map(str::to_owned), kind, ttl: granted, poll_interval, progress_token, dialect };
        let t = self.table.create(new, now, per_context, total)?;
        let id = t.id.to_string();
        self.take_lease(&id, now);
        self.changed(&id);
        self.audit(crate::AuditAction::Created, Some(&id), context, Some(kind.method().unwrap_or("other").to_owned()));
        Ok(id)
    }

    /// A `notifications/cancelled` for a waiting `tasks/result` stops the wait.
    pub(super) fn on_request_cancelled(&mut self, params: Option<&RawValue>, context: Option<&str>) {
        let Some(params) = params else { return };
        let Ok(parsed) = serde_json::from_str::<CancelledParams<'_>>(params.get()) else { return };
        if let Some(request_id) = parsed.request_id {
            self.channels.drop_waiter(context, request_id.get());
        }
    }

    /// A response to one of the tasks' side-channel requests. `false` when it is not ours.
    pub(super) fn on_input_response(&mut self, id: &str, message: &str, context: Option<&str>, now: u64) -> bool {
        let Some(task_id) = self.channels.owner_of(id) else { return false };
        let belongs = self.table.get(task_id).is_some_and(|t| t.context() == context);
        if !belongs {
            return false;
        }
        self.answer_input(id, message.to_owned(), context, now)
    }

    /// Records the answer to side-channel request `id` (however it came) and
    /// resumes the task once nothing is left unanswered.
    pub(super) fn answer_input(&mut self, id: &str, response: String, context: Option<&str>, now: u64) -> bool {
        let Some((task_id, remaining)) = self.channels.answer(id) else { return false };
        self.changed(&task_id);
        self.event(Event::InputResponse {
            task_id: task_id.clone(),
            context: context.map(str::to_owned),
            request_id: id.to_owned(),
            response,
        });
        let waiting = self.table.get(&task_id).is_some_and(|t| t.status == TaskStatus::InputRequired);
        if remaining == 0 && waiting && self.move_task(&task_id, TaskStatus::Working, None, None, now).is_ok() {
            self.notify_status(&task_id);
        }
        true
    }
}
