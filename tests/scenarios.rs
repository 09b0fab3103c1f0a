//! Full JSON-RPC exchanges with the receiver engine, every emitted message
//! checked against the official schema.

mod common;
use common::*;
use mcp_task_core::{Event, Output, RawId};
use serde_json::{json, Value};

const A: Option<&str> = Some("session-a");
const B: Option<&str> = Some("session-b");

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn lifecycle_with_elicitation_round_trip() {
    let mut rig = Rig::server();
    let reply = rig.call_tool_task(A, "slow", json!({"ttl": 60_000}));
    let task = &reply["result"]["task"];
    assert_eq!(task["status"], "working");
    assert_eq!(task["createdAt"], "2025-11-25T10:30:00.000Z");
    assert_eq!(task["createdAt"], task["lastUpdatedAt"]);
    assert_eq!(task["ttl"], 60_000);
    assert_eq!(task["pollInterval"], 1_000);
    let id = task["taskId"].as_str().unwrap().to_owned();
    let outs = rig.drain();
    let Output::Event(Event::Execute { task_id, context, request, .. }) = &outs[0] else { panic!("{outs:?}") };
    assert_eq!((task_id.as_str(), context.as_deref()), (id.as_str(), A));
    assert!(request.contains("\"name\":\"slow\""), "the host gets the original request");

    rig.clock.advance(1_000);
    assert_eq!(rig.status(A, &id), "working");

    // The tool needs the user: an elicitation is queued and the task waits for input.
    let elicit = rig
        .engine
        .request_input(
            &id,
            "elicitation/create",
            Some(r#"{"message":"Which city?","requestedSchema":{"type":"object","properties":{"city":{"type":"string"}}}}"#),
        )
        .unwrap();
    let notes = rig.sent();
    assert_eq!(notes.len(), 1, "only the status notification: the request waits for tasks/result");
    assert_eq!(notes[0].2["params"]["status"], "input_required");
    assert_eq!(rig.status(A, &id), "input_required");

    // The requestor opens tasks/result: the elicitation travels on it, with related-task _meta.
    let waiting = rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult");
    assert!(waiting.is_none(), "tasks/result blocks while the task is not terminal");
    let sent = rig.sent();
    assert_eq!(sent.len(), 1);
    let (ctx, on, request) = &sent[0];
    assert_eq!(ctx.as_deref(), A);
    assert!(on.is_some(), "rides on the waiting tasks/result");
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);
    assert_eq!(request["id"].to_string(), elicit);

    // The answer goes back to the host and the task returns to working.
    let answer = json!({"jsonrpc":"2.0","id": request["id"], "result": {"action":"accept","content":{"city":"Paris"},
        "_meta": {"io.modelcontextprotocol/related-task": {"taskId": id}}}});
    assert!(rig.raw(&answer.to_string(), A).is_none());
    let outs = rig.drain();
    assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::InputResponse { task_id, response, .. })
        if *task_id == id && response.contains("Paris"))));
    assert!(outs.iter().any(|o| matches!(o, Output::Send(t) if t.message.contains("\"status\":\"working\""))));
    assert_eq!(rig.status(A, &id), "working");

    // Completion answers the waiting tasks/result with the exact result plus related-task _meta.
    rig.clock.advance(500);
    rig.engine.complete(&id, r#"{"content":[{"type":"text","text":"Sunny in Paris"}],"isError":false}"#).unwrap();
    let sent = rig.sent();
    let status = sent.iter().find(|m| m.2["method"] == "notifications/tasks/status").unwrap();
    assert_eq!(status.2["params"]["status"], "completed");
    let payload = sent.iter().find(|m| m.2.get("result").is_some()).expect("the deferred response");
    let on: Value = serde_json::from_str(payload.1.as_ref().map(RawId::as_str).unwrap()).unwrap();
    assert_eq!(payload.2["id"], on, "answers the waiting tasks/result");
    assert_eq!(payload.2["result"]["content"][0]["text"], "Sunny in Paris");
    assert_eq!(payload.2["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);

    let got = rig.get(A, &id);
    assert_eq!(got["result"]["status"], "completed");
    assert_eq!(got["result"]["lastUpdatedAt"], "2025-11-25T10:30:01.500Z");
    assert!(got["result"].get("_meta").is_none(), "tasks/get carries no related-task _meta");

    // A later tasks/result gets the same payload at once.
    let again = rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult").unwrap();
    assert_eq!(again["result"]["content"][0]["text"], "Sunny in Paris");
    assert_eq!(again["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn failure_replays_the_same_json_rpc_error() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult");
    let error = r#"{"code":-32050,"message":"Upstream API rate limit exceeded","data":{"retryAfter":30}}"#;
    rig.engine.fail(&id, error).unwrap();
    let sent = rig.sent();
    let deferred = sent.iter().find(|m| m.2.get("error").is_some()).expect("waiter answered");
    assert_eq!(deferred.2["error"], serde_json::from_str::<Value>(error).unwrap());
    let task = rig.get(A, &id);
    assert_eq!(task["result"]["status"], "failed");
    assert_eq!(task["result"]["statusMessage"], "Upstream API rate limit exceeded");
    // And again later, identical.
    let later = rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult").unwrap();
    assert_eq!(later["error"], serde_json::from_str::<Value>(error).unwrap());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn tool_error_result_fails_the_task_and_is_returned_as_is() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    let result = r#"{"content":[{"type":"text","text":"disk full"}],"isError":true}"#;
    rig.engine.complete(&id, result).unwrap();
    rig.drain();
    assert_eq!(rig.status(A, &id), "failed");
    let sent = rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult").unwrap();
    assert_eq!(sent["result"]["isError"], true);
    assert_eq!(sent["result"]["content"][0]["text"], "disk full");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cancel_stops_work_answers_waiters_and_sticks() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult");
    let reply = rig.ask(A, "tasks/cancel", json!({"taskId": id}), "CancelTaskResult").unwrap();
    assert_eq!(reply["result"]["status"], "cancelled", "cancelled before the response");
    assert!(reply["result"].get("_meta").is_none());
    let outs = rig.drain();
    assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::Cancelled { task_id, .. }) if *task_id == id)));
    assert!(outs
        .iter()
        .any(|o| matches!(o, Output::Send(t) if t.message.contains("notifications/tasks/status") && t.message.contains("cancelled"))));
    assert!(outs.iter().any(|o| matches!(o, Output::Send(t) if t.in_reply_to.is_some() && t.message.contains("was cancelled"))));

    // The work finishing later changes nothing, and the host is told.
    let late = rig.engine.complete(&id, r#"{"content":[]}"#).unwrap_err();
    assert_eq!(late.code(), "task_cancelled");
    assert_eq!(rig.status(A, &id), "cancelled");
    let again = rig.ask(A, "tasks/cancel", json!({"taskId": id}), "CancelTaskResult").unwrap();
    assert_eq!(error_code(&again), -32602);
    assert_eq!(error_message(&again), "Cannot cancel task: already in terminal status 'cancelled'");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn ttl_expiry_with_a_test_clock() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult");
    assert_eq!(rig.engine.next_deadline(), Some(T0 + 60_000));
    rig.clock.advance(59_999);
    rig.engine.handle_timeout();
    assert_eq!(rig.status(A, &id), "working");
    rig.clock.advance(1);
    rig.engine.handle_timeout();
    let outs = rig.drain();
    assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::Expired { task_id, was_terminal: false, .. }) if *task_id == id)));
    assert!(outs.iter().any(|o| matches!(o, Output::Send(t) if t.message.contains("Task has expired"))), "the waiter hears it");
    let reply = rig.get(A, &id);
    assert_eq!(error_code(&reply), -32602);
    assert_eq!(error_message(&reply), "Failed to retrieve task: Task has expired");
    assert_eq!(rig.engine.next_deadline(), None);
    rig.engine.handle_timeout(); // twice is harmless
    assert_eq!(rig.engine.complete(&id, "{}").unwrap_err().code(), "unknown_task");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn expiry_does_not_wait_for_the_host_timer() {
    let mut rig = Rig::server();
    let reply = rig.call_tool_task(A, "slow", json!({"ttl": 0}));
    assert_eq!(reply["result"]["task"]["ttl"], 0, "ttl 0 is granted as a real TTL");
    let id = reply["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    let reply = rig.get(A, &id);
    assert_eq!(error_message(&reply), "Failed to retrieve task: Task has expired");
}

fn list_ids(rig: &mut Rig, ctx: Option<&str>, cursor: Option<&str>) -> (Vec<String>, Option<String>) {
    let params = match cursor {
        Some(c) => json!({"cursor": c}),
        None => json!({}),
    };
    let reply = rig.ask(ctx, "tasks/list", params, "ListTasksResult").unwrap();
    let ids = reply["result"]["tasks"].as_array().unwrap().iter().map(|t| t["taskId"].as_str().unwrap().to_owned()).collect();
    (ids, reply["result"]["nextCursor"].as_str().map(str::to_owned))
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn pagination_across_pages_while_tasks_come_and_go() {
    let mut rig = Rig::new(mcp_task_core::Config { page_size: 3, cursor_key: Some([2; 16]), ..Default::default() });
    rig.engine.register_tool("slow", mcp_task_core::TaskSupport::Required);
    let ids: Vec<String> = (0..8).map(|_| rig.start(A)).collect();
    let (page1, c1) = list_ids(&mut rig, A, None);
    assert_eq!(page1, ids[0..3]);
    // Remove a task already shown and one not yet shown; add new ones.
    rig.engine.cancel(&ids[1], None).unwrap();
    let _ = rig.drain();
    rig.clock.advance(10);
    let short = rig.call_tool_task(A, "slow", json!({"ttl": 5}));
    let short_id = short["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    rig.clock.advance(5); // the short task expires
    let late = rig.start(A);
    let (page2, c2) = list_ids(&mut rig, A, c1.as_deref());
    assert_eq!(page2, ids[3..6]);
    let (page3, c3) = list_ids(&mut rig, A, c2.as_deref());
    assert_eq!(page3, vec![ids[6].clone(), ids[7].clone(), late.clone()]);
    assert!(!page3.contains(&short_id));
    assert_eq!(c3, None, "no nextCursor on the last page");
    // The other context sees none of them; a cursor of A is invalid for B.
    assert_eq!(list_ids(&mut rig, B, None), (vec![], None));
    let reply = rig.ask(B, "tasks/list", json!({"cursor": c1}), "ListTasksResult").unwrap();
    assert_eq!(error_code(&reply), -32602);
    assert!(error_message(&reply).contains("cursor"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn contexts_are_isolated() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    rig.engine.complete(&id, r#"{"content":[]}"#).unwrap();
    rig.drain();
    let unknown = rig.get(B, "task-999");
    for (method, def) in [("tasks/get", "GetTaskResult"), ("tasks/result", "CallToolResult"), ("tasks/cancel", "CancelTaskResult")] {
        let probe = rig.ask(B, method, json!({"taskId": id}), def).unwrap();
        assert_eq!(error_code(&probe), -32602, "{method}");
        let unknown = rig.ask(B, method, json!({"taskId": "task-999"}), def).unwrap();
        assert_eq!(probe["error"], unknown["error"], "{method}: another context's task looks exactly like a missing one");
    }
    assert_eq!(error_message(&unknown), "Failed to retrieve task: Task not found");
    let (ids, _) = list_ids(&mut rig, B, None);
    assert!(ids.is_empty());
    // A request without any context sees nothing of A either, and cannot list.
    assert_eq!(error_code(&rig.get(None, &id)), -32602);
    let reply = rig.ask(None, "tasks/list", json!({}), "ListTasksResult").unwrap();
    assert_eq!(error_code(&reply), -32601);
    assert!(error_message(&reply).contains("authorization context"));
    // A's responses to another context's side-channel request are not taken.
    let id2 = rig.start(A);
    let req = rig
        .engine
        .request_input(&id2, "elicitation/create", Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#))
        .unwrap();
    rig.drain();
    let forged = format!(r#"{{"jsonrpc":"2.0","id":{req},"result":{{"action":"decline"}}}}"#);
    assert!(rig.raw(&forged, B).is_none());
    let outs = rig.drain();
    assert!(matches!(&outs[..], [Output::Event(Event::Forward { .. })]), "not matched to A's task: {outs:?}");
    assert_eq!(rig.status(A, &id2), "input_required");
}
