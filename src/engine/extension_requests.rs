//! Requests in the tasks extension (MCP 2026-07-28): server-decided task
//! creation for `tools/call`, `tasks/get|update|cancel`, and the host calls
//! that go with them (`start_task`, `listen_tasks`).

use super::peer::{Reply, TaskRequest};
use super::subscriptions::Listener;
use super::{Engine, Inbound, TaskSupport};
use crate::core::table::CreateRefusal;
use crate::core::RequestKind;
use crate::error::HostError;
use crate::output::Event;
use crate::protocol::extension::{self, RequestMeta, ACK, HEADER_MISMATCH};
use crate::protocol::jsonrpc::{self, as_str, json_string, present, Incoming, RpcError, INTERNAL_ERROR, LIMIT_EXCEEDED, METHOD_NOT_FOUND};
use crate::protocol::legacy::TtlRequest;
use crate::protocol::params::task_id_param;
use crate::protocol::Dialect;
use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct NameProbe<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    name: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ListenProbe<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    notifications: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct TaskIdsProbe {
    #[serde(rename = "taskIds", default)]
    task_ids: Option<Vec<String>>,
}

fn not_declared(what: &str) -> RpcError {
    extension::missing_capability(&format!(
        "{what} needs the client to declare the extension io.modelcontextprotocol/tasks in \
         params._meta[\"io.modelcontextprotocol/clientCapabilities\"].extensions"
    ))
}

impl Engine {
    pub(super) fn extension_request(
        &mut self,
        method: &str,
        params: Option<&RawValue>,
        message: &str,
        inbound: &Inbound<'_>,
        now: u64,
    ) -> Reply {
        let context = inbound.context;
        match method {
            "tasks/get" | "tasks/update" | "tasks/cancel" => {
                if !RequestMeta::read(params).declares_tasks {
                    return Reply::Error(not_declared(method));
                }
                let task_id = match task_id_param(params, method) {
                    Ok(task_id) => task_id.into_owned(),
                    Err(e) => return Reply::Error(e),
                };
                if let Some(name) = inbound.mcp_name.filter(|name| !extension::mcp_name_matches(name, &task_id)) {
                    return Reply::Error(RpcError::new(
                        HEADER_MISMATCH,
                        format!("Header mismatch: Mcp-Name {} does not match params.taskId {}", json_string(name), json_string(&task_id)),
                    ));
                }
                match method {
                    "tasks/get" => self.extension_get(&task_id, context, now),
                    "tasks/update" => self.extension_update(&task_id, params, context, now),
                    _ => self.extension_cancel(&task_id, context, now),
                }
            }
            "tasks/result" | "tasks/list" => Reply::Error(RpcError::new(
                METHOD_NOT_FOUND,
                format!(
                    "Method not found: {method} does not exist in the tasks extension (protocol 2026-07-28); tasks/get returns the outcome"
                ),
            )),
            "tools/call" if self.config.capabilities.tools_call => self.extension_tool_call(params, message, context, now),
            _ => {
                self.forward(message, context, false);
                Reply::Later
            }
        }
    }

    /// The server decides: by the tool's policy and whether the client declared the extension.
    fn extension_tool_call(&mut self, params: Option<&RawValue>, message: &str, context: Option<&str>, now: u64) -> Reply {
        let name = params
            .and_then(|p| serde_json::from_str::<NameProbe<'_>>(p.get()).ok())
            .and_then(|p| p.name)
            .and_then(as_str)
            .map(|n| n.into_owned());
        let Some(name) = name else {
            return Reply::Error(RpcError::params("Invalid params: tools/call requires params.name (a string)"));
        };
        let declared = RequestMeta::read(params).declares_tasks;
        match (self.tools.get(&name).copied().unwrap_or_default(), declared) {
            (TaskSupport::Required, false) => Reply::Error(not_declared(&format!("Tool '{name}' runs only as a task, so calling it"))),
            (TaskSupport::Required | TaskSupport::Optional, true) => match self.create_extension_task(context, now) {
                Ok(task_id) => {
                    let Some(t) = self.table.get(&task_id) else {
                        return Reply::Error(RpcError::new(INTERNAL_ERROR, "Internal error: the new task vanished"));
                    };
                    let result = extension::create_task_result(t.view());
                    let execute = Event::Execute {
                        task_id,
                        context: context.map(str::to_owned),
                        kind: RequestKind::ToolsCall,
                        request: message.to_owned(),
                    };
                    self.event(execute);
                    Reply::Result(result)
                }
                Err(e) => Reply::Error(e),
            },
            _ => {
                self.forward(message, context, false);
                Reply::Later
            }
        }
    }

    fn create_extension_task(&mut self, context: Option<&str>, now: u64) -> Result<String, RpcError> {
        // No client TTL in the extension: the policy's default. No progress token either
        // (progress notifications are not part of extension tasks).
        let poll = self.config.poll_interval_ms;
        self.create(
            context,
            TaskRequest {
                kind: RequestKind::ToolsCall,
                ttl: TtlRequest::Default,
                progress_token: None,
                poll_interval: poll,
                dialect: Dialect::Extension,
            },
            now,
        )
        .map_err(|r| match r {
            CreateRefusal::ContextFull { limit } => RpcError::new(
                LIMIT_EXCEEDED,
                format!("Too many live tasks for this requestor (limit {limit}): wait for some to finish or expire, or cancel some"),
            ),
            CreateRefusal::TableFull { limit } => {
                RpcError::new(LIMIT_EXCEEDED, format!("This receiver holds its maximum of {limit} live tasks: try again later"))
            }
            CreateRefusal::EmptyId | CreateRefusal::DuplicateId => {
                RpcError::new(INTERNAL_ERROR, "Internal error: the task ID source returned an empty or duplicate ID; no task was created")
            }
        })
    }

    fn extension_get(&mut self, task_id: &str, context: Option<&str>, now: u64) -> Reply {
        match self.find(task_id, context, now, "retrieve") {
            Ok(t) => {
                let inputs = self.channels.pending(task_id).iter().map(|p| p.as_input_request());
                Reply::Result(extension::get_task_result(t.view(), t.outcome.as_ref(), inputs))
            }
            Err(e) => {
                self.audit_refused(task_id, context);
                Reply::Error(e)
            }
        }
    }

    /// Answers the listed keys that are outstanding for this task; others are ignored.
    fn extension_update(&mut self, task_id: &str, params: Option<&RawValue>, context: Option<&str>, now: u64) -> Reply {
        let update = match extension::update_params(params) {
            Ok(update) => update,
            Err(e) => return Reply::Error(e),
        };
        if let Err(e) = self.find(task_id, context, now, "update") {
            self.audit_refused(task_id, context);
            return Reply::Error(e);
        }
        for (key, answer) in &update.responses {
            let request_id = json_string(key);
            if self.channels.owner_of(&request_id) == Some(task_id) {
                // The host hears a JSON-RPC response, as for a side channel on tasks/result.
                let response = jsonrpc::result_response(&request_id, answer);
                self.answer_input(&request_id, response, context, now);
            }
        }
        Reply::Result(ACK.to_owned())
    }

    /// Idempotent: a finished task is acknowledged unchanged (whatever ended
    /// first stays); a running one is cancelled before the ack.
    fn extension_cancel(&mut self, task_id: &str, context: Option<&str>, now: u64) -> Reply {
        let terminal = match self.find(task_id, context, now, "cancel") {
            Ok(t) => t.status.is_terminal(),
            Err(e) => {
                self.audit_refused(task_id, context);
                return Reply::Error(e);
            }
        };
        if !terminal {
            if let Err(e) = self.cancel_now(task_id, None, now) {
                return Reply::Error(RpcError::new(INTERNAL_ERROR, format!("Internal error: {e}")));
            }
        }
        Reply::Result(ACK.to_owned())
    }

    /// Turns a forwarded extension `tools/call` (a [`TaskSupport::PerCall`]
    /// tool, or any call the host chooses) into a task: returns the
    /// `CreateTaskResult` response to send, and emits
    /// [`Event::Execute`](crate::Event::Execute) as for any task. The task
    /// exists before this returns, so a `tasks/get` for it resolves.
    ///
    /// Refused when the request is not a `tools/call` whose client declared the
    /// extension: answer such a call as a plain one.
    pub fn start_task(&mut self, request: &str, context: Option<&str>) -> Result<String, HostError> {
        let now = self.tick();
        let Ok(Incoming::Request { id, method, params }) = jsonrpc::parse(request, usize::MAX, self.config.limits.max_json_depth) else {
            return Err(HostError::invalid("start_task takes the JSON-RPC request text of a tools/call"));
        };
        if method != "tools/call" {
            return Err(HostError::invalid(format!("Only tools/call can become a task in the tasks extension, not {method}")));
        }
        if !RequestMeta::read(params).declares_tasks {
            return Err(HostError::invalid(
                "The client did not declare the tasks extension on this request: answer it as a plain call (a task would be invisible to it)",
            ));
        }
        let task_id = self.create_extension_task(context, now).map_err(|e| HostError::LimitExceeded { message: e.message })?;
        let t = self.live(&task_id)?;
        let response = jsonrpc::result_response(id, &extension::create_task_result(t.view()));
        let execute =
            Event::Execute { task_id, context: context.map(str::to_owned), kind: RequestKind::ToolsCall, request: request.to_owned() };
        self.event(execute);
        Ok(response)
    }

    /// Serves the task part of a `subscriptions/listen` request
    /// (`params.notifications.taskIds`): from now on every status change of
    /// those tasks goes to that stream as `notifications/tasks` (a `Send`
    /// whose `in_reply_to` is the listen request's id). Returns the task IDs
    /// agreed to, for the acknowledgement (tasks the context cannot see are
    /// left out); `Err` is the JSON-RPC error response to send instead
    /// (`-32021` when the client did not declare the extension).
    pub fn listen_tasks(&mut self, request: &str, context: Option<&str>) -> Result<Vec<String>, String> {
        let now = self.tick();
        let parsed = jsonrpc::parse(request, usize::MAX, self.config.limits.max_json_depth);
        let Ok(Incoming::Request { id, params, .. }) = parsed else {
            let error = RpcError::new(jsonrpc::INVALID_REQUEST, "listen_tasks takes the JSON-RPC text of a subscriptions/listen request");
            return Err(jsonrpc::error_response(None, &error));
        };
        let wanted = params
            .and_then(|p| serde_json::from_str::<ListenProbe<'_>>(p.get()).ok())
            .and_then(|p| p.notifications)
            .and_then(|n| serde_json::from_str::<TaskIdsProbe>(n.get()).ok())
            .and_then(|n| n.task_ids);
        let Some(wanted) = wanted else { return Ok(Vec::new()) };
        if !RequestMeta::read(params).declares_tasks {
            return Err(jsonrpc::error_response(Some(id), &not_declared("Task status notifications")));
        }
        let mut agreed = Vec::new();
        for task_id in wanted {
            if self.find(&task_id, context, now, "retrieve").is_ok() && !agreed.contains(&task_id) {
                let listener = Listener { subscription_id: id.to_owned(), context: context.map(str::to_owned) };
                self.subscriptions.add(&task_id, listener);
                agreed.push(task_id);
            }
        }
        Ok(agreed)
    }

    /// The stream of `subscriptions/listen` request `subscription_id` (raw
    /// JSON id) closed: stop sending on it. Returns how many task follows ended.
    pub fn unlisten_tasks(&mut self, subscription_id: &str, context: Option<&str>) -> usize {
        self.subscriptions.remove_stream(subscription_id, context)
    }
}
