//! The 2025-11-25 wire format of tasks: `task` params, `CreateTaskResult`,
//! `Task` objects, `tasks/*` params and notifications.

use super::json::{float, integer, Json};
use super::jsonrpc::{as_str, first_byte, json_string, members, with_meta_entry, RpcError, METHOD_NOT_FOUND};
use super::params::params_object;
pub(crate) use super::params::task_id_param;
pub use super::shapes::RELATED_TASK;
use super::shapes::{related_task_value, InputRequest, TtlRequest};
use super::task_members::{write_task_members, TaskKeys};
use super::{Codec, Env, TaskRequest};
use crate::config::Config;
use crate::core::TaskView;
use crate::core::{Outcome, RequestKind, TaskSupport};
use std::borrow::Cow;
use std::fmt::Write;

/// `_meta` key of the text a host may hand the model while a tool task runs.
pub const MODEL_IMMEDIATE_RESPONSE: &str = "io.modelcontextprotocol/model-immediate-response";

/// How a tool's policy is listed to a 2025-11-25 client (`execution.taskSupport` in `tools/list`):
/// `perCall` is `"optional"` there, since the client decides; `None` for no policy.
pub fn listed_task_support(policy: TaskSupport) -> Option<&'static str> {
    match policy {
        TaskSupport::Required => Some("required"),
        TaskSupport::Optional | TaskSupport::PerCall => Some("optional"),
        TaskSupport::Forbidden => Some("forbidden"),
        TaskSupport::Absent => None,
    }
}

/// Writes a `Task` object.
fn write_task(out: &mut String, t: TaskView<'_>) {
    out.push('{');
    write_task_members(out, t, t.status, &TaskKeys { ttl: "ttl", poll_interval: "pollInterval" });
    out.push('}');
}

/// A `Task` object as a result (`tasks/get`, `tasks/cancel`).
fn task_result(t: TaskView<'_>) -> String {
    // Room for a task with a short status message and the response envelope
    // `wrap_result` puts around it, so neither grows the buffer.
    let mut out = String::with_capacity(320);
    write_task(&mut out, t);
    out
}

/// The `tasks/list` result: a page of tasks and the cursor of the next one.
fn list_result(page: &mut dyn Iterator<Item = TaskView<'_>>, next_cursor: Option<&str>) -> String {
    let mut out = String::with_capacity(1024);
    out.push_str("{\"tasks\":[");
    for (i, t) in page.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_task(&mut out, t);
    }
    out.push(']');
    if let Some(cursor) = next_cursor {
        out.push_str(",\"nextCursor\":");
        out.push_str(&json_string(cursor));
    }
    out.push('}');
    out
}

/// The response `tasks/result` gives for a finished task: exactly what the
/// underlying request returned (its result with related-task `_meta`, or its error).
fn payload_response(t: TaskView<'_>, outcome: Option<&Outcome>, request_id: &str) -> String {
    use super::jsonrpc::{error_response, raw_error_response, with_meta_entry_in_valid, wrap_result, INTERNAL_ERROR};
    match outcome {
        Some(Outcome::Result(result)) => match with_meta_entry_in_valid(result, RELATED_TASK, &related_task_value(t.id)) {
            Some(with_meta) => wrap_result(request_id, with_meta),
            // Results are checked when stored, so this is a fault of ours.
            None => {
                error_response(Some(request_id), &RpcError::new(INTERNAL_ERROR, "Internal error: the stored result is not a JSON object"))
            }
        },
        Some(Outcome::Error(error)) => raw_error_response(Some(request_id), error),
        None => {
            let why = match t.status {
                crate::core::TaskStatus::Cancelled => format!("Task '{}' was cancelled before it produced a result", t.id),
                status => format!("Task '{}' is '{status}' but has no stored result", t.id),
            };
            error_response(Some(request_id), &RpcError::params(why))
        }
    }
}

/// The `CreateTaskResult` for a new task.
fn create_task_result(t: TaskView<'_>, immediate_response: Option<&str>) -> String {
    let mut out = String::with_capacity(256);
    out.push_str("{\"task\":");
    write_task(&mut out, t);
    if let Some(text) = immediate_response {
        let _ = write!(out, ",\"_meta\":{{{}:{}}}", json_string(MODEL_IMMEDIATE_RESPONSE), json_string(text));
    }
    out.push('}');
    out
}

/// `notifications/tasks/status` with the full task (and no related-task `_meta`).
fn status_notification(t: TaskView<'_>) -> String {
    let mut out = String::with_capacity(256);
    out.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":");
    write_task(&mut out, t);
    out.push('}');
    out
}

/// The `tasks` capability object for `initialize`, for a session in `context`.
///
/// `list` is advertised only to a session the receiver can identify (the host
/// binds tasks to contexts and passes one), exactly when `tasks/list` answers.
fn capabilities_json(config: &Config, context: Option<&str>) -> String {
    let caps = &config.capabilities;
    let mut parts: Vec<String> = Vec::new();
    if lists_for(config, context) {
        parts.push("\"list\":{}".into());
    }
    if caps.cancel {
        parts.push("\"cancel\":{}".into());
    }
    let mut requests: Vec<String> = Vec::new();
    if caps.tools_call {
        requests.push("\"tools\":{\"call\":{}}".into());
    }
    if caps.sampling_create_message {
        requests.push("\"sampling\":{\"createMessage\":{}}".into());
    }
    if caps.elicitation_create {
        requests.push("\"elicitation\":{\"create\":{}}".into());
    }
    if !requests.is_empty() {
        parts.push(format!("\"requests\":{{{}}}", requests.join(",")));
    }
    format!("{{{}}}", parts.join(","))
}

/// Whether `tasks/list` is served to a session in `context`.
fn lists_for(config: &Config, context: Option<&str>) -> bool {
    config.capabilities.list && config.context_binding && context.is_some()
}

/// `params.cursor` of `tasks/list` (absent when there are no params).
fn cursor_param(params: Option<Json<'_>>) -> Result<Option<Cow<'_, str>>, RpcError> {
    let Some(p) = params_object(params, "tasks/list", false)? else { return Ok(None) };
    let [cursor] = members(p, ["cursor"]).map_err(|e| RpcError::params(format!("Invalid params for tasks/list: {e}")))?;
    match cursor {
        None => Ok(None),
        Some(raw) => as_str(raw).map(Some).ok_or_else(|| RpcError::params("Invalid params: tasks/list params.cursor must be a string")),
    }
}

/// The task-related parts of a request that may be task-augmented.
#[derive(Debug)]
pub(crate) struct Augmentation<'a> {
    /// `Some` when `params.task` is present.
    pub task: Option<TtlRequest>,
    /// `params.name` of a `tools/call`.
    pub tool_name: Option<Cow<'a, str>>,
    /// `params._meta.progressToken`, raw.
    pub progress_token: Option<Json<'a>>,
}

/// Reads `params.task`, `params.name` and `params._meta.progressToken`.
pub(crate) fn augmentation<'a>(params: Option<Json<'a>>, method: &str) -> Result<Augmentation<'a>, RpcError> {
    let empty = Augmentation { task: None, tool_name: None, progress_token: None };
    let Some(p) = params else { return Ok(empty) };
    if first_byte(p.get()) != Some(b'{') {
        return Err(RpcError::params(format!("Invalid params: {method} params must be an object")));
    }
    let [task, name, meta] =
        members(p, ["task", "name", "_meta"]).map_err(|e| RpcError::params(format!("Invalid params for {method}: {e}")))?;
    let task = match task {
        None => None,
        Some(raw) if raw.get() == "null" => None,
        Some(raw) => Some(ttl_request(raw)?),
    };
    let tool_name = match name {
        None => None,
        Some(raw) => Some(as_str(raw).ok_or_else(|| RpcError::params("Invalid params: tools/call params.name must be a string"))?),
    };
    let progress_token = match meta {
        Some(meta) if first_byte(meta.get()) == Some(b'{') => {
            let [token] = members(meta, ["progressToken"])
                .map_err(|e| RpcError::params(format!("Invalid params for {method}: params._meta: {e}")))?;
            match token {
                Some(t) if matches!(first_byte(t.get()), Some(b'"' | b'-' | b'0'..=b'9')) => Some(t),
                Some(_) => return Err(RpcError::params("Invalid params: params._meta.progressToken must be a string or a number")),
                None => None,
            }
        }
        Some(meta) if meta.get() != "null" => {
            return Err(RpcError::params(format!("Invalid params: {method} params._meta must be an object")))
        }
        _ => None,
    };
    Ok(Augmentation { task, tool_name, progress_token })
}

fn ttl_request(task: Json<'_>) -> Result<TtlRequest, RpcError> {
    if first_byte(task.get()) != Some(b'{') {
        return Err(RpcError::params("Invalid params: params.task must be an object such as {\"ttl\": 60000}"));
    }
    let [ttl] = members(task, ["ttl"]).map_err(|e| RpcError::params(format!("Invalid params: params.task: {e}")))?;
    let Some(ttl) = ttl else { return Ok(TtlRequest::Default) };
    if ttl.get() == "null" {
        return Ok(TtlRequest::Unlimited);
    }
    let bad = || {
        RpcError::params(format!(
            "Invalid params: params.task.ttl must be a non-negative integer number of milliseconds, got {}",
            ttl.get()
        ))
    };
    if let Some(ms) = integer::<u64>(ttl.get()) {
        return Ok(TtlRequest::Ms(ms));
    }
    // 60000.0 and 6e4 are integers in JSON's sense; anything fractional or
    // negative is not. Integers past u64 (1e20, 2^64, 1e400) saturate: the policy clamps them.
    let text = ttl.get();
    let negative = first_byte(text) == Some(b'-');
    if !negative && !matches!(first_byte(text), Some(b'0'..=b'9')) {
        return Err(bad());
    }
    let mantissa = text.split(['e', 'E']).next().unwrap_or_default();
    let nonzero = mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b));
    match float(text) {
        Some(f) if f.fract() != 0.0 => Err(bad()),
        // A non-zero mantissa that reads as 0 underflowed: a tiny fraction.
        Some(f) if f == 0.0 && nonzero => Err(bad()),
        Some(_) if negative && nonzero => Err(bad()),
        Some(f) => Ok(TtlRequest::Ms(f as u64)),
        // Past f64's range: a huge integer (or a huge negative one).
        None if !negative => Ok(TtlRequest::Ms(u64::MAX)),
        None => Err(bad()),
    }
}

/// The 2025-11-25 codec.
pub(crate) struct Legacy;

impl Codec for Legacy {
    fn decode<'a>(&self, method: &str, params: Option<Json<'a>>, env: &Env<'_>) -> Result<TaskRequest<'a>, RpcError> {
        let caps = &env.config.capabilities;
        let kind = match method {
            "tasks/get" => return Ok(TaskRequest::Get { task_id: task_id_param(params, method)? }),
            "tasks/result" => return Ok(TaskRequest::Result { task_id: task_id_param(params, method)?, respond: payload_response }),
            "tasks/list" if !caps.list => {
                return Err(RpcError::new(METHOD_NOT_FOUND, "Method not found: this receiver does not support tasks/list"))
            }
            "tasks/list" => {
                let cursor = cursor_param(params)?;
                if !lists_for(env.config, env.context) {
                    return Err(RpcError::new(
                        METHOD_NOT_FOUND,
                        "tasks/list requires an authorization context: this receiver does not list tasks to requestors it cannot identify",
                    ));
                }
                return Ok(TaskRequest::List { cursor, page: list_result });
            }
            "tasks/cancel" if !caps.cancel => {
                return Err(RpcError::new(METHOD_NOT_FOUND, "Method not found: this receiver does not support tasks/cancel"))
            }
            "tasks/cancel" => return Ok(TaskRequest::Cancel { task_id: task_id_param(params, method)? }),
            "tools/call" if caps.tools_call => RequestKind::ToolsCall,
            "sampling/createMessage" if caps.sampling_create_message => RequestKind::SamplingCreateMessage,
            "elicitation/create" if caps.elicitation_create => RequestKind::ElicitationCreate,
            // Not declared for tasks: processed normally, its `task` field ignored.
            _ => return Ok(TaskRequest::Other),
        };
        let aug = augmentation(params, method)?;
        if kind == RequestKind::ToolsCall {
            let Some(name) = aug.tool_name.as_deref() else {
                return Err(RpcError::params("Invalid params: tools/call requires params.name (a string)"));
            };
            match ((env.tool)(name), aug.task.is_some()) {
                (TaskSupport::Required, false) => {
                    return Err(RpcError::new(
                        METHOD_NOT_FOUND,
                        format!(
                        "Tool '{name}' requires task-augmented execution (execution.taskSupport is \"required\"): call it with params.task"
                    ),
                    ))
                }
                (TaskSupport::Absent | TaskSupport::Forbidden, true) => {
                    return Err(RpcError::new(
                        METHOD_NOT_FOUND,
                        format!("Tool '{name}' does not support task-augmented execution: call it without params.task"),
                    ))
                }
                _ => {}
            }
        }
        Ok(match aug.task {
            Some(ttl) => TaskRequest::CreateTask { kind, ttl, progress_token: aug.progress_token.map(|t| t.get().to_owned()) },
            None => TaskRequest::Other,
        })
    }

    fn created(&self, t: TaskView<'_>, config: &Config) -> String {
        create_task_result(t, config.model_immediate_response.as_deref())
    }

    fn task_result(&self, t: TaskView<'_>, _outcome: Option<&Outcome>, _inputs: &mut dyn Iterator<Item = InputRequest<'_>>) -> String {
        task_result(t)
    }

    fn cancel_result(&self, t: TaskView<'_>) -> String {
        task_result(t)
    }

    fn status_notification(
        &self,
        t: TaskView<'_>,
        _outcome: Option<&Outcome>,
        _inputs: &mut dyn Iterator<Item = InputRequest<'_>>,
        stream: Option<&str>,
    ) -> Option<String> {
        // 2025-11-25 has no subscriptions/listen streams.
        stream.is_none().then(|| status_notification(t))
    }

    fn capabilities(&self, config: &Config, context: Option<&str>) -> String {
        capabilities_json(config, context)
    }

    fn input_params(&self, params: &str, task_id: &str) -> Option<String> {
        with_meta_entry(params, RELATED_TASK, &related_task_value(task_id))
    }
}

#[cfg(feature = "requestor")]
impl super::RequestorCodec for Legacy {
    fn call_params(&self, params: &str, task: Option<Option<u64>>, _declaration: &super::Declaration) -> Result<String, &'static str> {
        let Some(ttl) = task else { return Ok(params.to_owned()) };
        let task = ttl.map_or_else(|| "{}".to_owned(), |ms| format!("{{\"ttl\":{ms}}}"));
        super::jsonrpc::with_member(params, "task", &task).ok_or("params must be a JSON object")
    }

    fn task_params(&self, params: String, _declaration: &super::Declaration) -> String {
        params
    }

    fn input_answer(&self, request_id: &str, task_id: &str, result: &str, _declaration: &super::Declaration) -> Option<super::InputAnswer> {
        // The request came on tasks/result: answered as a response tied to its task.
        let result = with_meta_entry(result, RELATED_TASK, &related_task_value(task_id))?;
        Some(super::InputAnswer::Response(super::jsonrpc::result_response(request_id, &result)))
    }

    fn created_task(&self, result: &serde_json::Value) -> Option<serde_json::Value> {
        result.get("task").cloned()
    }

    fn read_task(&self, mut task: serde_json::Value) -> super::ReadTask {
        if let Some(obj) = task.as_object_mut() {
            obj.remove("_meta");
        }
        super::ReadTask { task, result: None, error: None, inputs: None }
    }

    fn listen_params(&self, _task_id: &str, _declaration: &super::Declaration) -> Option<String> {
        None
    }

    fn pushes_task(&self, method: &str) -> bool {
        method == "notifications/tasks/status"
    }

    fn acknowledged<'a>(&self, _method: &str, _params: &'a serde_json::Value) -> Option<super::Acknowledged<'a>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> Json<'_> {
        Json::parse(s).unwrap()
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn ttl_forms() {
        let t = |s: &str| augmentation(Some(raw(s)), "tools/call").map(|a| a.task);
        assert_eq!(t(r#"{"task":{"ttl":5}}"#).unwrap(), Some(TtlRequest::Ms(5)));
        assert_eq!(t(r#"{"task":{"ttl":0}}"#).unwrap(), Some(TtlRequest::Ms(0)));
        assert_eq!(t(r#"{"task":{"ttl":6e4}}"#).unwrap(), Some(TtlRequest::Ms(60000)));
        assert_eq!(t(r#"{"task":{"ttl":null}}"#).unwrap(), Some(TtlRequest::Unlimited));
        assert_eq!(t(r#"{"task":{}}"#).unwrap(), Some(TtlRequest::Default));
        assert_eq!(t(r#"{"name":"x"}"#).unwrap(), None);
        let max = Some(TtlRequest::Ms(u64::MAX));
        for huge in ["1e20", "18446744073709551616", "18446744073709551615", "1e400", "123456789012345678901234567890.0"] {
            assert_eq!(t(&format!(r#"{{"task":{{"ttl":{huge}}}}}"#)).unwrap(), max, "{huge}");
        }
        assert_eq!(t(r#"{"task":{"ttl":-0}}"#).unwrap(), Some(TtlRequest::Ms(0)));
        for bad in [
            r#"{"task":{"ttl":-1}}"#,
            r#"{"task":{"ttl":1.5}}"#,
            r#"{"task":{"ttl":"5"}}"#,
            r#"{"task":5}"#,
            r#"{"task":{"ttl":1e-400}}"#,
            r#"{"task":{"ttl":-1e400}}"#,
            r#"{"task":{"ttl":true}}"#,
        ] {
            let e = t(bad).unwrap_err();
            assert_eq!(e.code, super::super::jsonrpc::INVALID_PARAMS, "{bad}");
            assert!(e.message.contains("task"), "{}", e.message);
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn capabilities_hide_list_without_context_binding() {
        let mut config = Config::default();
        assert_eq!(capabilities_json(&config, Some("s")), r#"{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}"#);
        assert_eq!(capabilities_json(&config, None), r#"{"cancel":{},"requests":{"tools":{"call":{}}}}"#);
        config.context_binding = false;
        assert_eq!(capabilities_json(&config, Some("s")), r#"{"cancel":{},"requests":{"tools":{"call":{}}}}"#);
    }
}
