//! Host calls of the tasks extension (MCP 2026-07-28): turning a forwarded
//! `tools/call` into a task, and `subscriptions/listen` streams.

use super::peer::Creation;
use super::subscriptions::Listener;
use super::Engine;
use crate::core::RequestKind;
use crate::error::HostError;
use crate::output::Event;
use crate::protocol::jsonrpc::{self, Incoming, RpcError};
use crate::protocol::TtlRequest;
use crate::protocol::{self, Dialect, Negotiation};

impl Engine {
    /// Turns a forwarded extension `tools/call` (a [`TaskSupport::PerCall`](crate::TaskSupport::PerCall)
    /// tool, or any call the host chooses) into a task: returns the
    /// `CreateTaskResult` response to send, and emits
    /// [`Event::Execute`](crate::Event::Execute) as for any task. The task
    /// exists before this returns, so a `tasks/get` for it resolves. Of
    /// `inbound`, the context and the [`quota_key`](crate::Inbound::quota_key)
    /// are read (the task is always an extension task).
    ///
    /// Refused when the request is not a `tools/call` whose client declared the
    /// extension: answer such a call as a plain one.
    pub fn start_task(&mut self, request: &str, inbound: &crate::Inbound<'_>) -> Result<String, HostError> {
        let context = inbound.context;
        let now = self.tick();
        let Ok(Incoming::Request { id, method, params }) = jsonrpc::parse(request, usize::MAX, self.config.limits.max_json_depth) else {
            return Err(HostError::invalid("start_task takes the JSON-RPC request text of a tools/call"));
        };
        if method != "tools/call" {
            return Err(HostError::invalid(format!("Only tools/call can become a task in the tasks extension, not {method}")));
        }
        let negotiation = Negotiation::read(params, Some(Dialect::Extension));
        if !negotiation.declares_tasks() {
            return Err(HostError::invalid(
                "The client did not declare the tasks extension on this request: answer it as a plain call (a task would be invisible to it)",
            ));
        }
        let creation = Creation {
            kind: RequestKind::ToolsCall,
            ttl: TtlRequest::Default,
            progress_token: None,
            poll_interval: self.config.poll_interval_ms,
            dialect: Dialect::Extension,
            input_capabilities: negotiation.input_capabilities(None),
        };
        let task_id =
            self.create_for_peer(creation, context, inbound.quota_key, now).map_err(|e| HostError::LimitExceeded { message: e.message })?;
        let t = self.live(&task_id)?;
        let response = jsonrpc::result_response(id, &protocol::codec(Dialect::Extension).created(t.view(), &self.config));
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
        let wanted = protocol::listened_tasks(params).map_err(|e| jsonrpc::error_response(Some(id), &e))?;
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
    pub fn unlisten_tasks(&mut self, subscription_id: &crate::RawId, context: Option<&str>) -> usize {
        self.subscriptions.remove_stream(subscription_id.as_str(), context)
    }
}
