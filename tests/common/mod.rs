//! Test harness: an engine with a manual clock and counting IDs, and a check
//! of every message it emits against the official MCP 2025-11-25 schema.
#![allow(dead_code)]

pub mod pair;

use mcp_task_core::{Config, Engine, Event, ManualClock, Output, RawId, SequentialIds, TaskSupport, Transmit};
use serde_json::{json, Value};
use std::collections::HashMap;

pub const T0: u64 = 1_764_066_600_000; // 2025-11-25T10:30:00Z

/// An official schema from `tests/spec` (verbatim copies, see its README), built into the test
/// binary: the tests also run on wasm32, which has no filesystem.
macro_rules! spec {
    ($file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/spec/", $file))
    };
}

/// The official schema of one protocol version.
pub struct Schema {
    root: Value,
    validators: HashMap<String, jsonschema::Validator>,
}

impl Schema {
    /// The 2025-11-25 schema.
    pub fn load() -> Schema {
        Schema::parse(spec!("2025-11-25/schema.json"))
    }

    /// The tasks extension's schema (`tasks-extension/schema.json`).
    pub fn extension() -> Schema {
        Schema::parse(spec!("tasks-extension/schema.json"))
    }

    /// The 2026-07-28 base protocol schema (envelopes, errors).
    pub fn base_2026() -> Schema {
        Schema::parse(spec!("2026-07-28/schema.json"))
    }

    /// Whether `value` is a valid `$defs/<def>` (for tests that the checker refuses wrong shapes).
    pub fn is_valid(&mut self, def: &str, value: &Value) -> bool {
        self.errors(def, value).is_empty()
    }

    fn parse(text: &str) -> Schema {
        Schema { root: serde_json::from_str(text).expect("the official schema is JSON"), validators: HashMap::new() }
    }

    /// Why `value` is not a valid `$defs/<def>` (empty when it is).
    pub fn errors(&mut self, def: &str, value: &Value) -> Vec<String> {
        let root = &self.root;
        let validator = self.validators.entry(def.to_owned()).or_insert_with(|| {
            assert!(root["$defs"].get(def).is_some(), "no $defs/{def} in the schema");
            let mut schema = root.clone();
            schema["$ref"] = json!(format!("#/$defs/{def}"));
            jsonschema::validator_for(&schema).expect("schema compiles")
        });
        validator.iter_errors(value).map(|e| format!("{e} at {}", e.instance_path())).collect()
    }

    /// Asserts `value` is a valid `$defs/<def>`.
    pub fn check(&mut self, def: &str, value: &Value) {
        let errors = self.errors(def, value);
        assert!(errors.is_empty(), "not a valid {def}: {errors:?}\n{value:#}");
    }

    /// Checks a response to `method` (with the result type `result_def`).
    pub fn check_response(&mut self, result_def: &str, response: &Value) {
        if response.get("error").is_some() {
            self.check("JSONRPCErrorResponse", response);
        } else {
            self.check("JSONRPCResultResponse", response);
            self.check(result_def, &response["result"]);
        }
    }

    /// Checks a message the engine sends on its own (notification, request, deferred response).
    pub fn check_outgoing(&mut self, message: &Value, result_def: &str) {
        match message.get("method").and_then(Value::as_str) {
            Some("notifications/tasks/status") => {
                self.check("TaskStatusNotification", message);
                assert!(message["params"].get("_meta").is_none(), "status notifications carry no related-task _meta");
            }
            Some("notifications/progress") => self.check("ProgressNotification", message),
            Some("elicitation/create") => {
                self.check("ElicitRequest", message);
                self.check("ServerRequest", message);
            }
            Some("sampling/createMessage") => self.check("CreateMessageRequest", message),
            Some(_) => self.check(if message.get("id").is_some() { "JSONRPCRequest" } else { "JSONRPCNotification" }, message),
            None => self.check_response(result_def, message),
        }
    }
}

/// A receiver engine under test, playing both sides of the wire.
pub struct Rig {
    pub engine: Engine,
    pub clock: ManualClock,
    pub schema: Schema,
    next_id: u64,
    /// Result type expected for deferred `tasks/result` responses.
    pub payload_def: &'static str,
}

impl Rig {
    pub fn new(config: Config) -> Rig {
        let clock = ManualClock::new(T0);
        let engine = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
        Rig { engine, clock, schema: Schema::load(), next_id: 0, payload_def: "CallToolResult" }
    }

    /// A server with tools `slow` (required), `maybe` (optional), `never` (forbidden), `plain` (absent).
    pub fn server() -> Rig {
        let mut rig = Rig::new(Config { cursor_key: Some([1; 16]), ..Config::default() });
        rig.engine.register_tool("slow", TaskSupport::Required);
        rig.engine.register_tool("maybe", TaskSupport::Optional);
        rig.engine.register_tool("never", TaskSupport::Forbidden);
        rig
    }

    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Sends raw text; returns the immediate reply, parsed and schema-checked.
    pub fn raw(&mut self, text: &str, ctx: Option<&str>) -> Option<Value> {
        let reply = self.engine.handle_message(text, ctx)?;
        let value: Value = serde_json::from_str(&reply).unwrap_or_else(|e| panic!("reply is not JSON ({e}): {reply}"));
        if value.get("error").is_some() {
            self.schema.check("JSONRPCErrorResponse", &value);
        }
        Some(value)
    }

    /// Sends a request; returns the immediate reply (checked against `result_def`).
    pub fn ask(&mut self, ctx: Option<&str>, method: &str, params: Value, result_def: &str) -> Option<Value> {
        let id = self.id();
        let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        let reply = self.raw(&text, ctx)?;
        assert_eq!(reply["id"], json!(id), "reply answers the request id");
        self.schema.check_response(result_def, &reply);
        Some(reply)
    }

    pub fn call_tool_task(&mut self, ctx: Option<&str>, tool: &str, task: Value) -> Value {
        self.ask(ctx, "tools/call", json!({"name": tool, "arguments": {}, "task": task}), "CreateTaskResult")
            .expect("a CreateTaskResult at once")
    }

    /// Creates a task for `slow` and returns its ID (drains the Execute event).
    pub fn start(&mut self, ctx: Option<&str>) -> String {
        let reply = self.call_tool_task(ctx, "slow", json!({"ttl": 60_000}));
        let id = reply["result"]["task"]["taskId"].as_str().unwrap().to_owned();
        let outs = self.drain();
        assert!(
            outs.iter().any(|o| matches!(o, Output::Event(Event::Execute { task_id, .. }) if *task_id == id)),
            "the host is told to execute {id}"
        );
        id
    }

    pub fn get(&mut self, ctx: Option<&str>, task_id: &str) -> Value {
        self.ask(ctx, "tasks/get", json!({"taskId": task_id}), "GetTaskResult").unwrap()
    }

    pub fn status(&mut self, ctx: Option<&str>, task_id: &str) -> String {
        let reply = self.get(ctx, task_id);
        reply["result"]["status"].as_str().unwrap_or_else(|| panic!("no status in {reply}")).to_owned()
    }

    /// Drains every output, schema-checking each message.
    pub fn drain(&mut self) -> Vec<Output> {
        let mut outs = Vec::new();
        while let Some(out) = self.engine.poll_output() {
            if let Output::Send(Transmit { message, .. }) = &out {
                let value: Value = serde_json::from_str(message).unwrap_or_else(|e| panic!("emitted non-JSON ({e}): {message}"));
                self.schema.check_outgoing(&value, self.payload_def);
            }
            outs.push(out);
        }
        outs
    }

    /// Drained messages as JSON values, with their routing.
    pub fn sent(&mut self) -> Vec<(Option<String>, Option<RawId>, Value)> {
        self.drain()
            .into_iter()
            .filter_map(|o| match o {
                Output::Send(t) => Some((t.context, t.in_reply_to, serde_json::from_str(&t.message).unwrap())),
                _ => None,
            })
            .collect()
    }
}

pub fn error_code(reply: &Value) -> i64 {
    reply["error"]["code"].as_i64().unwrap_or_else(|| panic!("expected an error, got {reply}"))
}

pub fn error_message(reply: &Value) -> String {
    reply["error"]["message"].as_str().unwrap().to_owned()
}
