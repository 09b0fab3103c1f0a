//! The host's side: every legal and illegal transition, progress, side-channel
//! requests, TTL policy, IDs and time.

mod common;
use common::*;
use mcp_task_core::{Config, Engine, Event, ManualClock, Outcome, Output, RequestKind, TaskStatus, TaskSupport, TtlPolicy, TtlRequest};
use serde_json::{json, Value};

const A: Option<&str> = Some("a");
const ELICIT: Option<&str> = Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#);

fn statuses_sent(rig: &mut Rig) -> Vec<String> {
    rig.sent()
        .into_iter()
        .filter(|m| m.2["method"] == "notifications/tasks/status")
        .map(|m| m.2["params"]["status"].as_str().unwrap().to_owned())
        .collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_legal_transition_notifies_with_the_full_task() {
    let mut rig = Rig::server();
    // working -> input_required -> working -> completed
    let t = rig.start(A);
    rig.engine.request_input(&t, "elicitation/create", ELICIT).unwrap();
    rig.engine.resume(&t).unwrap();
    rig.engine.complete(&t, r#"{"content":[]}"#).unwrap();
    assert_eq!(statuses_sent(&mut rig), ["input_required", "working", "completed"]);
    // working -> failed (JSON-RPC error), working -> cancelled
    let t = rig.start(A);
    rig.engine.fail(&t, r#"{"code":-32603,"message":"boom"}"#).unwrap();
    assert_eq!(statuses_sent(&mut rig), ["failed"]);
    let t = rig.start(A);
    rig.engine.cancel(&t, Some("user gave up")).unwrap();
    assert_eq!(rig.get(A, &t)["result"]["statusMessage"], "user gave up");
    assert_eq!(statuses_sent(&mut rig), ["cancelled"]);
    // input_required -> completed / failed / cancelled
    for end in ["completed", "failed", "cancelled"] {
        let t = rig.start(A);
        rig.engine.request_input(&t, "elicitation/create", ELICIT).unwrap();
        match end {
            "completed" => rig.engine.complete(&t, r#"{"content":[]}"#).map(|_| ()),
            "failed" => rig.engine.fail(&t, r#"{"code":1,"message":"no"}"#).map(|_| ()),
            _ => rig.engine.cancel(&t, None).map(|_| ()),
        }
        .unwrap();
        assert_eq!(statuses_sent(&mut rig), ["input_required", end]);
        assert_eq!(rig.status(A, &t), end);
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn illegal_transitions_are_refused_and_terminal_states_never_change() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    let e = rig.engine.resume(&t).unwrap_err();
    assert_eq!(e.code(), "illegal_transition", "working -> working");
    rig.engine.complete(&t, r#"{"content":[{"type":"text","text":"first"}]}"#).unwrap();
    rig.drain();
    for attempt in [
        rig.engine.complete(&t, r#"{"content":[{"type":"text","text":"second"}]}"#).map(|_| ()),
        rig.engine.fail(&t, r#"{"code":1,"message":"x"}"#).map(|_| ()),
        rig.engine.resume(&t).map(|_| ()),
        rig.engine.cancel(&t, None).map(|_| ()),
        rig.engine.set_status_message(&t, Some("x")).map(|_| ()),
        rig.engine.request_input(&t, "elicitation/create", ELICIT).map(|_| ()),
        rig.engine.report_progress(&t, 1.0, None, None).map(|_| ()),
    ] {
        let e = attempt.unwrap_err();
        assert_eq!(e.code(), "already_terminal");
        assert!(e.to_string().contains("terminal status 'completed'"), "{e}");
    }
    assert!(rig.drain().is_empty());
    let r = rig.ask(A, "tasks/result", json!({"taskId": t}), "CallToolResult").unwrap();
    assert_eq!(r["result"]["content"][0]["text"], "first", "the result is stored once");
    assert_eq!(rig.engine.complete("nope", "{}").unwrap_err().code(), "unknown_task");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn outcomes_are_checked() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    for bad in ["", "[]", "3", "{", r#"{"_meta":5}"#] {
        assert_eq!(rig.engine.complete(&t, bad).unwrap_err().code(), "invalid_argument", "{bad:?}");
    }
    for bad in ["{}", r#"{"code":"1","message":"x"}"#, r#"{"code":1}"#, r#"{"code":1.5,"message":"x"}"#, "null"] {
        assert_eq!(rig.engine.fail(&t, bad).unwrap_err().code(), "invalid_argument", "{bad:?}");
    }
    assert_eq!(rig.status(A, &t), "working");
    // isError only fails tool calls; other kinds complete.
    let mut client = Rig::new(Config { capabilities: mcp_task_core::Capabilities::client(), ..Default::default() }).engine;
    let task = client.sdk_store().create_task(A, RequestKind::SamplingCreateMessage, TtlRequest::Default, None, None).unwrap();
    let done =
        client.complete(&task.task_id, r#"{"isError":true,"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}"#).unwrap();
    assert_eq!(done.status, TaskStatus::Completed);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn result_meta_is_merged_not_clobbered() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    rig.engine.complete(&t, r#"{"_meta":{"trace":"abc","io.modelcontextprotocol/related-task":{"taskId":"wrong"}},"content":[]}"#).unwrap();
    let r = rig.ask(A, "tasks/result", json!({"taskId": t}), "CallToolResult").unwrap();
    assert_eq!(r["result"]["_meta"]["trace"], "abc");
    assert_eq!(r["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], t);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn several_waiters_all_get_the_answer_and_a_cancelled_wait_is_dropped() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    for _ in 0..3 {
        assert!(rig.ask(A, "tasks/result", json!({"taskId": t}), "CallToolResult").is_none());
    }
    // The requestor abandons the second one (id 3 in this rig's numbering).
    let waiting_ids = [2, 3, 4];
    let cancel = json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId": waiting_ids[1]}});
    assert!(rig.raw(&cancel.to_string(), A).is_none());
    rig.drain();
    rig.engine.complete(&t, r#"{"content":[]}"#).unwrap();
    let answered: Vec<Value> = rig.sent().into_iter().filter(|m| m.2.get("result").is_some()).map(|m| m.2["id"].clone()).collect();
    assert_eq!(answered, vec![json!(2), json!(4)]);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn side_channel_requests_wait_for_a_result_stream_and_all_must_be_answered() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    let r1 = rig.engine.request_input(&t, "elicitation/create", ELICIT).unwrap();
    let r2 = rig.engine.request_input(&t, "elicitation/create", ELICIT).unwrap();
    assert_ne!(r1, r2);
    assert_eq!(statuses_sent(&mut rig), ["input_required"], "one transition for two requests");
    rig.ask(A, "tasks/result", json!({"taskId": t}), "CallToolResult");
    let delivered: Vec<Value> = rig.sent().into_iter().map(|m| m.2).collect();
    assert_eq!(delivered.len(), 2);
    let answer = |id: &Value| json!({"jsonrpc":"2.0","id": id, "result": {"action":"cancel"}}).to_string();
    rig.raw(&answer(&delivered[0]["id"]), A);
    assert_eq!(rig.status(A, &t), "input_required", "one request still unanswered");
    rig.raw(&answer(&delivered[1]["id"]), A);
    let outs = rig.drain();
    let responses = outs.iter().filter(|o| matches!(o, Output::Event(Event::InputResponse { .. }))).count();
    assert_eq!(responses, 2);
    assert_eq!(rig.status(A, &t), "working");
    // A second answer to the same request is not the task's any more.
    rig.raw(&answer(&delivered[1]["id"]), A);
    assert!(matches!(&rig.drain()[..], [Output::Event(Event::Forward { .. })]));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn progress_uses_the_original_token_until_terminal() {
    let mut rig = Rig::server();
    let reply = rig.ask(A, "tools/call", json!({"name":"slow","task":{},"_meta":{"progressToken":"p-1"}}), "CreateTaskResult").unwrap();
    let t = reply["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    rig.drain();
    assert!(rig.engine.report_progress(&t, 3.0, Some(10.0), Some("3 of 10")).unwrap());
    assert!(rig.engine.report_progress(&t, 3.5, None, None).unwrap());
    let sent = rig.sent();
    assert_eq!(
        sent[0].2["params"],
        json!({"progressToken":"p-1","progress":3,"total":10,"message":"3 of 10",
        "_meta":{"io.modelcontextprotocol/related-task":{"taskId": t}}})
    );
    assert_eq!(sent[1].2["params"]["progress"], 3.5);
    assert_eq!(rig.engine.report_progress(&t, f64::NAN, None, None).unwrap_err().code(), "invalid_argument");
    rig.engine.complete(&t, r#"{"content":[]}"#).unwrap();
    assert_eq!(rig.engine.report_progress(&t, 4.0, None, None).unwrap_err().code(), "already_terminal");
    // No token: nobody to tell.
    let t2 = rig.start(A);
    assert!(!rig.engine.report_progress(&t2, 1.0, None, None).unwrap());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn status_message_changes_are_visible() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    rig.clock.advance(250);
    rig.engine.set_status_message(&t, Some("Half way")).unwrap();
    let sent = rig.sent();
    assert_eq!(sent[0].2["params"]["statusMessage"], "Half way");
    let got = rig.get(A, &t);
    assert_eq!(got["result"]["statusMessage"], "Half way");
    assert_eq!(got["result"]["lastUpdatedAt"], "2025-11-25T10:30:00.250Z");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn ttl_policy_clamps_defaults_and_limits_unlimited() {
    let policy = TtlPolicy { default_ms: 30_000, max_ms: 120_000, allow_unlimited: false };
    let mut rig = Rig::new(Config { ttl: policy.clone(), model_immediate_response: Some("Working on it.".into()), ..Default::default() });
    rig.engine.register_tool("slow", TaskSupport::Required);
    let ttl = |rig: &mut Rig, task: Value| rig.call_tool_task(A, "slow", task)["result"]["task"]["ttl"].clone();
    assert_eq!(ttl(&mut rig, json!({})), 30_000);
    assert_eq!(ttl(&mut rig, json!({"ttl": 5_000})), 5_000);
    assert_eq!(ttl(&mut rig, json!({"ttl": 9_999_999})), 120_000);
    assert_eq!(ttl(&mut rig, json!({"ttl": null})), 120_000, "unlimited not allowed: clamped to the maximum");
    let r = rig.call_tool_task(A, "slow", json!({}));
    assert_eq!(r["result"]["_meta"]["io.modelcontextprotocol/model-immediate-response"], "Working on it.");

    let mut rig = Rig::new(Config { ttl: TtlPolicy { allow_unlimited: true, ..policy }, ..Default::default() });
    rig.engine.register_tool("slow", TaskSupport::Required);
    let r = rig.call_tool_task(A, "slow", json!({"ttl": null}));
    assert_eq!(r["result"]["task"]["ttl"], Value::Null);
    assert!(r["result"].get("_meta").is_none());
    assert_eq!(rig.engine.next_deadline(), None, "unlimited tasks have no deadline");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn ids_from_the_host_never_overwrite() {
    let clock = ManualClock::new(T0);
    let mut calls = 0;
    let ids = move || {
        calls += 1;
        if calls <= 2 {
            "same".to_owned()
        } else {
            String::new()
        }
    };
    let mut engine = Engine::with_sources(Config::default(), Box::new(clock), Box::new(ids));
    let first = engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    engine.complete(&first.task_id, r#"{"content":[]}"#).unwrap();
    let e = engine.sdk_store().create_task(Some("b"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap_err();
    assert_eq!(e.code(), "duplicate_id");
    assert_eq!(
        engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap_err().code(),
        "duplicate_id"
    );
    assert_eq!(engine.sdk_store().get_task("same", A).unwrap().status, TaskStatus::Completed, "the first task is untouched");
    assert_eq!(engine.task_count(), 1);
    // Over the wire the same refusal is an internal error, and nothing is created.
    while engine.poll_output().is_some() {}
    engine.register_tool("t", TaskSupport::Optional);
    let reply = engine.handle_message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{}}}"#, A).unwrap();
    assert!(reply.contains("-32603"), "{reply}");
    assert_eq!(engine.poll_output(), None);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn time_going_backwards_is_clamped() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    rig.clock.advance(10_000);
    rig.engine.set_status_message(&t, Some("a")).unwrap();
    rig.clock.set(T0 - 1_000_000);
    rig.engine.set_status_message(&t, Some("b")).unwrap();
    let got = rig.get(A, &t);
    assert_eq!(got["result"]["lastUpdatedAt"], "2025-11-25T10:30:10.000Z", "never earlier than before");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn status_notifications_can_be_turned_off() {
    let mut rig = Rig::new(Config { status_notifications: false, ..Default::default() });
    rig.engine.register_tool("slow", TaskSupport::Required);
    let t = rig.start(A);
    rig.engine.complete(&t, r#"{"content":[]}"#).unwrap();
    assert!(rig.drain().is_empty());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn store_api_matches_the_wire() {
    let mut rig = Rig::server();
    let task = rig.engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Ms(1_000), Some("7"), None).unwrap();
    assert!(rig.drain().is_empty(), "no Execute: the host runs it");
    assert_eq!(rig.engine.sdk_store().get_task(&task.task_id, A), Some(task.clone()));
    assert_eq!(rig.engine.sdk_store().get_task(&task.task_id, Some("b")), None);
    let wire: Value = serde_json::from_str(&rig.engine.sdk_store().get_task(&task.task_id, A).map(|t| t.to_json()).unwrap()).unwrap();
    assert_eq!(wire, rig.get(A, &task.task_id)["result"]);
    assert!(rig.engine.report_progress(&task.task_id, 1.0, None, None).unwrap(), "token 7 kept");
    let page = rig.engine.sdk_store().list_tasks(A, None).unwrap();
    assert_eq!(page.tasks, vec![rig.engine.sdk_store().get_task(&task.task_id, A).unwrap()]);
    assert_eq!(rig.engine.sdk_store().list_tasks(None, None).unwrap_err().code(), "list_unavailable");
    assert_eq!(rig.engine.sdk_store().list_tasks(A, Some("bogus")).unwrap_err().code(), "invalid_cursor");
    rig.engine.sdk_store().cancel_task(&task.task_id, A, None).unwrap();
    assert_eq!(rig.engine.sdk_store().cancel_task(&task.task_id, A, None).unwrap_err().code(), "task_cancelled");
    assert_eq!(rig.engine.sdk_store().get_task_result(&task.task_id, A).ok().cloned(), None);
    rig.clock.advance(1_000);
    assert_eq!(rig.engine.sdk_store().get_task(&task.task_id, A), None, "expired");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn store_level_status_updates() {
    let mut rig = Rig::server();
    let t = rig.engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap().task_id;
    let status = |rig: &mut Rig| rig.engine.sdk_store().get_task(&t, A).unwrap();
    rig.engine.sdk_store().update_task_status(&t, A, "input_required", Some("need input")).unwrap();
    assert_eq!(status(&mut rig).status, TaskStatus::InputRequired);
    rig.engine.sdk_store().update_task_status(&t, A, "working", None).unwrap();
    assert_eq!(status(&mut rig).status_message.as_deref(), Some("need input"), "a move without a message keeps the current one");
    let working = Outcome::Result("{}".into());
    assert_eq!(rig.engine.sdk_store().store_task_result(&t, A, "working", working).unwrap_err().code, "invalid_argument");
    let result = Outcome::Result(r#"{"content":[],"isError":false}"#.into());
    rig.engine.sdk_store().store_task_result(&t, A, "failed", result).unwrap();
    assert_eq!(status(&mut rig).status, TaskStatus::Failed, "the host's status wins");
    assert_eq!(statuses_sent(&mut rig), ["input_required", "working", "failed"]);
    assert_eq!(rig.engine.sdk_store().update_task_status(&t, A, "cancelled", None).unwrap_err().code, "already_terminal");
    let t2 = rig.engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap().task_id;
    rig.engine.sdk_store().update_task_status(&t2, A, "cancelled", Some("stop")).unwrap();
    let outs = rig.drain();
    assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::Cancelled { .. }))));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn task_context_sees_every_context_but_not_expired_tasks() {
    let mut rig = Rig::server();
    let t = rig.engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Ms(100), None, None).unwrap().task_id;
    assert!(rig.engine.sdk_store().task_context(&t).is_some());
    assert!(rig.engine.sdk_store().get_task(&t, Some("other")).is_none(), "a peer of another context still sees nothing");
    assert!(rig.engine.sdk_store().task_context("nope").is_none());
    rig.clock.advance(100);
    assert!(rig.engine.sdk_store().task_context(&t).is_none());
}
