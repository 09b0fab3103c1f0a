//! `TextTaskRequestor` (JSON text in and out; `TaskRequestor` in pkg-template/client/requestor.js
//! wraps it with plain JS values) and `shouldAugment` for JavaScript: the requestor role.

use super::{host_error, js_error, opt_str, opt_string_arg, set, string_arg, JsClock};
use crate::{PollPolicy, RawId, Requestor, RequestorConfig, RequestorEvent, RequestorOutput};
use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

fn number(options: &JsValue, key: &str) -> Result<Option<u64>, JsValue> {
    let v = Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9.0e15 => Ok(Some(n as u64)),
        _ => Err(js_error("invalid_options", &format!("options.{key} must be a non-negative integer"))),
    }
}

/// A JSON object option (`clientCapabilities`, `clientInfo`), or `None` when absent.
fn json_object(options: &JsValue, key: &str, what: &str) -> Result<Option<serde_json::Map<String, serde_json::Value>>, JsValue> {
    let v = Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let bad = || js_error("invalid_options", &format!("options.{key} must be {what}"));
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return Err(bad());
    }
    let text = js_sys::JSON::stringify(&v).ok().and_then(|t| t.as_string()).ok_or_else(bad)?;
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::Object(map)) => Ok(Some(map)),
        _ => Err(bad()),
    }
}

/// Whether to send a request as a task: `{augment, reason}`.
#[wasm_bindgen(js_name = shouldAugment)]
pub fn should_augment(
    #[wasm_bindgen(unchecked_param_type = "string")] capabilities_json: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null")] task_support: JsValue,
    prefer_task: bool,
) -> Result<JsValue, JsValue> {
    let (capabilities_json, method) = (string_arg(&capabilities_json, "capabilitiesJson")?, string_arg(&method, "method")?);
    let task_support = opt_string_arg(&task_support, "taskSupport")?;
    let support = task_support.as_deref().map_or(crate::TaskSupport::Absent, crate::TaskSupport::parse);
    let d = crate::should_augment(&capabilities_json, &method, support, prefer_task);
    let obj = Object::new();
    set(&obj, "augment", d.augment);
    set(&obj, "reason", d.reason);
    Ok(obj.into())
}

/// A raw JSON id from JS (`"\"r1\""`, `"7"`); `lenient` also takes an unquoted string id.
fn raw_id(text: String, lenient: bool) -> Result<RawId, JsValue> {
    match RawId::parse(&text) {
        Ok(id) => Ok(id),
        Err(_) if lenient => Ok(RawId::string(&text)),
        Err(e) => Err(host_error(e)),
    }
}

/// `parts` joined with `separator` (written out: `[&str]::join` is a kilobyte of generic code in the wasm).
fn joined(parts: &[&str], separator: &str) -> String {
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        out.push_str(part);
    }
    out
}

fn opt_id(id: Option<RawId>) -> JsValue {
    opt_str(id.map(String::from))
}

/// The requestor side of MCP tasks, for one receiver, in JSON text.
#[wasm_bindgen]
pub struct TextTaskRequestor {
    inner: Requestor,
    clock: JsClock,
}

impl TextTaskRequestor {
    /// The requestor, once the host's clock has been read for this call.
    fn requestor(&mut self) -> Result<&mut Requestor, JsValue> {
        self.clock.read()?;
        Ok(&mut self.inner)
    }
}

#[wasm_bindgen]
impl TextTaskRequestor {
    /// `new TextTaskRequestor({ now?, pollFloorMs?, pollCeilingMs?, initialBackoffMs?, requestTimeoutMs?,
    /// resultTimeoutMs?, maxListPages?, requestIdPrefix?, dialect?, clientCapabilities?, clientInfo?, listen? })`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<TextTaskRequestor, JsValue> {
        let mut config = RequestorConfig::default();
        let mut now = None;
        if !(options.is_undefined() || options.is_null()) {
            if !options.is_object() {
                return Err(js_error("invalid_options", "options must be an object"));
            }
            let known = crate::js_names::option_keys("TaskRequestorOptions");
            for key in Object::keys(options.unchecked_ref::<Object>()).iter() {
                let Some(key) = key.as_string() else { continue };
                if !known.contains(&key.as_str()) {
                    let error = js_sys::TypeError::new(&format!("options.{key} is not an option (known here: {})", joined(known, ", ")));
                    let _ = Reflect::set(&error, &"code".into(), &"invalid_options".into());
                    return Err(error.into());
                }
            }
            let f = Reflect::get(&options, &"now".into()).unwrap_or(JsValue::UNDEFINED);
            if !(f.is_undefined() || f.is_null()) {
                now = Some(f.dyn_into::<Function>().map_err(|_| js_error("invalid_options", "options.now must be a function"))?);
            }
            let d = PollPolicy::default();
            config.poll = PollPolicy {
                floor_ms: number(&options, "pollFloorMs")?.unwrap_or(d.floor_ms),
                ceiling_ms: number(&options, "pollCeilingMs")?.unwrap_or(d.ceiling_ms),
                initial_backoff_ms: number(&options, "initialBackoffMs")?.unwrap_or(d.initial_backoff_ms),
                request_timeout_ms: number(&options, "requestTimeoutMs")?.unwrap_or(d.request_timeout_ms),
                result_timeout_ms: number(&options, "resultTimeoutMs")?.unwrap_or(d.result_timeout_ms),
            };
            if let Some(pages) = number(&options, "maxListPages")? {
                config.max_list_pages = usize::try_from(pages).unwrap_or(usize::MAX);
            }
            if let Some(prefix) = Reflect::get(&options, &"requestIdPrefix".into()).ok().and_then(|v| v.as_string()) {
                config.request_id_prefix = prefix;
            }
            match Reflect::get(&options, &"dialect".into()).ok().filter(|v| !v.is_undefined() && !v.is_null()).map(|v| v.as_string()) {
                None => {}
                Some(d) => {
                    config.dialect = d
                        .as_deref()
                        .and_then(crate::Dialect::named)
                        .ok_or_else(|| js_error("invalid_options", "options.dialect must be \"2025-11-25\" or \"2026-07-28\""))?
                }
            }
            let caps = json_object(&options, "clientCapabilities", "an object of client capabilities such as { elicitation: {} }")?;
            config.client_capabilities = caps.unwrap_or_default();
            config.client_info = json_object(&options, "clientInfo", "an object such as { name: 'my-client', version: '1.0.0' }")?;
            let listen = Reflect::get(&options, &"listen".into()).unwrap_or(JsValue::UNDEFINED);
            if !listen.is_undefined() {
                config.listen = listen.as_bool().ok_or_else(|| js_error("invalid_options", "options.listen must be a boolean"))?;
            }
        }
        let clock = JsClock::new(now);
        clock.read()?;
        Ok(TextTaskRequestor { inner: Requestor::new(config, Box::new(clock.clone())), clock })
    }

    /// Sends a request; `ttl`: `undefined` for a plain request, `null` to augment
    /// without a ttl, a number to augment with that ttl. Returns the call id.
    pub fn call(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] params_json: JsValue,
        task: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] progress_token_json: JsValue,
    ) -> Result<String, JsValue> {
        let (method, params_json) = (string_arg(&method, "method")?, opt_string_arg(&params_json, "paramsJson")?);
        let progress_token_json = opt_string_arg(&progress_token_json, "progressTokenJson")?;
        let task = if task.is_undefined() || task == JsValue::FALSE {
            crate::CallMode::Plain
        } else if task.is_null() || task == JsValue::TRUE {
            crate::CallMode::Task { ttl_ms: None }
        } else {
            match task.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9.0e15 => crate::CallMode::Task { ttl_ms: Some(n as u64) },
                _ => {
                    return Err(js_error(
                        "invalid_argument",
                        "ttl must be undefined (plain), null or true (task, default ttl) or a non-negative integer",
                    ))
                }
            }
        };
        self.requestor()?.call(&method, params_json.as_deref(), task, progress_token_json.as_deref()).map(String::from).map_err(host_error)
    }

    /// Feeds one message from the receiver.
    pub fn handle(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue) -> Result<(), JsValue> {
        self.requestor()?.handle_message(&string_arg(&message, "message")?);
        Ok(())
    }

    /// Answers the receiver's side-channel request with a result object (JSON text).
    pub fn respond(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] request_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] result_json: JsValue,
    ) -> Result<(), JsValue> {
        let (request_id, result_json) = (string_arg(&request_id, "requestId")?, string_arg(&result_json, "resultJson")?);
        let request_id = raw_id(request_id, false)?;
        self.requestor()?.respond(&request_id, &result_json).map_err(host_error)
    }

    /// Answers the receiver's side-channel request with a JSON-RPC error object (JSON text).
    #[wasm_bindgen(js_name = respondError)]
    pub fn respond_error(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] request_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] error_json: JsValue,
    ) -> Result<(), JsValue> {
        let (request_id, error_json) = (string_arg(&request_id, "requestId")?, string_arg(&error_json, "errorJson")?);
        let request_id = raw_id(request_id, false)?;
        self.requestor()?.respond_error(&request_id, &error_json).map_err(host_error)
    }

    /// Asks the receiver to cancel a tracked task; returns the request id.
    pub fn cancel(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<String, JsValue> {
        self.requestor()?.cancel(&string_arg(&task_id, "taskId")?).map(String::from).map_err(host_error)
    }

    /// Lists all tasks, following cursors; returns the first request id.
    /// Throws `invalid_argument` in the tasks extension (it has no `tasks/list`).
    pub fn list(&mut self) -> Result<String, JsValue> {
        self.requestor()?.list().map(String::from).map_err(host_error)
    }

    /// Reads the receiver's `server/discover` or `initialize` result (JSON text)
    /// and speaks what it offers; returns `"2026-07-28"` (the tasks extension) or `"2025-11-25"`.
    #[wasm_bindgen(js_name = useServerInfo)]
    pub fn use_server_info(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] result_json: JsValue) -> Result<String, JsValue> {
        Ok(self.requestor()?.use_server_info(&string_arg(&result_json, "resultJson")?).protocol_version().to_owned())
    }

    /// The dialect spoken: `"2025-11-25"` or `"2026-07-28"`.
    #[wasm_bindgen(getter)]
    pub fn dialect(&self) -> String {
        self.inner.dialect().protocol_version().to_owned()
    }

    /// The transport lost request `requestId` (a `send` output's `requestId`; an
    /// unquoted string id is taken too): the requestor stops waiting for it and
    /// recovers. Returns whether it was awaited.
    #[wasm_bindgen(js_name = requestFailed)]
    pub fn request_failed(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] request_id: JsValue) -> Result<bool, JsValue> {
        Ok(self.requestor()?.request_failed(&raw_id(string_arg(&request_id, "requestId")?, true)?))
    }

    /// The protocol's names and numbers the host's glue needs (error codes, versions, `_meta`
    /// keys, how a policy is listed to a 2025-11-25 client), as JSON text, for both sides (the
    /// receiver-only build leaves it out to stay small; the package's modules read it at build
    /// time): see
    /// [`crate::protocol::constants::JSON`].
    #[wasm_bindgen(js_name = protocolJson)]
    pub fn protocol_json() -> String {
        crate::protocol::constants::JSON.to_owned()
    }

    /// The fields of every output kind (`{ [kind]: { fields, json, text } }`, from
    /// [`crate::js_names::REQUESTOR_OUTPUTS`]): which hold JSON text, and which one
    /// object mode keeps as exact text.
    #[wasm_bindgen(js_name = outputShapes, unchecked_return_type = "RequestorOutputShapes")]
    pub fn output_shapes() -> JsValue {
        super::output_shapes_object(crate::js_names::REQUESTOR_OUTPUTS)
    }

    /// The next output, or `null`.
    #[wasm_bindgen(js_name = pollOutput)]
    pub fn poll_output(&mut self) -> JsValue {
        let Some(out) = self.inner.poll_output() else { return JsValue::NULL };
        let obj = Object::new();
        let request_id = out.request_id();
        let mcp_name = out.mcp_name();
        match out {
            RequestorOutput::Send(message) => {
                set(&obj, "kind", "send");
                set(&obj, "message", message);
                set(&obj, "requestId", opt_id(request_id));
                // The Streamable HTTP `Mcp-Name` header for this request (2026-07-28), or null.
                set(&obj, "mcpName", opt_str(mcp_name));
            }
            RequestorOutput::Event(e) => match e {
                RequestorEvent::Created { call_id, task_id, task } => {
                    set(&obj, "kind", "created");
                    set(&obj, "callId", String::from(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "task", task.json());
                }
                RequestorEvent::PlainResponse { call_id, response } => {
                    set(&obj, "kind", "plainResponse");
                    set(&obj, "callId", String::from(call_id));
                    set(&obj, "response", response);
                }
                RequestorEvent::CallRefused { call_id, response } => {
                    set(&obj, "kind", "callRefused");
                    set(&obj, "callId", String::from(call_id));
                    set(&obj, "response", response);
                }
                RequestorEvent::Status { call_id, task_id, task } => {
                    set(&obj, "kind", "status");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "task", task.json());
                }
                RequestorEvent::InputRequest { call_id, task_id, request_id, request } => {
                    set(&obj, "kind", "inputRequest");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "requestId", String::from(request_id));
                    set(&obj, "request", request);
                }
                RequestorEvent::Progress { call_id, task_id, notification } => {
                    set(&obj, "kind", "progress");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "notification", notification);
                }
                RequestorEvent::Finished { call_id, task_id, status, response } => {
                    set(&obj, "kind", "finished");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "status", status.as_str());
                    set(&obj, "response", response);
                }
                RequestorEvent::Lost { call_id, task_id, error } => {
                    set(&obj, "kind", "lost");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "error", error);
                }
                RequestorEvent::Retrying { call_id, task_id, method, response } => {
                    set(&obj, "kind", "retrying");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "method", method);
                    set(&obj, "response", response);
                }
                RequestorEvent::CancelAnswered { call_id, task_id, response } => {
                    set(&obj, "kind", "cancelAnswered");
                    set(&obj, "callId", opt_id(call_id));
                    set(&obj, "taskId", task_id);
                    set(&obj, "response", response);
                }
                RequestorEvent::Listed { tasks, error } => {
                    set(&obj, "kind", "listed");
                    let tasks: Vec<&str> = tasks.iter().map(crate::TaskView::json).collect();
                    set(&obj, "tasks", format!("[{}]", joined(&tasks, ",")));
                    set(&obj, "error", opt_str(error));
                }
                RequestorEvent::Forward { message } => {
                    set(&obj, "kind", "forward");
                    set(&obj, "message", message);
                }
            },
        }
        obj.into()
    }

    /// Epoch ms of the next due poll, retry or request timeout, or `null`.
    #[wasm_bindgen(js_name = nextDeadline, unchecked_return_type = "number | null")]
    pub fn next_deadline(&self) -> JsValue {
        self.inner.next_deadline().map_or(JsValue::NULL, |ms| JsValue::from(ms as f64))
    }

    /// Sends the polls and retries that are due; gives up on requests past their timeout.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self) -> Result<(), JsValue> {
        self.requestor()?.handle_timeout();
        Ok(())
    }

    /// The last known task JSON, or `null`.
    #[wasm_bindgen(unchecked_return_type = "string | null")]
    pub fn task(&self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<JsValue, JsValue> {
        Ok(opt_str(self.inner.task(&string_arg(&task_id, "taskId")?)))
    }

    /// IDs of the tracked tasks.
    pub fn tracked(&self) -> Vec<String> {
        self.inner.tracked()
    }

    /// Stops tracking a task.
    pub fn forget(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<(), JsValue> {
        self.requestor()?.forget(&string_arg(&task_id, "taskId")?);
        Ok(())
    }

    /// The tracked tasks as JSON text, to persist.
    #[wasm_bindgen(js_name = exportState)]
    pub fn export_state(&self) -> String {
        self.inner.export_state()
    }

    /// Tracks the tasks of an exported state again; returns how many.
    #[wasm_bindgen(js_name = importState)]
    pub fn import_state(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue) -> Result<usize, JsValue> {
        self.requestor()?.import_state(&string_arg(&state, "state")?).map_err(host_error)
    }
}
