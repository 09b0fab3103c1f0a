//! The requestor in the tasks extension (2026-07-28) against our receiver:
//! declaration per request, `resultType: "task"`, polling `tasks/get` on
//! `pollIntervalMs`, `inputRequests` once per key answered by `tasks/update`,
//! the inlined outcome, cancel as an ack then polling, `-32021`, and resume
//! after a restart. Every request it sends is checked against the schemas.

mod common;
use common::*;
use mcp_task_core::{
    CallMode, Config, Dialect, Engine, Event, ManualClock, Output, RawId, Requestor, RequestorConfig, RequestorEvent, RequestorOutput,
    SequentialIds, TaskStatus, TaskSupport,
};
use serde_json::{json, Value};

struct Pair {
    requestor: Requestor,
    engine: Engine,
    clock: ManualClock,
    ext: Schema,
    base: Schema,
    events: Vec<RequestorEvent>,
    /// Execute events the receiver's host has not acted on yet.
    executing: Vec<String>,
    sent: Vec<Value>,
}

impl Pair {
    fn new() -> Pair {
        Pair::with_requestor(RequestorConfig::default())
    }

    fn with_requestor(requestor_config: RequestorConfig) -> Pair {
        let clock = ManualClock::new(T0);
        let config = Config { poll_interval_ms: Some(2_000), ..Config::default() };
        let mut engine = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
        engine.register_tool("slow", TaskSupport::Required);
        engine.register_tool("quick", TaskSupport::Forbidden);
        let mut requestor = Requestor::new(requestor_config, Box::new(clock.clone()));
        let discover = json!({"supportedVersions": ["2026-07-28"], "capabilities": {"extensions": serde_json::from_str::<Value>(mcp_task_core::protocol::extension::capability_json()).unwrap()}});
        assert_eq!(requestor.use_server_info(&discover.to_string()), Dialect::Extension);
        Pair {
            requestor,
            engine,
            clock,
            ext: Schema::extension(),
            base: Schema::base_2026(),
            events: vec![],
            executing: vec![],
            sent: vec![],
        }
    }

    /// Moves messages both ways until nothing moves.
    fn pump(&mut self) {
        loop {
            let mut moved = false;
            while let Some(out) = self.requestor.poll_output() {
                moved = true;
                match out {
                    RequestorOutput::Send(message) => {
                        let v: Value = serde_json::from_str(&message).unwrap();
                        self.check_request(&v);
                        if let Some(name) = RequestorOutput::Send(message.clone()).mcp_name() {
                            let param = if v["method"] == "tools/call" { &v["params"]["name"] } else { &v["params"]["taskId"] };
                            assert_eq!(json!(name), *param, "Mcp-Name names the request's target");
                        }
                        self.sent.push(v);
                        if let Some(reply) = self.engine.handle_message(&message, Some("s")) {
                            self.requestor.handle_message(&reply);
                        }
                    }
                    RequestorOutput::Event(e) => self.events.push(e),
                }
            }
            while let Some(out) = self.engine.poll_output() {
                moved = true;
                match out {
                    Output::Send(t) => self.requestor.handle_message(&t.message),
                    Output::Event(Event::Execute { task_id, .. }) => self.executing.push(task_id),
                    Output::Event(Event::Forward { message, .. }) => {
                        let v: Value = serde_json::from_str(&message).unwrap();
                        let reply = json!({"jsonrpc":"2.0","id": v["id"], "result": {"resultType":"complete","content":[{"type":"text","text":"plain"}]}});
                        self.requestor.handle_message(&reply.to_string());
                    }
                    _ => {}
                }
            }
            if !moved {
                break;
            }
        }
    }

    fn check_request(&mut self, v: &Value) {
        self.base.check("JSONRPCRequest", v);
        let meta = &v["params"]["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28", "every request names its version: {v}");
        // basic/index.mdx: clientCapabilities is a required per-request field (rmcp 3.x answers -32602 without it).
        assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object(), "every request carries client capabilities: {v}");
        match v["method"].as_str().unwrap() {
            "tasks/get" => self.ext.check("GetTaskRequest", v),
            "tasks/update" => self.ext.check("UpdateTaskRequest", v),
            "tasks/cancel" => self.ext.check("CancelTaskRequest", v),
            "tools/call" => assert!(v["params"].get("task").is_none(), "no params.task in the extension"),
            other => panic!("unexpected request {other}"),
        }
        if v["method"].as_str().unwrap().starts_with("tasks/") {
            assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"], json!({}));
        }
    }

    /// Advances to the requestor's next deadline and runs it.
    fn tick(&mut self) {
        let due = self.requestor.next_deadline().expect("a tracked task always has a deadline");
        self.clock.set(due.max(self.clock.now_ms_value()));
        self.requestor.handle_timeout();
        self.pump();
    }

    fn take_events(&mut self) -> Vec<RequestorEvent> {
        std::mem::take(&mut self.events)
    }

    /// The request id of the input request among the events so far.
    fn take_input_request(&mut self) -> RawId {
        self.take_events()
            .into_iter()
            .find_map(|e| match e {
                RequestorEvent::InputRequest { request_id, .. } => Some(request_id),
                _ => None,
            })
            .expect("an input request event")
    }

    fn count(&self, method: &str) -> usize {
        self.sent.iter().filter(|v| v["method"] == method).count()
    }
}

trait NowValue {
    fn now_ms_value(&self) -> u64;
}
impl NowValue for ManualClock {
    fn now_ms_value(&self) -> u64 {
        use mcp_task_core::Clock;
        self.now_ms()
    }
}

/// A call to the task tool from a client that declares form elicitation (the requestor adds the extension).
const SLOW_ASKING: &str = r#"{"name":"slow","_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}}"#;

const ELICIT: Option<&str> =
    Some(r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}"#);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_task_with_input_from_call_to_outcome() {
    let mut p = Pair::new();
    let call = p
        .requestor
        .call(
            "tools/call",
            Some(r#"{"name":"slow","arguments":{"n":123456789012345678901234567890},"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}"#),
            CallMode::Task { ttl_ms: None },
            None,
        )
        .unwrap();
    p.pump();
    let created = p.take_events();
    let [RequestorEvent::Created { call_id, task_id, task }] = created.as_slice() else { panic!("{created:?}") };
    assert_eq!(call_id, &call);
    assert_eq!((task.status, task.poll_interval_ms), (TaskStatus::Working, Some(2_000)), "a typed task");
    let task: Value = serde_json::from_str(task.json()).unwrap();
    assert_eq!(task["status"], "working");
    assert!(task.get("resultType").is_none());
    let task_id = task_id.clone();
    // Polls at the receiver's pollIntervalMs.
    assert_eq!(p.requestor.next_deadline(), Some(T0 + 2_000));
    let exec = p.executing.pop().unwrap();
    p.engine.request_input(&exec, "elicitation/create", ELICIT).unwrap();
    p.tick();
    let events = p.take_events();
    let inputs: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            RequestorEvent::InputRequest { request_id, request, .. } => Some((request_id.clone(), request.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(inputs.len(), 1, "{events:?}");
    let request: Value = serde_json::from_str(&inputs[0].1).unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Name?");
    // Polled again before answering: the same key is not shown twice.
    p.tick();
    assert!(p.take_events().iter().all(|e| !matches!(e, RequestorEvent::InputRequest { .. })));
    p.requestor.respond(&inputs[0].0, r#"{"action":"accept","content":{"name":"Luca"}}"#).unwrap();
    p.pump();
    assert_eq!(p.count("tasks/update"), 1);
    let update = p.sent.iter().find(|v| v["method"] == "tasks/update").unwrap().clone();
    let key: String = serde_json::from_str(inputs[0].0.as_str()).unwrap();
    assert_eq!(update["params"]["inputResponses"][&key]["content"]["name"], "Luca");
    assert_eq!(p.engine.get_task(&task_id, Some("s")).unwrap().status, TaskStatus::Working);
    // The work ends with a tool error: completed in this dialect, and the
    // outcome is the call's own answer.
    p.engine.complete(&exec, r#"{"content":[{"type":"text","text":"Hello, Luca!"}],"isError":true}"#).unwrap();
    p.tick();
    let events = p.take_events();
    let finished = events.iter().find_map(|e| match e {
        RequestorEvent::Finished { status, response, .. } => Some((*status, response.clone())),
        _ => None,
    });
    let (status, response) = finished.expect("finished");
    assert_eq!(status, TaskStatus::Completed);
    let response: Value = serde_json::from_str(&response).unwrap();
    assert_eq!(response["id"], serde_json::from_str::<Value>(call.as_str()).unwrap());
    assert_eq!(response["result"]["content"][0]["text"], "Hello, Luca!");
    assert_eq!(p.count("tasks/result"), 0, "no tasks/result in the extension");
    assert!(p.requestor.tracked().is_empty());
    assert_eq!(p.requestor.next_deadline(), None);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn failure_cancel_and_refusal() {
    let mut p = Pair::new();
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let (a, b) = (p.executing[0].clone(), p.executing[1].clone());
    p.engine.fail(&a, r#"{"code":-32603,"message":"API rate limit exceeded"}"#).unwrap();
    p.requestor.cancel(&b).unwrap();
    p.pump();
    assert!(p
        .take_events()
        .iter()
        .any(|e| matches!(e, RequestorEvent::CancelAnswered { response, .. } if response.contains(r#""resultType":"complete""#))));
    assert_eq!(p.requestor.tracked().len(), 2, "a cancel is an ack: the task is polled to its end");
    p.tick();
    p.tick();
    let finished: Vec<(TaskStatus, Value)> = p
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            RequestorEvent::Finished { status, response, .. } => Some((status, serde_json::from_str(&response).unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(finished.len(), 2, "{finished:?}");
    let failed = finished.iter().find(|(s, _)| *s == TaskStatus::Failed).unwrap();
    assert_eq!(failed.1["error"], json!({"code": -32603, "message": "API rate limit exceeded"}));
    let cancelled = finished.iter().find(|(s, _)| *s == TaskStatus::Cancelled).unwrap();
    assert!(cancelled.1["error"]["message"].as_str().unwrap().contains("cancelled"));
    // A plain call (no declaration) to a task-only tool: -32021 as a clear refusal.
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Plain, None).unwrap();
    p.pump();
    let plain = &p.sent.last().unwrap()["params"]["_meta"];
    assert_eq!(plain["io.modelcontextprotocol/clientCapabilities"], json!({}), "a plain call declares no extension");
    let refused = p.take_events();
    let [RequestorEvent::CallRefused { response, .. }] = refused.as_slice() else { panic!("{refused:?}") };
    let response: Value = serde_json::from_str(response).unwrap();
    assert_eq!(response["error"]["code"], -32021);
    // A tool the receiver runs plainly: a plain response, also for a declaring call.
    p.requestor.call("tools/call", Some(r#"{"name":"quick"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    assert!(matches!(p.take_events().as_slice(), [RequestorEvent::PlainResponse { .. }]));
    assert!(p.requestor.list().is_err(), "no tasks/list in the extension");
    // A task handed out for anything but tools/call is an invalid response.
    let call = p.requestor.call("sampling/createMessage", Some("{}"), CallMode::Task { ttl_ms: None }, None).unwrap();
    let _ = p.requestor.poll_output();
    let bogus = json!({"jsonrpc":"2.0","id": serde_json::from_str::<Value>(call.as_str()).unwrap(),"result":{"resultType":"task","taskId":"x","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}});
    p.requestor.handle_message(&bogus.to_string());
    p.pump();
    let events = p.take_events();
    let [RequestorEvent::CallRefused { response, .. }] = events.as_slice() else { panic!("{events:?}") };
    assert!(response.contains("invalidResponse"), "{response}");
    assert!(!p.requestor.tracked().contains(&"x".to_owned()));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn resume_after_a_restart_keeps_the_dialect_and_what_was_shown() {
    let mut p = Pair::new();
    p.requestor.call("tools/call", Some(SLOW_ASKING), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let exec = p.executing[0].clone();
    p.engine.request_input(&exec, "elicitation/create", ELICIT).unwrap();
    p.tick();
    let shown = p.take_events().iter().filter(|e| matches!(e, RequestorEvent::InputRequest { .. })).count();
    assert_eq!(shown, 1);
    let state = p.requestor.export_state();
    // A new requestor (after a crash), knowing nothing of the receiver yet.
    p.requestor = Requestor::new(RequestorConfig::default(), Box::new(p.clock.clone()));
    assert_eq!(p.requestor.import_state(&state).unwrap(), 1);
    assert_eq!(p.requestor.dialect(), Dialect::Extension);
    p.tick();
    assert!(p.take_events().iter().all(|e| !matches!(e, RequestorEvent::InputRequest { .. })), "shown once, even across a restart");
    p.engine.complete(&exec, r#"{"content":[]}"#).unwrap();
    p.tick();
    assert!(p.take_events().iter().any(|e| matches!(e, RequestorEvent::Finished { status: TaskStatus::Completed, .. })));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_lost_update_is_shown_again() {
    let mut p = Pair::new();
    p.requestor.call("tools/call", Some(SLOW_ASKING), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let exec = p.executing[0].clone();
    p.engine.request_input(&exec, "elicitation/create", ELICIT).unwrap();
    p.tick();
    let request_id = p.take_input_request();
    p.requestor.respond(&request_id, r#"{"action":"accept","content":{"name":"x"}}"#).unwrap();
    // The transport drops the tasks/update.
    let Some(out) = p.requestor.poll_output() else { panic!() };
    assert!(p.requestor.request_failed(&out.request_id().unwrap()));
    p.pump();
    assert!(p.take_events().iter().any(|e| matches!(e, RequestorEvent::Retrying { method, .. } if method == "tasks/update")));
    // Still outstanding on the receiver: the next poll shows it again, to answer again.
    p.tick();
    assert!(p.take_events().iter().any(|e| matches!(e, RequestorEvent::InputRequest { request_id: r, .. } if *r == request_id)));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn arguments_go_out_byte_for_byte_in_both_dialects() {
    for dialect in [Dialect::Legacy, Dialect::Extension] {
        let config = RequestorConfig { dialect, ..RequestorConfig::default() };
        let mut r = Requestor::new(config, Box::new(ManualClock::new(0)));
        let params = r#"{"name":"slow","arguments":{"n":123456789012345678901234567890,"f":1.50,"s":"\u00e9"},"_meta":{"x":1e400}}"#;
        r.call("tools/call", Some(params), CallMode::Task { ttl_ms: Some(5) }, Some("\"tok\"")).unwrap();
        let Some(RequestorOutput::Send(message)) = r.poll_output() else { panic!() };
        for exact in [r#""n":123456789012345678901234567890"#, r#""f":1.50"#, r#""s":"\u00e9""#, r#""x":1e400"#, r#""progressToken":"tok""#]
        {
            assert!(message.contains(exact), "{dialect:?}: {exact} in {message}");
        }
        assert_eq!(message.contains(r#""task":{"ttl":5}"#), dialect == Dialect::Legacy);
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_call_carries_client_capabilities_the_hosts_own_if_set() {
    let mut p = Pair::new();
    let own = r#"{"name":"quick","_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}}"#;
    let own_ext =
        r#"{"name":"quick","_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"x/y":{"a":1}}}}}"#;
    p.requestor.call("tools/call", Some(r#"{"name":"quick"}"#), CallMode::Plain, None).unwrap();
    p.requestor.call("tools/call", Some(own), CallMode::Plain, None).unwrap();
    p.requestor.call("tools/call", Some(r#"{"name":"quick"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.requestor.call("tools/call", Some(own), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.requestor.call("tools/call", Some(own_ext), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let caps: Vec<&Value> = p.sent.iter().map(|v| &v["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]).collect();
    let tasks = json!({"io.modelcontextprotocol/tasks": {}});
    assert_eq!(
        caps,
        [
            &json!({}),
            &json!({"elicitation": {"form": {}}}),
            &json!({"extensions": tasks}),
            &json!({"elicitation": {"form": {}}, "extensions": tasks}),
            &json!({"elicitation": {}, "extensions": {"x/y": {"a": 1}, "io.modelcontextprotocol/tasks": {}}}),
        ]
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_configured_declaration_goes_on_every_request() {
    let object = |v: Value| v.as_object().unwrap().clone();
    let info = json!({"name": "declared-client", "version": "2.0.0"});
    let config = RequestorConfig {
        client_capabilities: object(json!({"elicitation": {}, "extensions": {"x/y": {"a": 1}}})),
        client_info: Some(object(info.clone())),
        ..RequestorConfig::default()
    };
    let mut p = Pair::with_requestor(config);
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let exec = p.executing[0].clone();
    p.engine.request_input(&exec, "elicitation/create", ELICIT).unwrap();
    p.tick();
    let request_id = p.take_input_request();
    p.requestor.respond(&request_id, r#"{"action":"accept","content":{"name":"x"}}"#).unwrap();
    p.pump();
    p.requestor.cancel(&exec).unwrap();
    p.pump();
    p.requestor.call("tools/call", Some(r#"{"name":"quick"}"#), CallMode::Plain, None).unwrap();
    // The host's own _meta wins over the configured one.
    let own = r#"{"name":"quick","_meta":{"io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"own","version":"1"}}}"#;
    p.requestor.call("tools/call", Some(own), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();

    let declared = json!({"elicitation": {}, "extensions": {"x/y": {"a": 1}, "io.modelcontextprotocol/tasks": {}}});
    let (last, rest) = p.sent.split_last().unwrap();
    let (plain, rest) = rest.split_last().unwrap();
    let methods: Vec<&str> = rest.iter().map(|v| v["method"].as_str().unwrap()).collect();
    for method in ["tools/call", "tasks/get", "tasks/update", "tasks/cancel"] {
        assert!(methods.contains(&method), "{method} in {methods:?}");
    }
    for v in rest {
        let meta = &v["params"]["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"], declared, "{v}");
        assert_eq!(meta["io.modelcontextprotocol/clientInfo"], info, "{v}");
    }
    let plain = &plain["params"]["_meta"];
    assert_eq!(plain["io.modelcontextprotocol/clientCapabilities"], json!({"elicitation": {}, "extensions": {"x/y": {"a": 1}}}));
    assert_eq!(plain["io.modelcontextprotocol/clientInfo"], info);
    let last = &last["params"]["_meta"];
    assert_eq!(
        last["io.modelcontextprotocol/clientCapabilities"],
        json!({"sampling": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    assert_eq!(last["io.modelcontextprotocol/clientInfo"], json!({"name": "own", "version": "1"}));
}
