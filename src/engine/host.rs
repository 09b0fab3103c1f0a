//! Calls from the host that drive a task: progress, input, outcome.

use super::channel::{Delivery, PendingRequest};
use super::Engine;
use crate::core::table::{MoveRefusal, TaskRecord};
use crate::core::{Outcome, RequestKind, TaskStatus};
use crate::error::HostError;
use crate::output::Event;
use crate::protocol::json::{integer, Json};
use crate::protocol::jsonrpc::{first_byte, json_string, members, string_value};
use crate::protocol::raw_id::RawId;
use crate::protocol::{client_capabilities, input_request, related_task_value, RELATED_TASK};
use std::fmt::Write;

pub(super) fn refusal(task_id: &str, r: MoveRefusal) -> HostError {
    let task_id = task_id.to_owned();
    match r {
        MoveRefusal::Unknown => HostError::UnknownTask { task_id },
        MoveRefusal::Cancelled => HostError::TaskCancelled { task_id },
        MoveRefusal::Illegal { from, .. } if from.is_terminal() => HostError::AlreadyTerminal { task_id, status: from },
        MoveRefusal::Illegal { from, to } => HostError::IllegalTransition { task_id, from, to },
    }
}

/// Writes a JSON number; integers without a fraction. (zmij, serde_json's float writer, not
/// `Display`, which would pull core's float formatting into the wasm.)
fn write_number(out: &mut String, n: f64) {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        let _ = write!(out, "{}", n as i64);
    } else if n.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(n));
    } else {
        out.push('0');
    }
}

impl Engine {
    /// The task's snapshot, ignoring contexts (the host owns every task).
    pub fn task(&mut self, task_id: &str) -> Result<crate::Task, HostError> {
        self.tick();
        self.live(task_id).map(TaskRecord::snapshot)
    }

    pub(super) fn live(&self, task_id: &str) -> Result<&TaskRecord, HostError> {
        self.table.get(task_id).ok_or_else(|| HostError::UnknownTask { task_id: task_id.to_owned() })
    }

    /// A live task whose work may still report, or the refusal every host call
    /// gives: `TaskCancelled` for a cancelled task (whatever the call), so a host
    /// tells "the task was cancelled" by one code; `AlreadyTerminal` for one
    /// that completed or failed.
    pub(super) fn running(&self, task_id: &str) -> Result<&TaskRecord, HostError> {
        let t = self.live(task_id)?;
        match t.status {
            TaskStatus::Cancelled => Err(HostError::TaskCancelled { task_id: task_id.to_owned() }),
            status if status.is_terminal() => Err(HostError::AlreadyTerminal { task_id: task_id.to_owned(), status }),
            _ => Ok(t),
        }
    }

    /// Records the underlying request's result (a JSON object such as a
    /// `CallToolResult`). A `tools/call` result with `isError: true` fails the
    /// task; otherwise it completes. Stored as given, once.
    pub fn complete(&mut self, task_id: &str, result_json: &str) -> Result<crate::Task, HostError> {
        self.complete_in_place(task_id, result_json.to_owned(), None)?;
        self.live(task_id).map(TaskRecord::snapshot)
    }

    /// [`complete`](Self::complete) answering the host's JSON of the task
    /// ([`Task::to_json`](crate::Task::to_json)) straight from the record (no
    /// [`crate::Task`] copied on the way).
    #[cfg(all(target_arch = "wasm32", feature = "receiver"))]
    pub(crate) fn complete_json(&mut self, task_id: &str, result_json: &str) -> Result<String, HostError> {
        self.complete_in_place(task_id, result_json.to_owned(), None)?;
        self.live(task_id).map(|t| crate::task_json::task_json(t.view()))
    }

    /// Ends a running task with `result_json`, kept as given (the caller's copy, not another).
    /// `status`: the host's own terminal status, or `None` to judge it from the result.
    pub(super) fn complete_in_place(&mut self, task_id: &str, result_json: String, status: Option<TaskStatus>) -> Result<(), HostError> {
        let now = self.tick();
        let t = self.running(task_id)?;
        let (kind, dialect) = (t.kind, t.dialect);
        self.check_size(&result_json, "result")?;
        let [is_error, meta] = match first_byte(&result_json) {
            Some(b'{') => {
                let result = Json::parse(&result_json).map_err(|e| HostError::invalid(format!("The result is not valid JSON: {e}")))?;
                members(result, ["isError", "_meta"]).map_err(|e| HostError::invalid(format!("The result is not valid JSON: {e}")))?
            }
            _ => return Err(HostError::invalid("The result must be a JSON object, such as a CallToolResult")),
        };
        if meta.is_some_and(|m| m.kind() != b'{') {
            return Err(HostError::invalid("The result's _meta must be an object"));
        }
        let tool_error = kind == RequestKind::ToolsCall && dialect.tool_error_fails_task() && is_error.is_some_and(|v| v.get() == "true");
        let (status, message) = if let Some(status) = status {
            (status, (status == TaskStatus::Failed).then(|| "The request failed".to_owned()))
        } else if tool_error {
            (TaskStatus::Failed, Some("The tool reported an error (isError: true)".to_owned()))
        } else {
            (TaskStatus::Completed, None)
        };
        self.finish(task_id, status, message, Outcome::Result(result_json), now)
    }

    /// Records that the underlying request failed with this JSON-RPC error
    /// object (`{"code": ..., "message": ..., "data"?: ...}`); `tasks/result`
    /// will answer with exactly this error.
    pub fn fail(&mut self, task_id: &str, error_json: &str) -> Result<crate::Task, HostError> {
        self.end_with_error(task_id, error_json.to_owned())?;
        self.live(task_id).map(TaskRecord::snapshot)
    }

    /// [`fail`](Self::fail) keeping the caller's copy of `error_json` (no other), answering nothing.
    pub(crate) fn end_with_error(&mut self, task_id: &str, error_json: String) -> Result<(), HostError> {
        let now = self.tick();
        self.running(task_id)?;
        self.check_size(&error_json, "error")?;
        let bad = || HostError::invalid("The error must be a JSON-RPC error object with an integer \"code\" and a string \"message\"");
        if first_byte(&error_json) != Some(b'{') {
            return Err(bad());
        }
        let [code, message] = Json::parse(&error_json).ok().and_then(|e| members(e, ["code", "message"]).ok()).ok_or_else(bad)?;
        let code_ok = code.is_some_and(|c| integer::<i64>(c.get()).is_some());
        let Some(message) = message.and_then(|m| string_value(m.get())).filter(|_| code_ok) else { return Err(bad()) };
        let message = message.into_owned();
        self.finish(task_id, TaskStatus::Failed, Some(message), Outcome::Error(error_json), now)
    }

    fn check_size(&mut self, json: &str, what: &str) -> Result<(), HostError> {
        let limit = self.config.limits.max_result_bytes;
        if json.len() > limit {
            let message = format!("The {what} is {} bytes; the limit for a stored {what} is {limit} bytes", json.len());
            self.audit(crate::AuditAction::LimitHit, None, None, Some(message.clone()));
            return Err(HostError::LimitExceeded { message });
        }
        Ok(())
    }

    fn finish(&mut self, task_id: &str, status: TaskStatus, message: Option<String>, outcome: Outcome, now: u64) -> Result<(), HostError> {
        self.move_task(task_id, status, Some(message), Some(outcome), now).map_err(|r| refusal(task_id, r))?;
        self.after_terminal(task_id);
        Ok(())
    }

    /// Notifies, answers every waiting `tasks/result` and drops side-channel state.
    pub(super) fn after_terminal(&mut self, task_id: &str) {
        self.notify_status(task_id);
        self.answer_waiters(task_id);
    }

    /// Answers every waiting `tasks/result` of a finished task and drops its side-channel state.
    pub(super) fn answer_waiters(&mut self, task_id: &str) {
        let waiters = self.channels.close(task_id);
        if waiters.is_empty() {
            return;
        }
        if let Some(t) = self.table.get(task_id) {
            let sends: Vec<_> = waiters.into_iter().map(|w| (w.context, (w.respond)(t.view(), t.outcome.as_ref(), &w.id), w.id)).collect();
            for (context, response, id) in sends {
                self.audit(crate::AuditAction::ResultFetched, Some(task_id), context.as_deref(), None);
                self.send(context, Some(id), response);
            }
        }
    }

    /// Cancels a live task now (the host's own decision, or a peer's
    /// `tasks/cancel`): the task becomes `cancelled`, waiters are answered, and
    /// the host gets [`Event::Cancelled`].
    pub fn cancel(&mut self, task_id: &str, status_message: Option<&str>) -> Result<crate::Task, HostError> {
        let now = self.tick();
        self.cancel_now(task_id, status_message, now).map(TaskRecord::snapshot)
    }

    pub(super) fn cancel_now(&mut self, task_id: &str, message: Option<&str>, now: u64) -> Result<&TaskRecord, HostError> {
        let message = message.unwrap_or("The task was cancelled by request.").to_owned();
        self.move_task(task_id, TaskStatus::Cancelled, Some(Some(message)), None, now).map_err(|r| refusal(task_id, r))?;
        let context = self.table.get(task_id).and_then(|t| t.context().map(str::to_owned));
        self.after_terminal(task_id);
        self.event(Event::Cancelled { task_id: task_id.to_owned(), context });
        self.live(task_id)
    }

    /// Sets or clears the status message of a running task (e.g. "3 of 10 files
    /// done"); the requestor sees it in `tasks/get` and a status notification.
    pub fn set_status_message(&mut self, task_id: &str, message: Option<&str>) -> Result<crate::Task, HostError> {
        let now = self.tick();
        self.table.set_message(task_id, message.map(str::to_owned), now).map_err(|r| refusal(task_id, r))?;
        self.changed(task_id);
        self.notify_status(task_id);
        self.live(task_id).map(TaskRecord::snapshot)
    }

    /// Moves an `input_required` task back to `working` (the engine does this by
    /// itself once every side-channel request is answered).
    pub fn resume(&mut self, task_id: &str) -> Result<crate::Task, HostError> {
        let now = self.tick();
        self.move_task(task_id, TaskStatus::Working, None, None, now).map_err(|r| refusal(task_id, r))?;
        self.notify_status(task_id);
        self.live(task_id).map(TaskRecord::snapshot)
    }

    /// Asks the requestor something the task needs answered (e.g.
    /// `elicitation/create` with its params object) and moves the task to
    /// `input_required`. The same call serves both dialects:
    /// - 2025-11-25: the request carries related-task `_meta` and travels on the
    ///   requestor's waiting `tasks/result`, or waits for one;
    /// - tasks extension: it is listed in the task's `inputRequests` (keyed by
    ///   the id's string value) until `tasks/update` answers it.
    ///
    /// The answer comes back as [`Event::InputResponse`] (a JSON-RPC response
    /// either way). Returns the request's raw JSON id.
    ///
    /// A request the requestor did not declare it can answer is refused with
    /// [`HostError::CapabilityNotDeclared`] and nothing changes: `elicitation/create`
    /// needs `elicitation` (`elicitation.url` for `mode: "url"`),
    /// `sampling/createMessage` needs `sampling` (and `sampling.tools` with
    /// `tools` or `toolChoice`), `roots/list` needs `roots`. The declaration is
    /// the one made when the task was asked for: the creating request's
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]` (tasks extension),
    /// or the session's `initialize` capabilities that the host passed in
    /// [`Inbound::client_capabilities`](crate::Inbound::client_capabilities)
    /// (2025-11-25; without them every request is allowed).
    pub fn request_input(&mut self, task_id: &str, method: &str, params_json: Option<&str>) -> Result<RawId, HostError> {
        let now = self.tick();
        let t = self.running(task_id)?;
        let (status, dialect, declared) = (t.status, t.dialect, t.input_capabilities);
        let limit = self.config.limits.max_queued_messages_per_task;
        if self.channels.queued_count(task_id) >= limit || self.channels.pending_count(task_id) >= limit {
            let message = format!("Task '{task_id}' already has {limit} unanswered requests queued for the requestor");
            self.audit(crate::AuditAction::LimitHit, Some(task_id), None, Some(message.clone()));
            return Err(HostError::LimitExceeded { message });
        }
        if method.is_empty() {
            return Err(HostError::invalid("The request method must not be empty"));
        }
        let params = params_json.unwrap_or("{}");
        if first_byte(params) != Some(b'{') {
            return Err(HostError::invalid("The request params must be a JSON object"));
        }
        // mrtr.mdx: never ask the client for what it did not declare it can answer.
        if let Some(capability) = client_capabilities::needed(method, params).and_then(|needed| declared.missing(needed)) {
            return Err(HostError::CapabilityNotDeclared { task_id: task_id.to_owned(), method: method.to_owned(), capability });
        }
        let params = crate::protocol::codec(dialect)
            .input_params(params, task_id)
            .ok_or_else(|| HostError::invalid("The request params must be a valid JSON object whose _meta, if any, is an object"))?;
        let side_channel = dialect.side_channel();
        let request_id = self.next_request_id(task_id);
        let message = side_channel
            .then(|| format!("{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":{},\"params\":{}}}", request_id, json_string(method), params));
        let pending = PendingRequest { id: request_id.clone(), request: input_request(method, &params) };
        let delivery = self.channels.add_request(task_id, pending, message.clone());
        self.changed(task_id);
        if status == TaskStatus::Working {
            self.move_task(task_id, TaskStatus::InputRequired, None, None, now).map_err(|r| refusal(task_id, r))?;
            self.notify_status(task_id);
        }
        if let (Delivery::Now(waiter), Some(message)) = (delivery, message) {
            self.send(waiter.context, Some(waiter.id), message);
        }
        Ok(RawId::trusted(request_id))
    }

    /// `"<task>/input/<n>"` with the task's own counter: task IDs are unique
    /// and the counter never goes back, so no id repeats in a session.
    fn next_request_id(&mut self, task_id: &str) -> String {
        let n = self.table.next_request_number(task_id).unwrap_or(0);
        json_string(&format!("{task_id}/input/{n}"))
    }

    /// Sends `notifications/progress` for the task with the original request's
    /// `progressToken` (valid for the task's whole life). Returns `false` when
    /// the request carried no token, so there is no one to tell.
    pub fn report_progress(&mut self, task_id: &str, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<bool, HostError> {
        self.tick();
        let t = self.running(task_id)?;
        if !progress.is_finite() || total.is_some_and(|t| !t.is_finite()) {
            return Err(HostError::invalid("Progress and total must be finite numbers"));
        }
        let Some(token) = t.progress_token.as_deref() else { return Ok(false) };
        let mut out = String::with_capacity(192);
        out.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":");
        out.push_str(token);
        out.push_str(",\"progress\":");
        write_number(&mut out, progress);
        if let Some(total) = total {
            out.push_str(",\"total\":");
            write_number(&mut out, total);
        }
        if let Some(m) = message {
            out.push_str(",\"message\":");
            out.push_str(&json_string(m));
        }
        let _ = write!(out, ",\"_meta\":{{{}:{}}}}}}}", json_string(RELATED_TASK), related_task_value(task_id));
        let context = t.context().map(str::to_owned);
        self.notify(context, out);
        Ok(true)
    }
}
