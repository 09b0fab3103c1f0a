//! The tasks extension `io.modelcontextprotocol/tasks` (MCP 2026-07-28):
//! per-request negotiation in `_meta`, the flat `CreateTaskResult`,
//! `DetailedTask` with the outcome or `inputRequests` inlined, `tasks/update`,
//! acknowledgements, `notifications/tasks` and the `Mcp-Name` check.

use super::json::Json;
use super::jsonrpc::{
    as_str, each_item, each_member, first_byte, json_string, member_values, members, object_members, string_value, RpcError,
    INVALID_PARAMS, METHOD_NOT_FOUND,
};
use super::params::{params_object, task_id_param};
use super::shapes::{InputRequest, TtlRequest};
use super::task_members::{write_task_members, TaskKeys};
use super::{Codec, Env, TaskRequest};
use crate::config::Config;
use crate::core::{Outcome, TaskStatus, TaskView};
use crate::core::{RequestKind, TaskSupport};
use std::borrow::Cow;
use std::fmt::Write;

/// The extension's identifier, as a key of `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/tasks";
/// `_meta` key of a request's protocol version.
pub const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of a request's client capabilities.
pub const CLIENT_CAPABILITIES_META: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of a request's client name and version.
pub const CLIENT_INFO_META: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key that ties a notification to its `subscriptions/listen` stream.
pub const SUBSCRIPTION_ID_META: &str = "io.modelcontextprotocol/subscriptionId";
/// Missing Required Client Capability.
pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
/// A routing header disagrees with the body (Streamable HTTP `Mcp-Name`).
pub const HEADER_MISMATCH: i64 = -32020;

/// The acknowledgement of `tasks/update` and `tasks/cancel`.
pub(crate) const ACK: &str = r#"{"resultType":"complete"}"#;

/// What a request's `params._meta` says about the protocol (unreadable parts count as absent).
#[derive(Debug, Default)]
pub(crate) struct RequestMeta<'a> {
    pub protocol_version: Option<Cow<'a, str>>,
    /// `clientCapabilities.extensions["io.modelcontextprotocol/tasks"]` is an object.
    pub declares_tasks: bool,
    /// `clientCapabilities`, raw JSON: the request's declaration, read further
    /// only when the request creates a task.
    pub capabilities: Option<&'a str>,
}

impl<'a> RequestMeta<'a> {
    pub fn read(params: Option<Json<'a>>) -> RequestMeta<'a> {
        // `params` is valid JSON: the members are found by scanning, not parsed again.
        let mut out = RequestMeta::default();
        let Some(params) = params.filter(|p| first_byte(p.get()) == Some(b'{')) else { return out };
        // No `_` and no escape: no `_meta` key (most requests of the older dialect); skip the scan.
        let bytes = params.get().as_bytes();
        if !bytes.contains(&b'_') && !bytes.contains(&b'\\') {
            return out;
        }
        let Some([Some(meta)]) = member_values(params.get(), ["_meta"]) else { return out };
        let Some([version, capabilities]) = member_values(meta, [PROTOCOL_VERSION_META, CLIENT_CAPABILITIES_META]) else { return out };
        out.protocol_version = version.and_then(string_value);
        out.capabilities = capabilities;
        out.declares_tasks =
            capabilities.and_then(|c| member_values(c, ["extensions"])).and_then(|[extensions]| extensions).is_some_and(|extensions| {
                let mut declared = false;
                let readable = each_member(extensions, &mut |m| declared |= m.key == EXTENSION_ID && first_byte(m.value) == Some(b'{'));
                declared && readable.is_some()
            });
        out
    }
}

/// The value for `capabilities.extensions` in a `server/discover` result.
///
/// ```
/// assert_eq!(mcp_task_core::protocol::extension::capability_json(), r#"{"io.modelcontextprotocol/tasks":{}}"#);
/// ```
pub fn capability_json() -> &'static str {
    r#"{"io.modelcontextprotocol/tasks":{}}"#
}

/// `-32021` naming the extension in `data.requiredCapabilities`.
pub(crate) fn missing_capability(why: &str) -> RpcError {
    RpcError::new(MISSING_CLIENT_CAPABILITY, format!("Missing required client capability: {why}"))
        .with_data(format!(r#"{{"requiredCapabilities":{{"extensions":{{{}:{{}}}}}}}}"#, json_string(EXTENSION_ID)))
}

/// The status the extension shows for a stored task: a tool result with
/// `isError: true` is `completed` here even where the 2025-11-25 flow that
/// created the task called it `failed`.
fn shown_status(status: TaskStatus, outcome: Option<&Outcome>) -> TaskStatus {
    match (status, outcome) {
        (TaskStatus::Failed, Some(Outcome::Result(_))) => TaskStatus::Completed,
        (status, _) => status,
    }
}

const KEYS: TaskKeys = TaskKeys { ttl: "ttlMs", poll_interval: "pollIntervalMs" };

fn write_fields(out: &mut String, t: TaskView<'_>, status: TaskStatus) {
    write_task_members(out, t, status, &KEYS);
}

/// The flat `CreateTaskResult` (`resultType: "task"`).
pub(crate) fn create_task_result(t: TaskView<'_>) -> String {
    let mut out = String::with_capacity(256);
    out.push_str("{\"resultType\":\"task\",");
    write_fields(&mut out, t, t.status);
    out.push('}');
    out
}

/// The members of a `DetailedTask` (no braces), for `tasks/get` and `notifications/tasks`.
fn write_detailed<'r>(out: &mut String, t: TaskView<'_>, outcome: Option<&Outcome>, inputs: impl Iterator<Item = InputRequest<'r>>) {
    let status = shown_status(t.status, outcome);
    write_fields(out, t, status);
    match (status, outcome) {
        (TaskStatus::Completed, Some(o)) => {
            out.push_str(",\"result\":");
            write_complete_result(out, o.json());
        }
        (TaskStatus::Failed, Some(o)) => {
            out.push_str(",\"error\":");
            out.push_str(o.json());
        }
        (TaskStatus::Failed, None) => {
            // A failure recorded without a JSON-RPC error (e.g. by a store
            // call): the extension requires one, so say what is known.
            let message = t.status_message.unwrap_or("The task failed");
            let _ = write!(out, ",\"error\":{{\"code\":{},\"message\":{}}}", super::jsonrpc::INTERNAL_ERROR, json_string(message));
        }
        (TaskStatus::Completed, None) => out.push_str(",\"result\":{\"resultType\":\"complete\"}"),
        (TaskStatus::InputRequired, _) => {
            out.push_str(",\"inputRequests\":{");
            for (i, input) in inputs.enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_string(input.key));
                out.push(':');
                out.push_str(input.request);
            }
            out.push('}');
        }
        _ => {}
    }
}

/// The inlined `result` of a completed task: what the request would have returned on this
/// protocol revision, where every result carries `resultType` (2026-07-28 `Result`: servers
/// MUST include it). A stored result without one (a host's tool result, or a task created
/// under 2025-11-25) gets `"resultType":"complete"`; one that has it is written as stored.
fn write_complete_result(out: &mut String, result: &str) {
    // Stored results were checked as JSON objects: a scan finds the member (a duplicate one counts as unreadable, as serde has it).
    let has_type = matches!(member_values(result, ["resultType"]), Some([Some(_)]));
    let body = result.trim_start();
    match body.strip_prefix('{') {
        Some(rest) if !has_type => {
            out.push_str("{\"resultType\":\"complete\"");
            if !rest.trim_start().starts_with('}') {
                out.push(',');
            }
            out.push_str(rest);
        }
        _ => out.push_str(result),
    }
}

/// The `tasks/get` result: a `DetailedTask` with `resultType: "complete"`.
pub(crate) fn get_task_result<'r>(t: TaskView<'_>, outcome: Option<&Outcome>, inputs: impl Iterator<Item = InputRequest<'r>>) -> String {
    let mut out = String::with_capacity(256 + outcome.map_or(0, |o| o.json().len()));
    out.push_str("{\"resultType\":\"complete\",");
    write_detailed(&mut out, t, outcome, inputs);
    out.push('}');
    out
}

/// `notifications/tasks` for one `subscriptions/listen` stream (`subscription_id` is its raw JSON id).
fn task_notification<'r>(
    t: TaskView<'_>,
    outcome: Option<&Outcome>,
    inputs: impl Iterator<Item = InputRequest<'r>>,
    subscription_id: &str,
) -> String {
    let mut out = String::with_capacity(320);
    out.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks\",\"params\":{");
    let _ = write!(out, "\"_meta\":{{{}:{}}},", json_string(SUBSCRIPTION_ID_META), subscription_id);
    write_detailed(&mut out, t, outcome, inputs);
    out.push_str("}}");
    out
}

/// The `tasks/update` params beside `taskId`: each `inputResponses` entry (key, raw answer).
pub(crate) struct UpdateParams<'a> {
    pub responses: Vec<(Cow<'a, str>, &'a str)>,
}

pub(crate) fn update_params(params: Option<Json<'_>>) -> Result<UpdateParams<'_>, RpcError> {
    let p = params_object(params, "tasks/update", true)?.ok_or_else(|| RpcError::params("Invalid params: tasks/update requires params"))?;
    let [input_responses] =
        members(p, ["inputResponses"]).map_err(|e| RpcError::params(format!("Invalid params for tasks/update: {e}")))?;
    let missing = || RpcError::params("Invalid params: tasks/update requires params.inputResponses (an object of answers by key)");
    let raw = input_responses.ok_or_else(missing)?;
    let members = object_members(raw.get()).ok_or_else(missing)?;
    let mut responses = Vec::with_capacity(members.len());
    for m in members {
        if first_byte(m.value) != Some(b'{') {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("Invalid params: tasks/update inputResponses[{}] must be an object (the client's result)", json_string(&m.key)),
            ));
        }
        responses.push((m.key, m.value));
    }
    Ok(UpdateParams { responses })
}

/// Whether the `Mcp-Name` header (decoded from `=?base64?…?=` when so
/// encoded) names `task_id`.
pub(crate) fn mcp_name_matches(header: &str, task_id: &str) -> bool {
    use base64::Engine as _;
    match header.strip_prefix("=?base64?").and_then(|h| h.strip_suffix("?=")) {
        Some(encoded) => base64::engine::general_purpose::STANDARD.decode(encoded).is_ok_and(|bytes| bytes == task_id.as_bytes()),
        None => header == task_id,
    }
}

/// `params.notifications.taskIds` of a `subscriptions/listen` request: an array of strings, or
/// nothing (absent, `null`, or anything else unreadable).
fn listen_task_ids(params: Option<Json<'_>>) -> Option<Vec<String>> {
    let [notifications] = members(params?, ["notifications"]).ok()?;
    let [task_ids] = members(notifications?, ["taskIds"]).ok()?;
    let mut ids = Some(Vec::new());
    each_item(task_ids?.get(), &mut |item| match (string_value(item), ids.as_mut()) {
        (Some(id), Some(list)) => list.push(id.into_owned()),
        _ => ids = None,
    })?;
    ids
}

/// The tasks a `subscriptions/listen` request asks to follow (none when it
/// names none), or `-32021` when its client did not declare the extension.
pub(crate) fn listened_tasks(params: Option<Json<'_>>) -> Result<Vec<String>, RpcError> {
    let Some(wanted) = listen_task_ids(params) else { return Ok(Vec::new()) };
    if !RequestMeta::read(params).declares_tasks {
        return Err(not_declared("Task status notifications"));
    }
    Ok(wanted)
}

/// The tasks extension's codec.
pub(crate) struct Extension;

/// `-32021` for `what`, which needs the extension declared on the request.
fn not_declared(what: &str) -> RpcError {
    missing_capability(&format!(
        "{what} needs the client to declare the extension io.modelcontextprotocol/tasks in \
         params._meta[\"io.modelcontextprotocol/clientCapabilities\"].extensions"
    ))
}

impl Codec for Extension {
    fn decode<'a>(&self, method: &str, params: Option<Json<'a>>, env: &Env<'_>) -> Result<TaskRequest<'a>, RpcError> {
        match method {
            "tasks/get" | "tasks/update" | "tasks/cancel" => {
                if !env.declares_tasks {
                    return Err(not_declared(method));
                }
                let task_id = task_id_param(params, method)?;
                if let Some(name) = env.mcp_name.filter(|name| !mcp_name_matches(name, &task_id)) {
                    return Err(RpcError::new(
                        HEADER_MISMATCH,
                        format!("Header mismatch: Mcp-Name {} does not match params.taskId {}", json_string(name), json_string(&task_id)),
                    ));
                }
                Ok(match method {
                    "tasks/get" => TaskRequest::Get { task_id },
                    "tasks/update" => TaskRequest::Update { task_id, responses: update_params(params)?.responses, ack: ACK },
                    _ => TaskRequest::Cancel { task_id },
                })
            }
            "tasks/result" | "tasks/list" => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!(
                    "Method not found: {method} does not exist in the tasks extension (protocol 2026-07-28); tasks/get returns the outcome"
                ),
            )),
            // The server decides, by the tool's policy and whether the client can take a task.
            "tools/call" if env.config.capabilities.tools_call => {
                let name = params
                    .and_then(|p| members(p, ["name"]).ok())
                    .and_then(|[name]| name)
                    .and_then(as_str)
                    .ok_or_else(|| RpcError::params("Invalid params: tools/call requires params.name (a string)"))?;
                match ((env.tool)(&name), env.declares_tasks) {
                    (TaskSupport::Required, false) => Err(not_declared(&format!("Tool '{name}' runs only as a task, so calling it"))),
                    // No client TTL and no progress token in the extension.
                    (TaskSupport::Required | TaskSupport::Optional, true) => {
                        Ok(TaskRequest::CreateTask { kind: RequestKind::ToolsCall, ttl: TtlRequest::Default, progress_token: None })
                    }
                    _ => Ok(TaskRequest::Other),
                }
            }
            _ => Ok(TaskRequest::Other),
        }
    }

    fn created(&self, t: TaskView<'_>, _config: &Config) -> String {
        create_task_result(t)
    }

    fn task_result(&self, t: TaskView<'_>, outcome: Option<&Outcome>, inputs: &mut dyn Iterator<Item = InputRequest<'_>>) -> String {
        get_task_result(t, outcome, inputs)
    }

    fn cancel_result(&self, _t: TaskView<'_>) -> String {
        ACK.to_owned()
    }

    fn status_notification(
        &self,
        t: TaskView<'_>,
        outcome: Option<&Outcome>,
        inputs: &mut dyn Iterator<Item = InputRequest<'_>>,
        stream: Option<&str>,
    ) -> Option<String> {
        // Pushed only on subscriptions/listen streams that ask for the task.
        stream.map(|subscription_id| task_notification(t, outcome, inputs, subscription_id))
    }

    fn capabilities(&self, _config: &Config, _context: Option<&str>) -> String {
        capability_json().to_owned()
    }

    fn input_params(&self, params: &str, _task_id: &str) -> Option<String> {
        Json::parse(params).ok().map(|_| params.to_owned())
    }
}

/// `params` (an object) with the `_meta` every 2026-07-28 request MUST carry
/// (basic/index.mdx): the protocol version, the client's capabilities (the
/// tasks extension added when `tasks`) and, when configured, its `clientInfo`.
/// What the host put in `params._meta` itself wins: its own capabilities (the
/// extension added to them when `tasks`) and its own `clientInfo`. `None` when
/// `params._meta` is not an object.
#[cfg(feature = "requestor")]
fn declared(declaration: &super::Declaration, params: &str, tasks: bool) -> Option<String> {
    use super::jsonrpc::{member, with_meta_entry};
    let own = member(params, "_meta");
    let own = |key| own.and_then(|meta| member(meta, key));
    let capabilities = match own(CLIENT_CAPABILITIES_META) {
        None if tasks => Some(Cow::Borrowed(declaration.with_extension.as_str())),
        None => Some(Cow::Borrowed(declaration.capabilities.as_str())),
        Some(caps) if tasks => Some(match serde_json::from_str::<serde_json::Value>(caps) {
            Ok(caps) if caps.is_object() => Cow::Owned(with_extension(caps).to_string()),
            _ => Cow::Borrowed(declaration.with_extension.as_str()),
        }),
        Some(_) => None,
    };
    let info = declaration.info.as_ref().filter(|_| own(CLIENT_INFO_META).is_none());
    let version = json_string(super::EXTENSION_PROTOCOL_VERSION);
    let mut params = with_meta_entry(params, PROTOCOL_VERSION_META, &version)?;
    for (key, value) in [(CLIENT_CAPABILITIES_META, capabilities.as_deref()), (CLIENT_INFO_META, info.map(String::as_str))] {
        if let Some(value) = value {
            params = with_meta_entry(&params, key, value)?;
        }
    }
    Some(params)
}

/// `capabilities` (an object) with the tasks extension declared in its `extensions`.
#[cfg(feature = "requestor")]
pub(super) fn with_extension(mut capabilities: serde_json::Value) -> serde_json::Value {
    use serde_json::{Map, Value};
    if let Some(members) = capabilities.as_object_mut() {
        let extensions = members.entry("extensions").or_insert_with(|| Value::Object(Map::new()));
        if !extensions.is_object() {
            // Declares nothing as it stands: replaced by one that names the extension.
            *extensions = Value::Object(Map::new());
        }
        if let Some(extensions) = extensions.as_object_mut() {
            extensions.entry(EXTENSION_ID).or_insert_with(|| Value::Object(Map::new()));
        }
    }
    capabilities
}

/// Whether a `server/discover` or `initialize` result (JSON text) lists the
/// extension in `capabilities.extensions`.
#[cfg(feature = "requestor")]
pub(crate) fn offered_by(server_info: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(server_info)
        .ok()
        .and_then(|v| v.get("capabilities")?.get("extensions")?.get(EXTENSION_ID).map(serde_json::Value::is_object))
        .unwrap_or(false)
}

#[cfg(feature = "requestor")]
impl super::RequestorCodec for Extension {
    fn call_params(&self, params: &str, task: Option<Option<u64>>, declaration: &super::Declaration) -> Result<String, &'static str> {
        // No params.task: the receiver decides, the request declares the client can take a task.
        // A plain call declares no extension: the receiver must not make it a task.
        declared(declaration, params, task.is_some()).ok_or("params._meta must be an object")
    }

    fn task_params(&self, params: String, declaration: &super::Declaration) -> String {
        declared(declaration, &params, true).unwrap_or(params)
    }

    fn input_answer(&self, request_id: &str, task_id: &str, result: &str, declaration: &super::Declaration) -> Option<super::InputAnswer> {
        // An inputRequests key: the answer goes back in tasks/update.
        let key = super::json::string_text(request_id).unwrap_or_default().into_owned();
        let params = format!("{{\"taskId\":{},\"inputResponses\":{{{}:{}}}}}", json_string(task_id), json_string(&key), result);
        Some(super::InputAnswer::Update { key, params: self.task_params(params, declaration) })
    }

    fn created_task(&self, result: &serde_json::Value) -> Option<serde_json::Value> {
        // A flat CreateTaskResult, told apart by resultType.
        if result.get("resultType").and_then(serde_json::Value::as_str) != Some("task") {
            return None;
        }
        let mut task = result.clone();
        if let Some(o) = task.as_object_mut() {
            o.remove("resultType");
            o.remove("_meta");
        }
        Some(task)
    }

    fn read_task(&self, mut task: serde_json::Value) -> super::ReadTask {
        let (mut result, mut error, mut inputs) = (None, None, None);
        if let Some(obj) = task.as_object_mut() {
            obj.remove("_meta");
            obj.remove("resultType");
            result = obj.remove("result");
            error = obj.remove("error");
            inputs = obj.remove("inputRequests");
        }
        super::ReadTask { task, result, error, inputs }
    }

    fn listen_params(&self, task_id: &str, declaration: &super::Declaration) -> Option<String> {
        let params = format!("{{\"notifications\":{{\"taskIds\":[{}]}}}}", json_string(task_id));
        Some(self.task_params(params, declaration))
    }

    fn pushes_task(&self, method: &str) -> bool {
        method == "notifications/tasks"
    }

    fn acknowledged<'a>(&self, method: &str, params: &'a serde_json::Value) -> Option<super::Acknowledged<'a>> {
        if method != "notifications/subscriptions/acknowledged" {
            return None;
        }
        let subscription_id = params.get("_meta")?.get(SUBSCRIPTION_ID_META)?;
        let task_ids = params.get("notifications").and_then(|n| n.get("taskIds")).and_then(serde_json::Value::as_array);
        Some(super::Acknowledged { subscription_id, task_ids })
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
    fn request_meta_reads_version_and_declaration() {
        let m = RequestMeta::read(Some(raw(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}"#,
        )));
        assert_eq!(m.protocol_version.as_deref(), Some("2026-07-28"));
        assert!(m.declares_tasks);
        for undeclared in [
            r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{}}}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":true}}}}"#,
            r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":7}}"#,
            r#"{"_meta":5}"#,
            r#"{}"#,
        ] {
            assert!(!RequestMeta::read(Some(raw(undeclared))).declares_tasks, "{undeclared}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn mcp_name_plain_and_base64() {
        assert!(mcp_name_matches("t-1", "t-1"));
        assert!(!mcp_name_matches("t-2", "t-1"));
        assert!(mcp_name_matches("=?base64?dC0x?=", "t-1"));
        assert!(!mcp_name_matches("=?base64?not base64?=", "t-1"));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn update_params_keep_answers_raw() {
        let p = update_params(Some(raw(r#"{"taskId":"t","inputResponses":{"a":{"n":1e400},"b":{}}}"#))).unwrap();
        assert_eq!(p.responses.iter().map(|(k, v)| (k.as_ref(), *v)).collect::<Vec<_>>(), [("a", r#"{"n":1e400}"#), ("b", "{}")]);
        for bad in [r#"{"taskId":"t"}"#, r#"{"taskId":"t","inputResponses":[]}"#, r#"{"taskId":"t","inputResponses":{"a":1}}"#] {
            assert_eq!(update_params(Some(raw(bad))).err().map(|e| e.code), Some(INVALID_PARAMS), "{bad}");
        }
    }
}
