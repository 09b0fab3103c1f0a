//! Requests from the peer, read by their dialect's codec and carried out
//! here the same way for every dialect.

use super::channel::Waiter;
use super::{Engine, Inbound};
use crate::core::quota::QuotaKey;
use crate::core::table::{CreateRefusal, NewTask};
use crate::core::{InputCapabilities, RequestKind, TaskStatus};
use crate::output::Event;
use crate::protocol::json::Json;
use crate::protocol::jsonrpc::{self, json_string, RpcError, INTERNAL_ERROR, LIMIT_EXCEEDED};
use crate::protocol::TtlRequest;
use crate::protocol::{self, Codec, Dialect, Env, ListPage, Negotiation, OutcomeResponse, TaskRequest};
use std::borrow::Cow;

/// What a new task is asked for, by a peer or by the host.
pub(super) struct Creation {
    pub kind: RequestKind,
    pub ttl: TtlRequest,
    /// Raw JSON `progressToken` of the request, if any.
    pub progress_token: Option<String>,
    pub poll_interval: Option<u64>,
    /// The flow that creates the task.
    pub dialect: Dialect,
    /// What the requestor declared it can answer (see [`Inbound::client_capabilities`]).
    pub input_capabilities: InputCapabilities,
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

impl Engine {
    /// A request from the peer: its dialect reads it, the engine carries it
    /// out the same way for every dialect, the dialect writes the answer.
    pub(super) fn on_request(
        &mut self,
        id: &str,
        method: &str,
        params: Option<Json<'_>>,
        message: &str,
        inbound: &Inbound<'_>,
        now: u64,
    ) -> Reply {
        let context = inbound.context;
        if method.starts_with("tasks/") {
            if let Some(limit) = self.config.limits.rate_limit {
                if !self.rate.allow(limit, QuotaKey::of(inbound.quota_key, context), now) {
                    let message = format!(
                        "Too many tasks/* requests: at most {} per second (bursts of {}); slow down and retry",
                        limit.per_second, limit.burst
                    );
                    self.audit(crate::AuditAction::RateLimited, None, context, Some(method.to_owned()));
                    return Reply::Error(RpcError::new(LIMIT_EXCEEDED, message));
                }
            }
        }
        // `_meta` is read once: for the dialect, and for the extension's declaration.
        let negotiation = Negotiation::read(params, inbound.dialect);
        let dialect = negotiation.dialect;
        let codec = protocol::codec(dialect);
        let tools = &self.tools;
        let tool = |name: &str| tools.get(name).copied().unwrap_or_default();
        let env =
            Env { config: &self.config, context, tool: &tool, mcp_name: inbound.mcp_name, declares_tasks: negotiation.declares_tasks() };
        let request = match codec.decode(method, params, &env) {
            Ok(request) => request,
            Err(e) => return Reply::Error(e),
        };
        match request {
            TaskRequest::Get { task_id } => self.get(codec, &task_id, context, now),
            TaskRequest::Result { task_id, respond } => self.result(id, respond, &task_id, context, now),
            TaskRequest::List { cursor, page } => self.list(page, cursor.as_deref(), context).into(),
            TaskRequest::Cancel { task_id } => self.cancel_request(dialect, &task_id, context, now),
            TaskRequest::Update { task_id, responses, ack } => self.update(ack, &task_id, &responses, context, now),
            TaskRequest::CreateTask { kind, ttl, progress_token } => {
                let input_capabilities = negotiation.input_capabilities(inbound.client_capabilities);
                let poll_interval = self.config.poll_interval_ms;
                let creation = Creation { kind, ttl, progress_token, poll_interval, dialect, input_capabilities };
                match self.create_for_peer(creation, context, inbound.quota_key, now) {
                    Ok(task_id) => {
                        let Some(t) = self.table.get(&task_id) else {
                            return Reply::Error(RpcError::new(INTERNAL_ERROR, "Internal error: the new task vanished"));
                        };
                        let result = codec.created(t.view(), &self.config);
                        self.event(Event::Execute { task_id, context: context.map(str::to_owned), kind, request: message.to_owned() });
                        Reply::Result(result)
                    }
                    Err(e) => Reply::Error(e),
                }
            }
            TaskRequest::Other => {
                self.forward(message, context, false);
                Reply::Later
            }
        }
    }

    fn get(&mut self, codec: &dyn Codec, task_id: &str, context: Option<&str>, now: u64) -> Reply {
        match self.find(task_id, context, now, "retrieve") {
            Ok(t) => {
                let mut inputs = self.channels.pending(task_id).iter().map(|p| p.as_input_request());
                Reply::Result(codec.task_result(t.view(), t.outcome.as_ref(), &mut inputs))
            }
            Err(e) => {
                self.audit_refused(task_id, context);
                Reply::Error(e)
            }
        }
    }

    fn result(&mut self, id: &str, respond: OutcomeResponse, task_id: &str, context: Option<&str>, now: u64) -> Reply {
        let t = match self.find(task_id, context, now, "retrieve") {
            Ok(t) => t,
            Err(e) => {
                self.audit_refused(task_id, context);
                return Reply::Error(e);
            }
        };
        if t.status.is_terminal() {
            let response = respond(t.view(), t.outcome.as_ref(), id);
            self.audit(crate::AuditAction::ResultFetched, Some(task_id), context, None);
            return Reply::Response(response);
        }
        let limit = self.config.limits.max_waiters_per_task;
        if self.channels.waiter_count(task_id) >= limit {
            self.audit(
                crate::AuditAction::LimitHit,
                Some(task_id),
                context,
                Some(format!("waiting tasks/result requests (limit {limit})")),
            );
            return Reply::Error(RpcError::new(
                LIMIT_EXCEEDED,
                format!("Too many tasks/result requests are already waiting on this task (limit {limit})"),
            ));
        }
        let waiter = Waiter { id: id.to_owned(), context: context.map(str::to_owned), respond };
        for queued in self.channels.add_waiter(task_id, waiter) {
            self.send(context.map(str::to_owned), Some(id.to_owned()), queued);
        }
        Reply::Later
    }

    fn list(&self, write: ListPage, cursor: Option<&str>, context: Option<&str>) -> Result<String, RpcError> {
        let after = match cursor {
            None => 0,
            Some(c) => self.cursors.decode(context, c).ok_or_else(|| {
                RpcError::params("Invalid params: tasks/list cursor is not valid; pass a nextCursor from an earlier tasks/list response")
            })?,
        };
        let (page, next) = self.table.page(context, after, self.config.page_size);
        let next = next.map(|seq| self.cursors.encode(context, seq));
        Ok(write(&mut page.iter().map(|t| t.view()), next.as_deref()))
    }

    /// Cancels a running task at once. A finished one is an error or an
    /// acknowledgement, as the dialect says; either way it stays as it ended.
    fn cancel_request(&mut self, dialect: Dialect, task_id: &str, context: Option<&str>, now: u64) -> Reply {
        let t = match self.find(task_id, context, now, "cancel") {
            Ok(t) => t,
            Err(e) => {
                self.audit_refused(task_id, context);
                return Reply::Error(e);
            }
        };
        let codec = protocol::codec(dialect);
        if t.status.is_terminal() {
            if dialect.cancel_of_terminal_is_error() {
                return Reply::Error(RpcError::params(format!("Cannot cancel task: already in terminal status '{}'", t.status)));
            }
            return Reply::Result(codec.cancel_result(t.view()));
        }
        match self.cancel_now(task_id, None, now) {
            Ok(t) => Reply::Result(codec.cancel_result(t.view())),
            Err(e) => Reply::Error(RpcError::new(INTERNAL_ERROR, format!("Internal error: {e}"))),
        }
    }

    /// Answers the listed keys that are outstanding for this task; others are ignored.
    fn update(&mut self, ack: &str, task_id: &str, responses: &[(Cow<'_, str>, &str)], context: Option<&str>, now: u64) -> Reply {
        if let Err(e) = self.find(task_id, context, now, "update") {
            self.audit_refused(task_id, context);
            return Reply::Error(e);
        }
        for (key, answer) in responses {
            let request_id = json_string(key);
            if self.channels.owner_of(&request_id) == Some(task_id) {
                // The host hears a JSON-RPC response, as for a side channel on tasks/result.
                let response = jsonrpc::result_response(&request_id, answer);
                self.answer_input(&request_id, response, context, now);
            }
        }
        Reply::Result(ack.to_owned())
    }

    /// Creates a task for a peer's request, or the JSON-RPC error saying why not.
    pub(super) fn create_for_peer(
        &mut self,
        creation: Creation,
        context: Option<&str>,
        quota_key: Option<&str>,
        now: u64,
    ) -> Result<String, RpcError> {
        self.create(context, quota_key, creation, now).map_err(|r| match r {
            CreateRefusal::Quota(refusal) => RpcError::new(LIMIT_EXCEEDED, refusal.message()),
            CreateRefusal::EmptyId | CreateRefusal::DuplicateId => {
                RpcError::new(INTERNAL_ERROR, "Internal error: the task ID source returned an empty or duplicate ID; no task was created")
            }
        })
    }

    /// Creates a task with the granted TTL; returns its ID.
    pub(super) fn create(
        &mut self,
        context: Option<&str>,
        quota_key: Option<&str>,
        request: Creation,
        now: u64,
    ) -> Result<String, CreateRefusal> {
        let Creation { kind, ttl, progress_token, poll_interval, dialect, input_capabilities } = request;
        let policy = &self.config.ttl;
        let granted = match ttl {
            TtlRequest::Default => Some(policy.default_ms.min(policy.max_ms)),
            TtlRequest::Unlimited if policy.allow_unlimited => None,
            TtlRequest::Unlimited => Some(policy.max_ms),
            TtlRequest::Ms(ms) => Some(ms.min(policy.max_ms)),
        };
        // Check limits before asking the ID source, so a refusal consumes nothing.
        if let Err(refusal) = self.table.admit(quota_key, context, &self.config.limits) {
            self.audit(crate::AuditAction::LimitHit, None, context, Some(refusal.audit_detail()));
            return Err(CreateRefusal::Quota(refusal));
        }
        let id = self.ids.next_id();
        let new = NewTask {
            id,
            context: context.map(str::to_owned),
            quota_key: quota_key.map(str::to_owned),
            kind,
            ttl: granted,
            poll_interval,
            progress_token,
            dialect,
            input_capabilities,
        };
        let t = self.table.create(new, now, &self.config.limits)?;
        let id = t.id.to_string();
        self.take_lease(&id, now);
        self.changed(&id);
        self.audit(crate::AuditAction::Created, Some(&id), context, Some(kind.method().unwrap_or("other").to_owned()));
        Ok(id)
    }

    /// A `notifications/cancelled` for a waiting `tasks/result` stops the wait.
    pub(super) fn on_request_cancelled(&mut self, params: Option<Json<'_>>, context: Option<&str>) {
        let Some(params) = params else { return };
        let Ok([request_id]) = jsonrpc::members(params, ["requestId"]) else { return };
        if let Some(request_id) = request_id {
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
        // Work running on another instance takes the answer from the record.
        if self.runs_elsewhere(&task_id) {
            self.relayed.entry(task_id.clone()).or_default().push((id.to_owned(), response.clone()));
        }
        self.changed(&task_id);
        self.event(Event::InputResponse {
            task_id: task_id.clone(),
            context: context.map(str::to_owned),
            request_id: crate::RawId::trusted(id),
            response,
        });
        let waiting = self.table.get(&task_id).is_some_and(|t| t.status == TaskStatus::InputRequired);
        if remaining == 0 && waiting && self.move_task(&task_id, TaskStatus::Working, None, None, now).is_ok() {
            self.notify_status(&task_id);
        }
        true
    }
}
