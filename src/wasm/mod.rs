//! The JavaScript surface: a thin wasm-bindgen layer over [`Engine`]. Strings
//! in, strings out on the hot path; no protocol or state logic of its own.

#[cfg(feature = "receiver")]
mod args;
#[cfg(feature = "receiver")]
mod options;
#[cfg(feature = "receiver")]
mod outputs;
pub(crate) mod random;
#[cfg(feature = "requestor")]
mod requestor;
#[cfg(feature = "receiver")]
mod sdk_store;

use crate::{Clock, HostError};
#[cfg(feature = "receiver")]
use crate::{Engine, Event, IdSource, Output, RequestKind, TaskSupport, TtlRequest};
use js_sys::{Function, Object, Reflect};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The host's clock (`options.now`, or `Date.now`), read once at the boundary of
/// each call that may need the time, before the engine or requestor runs; they read
/// that instant. A clock that throws, or gives anything but a finite, non-negative
/// number of epoch ms, fails the call with `clock_failed` and leaves the state as it was.
#[derive(Clone)]
struct JsClock {
    source: Option<Function>,
    now: Rc<Cell<u64>>,
}

impl JsClock {
    fn new(source: Option<Function>) -> Self {
        JsClock { source, now: Rc::new(Cell::new(0)) }
    }

    fn read(&self) -> Result<(), JsValue> {
        let ms = match &self.source {
            None => js_sys::Date::now(),
            Some(f) => match f.call0(&JsValue::NULL) {
                Ok(value) => value.as_f64().ok_or_else(|| {
                    let found = if value.is_null() { "null".to_owned() } else { value.js_typeof().as_string().unwrap_or_default() };
                    clock_error(&format!("options.now() returned {found}, not a number of epoch milliseconds"), None)
                })?,
                Err(thrown) => return Err(clock_error("options.now() threw; the call did nothing", Some(thrown))),
            },
        };
        if !ms.is_finite() || ms < 0.0 {
            // Not `{ms}`: float Display would put core's float formatting into the wasm.
            let found = if ms.is_nan() {
                "NaN"
            } else if ms.is_infinite() {
                "an infinite number"
            } else {
                "a negative number"
            };
            return Err(clock_error(&format!("options.now() returned {found}, not a number of epoch milliseconds"), None));
        }
        self.now.set(ms as u64);
        Ok(())
    }
}

impl Clock for JsClock {
    fn now_ms(&self) -> u64 {
        self.now.get()
    }
}

/// An `Error` with code `clock_failed`; `cause` is what the host's clock threw.
fn clock_error(message: &str, cause: Option<JsValue>) -> JsValue {
    let error = js_error("clock_failed", message);
    if let Some(cause) = cause {
        let _ = Reflect::set(&error, &"cause".into(), &cause);
    }
    error
}

/// The host's `newTaskId()`; anything but a string becomes "" and the engine
/// refuses to create the task.
#[cfg(feature = "receiver")]
struct JsIds(Function);

#[cfg(feature = "receiver")]
impl IdSource for JsIds {
    fn next_id(&mut self) -> String {
        self.0.call0(&JsValue::NULL).ok().and_then(|v| v.as_string()).unwrap_or_default()
    }
}

fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    let _ = Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

/// An engine error with the JSON-RPC code a host answering a peer sends for it
/// (`rpcCode`), so adapters map no codes of their own.
fn rpc_error(code: &str, rpc_code: i64, message: &str) -> JsValue {
    let error = js_error(code, message);
    let _ = Reflect::set(&error, &"rpcCode".into(), &JsValue::from(rpc_code as f64));
    error
}

/// wasm-bindgen's release glue does not check argument types: a number or plain
/// object passed where Rust takes `&str` reaches the allocator with a NaN length
/// and traps (`RuntimeError: memory access out of bounds`). So string arguments
/// arrive as `JsValue` and are checked here; a wrong type is a `TypeError` with
/// `code: "invalid_argument"`.
fn type_error(name: &str, expected: &str, value: &JsValue) -> JsValue {
    let found = value.js_typeof().as_string().unwrap_or_default();
    let found = if value.is_null() { "null".to_owned() } else { found };
    type_error_message(&format!("{name} must be {expected}, got {found}"))
}

/// A `TypeError` with code `invalid_argument` and this message.
fn type_error_message(message: &str) -> JsValue {
    let error = js_sys::TypeError::new(message);
    let _ = Reflect::set(&error, &"code".into(), &"invalid_argument".into());
    let _ = Reflect::set(&error, &"rpcCode".into(), &JsValue::from(crate::protocol::jsonrpc::INVALID_PARAMS as f64));
    error.into()
}

fn string_arg(value: &JsValue, name: &str) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| type_error(name, "a string", value))
}

/// `undefined` and `null` are `None`.
fn opt_string_arg(value: &JsValue, name: &str) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.as_string().map(Some).ok_or_else(|| type_error(name, "a string, null or undefined", value))
}

fn host_error(e: HostError) -> JsValue {
    let error = rpc_error(e.code(), e.rpc_code(), &e.to_string());
    // capability_not_declared: what a -32021 to the peer puts in data.requiredCapabilities.
    if let Some(required) = e.required_capabilities_json().and_then(|json| js_sys::JSON::parse(&json).ok()) {
        let _ = Reflect::set(&error, &"requiredCapabilities".into(), &required);
    }
    error
}

fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &key.into(), &value.into());
}

fn opt_str(value: Option<String>) -> JsValue {
    value.map_or(JsValue::NULL, JsValue::from)
}

/// `{ [kind]: { fields, json, text } }` of an outputs table, for the object-mode wrappers.
fn output_shapes_object(shapes: &[crate::js_names::OutputShape]) -> JsValue {
    let strings = |list: &[&str]| list.iter().map(|s| JsValue::from(*s)).collect::<js_sys::Array>();
    let all = Object::new();
    for shape in shapes {
        let obj = Object::new();
        set(&obj, "fields", strings(shape.fields));
        set(&obj, "json", strings(shape.json));
        set(&obj, "text", shape.text.map_or(JsValue::NULL, JsValue::from));
        set(&all, shape.kind, obj);
    }
    all.into()
}

#[cfg(feature = "receiver")]
fn task_json(task: crate::Task) -> String {
    task.to_json()
}

/// A hot export's answer: the value, or the error it would have thrown in a one-element array
/// (the JS side throws it), so the export has one return value.
#[cfg(feature = "receiver")]
fn answer_or_fault(answer: Result<JsValue, JsValue>) -> JsValue {
    answer.unwrap_or_else(|error| js_sys::Array::of1(&error).into())
}

/// The MCP task runtime, JSON text in and out (see the package README for the host
/// loop). `TaskEngine` (pkg-template/engine.js) wraps it in plain JS values.
#[cfg(feature = "receiver")]
#[wasm_bindgen]
pub struct TextTaskEngine {
    engine: Engine,
    clock: JsClock,
    args: args::ArgBuffer,
}

#[cfg(feature = "receiver")]
impl TextTaskEngine {
    /// The engine, once the host's clock has been read for this call.
    fn engine(&mut self) -> Result<&mut Engine, JsValue> {
        self.clock.read()?;
        Ok(&mut self.engine)
    }

    /// Two string arguments (the second may be `null` or `undefined`), copied into the reused buffer (see [`args`]).
    fn text_args(
        &mut self,
        first: (&JsValue, &str),
        second: (&JsValue, &str, &str),
    ) -> Result<(std::ops::Range<usize>, Option<std::ops::Range<usize>>), JsValue> {
        self.args.pair(first.0, second.0).map_err(|refused| match refused {
            args::ArgError::First => type_error(first.1, "a string", first.0),
            args::ArgError::Second => type_error(second.1, second.2, second.0),
        })
    }
}

#[cfg(feature = "receiver")]
impl TextTaskEngine {
    /// One JSON-RPC message from the peer in; the immediate response out, or
    /// `null`. `inbound` (optional): `{ dialect?: "2025-11-25" | "2026-07-28", mcpName?: string,
    /// quotaKey?: string, clientCapabilities?: object }`.
    fn handle(&mut self, message: JsValue, context: JsValue, inbound: JsValue) -> Result<JsValue, JsValue> {
        let (message, context) = self.text_args((&message, "message"), (&context, "context", "a string, null or undefined"))?;
        let options::InboundOptions { dialect, mcp_name, quota_key, client_capabilities } =
            options::inbound(&inbound).map_err(|m| type_error_message(&m))?;
        self.clock.read()?;
        let (message, context) = (self.args.text(message), context.map(|c| self.args.text(c)));
        let inbound = crate::Inbound {
            context,
            dialect,
            mcp_name: mcp_name.as_deref(),
            quota_key: quota_key.as_deref(),
            client_capabilities: client_capabilities.as_deref(),
        };
        Ok(opt_str(self.engine.handle_message(message, inbound)))
    }

    /// Stores the underlying result (JSON object text); returns the task JSON.
    fn complete(&mut self, task_id: JsValue, result_json: JsValue) -> Result<String, JsValue> {
        let (task_id, result_json) = match self.text_args((&task_id, "taskId"), (&result_json, "resultJson", "a string"))? {
            (task_id, Some(result_json)) => (task_id, result_json),
            (_, None) => return Err(type_error("resultJson", "a string", &result_json)),
        };
        self.clock.read()?;
        self.engine.complete_json(self.args.text(task_id), self.args.text(result_json)).map_err(host_error)
    }
}

#[cfg(feature = "receiver")]
#[wasm_bindgen(js_class = TextTaskEngine)]
impl TextTaskEngine {
    /// `new TextTaskEngine(options?)`; throws `Error` with `code: "invalid_options"`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<TextTaskEngine, JsValue> {
        let parsed = options::parse(&options).map_err(|m| {
            // A TypeError (the options object is the wrong shape) that still carries the code.
            let error = js_sys::TypeError::new(&m);
            let _ = Reflect::set(&error, &"code".into(), &"invalid_options".into());
            JsValue::from(error)
        })?;
        let clock = JsClock::new(parsed.now);
        clock.read()?;
        let ids: Box<dyn IdSource> = match parsed.new_task_id {
            Some(f) => Box::new(JsIds(f)),
            None => Box::<crate::UuidV4Ids>::default(),
        };
        let mut engine = Engine::with_sources(parsed.config, Box::new(clock.clone()), ids);
        for (name, support) in parsed.tools {
            engine.register_tool(&name, support);
        }
        Ok(TextTaskEngine { engine, clock, args: args::ArgBuffer::default() })
    }

    /// `handle` (extras.js) calls this: the answer (`string | null`), or its error in a
    /// one-element array: one return value, so no return slot in wasm memory on the hot path.
    #[wasm_bindgen(js_name = __handleOrFault, unchecked_return_type = "string | null | [unknown]")]
    pub fn handle_or_fault(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "HandleOptions")] inbound: JsValue,
    ) -> JsValue {
        answer_or_fault(self.handle(message, context, inbound))
    }

    /// `complete` (extras.js) calls this: stores the underlying result (JSON object text) and
    /// answers the task JSON, or its error in a one-element array (see `__handleOrFault`).
    #[wasm_bindgen(js_name = __completeOrFault, unchecked_return_type = "string | [unknown]")]
    pub fn complete_or_fault(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] result_json: JsValue,
    ) -> JsValue {
        answer_or_fault(self.complete(task_id, result_json).map(JsValue::from))
    }

    /// Turns a forwarded 2026-07-28 `tools/call` into a task: returns the
    /// `CreateTaskResult` response text to send (an `execute` output follows).
    #[wasm_bindgen(js_name = startTask)]
    pub fn start_task(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "HandleOptions | null")] inbound: JsValue,
    ) -> Result<String, JsValue> {
        let request = string_arg(&request, "request")?;
        let context = opt_string_arg(&context, "context")?;
        let quota_key = options::inbound(&inbound).map_err(|m| type_error_message(&m))?.quota_key;
        let inbound = crate::Inbound { context: context.as_deref(), quota_key: quota_key.as_deref(), ..crate::Inbound::default() };
        self.engine()?.start_task(&request, &inbound).map_err(host_error)
    }

    /// The task part of a `subscriptions/listen` request: `{ taskIds }` agreed
    /// to, or `{ error }` (the JSON-RPC error response text to send instead).
    #[wasm_bindgen(js_name = listenTasks, unchecked_return_type = "{ taskIds: string[] } | { error: string }")]
    pub fn listen_tasks(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let request = string_arg(&request, "request")?;
        let context = opt_string_arg(&context, "context")?;
        let obj = Object::new();
        match self.engine()?.listen_tasks(&request, context.as_deref()) {
            Ok(ids) => set(&obj, "taskIds", ids.into_iter().map(JsValue::from).collect::<js_sys::Array>()),
            Err(response) => set(&obj, "error", response),
        }
        Ok(obj.into())
    }

    /// The `subscriptions/listen` stream with this raw JSON id closed; returns how many task follows ended.
    #[wasm_bindgen(js_name = unlistenTasks)]
    pub fn unlisten_tasks(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] subscription_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<usize, JsValue> {
        let id = string_arg(&subscription_id, "subscriptionId")?;
        let context = opt_string_arg(&context, "context")?;
        let id = crate::RawId::parse(&id).map_err(host_error)?;
        Ok(self.engine()?.unlisten_tasks(&id, context.as_deref()))
    }

    /// Storage mode: puts a task record read from the storage in place of the local copy.
    pub fn restore(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] record: JsValue) -> Result<(), JsValue> {
        let record = string_arg(&record, "record")?;
        self.engine()?.storage().restore(&record).map_err(host_error)
    }

    /// Storage mode: restores what the storage holds under a task's key (`record` `null`: not a
    /// task record at all; `version`: the storage's version text beside it, or `null`).
    /// Damage (unreadable, another task's, a version that disagrees) fails a task held here
    /// and returns what was found, for the operator; for a task not held here it throws
    /// `damaged_record` (-32603) with that text as `detail`. `null`: restored.
    #[wasm_bindgen(js_name = restoreStored, unchecked_return_type = "string | null")]
    pub fn restore_stored(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] record: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] version: JsValue,
    ) -> Result<JsValue, JsValue> {
        let task_id = string_arg(&task_id, "taskId")?;
        let record = opt_string_arg(&record, "record")?;
        let version = opt_string_arg(&version, "version")?;
        match self.engine()?.storage().restore_stored(&task_id, record.as_deref(), version.as_deref()) {
            Ok(found) => Ok(opt_str(found)),
            Err(e) => {
                let detail = match &e {
                    HostError::DamagedRecord { detail, .. } => Some(detail.clone()),
                    _ => None,
                };
                let error = host_error(e);
                if let Some(detail) = detail {
                    set(&Object::from(error.clone()), "detail", detail);
                }
                Err(error)
            }
        }
    }

    /// Storage mode: restores every record of a snapshot (a JSON array); returns how many.
    #[wasm_bindgen(js_name = restoreSnapshot)]
    pub fn restore_snapshot(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] snapshot: JsValue) -> Result<usize, JsValue> {
        let snapshot = string_arg(&snapshot, "snapshot")?;
        self.engine()?.storage().restore_snapshot(&snapshot).map_err(host_error)
    }

    /// Every live task's record, as a JSON array.
    pub fn snapshot(&mut self) -> String {
        self.engine.storage().snapshot()
    }

    /// The record of a live task, or `null`.
    #[wasm_bindgen(js_name = exportTask, unchecked_return_type = "string | null")]
    pub fn export_task(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<JsValue, JsValue> {
        let task_id = string_arg(&task_id, "taskId")?;
        Ok(opt_str(self.engine()?.storage().export_task(&task_id)))
    }

    /// Storage mode: drops the local copy of a task the storage no longer holds.
    #[wasm_bindgen(js_name = forgetTask)]
    pub fn forget_task(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<bool, JsValue> {
        let task_id = string_arg(&task_id, "taskId")?;
        Ok(self.engine()?.storage().forget_task(&task_id))
    }

    /// The value for `capabilities.extensions` of a `server/discover` result, as JSON text.
    #[wasm_bindgen(js_name = extensionCapabilityJson)]
    pub fn extension_capability_json() -> String {
        crate::protocol::extension::capability_json().to_owned()
    }

    /// The fields of every output kind (`{ [kind]: { fields, json, text } }`, from
    /// [`crate::js_names::ENGINE_OUTPUTS`]): which hold JSON text, and which one object
    /// mode keeps as exact text.
    #[wasm_bindgen(js_name = outputShapes, unchecked_return_type = "OutputShapes")]
    pub fn output_shapes() -> JsValue {
        output_shapes_object(crate::js_names::ENGINE_OUTPUTS)
    }

    /// The next output (`{kind: "send" | "execute" | "forward" | "cancelled" | "expired" | "inputResponse" | "audit" | "outputsDropped", ...}`), or `null`.
    #[wasm_bindgen(js_name = pollOutput)]
    pub fn poll_output(&mut self) -> JsValue {
        let Some(out) = self.engine.poll_output() else { return JsValue::NULL };
        match out {
            Output::Send(t) => outputs::send_output(t.context.as_deref(), t.in_reply_to.as_ref().map(|id| id.as_str()), &t.message),
            Output::Persist(p) => {
                let obj = Object::new();
                set(&obj, "kind", "persist");
                set(&obj, "taskId", p.task_id);
                let expected = match p.replaces {
                    // A repair: the damaged record's version text, as the storage reported it.
                    Some(text) => JsValue::from(text),
                    None => p.expected_version.map_or(JsValue::NULL, |v| JsValue::from(v as f64)),
                };
                set(&obj, "expectedVersion", expected);
                set(&obj, "version", p.version as f64);
                set(&obj, "record", opt_str(p.record));
                set(&obj, "expiresAt", p.expires_at.map_or(JsValue::NULL, |v| JsValue::from(v as f64)));
                obj.into()
            }
            Output::Event(Event::Execute { task_id, context, kind, request }) => {
                outputs::execute_output(&task_id, context.as_deref(), kind.method().unwrap_or("other"), &request)
            }
            Output::Event(Event::Forward { context, message }) => outputs::forward_output(context.as_deref(), &message),
            Output::Event(Event::Cancelled { task_id, context }) => outputs::cancelled_output(&task_id, context.as_deref()),
            Output::Event(Event::Expired { task_id, context, was_terminal }) => {
                outputs::expired_output(&task_id, context.as_deref(), was_terminal)
            }
            Output::Event(Event::InputResponse { task_id, context, request_id, response }) => {
                outputs::input_response_output(&task_id, context.as_deref(), request_id.as_str(), &response)
            }
            Output::Event(Event::OutputsDropped { count }) => {
                let obj = Object::new();
                set(&obj, "kind", "outputsDropped");
                set(&obj, "count", count as f64);
                obj.into()
            }
            Output::Event(Event::Audit(record)) => {
                // Rare (only with `audit` on): built field by field.
                let obj = Object::new();
                set(&obj, "kind", "audit");
                set(&obj, "action", record.action.name());
                if let crate::AuditAction::Transitioned { from, to } = record.action {
                    set(&obj, "from", from.as_str());
                    set(&obj, "to", to.as_str());
                }
                if let crate::AuditAction::Cancelled { from } = record.action {
                    set(&obj, "from", from.as_str());
                }
                set(&obj, "taskId", opt_str(record.task_id));
                set(&obj, "context", opt_str(record.context));
                set(&obj, "detail", opt_str(record.detail));
                obj.into()
            }
        }
    }

    /// How many outputs wait to be drained.
    #[wasm_bindgen(getter, js_name = pendingOutputs)]
    pub fn pending_outputs(&self) -> usize {
        self.engine.pending_outputs()
    }

    /// Epoch milliseconds of the next TTL deadline, or `null`.
    #[wasm_bindgen(js_name = nextDeadline, unchecked_return_type = "number | null")]
    pub fn next_deadline(&self) -> JsValue {
        self.engine.next_deadline().map_or(JsValue::NULL, |ms| JsValue::from(ms as f64))
    }

    /// Expires what is due; harmless when early or repeated.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self) -> Result<(), JsValue> {
        self.engine()?.handle_timeout();
        Ok(())
    }

    /// The `tasks` capability object for the `initialize` answer of a session
    /// in `context`, as JSON text (`list` only for a session with a context).
    #[wasm_bindgen(js_name = capabilitiesJson)]
    pub fn capabilities_json(&self, #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue) -> Result<String, JsValue> {
        Ok(self.engine.capabilities_json(opt_string_arg(&context, "context")?.as_deref()))
    }

    /// Declares a tool's task policy (`"required" | "optional" | "perCall" | "forbidden"`; `null`: absent).
    #[wasm_bindgen(js_name = registerTool)]
    pub fn register_tool(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] task_support: JsValue,
    ) -> Result<(), JsValue> {
        let name = string_arg(&name, "name")?;
        let support = match opt_string_arg(&task_support, "taskSupport")? {
            None => TaskSupport::Absent,
            Some(s) => match TaskSupport::parse(&s) {
                TaskSupport::Absent => {
                    return Err(type_error_message(&format!(
                        "taskSupport must be \"required\", \"optional\", \"perCall\", \"forbidden\" or null, got \"{s}\""
                    )))
                }
                support => support,
            },
        };
        self.engine()?.register_tool(&name, support);
        Ok(())
    }

    /// Stores the underlying JSON-RPC error (object text); returns the task JSON.
    pub fn fail(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] error_json: JsValue,
    ) -> Result<String, JsValue> {
        let (task_id, error_json) = (string_arg(&task_id, "taskId")?, string_arg(&error_json, "errorJson")?);
        self.engine()?.fail(&task_id, &error_json).map(task_json).map_err(host_error)
    }

    /// Queues a request for the requestor (e.g. `elicitation/create`); returns its raw JSON id.
    #[wasm_bindgen(js_name = requestInput)]
    pub fn request_input(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] params_json: JsValue,
    ) -> Result<String, JsValue> {
        let (task_id, method) = (string_arg(&task_id, "taskId")?, string_arg(&method, "method")?);
        let params_json = opt_string_arg(&params_json, "paramsJson")?;
        self.engine()?.request_input(&task_id, &method, params_json.as_deref()).map(String::from).map_err(host_error)
    }

    /// `input_required` → `working`; returns the task JSON.
    pub fn resume(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<String, JsValue> {
        let task_id = string_arg(&task_id, "taskId")?;
        self.engine()?.resume(&task_id).map(task_json).map_err(host_error)
    }

    /// Sets or clears the status message; returns the task JSON.
    #[wasm_bindgen(js_name = setStatusMessage)]
    pub fn set_status_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] message: JsValue,
    ) -> Result<String, JsValue> {
        let (task_id, message) = (string_arg(&task_id, "taskId")?, opt_string_arg(&message, "message")?);
        self.engine()?.set_status_message(&task_id, message.as_deref()).map(task_json).map_err(host_error)
    }

    /// Emits `notifications/progress` with the request's token; `false` when it had none.
    #[wasm_bindgen(js_name = reportProgress)]
    pub fn report_progress(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        progress: f64,
        total: Option<f64>,
        #[wasm_bindgen(unchecked_param_type = "string | null")] message: JsValue,
    ) -> Result<bool, JsValue> {
        let (task_id, message) = (string_arg(&task_id, "taskId")?, opt_string_arg(&message, "message")?);
        self.engine()?.report_progress(&task_id, progress, total, message.as_deref()).map_err(host_error)
    }

    /// Cancels a task (host decision); returns the task JSON.
    pub fn cancel(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] message: JsValue,
    ) -> Result<String, JsValue> {
        let (task_id, message) = (string_arg(&task_id, "taskId")?, opt_string_arg(&message, "message")?);
        self.engine()?.cancel(&task_id, message.as_deref()).map(task_json).map_err(host_error)
    }

    /// Creates a task for a request the host runs itself; returns the task JSON.
    /// `ttl`: a number of ms, `null` for unlimited, `undefined` for the default.
    #[wasm_bindgen(js_name = createTask)]
    pub fn create_task(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | null")] ttl: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] progress_token_json: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | null")] poll_interval_ms: JsValue,
    ) -> Result<String, JsValue> {
        let (context, method) = (opt_string_arg(&context, "context")?, string_arg(&method, "method")?);
        let progress_token_json = opt_string_arg(&progress_token_json, "progressTokenJson")?;
        self.create_task_snapshot(context.as_deref(), &method, &ttl, progress_token_json.as_deref(), &poll_interval_ms).map(task_json)
    }

    /// Host-side: the context of a live task (`null` for a task without one), or
    /// `undefined` when no live task has this ID. Never expose it to a peer.
    #[wasm_bindgen(js_name = taskContext, unchecked_return_type = "string | null | undefined")]
    pub fn task_context(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue) -> Result<JsValue, JsValue> {
        let task_id = string_arg(&task_id, "taskId")?;
        Ok(self.engine()?.sdk_store().task_context(&task_id).map_or(JsValue::UNDEFINED, |binding| opt_str(binding.context())))
    }

    /// The task JSON as `context` may see it, or `null`.
    #[wasm_bindgen(js_name = getTask, unchecked_return_type = "string | null")]
    pub fn get_task(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (task_id, context) = (string_arg(&task_id, "taskId")?, opt_string_arg(&context, "context")?);
        Ok(opt_str(self.engine()?.sdk_store().get_task(&task_id, context.as_deref()).map(task_json)))
    }

    /// One page as JSON text `{"tasks": [...], "nextCursor"?: "..."}`.
    #[wasm_bindgen(js_name = listTasks)]
    pub fn list_tasks(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] cursor: JsValue,
    ) -> Result<String, JsValue> {
        let (context, cursor) = (opt_string_arg(&context, "context")?, opt_string_arg(&cursor, "cursor")?);
        let page = self.engine()?.sdk_store().list_tasks(context.as_deref(), cursor.as_deref()).map_err(host_error)?;
        let tasks: Vec<String> = page.tasks.into_iter().map(task_json).collect();
        let mut out = format!("{{\"tasks\":[{}]", tasks.join(","));
        if let Some(c) = page.next_cursor {
            out.push_str(",\"nextCursor\":\"");
            out.push_str(&c);
            out.push('"');
        }
        out.push('}');
        Ok(out)
    }

    /// Cancels on behalf of `context`; returns the task JSON.
    #[wasm_bindgen(js_name = cancelTask)]
    pub fn cancel_task(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] message: JsValue,
    ) -> Result<String, JsValue> {
        let (task_id, context) = (string_arg(&task_id, "taskId")?, opt_string_arg(&context, "context")?);
        let message = opt_string_arg(&message, "message")?;
        self.engine()?.sdk_store().cancel_task(&task_id, context.as_deref(), message.as_deref()).map(task_json).map_err(host_error)
    }

    /// Live tasks held.
    #[wasm_bindgen(getter, js_name = taskCount)]
    pub fn task_count(&self) -> usize {
        self.engine.task_count()
    }
}

#[cfg(feature = "receiver")]
impl TextTaskEngine {
    /// `createTask` with its numbers checked, the task created.
    fn create_task_snapshot(
        &mut self,
        context: Option<&str>,
        method: &str,
        ttl: &JsValue,
        progress_token_json: Option<&str>,
        poll_interval_ms: &JsValue,
    ) -> Result<crate::Task, JsValue> {
        let (ttl, poll_interval) = creation_numbers(ttl, poll_interval_ms)?;
        let kind = RequestKind::from_method(method);
        self.engine()?.sdk_store().create_task(context, kind, ttl, progress_token_json, poll_interval).map_err(host_error)
    }
}

/// `createTask`'s `ttl` and `pollIntervalMs`, checked (`pollIntervalMs` `undefined`: `None`,
/// the configured interval).
#[cfg(feature = "receiver")]
fn creation_numbers(ttl: &JsValue, poll_interval_ms: &JsValue) -> Result<(TtlRequest, Option<Option<u64>>), JsValue> {
    // undefined: the configured interval; null: none; a number: this task's own.
    let poll_interval = if poll_interval_ms.is_undefined() {
        None
    } else if poll_interval_ms.is_null() {
        Some(None)
    } else {
        match poll_interval_ms.as_f64() {
            Some(ms) if ms >= 0.0 && ms.fract() == 0.0 && ms <= 9.0e15 => Some(Some(ms as u64)),
            _ => {
                return Err(rpc_error(
                    "invalid_argument",
                    crate::protocol::jsonrpc::INVALID_PARAMS,
                    "pollIntervalMs must be a non-negative integer, null or undefined",
                ))
            }
        }
    };
    let ttl = if ttl.is_undefined() {
        TtlRequest::Default
    } else if ttl.is_null() {
        TtlRequest::Unlimited
    } else {
        match ttl.as_f64() {
            Some(ms) if ms >= 0.0 && ms.fract() == 0.0 && ms <= 9.0e15 => TtlRequest::Ms(ms as u64),
            _ => {
                return Err(rpc_error(
                    "invalid_argument",
                    crate::protocol::jsonrpc::INVALID_PARAMS,
                    "ttl must be a non-negative integer number of milliseconds, null or undefined",
                ))
            }
        }
    };
    Ok((ttl, poll_interval))
}
