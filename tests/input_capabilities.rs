//! A task never asks its client for input the client did not declare it can
//! give (mrtr.mdx: "Servers MUST NOT send an `inputRequests` that the client
//! has not declared support for in its capabilities"). The declaration that
//! governs is the one made when the task was asked for: the tools/call's own
//! `_meta` in the tasks extension, the session's `initialize` capabilities
//! (passed by the host) in 2025-11-25. It survives a store round trip.

mod common;
use common::*;
use mcp_task_core::{Config, Engine, Event, HostError, Inbound, ManualClock, Output, SequentialIds, StorageMode, TaskStatus, TaskSupport};
use serde_json::{json, Value};

const FORM: &str = r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}"#;
const FORM_WITHOUT_MODE: &str = r#"{"message":"Name?","requestedSchema":{"type":"object","properties":{}}}"#;
const URL: &str = r#"{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e1"}"#;
const SAMPLE: &str = r#"{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}"#;
const SAMPLE_WITH_TOOLS: &str = r#"{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#;

fn engine(storage: bool) -> Engine {
    let clock = ManualClock::new(T0);
    let storage = storage.then(|| StorageMode { instance_id: "a".into(), lease_ms: 60_000 });
    let mut engine = Engine::with_sources(Config { storage, ..Config::default() }, Box::new(clock), Box::new(SequentialIds::new("t")));
    engine.register_tool("slow", TaskSupport::Required);
    engine.register_tool("decide", TaskSupport::PerCall);
    engine
}

/// A 2026-07-28 `tools/call` whose client declares `capabilities` (the extension added).
fn modern_call(tool: &str, mut capabilities: Value) -> String {
    capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities}}})
    .to_string()
}

const LEGACY_CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":60000}}}"#;

/// Feeds a task-creating request and returns the new task's ID (from its Execute event).
fn create(engine: &mut Engine, message: &str, inbound: &Inbound<'_>) -> String {
    engine.handle_message(message, inbound);
    let mut task_id = None;
    while let Some(out) = engine.poll_output() {
        if let Output::Event(Event::Execute { task_id: id, .. }) = out {
            task_id = Some(id);
        }
    }
    task_id.expect("a task was created")
}

fn modern_task(engine: &mut Engine, capabilities: Value) -> String {
    create(engine, &modern_call("slow", capabilities), &Inbound::from_context(Some("s")))
}

fn legacy_task(engine: &mut Engine, session_capabilities: Option<&str>) -> String {
    let inbound = Inbound { context: Some("s"), client_capabilities: session_capabilities, ..Inbound::default() };
    create(engine, LEGACY_CALL, &inbound)
}

/// The capability `request_input` says is missing, or `None` when it was sent.
fn refused(engine: &mut Engine, task_id: &str, method: &str, params: &str) -> Option<&'static str> {
    match engine.request_input(task_id, method, Some(params)) {
        Ok(_) => None,
        Err(HostError::CapabilityNotDeclared { capability, .. }) => Some(capability),
        Err(e) => panic!("{method}: unexpected error {e:?}"),
    }
}

fn tasks_get(engine: &mut Engine, task_id: &str) -> Value {
    let get = json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {"taskId": task_id, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}}});
    serde_json::from_str(&engine.handle_message(&get.to_string(), Some("s")).unwrap()).unwrap()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_extension_task_asks_nothing_its_tools_call_did_not_declare() {
    let mut e = engine(false);
    let t = modern_task(&mut e, json!({}));
    let err = e.request_input(&t, "elicitation/create", Some(FORM)).unwrap_err();
    assert_eq!(err.code(), "capability_not_declared");
    assert_eq!(err.rpc_code(), -32021);
    assert_eq!(err.required_capabilities_json().as_deref(), Some(r#"{"elicitation":{"form":{}}}"#));
    let message = err.to_string();
    assert!(message.contains("'elicitation.form'") && message.contains("elicitation/create") && message.contains(&t), "{message}");
    // Nothing was sent and nothing changed: the task still works, with no inputRequests.
    let task = tasks_get(&mut e, &t);
    assert_eq!(task["result"]["status"], "working");
    assert!(task["result"].get("inputRequests").is_none(), "{task}");
    assert!(e.poll_output().is_none(), "no output for a refused request");
    assert_eq!(refused(&mut e, &t, "sampling/createMessage", SAMPLE), Some("sampling"));
    assert_eq!(refused(&mut e, &t, "roots/list", "{}"), Some("roots"));
    // A method no client capability governs is the host's business.
    assert_eq!(refused(&mut e, &t, "x/custom", "{}"), None);
    // The tool decides what the refusal means: here the task still completes.
    let mut e = engine(false);
    let t = modern_task(&mut e, json!({}));
    assert!(e.request_input(&t, "elicitation/create", Some(FORM)).is_err());
    assert_eq!(e.complete(&t, r#"{"content":[]}"#).unwrap().status, TaskStatus::Completed);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn modes_and_sub_capabilities_are_judged_separately() {
    let mut e = engine(false);
    // `elicitation: {}` is form only (the 2025-11-25 rule for clients that predate modes).
    let t = modern_task(&mut e, json!({"elicitation": {}}));
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), None);
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM_WITHOUT_MODE), None, "mode defaults to form");
    assert_eq!(refused(&mut e, &t, "elicitation/create", URL), Some("elicitation.url"));
    let task = tasks_get(&mut e, &t);
    assert_eq!(task["result"]["status"], "input_required");
    assert_eq!(task["result"]["inputRequests"].as_object().unwrap().len(), 2, "the two allowed requests only: {task}");

    let t = modern_task(&mut e, json!({"elicitation": {"url": {}}}));
    assert_eq!(refused(&mut e, &t, "elicitation/create", URL), None);
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), Some("elicitation.form"));

    let t = modern_task(&mut e, json!({"sampling": {}}));
    assert_eq!(refused(&mut e, &t, "sampling/createMessage", SAMPLE), None);
    assert_eq!(refused(&mut e, &t, "sampling/createMessage", SAMPLE_WITH_TOOLS), Some("sampling.tools"));
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), Some("elicitation.form"));

    let t = modern_task(&mut e, json!({"sampling": {"tools": {}}, "roots": {}, "elicitation": {"form": {}, "url": {}}}));
    for (method, params) in
        [("sampling/createMessage", SAMPLE_WITH_TOOLS), ("roots/list", "{}"), ("elicitation/create", URL), ("elicitation/create", FORM)]
    {
        assert_eq!(refused(&mut e, &t, method, params), None, "{method} {params}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn in_the_extension_the_request_declares_and_nothing_else_stands_in() {
    let mut e = engine(false);
    // A session-wide declaration passed by the host does not widen a 2026-07-28 request's own.
    let inbound = Inbound { context: Some("s"), client_capabilities: Some(r#"{"elicitation":{}}"#), ..Inbound::default() };
    let t = create(&mut e, &modern_call("slow", json!({})), &inbound);
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), Some("elicitation.form"));
    // A task the host starts from a forwarded call (start_task) is judged on that call.
    let forwarded = modern_call("decide", json!({}));
    assert!(e.handle_message(&forwarded, Inbound::from_context(Some("s"))).is_none(), "forwarded to the host");
    while e.poll_output().is_some() {}
    e.start_task(&forwarded, &mcp_task_core::Inbound::from_context(Some("s"))).unwrap();
    let Some(Output::Event(Event::Execute { task_id, .. })) = e.poll_output() else { panic!("an Execute") };
    assert_eq!(refused(&mut e, &task_id, "elicitation/create", FORM), Some("elicitation.form"));
    let declaring = modern_call("decide", json!({"elicitation": {}}));
    e.start_task(&declaring, &mcp_task_core::Inbound::from_context(Some("s"))).unwrap();
    let Some(Output::Event(Event::Execute { task_id, .. })) = e.poll_output() else { panic!("an Execute") };
    assert_eq!(refused(&mut e, &task_id, "elicitation/create", FORM), None);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_2025_task_is_judged_on_the_session_capabilities_the_host_passes() {
    let mut e = engine(false);
    let t = legacy_task(&mut e, Some(r#"{"elicitation":{},"roots":{"listChanged":true}}"#));
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), None);
    assert_eq!(refused(&mut e, &t, "roots/list", "{}"), None);
    let err = e.request_input(&t, "sampling/createMessage", Some(SAMPLE)).unwrap_err();
    assert_eq!(err.required_capabilities_json().as_deref(), Some(r#"{"sampling":{}}"#));

    let t = legacy_task(&mut e, Some("{}"));
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), Some("elicitation.form"));
    // Text that is not a capabilities object declares nothing.
    let t = legacy_task(&mut e, Some("not json"));
    assert_eq!(refused(&mut e, &t, "elicitation/create", FORM), Some("elicitation.form"));

    // No declaration passed: nothing to judge by, so the request goes out (the host, e.g. an
    // SDK that holds the session, checks its own sends).
    let t = legacy_task(&mut e, None);
    assert_eq!(refused(&mut e, &t, "elicitation/create", URL), None);
    assert_eq!(refused(&mut e, &t, "sampling/createMessage", SAMPLE_WITH_TOOLS), None);
}

/// The record `Persist` writes for `task_id` (storage mode).
fn persisted(engine: &mut Engine, task_id: &str) -> String {
    let mut record = None;
    while let Some(out) = engine.poll_output() {
        if let Output::Persist(p) = out {
            if p.task_id == task_id {
                record = p.record;
            }
        }
    }
    record.expect("a persisted record")
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_declaration_survives_a_restore_and_old_records_still_restore() {
    let mut a = engine(true);
    a.handle_message(&modern_call("slow", json!({})), Inbound::from_context(Some("s")));
    let bare = persisted(&mut a, "t1");
    a.handle_message(&modern_call("slow", json!({"elicitation": {"url": {}}})), Inbound::from_context(Some("s")));
    let url_only = persisted(&mut a, "t2");
    let session = Inbound { context: Some("s"), client_capabilities: Some(r#"{"sampling":{}}"#), ..Inbound::default() };
    a.handle_message(LEGACY_CALL, session);
    let legacy = persisted(&mut a, "t3");
    let stored = |record: &str| serde_json::from_str::<Value>(record).unwrap()["inputCapabilities"].clone();
    assert_eq!(stored(&bare), json!([]));
    assert_eq!(stored(&url_only), json!(["elicitation.url"]));
    assert_eq!(stored(&legacy), json!(["sampling"]));

    // Another instance restores the records and keeps refusing what was not declared.
    let mut b = engine(true);
    for record in [&bare, &url_only, &legacy] {
        b.storage().restore(record).unwrap();
    }
    assert_eq!(refused(&mut b, "t1", "elicitation/create", FORM), Some("elicitation.form"));
    assert_eq!(refused(&mut b, "t2", "elicitation/create", FORM), Some("elicitation.form"));
    assert_eq!(refused(&mut b, "t2", "elicitation/create", URL), None);
    assert_eq!(refused(&mut b, "t3", "elicitation/create", FORM), Some("elicitation.form"));
    assert_eq!(refused(&mut b, "t3", "sampling/createMessage", SAMPLE), None);
    // The record it writes next still carries the declaration.
    assert_eq!(stored(&b.storage().export_task("t1").unwrap()), json!([]));

    // A record written before declarations were kept (no field) restores, and is not judged;
    // names from a later version are skipped.
    let mut old: Value = serde_json::from_str(&bare).unwrap();
    old.as_object_mut().unwrap().remove("inputCapabilities");
    let mut c = engine(true);
    c.storage().restore(&old.to_string()).unwrap();
    assert_eq!(refused(&mut c, "t1", "elicitation/create", URL), None);
    assert!(c.storage().export_task("t1").unwrap().find("inputCapabilities").is_none());
    let mut later: Value = serde_json::from_str(&url_only).unwrap();
    later["inputCapabilities"] = json!(["elicitation.url", "tasks.someday"]);
    let mut d = engine(true);
    d.storage().restore(&later.to_string()).unwrap();
    assert_eq!(refused(&mut d, "t2", "elicitation/create", URL), None);
    assert_eq!(refused(&mut d, "t2", "roots/list", "{}"), Some("roots"));
}
