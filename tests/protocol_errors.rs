//! Every error a peer can provoke: the JSON-RPC code the spec names, a
//! message a person can act on, and no change to any stored task.

mod common;
use common::*;
use mcp_task_core::{Capabilities, Config, Event, Output, TaskSupport};
use serde_json::json;

const A: Option<&str> = Some("a");

/// A fingerprint of everything A can observe, to prove nothing changed.
fn observe(rig: &mut Rig, ids: &[String]) -> Vec<serde_json::Value> {
    ids.iter().map(|id| rig.get(A, id)["result"].clone()).collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn malformed_messages_get_the_spec_codes_and_change_nothing() {
    let mut rig = Rig::server();
    let ids = vec![rig.start(A), rig.start(A)];
    rig.engine.complete(&ids[1], r#"{"content":[]}"#).unwrap();
    rig.drain();
    let before = observe(&mut rig, &ids);
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    let cases: Vec<(String, i64, &str)> = vec![
        ("{not json".into(), -32700, "Parse error"),
        ("".into(), -32700, "Parse error"),
        ("\u{0}\u{1}\u{2}".into(), -32700, "Parse error"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get"} trailing"#.into(), -32700, "Parse error"),
        ("42".into(), -32600, "expected a JSON object"),
        ("\"tasks/get\"".into(), -32600, "expected a JSON object"),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"tasks/get"}]"#.into(), -32600, "Batches are not supported"),
        (r#"{"id":1,"method":"tasks/get","params":{"taskId":"x"}}"#.into(), -32600, "\"jsonrpc\" must be \"2.0\""),
        (r#"{"jsonrpc":"1.0","id":1,"method":"tasks/get"}"#.into(), -32600, "\"jsonrpc\" must be \"2.0\""),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"tasks/get"}"#.into(), -32600, "\"id\" must be a string or an integer"),
        (r#"{"jsonrpc":"2.0","id":null,"method":"tasks/get"}"#.into(), -32600, "\"id\" must be a string or an integer"),
        (r#"{"jsonrpc":"2.0","id":1,"method":7}"#.into(), -32600, "\"method\" must be a string"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":"x"}"#.into(), -32600, "\"params\" must be an object"),
        (r#"{"jsonrpc":"2.0","id":1}"#.into(), -32600, "expected a request"),
        (r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tasks/get"}"#.into(), -32600, "duplicate field"),
        (deep, -32600, "nested too deeply"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get"}"#.into(), -32602, "requires params.taskId"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}}"#.into(), -32602, "requires params.taskId"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":5}}"#.into(), -32602, "params.taskId must be a string"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":[1]}"#.into(), -32602, "params must be an object"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":null}}"#.into(), -32602, "params.taskId must be a string"),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"taskId":"nope"}}"#.into(),
            -32602,
            "Failed to cancel task: Task not found",
        ),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{"cursor":7}}"#.into(), -32602, "cursor must be a string"),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{"cursor":"0000000000000001ffffffffffffffff"}}"#.into(),
            -32602,
            "cursor is not valid",
        ),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"task":{}}}"#.into(), -32602, "requires params.name"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":-5}}}"#.into(), -32602, "params.task.ttl"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":2.5}}}"#.into(), -32602, "params.task.ttl"),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":"60s"}}}"#.into(),
            -32602,
            "params.task.ttl",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":[]}}"#.into(),
            -32602,
            "params.task must be an object",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{},"_meta":{"progressToken":{}}}}"#.into(),
            -32602,
            "progressToken",
        ),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}"#.into(), -32601, "requires task-augmented execution"),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"never","task":{}}}"#.into(),
            -32601,
            "does not support task-augmented",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"unregistered","task":{}}}"#.into(),
            -32601,
            "does not support task-augmented",
        ),
    ];
    for (text, code, needle) in &cases {
        let reply = rig.raw(text, A).unwrap_or_else(|| panic!("no reply to {text:.80}"));
        assert_eq!(error_code(&reply), *code, "{text:.80} -> {reply}");
        assert!(error_message(&reply).contains(needle), "{text:.80}: message {:?} lacks {needle:?}", error_message(&reply));
        if *code != -32700 && text.starts_with(r#"{"jsonrpc":"2.0","id":1,"#) && !text.contains(r#""id":1,"id""#) {
            assert_eq!(reply["id"], 1, "answers the request id when it could be read: {text:.80}");
        }
    }
    assert!(rig.drain().is_empty(), "no outputs from bad input");
    assert_eq!(observe(&mut rig, &ids), before, "no stored task changed");
    assert_eq!(rig.engine.task_count(), 2);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn garbage_never_panics() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let alphabet = br#"{}[]":,0123456789.-+eE truefalsnul\u"#;
    let templates = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"task-1"}}"#,
        r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"slow","task":{"ttl":5}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/list","params":{"cursor":"abc"}}"#,
    ];
    for i in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut bytes = templates[i % templates.len()].as_bytes().to_vec();
        for k in 0..(1 + seed % 4) {
            let pos = ((seed >> (8 * k)) as usize) % bytes.len();
            bytes[pos] = alphabet[((seed >> (16 + k)) as usize) % alphabet.len()];
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = rig.engine.handle_message(&text, A);
        let _ = rig.engine.poll_output();
        rig.engine.complete(&id, &text).ok();
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn size_limit_is_enforced_before_parsing() {
    let mut config = Config::default();
    config.limits.max_message_bytes = 128;
    let mut rig = Rig::new(config);
    let big = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{{"taskId":"{}"}}}}"#, "x".repeat(200));
    let reply = rig.raw(&big, A).unwrap();
    assert_eq!(error_code(&reply), -32600);
    assert!(error_message(&reply).contains("too large"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn undeclared_request_types_run_as_plain_requests() {
    // A client that declared only elicitation tasks.
    let caps = Capabilities { elicitation_create: true, ..Default::default() };
    let mut rig = Rig::new(Config { capabilities: caps, ..Default::default() });
    let text = r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"task":{"ttl":1000}}}"#;
    assert!(rig.raw(text, A).is_none(), "no CreateTaskResult");
    let outs = rig.drain();
    assert!(matches!(&outs[..], [Output::Event(Event::Forward { message, .. })] if message == text), "{outs:?}");
    assert_eq!(rig.engine.task_count(), 0);
    // ...while the declared one becomes a task.
    let reply = rig
        .ask(
            A,
            "elicitation/create",
            json!({"message":"ok?","requestedSchema":{"type":"object","properties":{}},"task":{}}),
            "CreateTaskResult",
        )
        .unwrap();
    assert_eq!(reply["result"]["task"]["status"], "working");
    let outs = rig.drain();
    assert!(matches!(&outs[..], [Output::Event(Event::Execute { kind: mcp_task_core::RequestKind::ElicitationCreate, .. })]));
    // A server-side engine with no tools.call capability forwards tools/call too.
    let mut rig = Rig::new(Config { capabilities: Capabilities::client(), ..Default::default() });
    assert!(rig.raw(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{}}}"#, A).is_none());
    assert!(matches!(&rig.drain()[..], [Output::Event(Event::Forward { .. })]));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn tool_level_negotiation() {
    let mut rig = Rig::server();
    // optional: both ways.
    let r = rig.call_tool_task(A, "maybe", json!({}));
    assert_eq!(r["result"]["task"]["status"], "working");
    rig.drain();
    let plain = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"maybe"}}"#;
    assert!(rig.raw(plain, A).is_none());
    assert!(matches!(&rig.drain()[..], [Output::Event(Event::Forward { .. })]));
    // forbidden / absent without task: plain.
    for tool in ["never", "plain"] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{{"name":"{tool}"}}}}"#);
        assert!(rig.raw(&text, A).is_none());
        assert!(matches!(&rig.drain()[..], [Output::Event(Event::Forward { .. })]));
    }
    // Registering again changes the answer.
    rig.engine.register_tool("never", TaskSupport::Optional);
    assert_eq!(rig.call_tool_task(A, "never", json!({}))["result"]["task"]["status"], "working");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn other_messages_are_forwarded_untouched() {
    let mut rig = Rig::server();
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":77,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":"zz","error":{"code":1,"message":"x"}}"#,
    ] {
        assert!(rig.raw(text, A).is_none());
        let outs = rig.drain();
        assert!(matches!(&outs[..], [Output::Event(Event::Forward { message, context })] if message == text && context.as_deref() == A));
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn list_and_cancel_follow_the_declared_capabilities() {
    let caps = Capabilities { tools_call: true, ..Default::default() };
    let mut rig = Rig::new(Config { capabilities: caps, ..Default::default() });
    rig.engine.register_tool("slow", TaskSupport::Required);
    assert_eq!(rig.engine.capabilities_json(A), r#"{"requests":{"tools":{"call":{}}}}"#);
    let id = rig.start(A);
    let reply = rig.ask(A, "tasks/cancel", json!({"taskId": id}), "CancelTaskResult").unwrap();
    assert_eq!(error_code(&reply), -32601);
    let reply = rig.ask(A, "tasks/list", json!({}), "ListTasksResult").unwrap();
    assert_eq!(error_code(&reply), -32601);
    assert_eq!(rig.status(A, &id), "working");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn limits_refuse_without_changing_anything() {
    let mut config = Config::default();
    config.limits.max_running_tasks_per_key = 2;
    config.limits.max_running_tasks_total = 3;
    config.limits.max_result_bytes = 64;
    config.limits.max_queued_messages_per_task = 2;
    config.limits.max_waiters_per_task = 1;
    let mut rig = Rig::new(config);
    rig.engine.register_tool("slow", TaskSupport::Required);
    let a1 = rig.start(A);
    let _a2 = rig.start(A);
    let r = rig.call_tool_task(A, "slow", json!({}));
    assert_eq!(error_code(&r), -32000);
    assert!(error_message(&r).contains("limit 2"), "{}", error_message(&r));
    let _b1 = rig.start(Some("b"));
    let r = rig.call_tool_task(Some("c"), "slow", json!({}));
    assert_eq!(error_code(&r), -32000);
    assert!(error_message(&r).contains("maximum of 3"));
    assert_eq!(rig.engine.task_count(), 3);
    assert!(rig.drain().is_empty(), "no Execute for refused tasks");

    let big = format!(r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#, "x".repeat(100));
    let e = rig.engine.complete(&a1, &big).unwrap_err();
    assert_eq!(e.code(), "limit_exceeded");
    assert_eq!(rig.status(A, &a1), "working");

    let params = Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#);
    rig.engine.request_input(&a1, "elicitation/create", params).unwrap();
    rig.engine.request_input(&a1, "elicitation/create", params).unwrap();
    let e = rig.engine.request_input(&a1, "elicitation/create", params).unwrap_err();
    assert_eq!(e.code(), "limit_exceeded");
    rig.drain();

    assert!(rig.ask(A, "tasks/result", json!({"taskId": a1}), "CallToolResult").is_none());
    let r = rig.ask(A, "tasks/result", json!({"taskId": a1}), "CallToolResult").unwrap();
    assert_eq!(error_code(&r), -32000);
    assert!(error_message(&r).contains("waiting"));
}
