//! The tasks extension `io.modelcontextprotocol/tasks` (MCP 2026-07-28) on
//! the receiver: one scenario per rule of `tasks.md`, every emitted message
//! checked against the extension's schema (and the 2026-07-28 base schema
//! for envelopes and errors), and a 2025-11-25 session sharing the engine.

mod common;
use common::*;
use mcp_task_core::{Config, Dialect, Engine, Event, Inbound, ManualClock, Output, RawId, SequentialIds, TaskStatus, TaskSupport};
use serde_json::{json, Value};

const A: Option<&str> = Some("a");
const B: Option<&str> = Some("b");
const ELICIT: Option<&str> =
    Some(r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}"#);

/// A receiver engine with tools of every policy, and both schemas.
struct Ext {
    engine: Engine,
    clock: ManualClock,
    ext: Schema,
    base: Schema,
    next_id: u64,
}

fn meta(declared: bool) -> Value {
    let extensions = if declared { json!({"io.modelcontextprotocol/tasks": {}}) } else { json!({}) };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}, "extensions": extensions}
    })
}

impl Ext {
    fn new() -> Ext {
        let clock = ManualClock::new(T0);
        let mut engine = Engine::with_sources(Config::default(), Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
        engine.register_tool("slow", TaskSupport::Required);
        engine.register_tool("maybe", TaskSupport::Optional);
        engine.register_tool("decide", TaskSupport::PerCall);
        engine.register_tool("never", TaskSupport::Forbidden);
        Ext { engine, clock, ext: Schema::extension(), base: Schema::base_2026(), next_id: 0 }
    }

    fn request(&mut self, method: &str, mut params: Value, declared: bool) -> String {
        self.next_id += 1;
        params["_meta"] = meta(declared);
        json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).to_string()
    }

    /// Sends a request; returns the reply, envelope-checked.
    fn send(&mut self, ctx: Option<&str>, method: &str, params: Value, declared: bool) -> Option<Value> {
        let text = self.request(method, params, declared);
        self.send_text(&text, &Inbound::from_context(ctx))
    }

    fn send_text(&mut self, text: &str, inbound: &Inbound<'_>) -> Option<Value> {
        let reply = self.engine.handle_message(text, inbound)?;
        let reply: Value = serde_json::from_str(&reply).unwrap();
        if reply.get("error").is_some() {
            self.base.check("JSONRPCErrorResponse", &reply);
        } else {
            self.base.check("JSONRPCResultResponse", &reply);
        }
        Some(reply)
    }

    fn result(&mut self, ctx: Option<&str>, method: &str, params: Value, def: &str) -> Value {
        let reply = self.send(ctx, method, params, true).unwrap_or_else(|| panic!("no reply to {method}"));
        assert!(reply.get("error").is_none(), "{method}: {reply}");
        self.ext.check(def, &reply["result"]);
        reply["result"].clone()
    }

    fn start(&mut self, ctx: Option<&str>, tool: &str) -> String {
        let created = self.result(ctx, "tools/call", json!({"name": tool, "arguments": {}}), "CreateTaskResult");
        assert_eq!(created["resultType"], "task");
        let id = created["taskId"].as_str().unwrap().to_owned();
        let outs = self.drain();
        assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::Execute { task_id, .. }) if *task_id == id)));
        id
    }

    fn get(&mut self, ctx: Option<&str>, task_id: &str) -> Value {
        self.result(ctx, "tasks/get", json!({"taskId": task_id}), "GetTaskResult")
    }

    /// Drains outputs, checking every notification the extension defines.
    fn drain(&mut self) -> Vec<Output> {
        let mut outs = Vec::new();
        while let Some(out) = self.engine.poll_output() {
            if let Output::Send(t) = &out {
                let v: Value = serde_json::from_str(&t.message).unwrap();
                assert_ne!(v["method"], "notifications/tasks/status", "no 2025-11-25 status notifications for extension tasks");
                assert_ne!(v["method"], "notifications/progress", "no progress notifications for extension tasks");
                if v["method"] == "notifications/tasks" {
                    self.ext.check("TaskStatusNotification", &v);
                }
            }
            outs.push(out);
        }
        outs
    }
}

fn code(reply: &Value) -> i64 {
    error_code(reply)
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_schema_checker_refuses_wrong_shapes() {
    let mut ext = Schema::extension();
    let good = json!({"resultType":"task","taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null});
    assert!(ext.is_valid("CreateTaskResult", &good));
    for bad in [
        json!({"resultType":"task","taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x"}),
        json!({"resultType":"task","taskId":"t","status":"done","createdAt":"x","lastUpdatedAt":"x","ttlMs":1}),
        json!({"resultType":"task","task":{"taskId":"t"}}),
    ] {
        assert!(!ext.is_valid("CreateTaskResult", &bad), "{bad}");
    }
    let failed_without_error =
        json!({"resultType":"complete","taskId":"t","status":"failed","createdAt":"x","lastUpdatedAt":"x","ttlMs":1});
    assert!(!ext.is_valid("GetTaskResult", &failed_without_error));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn capability_for_server_discover() {
    let caps: Value = serde_json::from_str(mcp_task_core::protocol::extension::capability_json()).unwrap();
    Schema::base_2026().check("ServerCapabilities", &json!({ "extensions": caps }));
    assert_eq!(caps, json!({"io.modelcontextprotocol/tasks": {}}));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_server_decides_by_tool_policy_and_declaration() {
    let mut x = Ext::new();
    // Always a task, for a declaring client: a flat CreateTaskResult, resolvable at once.
    let id = x.start(A, "slow");
    assert_eq!(x.get(A, &id)["status"], "working");
    // Task-only tool, non-declaring client: -32021 naming the extension; no task made.
    let reply = x.send(A, "tools/call", json!({"name": "slow"}), false).unwrap();
    assert_eq!(code(&reply), -32021);
    x.base.check("MissingRequiredClientCapabilityError", &reply);
    assert_eq!(reply["error"]["data"]["requiredCapabilities"]["extensions"], json!({"io.modelcontextprotocol/tasks": {}}));
    assert_eq!(x.engine.task_count(), 1);
    // Optional: a task when declared, a plain call otherwise.
    x.start(A, "maybe");
    assert_eq!(x.send(A, "tools/call", json!({"name": "maybe"}), false), None);
    assert!(matches!(x.drain().as_slice(), [Output::Event(Event::Forward { .. })]));
    // Never: a plain call even when declared; a legacy params.task is ignored.
    assert_eq!(x.send(A, "tools/call", json!({"name": "never", "task": {"ttl": 5}}), true), None);
    assert!(matches!(x.drain().as_slice(), [Output::Event(Event::Forward { .. })]));
    assert_eq!(x.engine.task_count(), 2);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn per_call_tools_are_forwarded_and_the_host_may_start_a_task() {
    let mut x = Ext::new();
    let text = x.request("tools/call", json!({"name": "decide"}), true);
    assert_eq!(x.engine.handle_message(&text, A), None);
    let outs = x.drain();
    let [Output::Event(Event::Forward { message, .. })] = outs.as_slice() else { panic!("{outs:?}") };
    let response: Value = serde_json::from_str(&x.engine.start_task(message, &mcp_task_core::Inbound::from_context(A)).unwrap()).unwrap();
    x.base.check("JSONRPCResultResponse", &response);
    x.ext.check("CreateTaskResult", &response["result"]);
    assert_eq!(response["id"], json!(x.next_id));
    let id = response["result"]["taskId"].as_str().unwrap().to_owned();
    assert!(matches!(x.drain().as_slice(), [Output::Event(Event::Execute { .. })]));
    assert_eq!(x.get(A, &id)["status"], "working");
    // Not for a client that cannot see tasks.
    let undeclared = x.request("tools/call", json!({"name": "decide"}), false);
    assert!(x.engine.start_task(&undeclared, &mcp_task_core::Inbound::from_context(A)).is_err());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn task_methods_need_the_declaration() {
    let mut x = Ext::new();
    let id = x.start(A, "slow");
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let reply = x.send(A, method, json!({"taskId": id, "inputResponses": {}}), false).unwrap();
        assert_eq!(code(&reply), -32021, "{method}");
        x.base.check("MissingRequiredClientCapabilityError", &reply);
    }
    assert_eq!(x.get(A, &id)["status"], "working", "nothing changed");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn result_and_list_do_not_exist() {
    let mut x = Ext::new();
    let id = x.start(A, "slow");
    for method in ["tasks/result", "tasks/list"] {
        let reply = x.send(A, method, json!({"taskId": id}), true).unwrap();
        assert_eq!(code(&reply), -32601, "{method}");
        assert!(error_message(&reply).contains("tasks/get"), "{reply}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn get_inlines_the_outcome() {
    let mut x = Ext::new();
    // completed, also for isError: true (failed is for JSON-RPC errors only)
    let ok = x.start(A, "slow");
    let tool_error = r#"{"content":[{"type":"text","text":"bad input"}],"isError":true}"#;
    x.engine.complete(&ok, tool_error).unwrap();
    let got = x.get(A, &ok);
    assert_eq!((got["status"].as_str(), got["resultType"].as_str()), (Some("completed"), Some("complete")));
    // What tools/call would have answered on 2026-07-28: the result with its resultType.
    let mut expected = serde_json::from_str::<Value>(tool_error).unwrap();
    expected["resultType"] = json!("complete");
    assert_eq!(got["result"], expected);
    assert!(got.get("ttlMs").is_some() && got.get("ttl").is_none());
    // failed, with the JSON-RPC error
    let bad = x.start(A, "slow");
    x.engine.fail(&bad, r#"{"code":-32603,"message":"API rate limit exceeded"}"#).unwrap();
    let got = x.get(A, &bad);
    assert_eq!(got["status"], "failed");
    assert_eq!(got["error"], json!({"code": -32603, "message": "API rate limit exceeded"}));
    assert_eq!(got["statusMessage"], "API rate limit exceeded", "a failed task says why");
    // unknown or another context's: -32602
    for (ctx, id) in [(A, "nope"), (B, ok.as_str())] {
        let reply = x.send(ctx, "tasks/get", json!({"taskId": id}), true).unwrap();
        assert_eq!(code(&reply), -32602);
        assert_eq!(error_message(&reply), "Failed to retrieve task: Task not found");
    }
    // after the TTL: expired
    x.clock.advance(x.engine.config().ttl.default_ms + 1);
    let reply = x.send(A, "tasks/get", json!({"taskId": ok}), true).unwrap();
    assert_eq!(error_message(&reply), "Failed to retrieve task: Task has expired");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn input_requests_are_listed_and_answered_by_update() {
    let mut x = Ext::new();
    let id = x.start(A, "slow");
    let first = x.engine.request_input(&id, "elicitation/create", ELICIT).unwrap();
    let second = x.engine.request_input(&id, "elicitation/create", ELICIT).unwrap();
    assert!(x.drain().iter().all(|o| !matches!(o, Output::Send(_))), "nothing is pushed: the client polls");
    let got = x.get(A, &id);
    assert_eq!(got["status"], "input_required");
    let keys: Vec<String> = got["inputRequests"].as_object().unwrap().keys().cloned().collect();
    let k1 = first.as_string_id().unwrap();
    let k2 = second.as_string_id().unwrap();
    assert_eq!(keys.len(), 2);
    assert!(keys.contains(&k1) && keys.contains(&k2));
    assert_eq!(got["inputRequests"][&k1]["method"], "elicitation/create");
    assert!(got["inputRequests"][&k1]["params"]["_meta"].is_null(), "no related-task _meta in the extension");
    // The same snapshot again on the next poll.
    assert_eq!(x.get(A, &id)["inputRequests"], got["inputRequests"]);
    // A partial answer (plus an unknown key): acknowledged, one request left.
    let ack = x.result(A, "tasks/update", json!({"taskId": id, "inputResponses": {k1.clone(): {"action": "accept", "content": {"name": "Luca"}}, "never-issued": {"action": "decline"}}}), "UpdateTaskResult");
    assert_eq!(ack, json!({"resultType": "complete"}));
    let outs = x.drain();
    let answers: Vec<(RawId, Value)> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Event(Event::InputResponse { request_id, response, .. }) => {
                Some((request_id.clone(), serde_json::from_str(response).unwrap()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].0, first);
    assert_eq!(answers[0].1, json!({"jsonrpc": "2.0", "id": k1, "result": {"action": "accept", "content": {"name": "Luca"}}}));
    let got = x.get(A, &id);
    assert_eq!(got["status"], "input_required");
    assert_eq!(got["inputRequests"].as_object().unwrap().len(), 1);
    // Answering the first again is ignored; answering the second resumes the task.
    x.result(
        A,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {k1.clone(): {"action": "decline"}, k2.clone(): {"action": "cancel"}}}),
        "UpdateTaskResult",
    );
    let n = x.drain().iter().filter(|o| matches!(o, Output::Event(Event::InputResponse { .. }))).count();
    assert_eq!(n, 1);
    assert_eq!(x.get(A, &id)["status"], "working");
    // Keys are never reused over the task's life.
    let third = x.engine.request_input(&id, "elicitation/create", ELICIT).unwrap();
    assert!(third != first && third != second);
    // Unknown task: -32602; malformed answers: -32602, nothing changes.
    let reply = x.send(A, "tasks/update", json!({"taskId": "nope", "inputResponses": {}}), true).unwrap();
    assert_eq!(code(&reply), -32602);
    let reply = x.send(A, "tasks/update", json!({"taskId": id, "inputResponses": [1]}), true).unwrap();
    assert_eq!(code(&reply), -32602);
    assert_eq!(x.get(A, &id)["status"], "input_required");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cancel_acknowledges_and_is_idempotent() {
    let mut x = Ext::new();
    let id = x.start(A, "slow");
    let ack = x.result(A, "tasks/cancel", json!({"taskId": id}), "CancelTaskResult");
    assert_eq!(ack, json!({"resultType": "complete"}));
    assert!(x.drain().iter().any(|o| matches!(o, Output::Event(Event::Cancelled { task_id, .. }) if *task_id == id)));
    assert_eq!(x.get(A, &id)["status"], "cancelled");
    // The work finishing later changes nothing: cancelled wins once taken.
    assert!(x.engine.complete(&id, r#"{"content":[]}"#).is_err());
    // Cancel again, and cancel of a task that finished first: ack, unchanged.
    x.result(A, "tasks/cancel", json!({"taskId": id}), "CancelTaskResult");
    let done = x.start(A, "slow");
    x.engine.complete(&done, r#"{"content":[]}"#).unwrap();
    x.result(A, "tasks/cancel", json!({"taskId": done}), "CancelTaskResult");
    assert_eq!(x.get(A, &done)["status"], "completed");
    assert!(x.drain().iter().all(|o| !matches!(o, Output::Event(Event::Cancelled { .. }))));
    let reply = x.send(A, "tasks/cancel", json!({"taskId": "nope"}), true).unwrap();
    assert_eq!(code(&reply), -32602);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn mcp_name_must_match_the_task() {
    let mut x = Ext::new();
    let id = x.start(A, "slow");
    let text = x.request("tasks/get", json!({"taskId": id}), true);
    let wrong = Inbound { context: A, mcp_name: Some("task-999"), ..Inbound::default() };
    let reply = x.send_text(&text, &wrong).unwrap();
    assert_eq!(code(&reply), -32020);
    x.base.check("HeaderMismatchError", &reply);
    let plain = Inbound { mcp_name: Some(id.as_str()), ..wrong };
    assert!(x.send_text(&text, &plain).unwrap().get("result").is_some());
    let encoded = format!("=?base64?{}?=", "dGFzay0x"); // "task-1"
    let b64 = Inbound { mcp_name: Some(encoded.as_str()), ..wrong };
    assert!(x.send_text(&text, &b64).unwrap().get("result").is_some());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn status_notifications_go_only_to_subscribed_streams() {
    let mut x = Ext::new();
    let id = x.start(A, "slow");
    let other = x.start(A, "slow");
    let listen = json!({"jsonrpc":"2.0","id":"sub-1","method":"subscriptions/listen","params":{
        "_meta": meta(true), "notifications": {"taskIds": [id, "unknown", other]}}})
    .to_string();
    let agreed = x.engine.listen_tasks(&listen, A).unwrap();
    assert_eq!(agreed, vec![id.clone(), other.clone()]);
    // Another context cannot follow A's tasks.
    assert!(x.engine.listen_tasks(&listen, B).unwrap().is_empty());
    x.engine.set_status_message(&id, Some("half way")).unwrap();
    x.engine.request_input(&id, "elicitation/create", ELICIT).unwrap();
    x.engine.complete(&other, r#"{"content":[]}"#).unwrap();
    let sent: Vec<(Option<RawId>, Value)> = x
        .drain()
        .into_iter()
        .filter_map(|o| match o {
            Output::Send(t) => Some((t.in_reply_to, serde_json::from_str(&t.message).unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(sent.len(), 3, "{sent:?}");
    for (stream, n) in &sent {
        assert_eq!(stream.as_ref(), Some(&RawId::string("sub-1")));
        assert_eq!(n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "sub-1");
    }
    assert_eq!(sent[1].1["params"]["status"], "input_required");
    assert_eq!(sent[1].1["params"]["inputRequests"].as_object().unwrap().len(), 1);
    assert_eq!(sent[2].1["params"]["status"], "completed");
    assert_eq!(sent[2].1["params"]["result"], json!({"resultType": "complete", "content": []}));
    // Each notification equals what tasks/get answers at that moment.
    let mut now = x.get(A, &other);
    now.as_object_mut().unwrap().remove("resultType");
    let mut pushed = sent[2].1["params"].clone();
    pushed.as_object_mut().unwrap().remove("_meta");
    assert_eq!(pushed, now);
    // Stream closed: nothing more.
    assert_eq!(x.engine.unlisten_tasks(&RawId::string("sub-1"), A), 1);
    x.engine.set_status_message(&id, Some("later")).unwrap();
    assert!(x.drain().is_empty());
    // A client that did not declare the extension: -32021 for its subscribe.
    let undeclared = json!({"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{
        "_meta": meta(false), "notifications": {"taskIds": [id]}}})
    .to_string();
    let error: Value = serde_json::from_str(&x.engine.listen_tasks(&undeclared, A).unwrap_err()).unwrap();
    x.base.check("MissingRequiredClientCapabilityError", &error);
    assert_eq!(error["id"], 7);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn extension_tasks_get_no_progress_notifications() {
    let mut x = Ext::new();
    let text = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{
        "progressToken": "p1",
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}}})
    .to_string();
    let reply = x.send_text(&text, &Inbound::from_context(A)).unwrap();
    let id = reply["result"]["taskId"].as_str().unwrap().to_owned();
    x.drain();
    assert_eq!(x.engine.report_progress(&id, 1.0, Some(2.0), None), Ok(false));
    assert!(x.drain().is_empty());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn both_dialects_share_one_engine() {
    let mut x = Ext::new();
    let legacy_call = |id: u64| {
        json!({"jsonrpc":"2.0","id": id,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}).to_string()
    };
    // A 2025-11-25 session creates a task through the old flow...
    let reply: Value = serde_json::from_str(&x.engine.handle_message(&legacy_call(100), A).unwrap()).unwrap();
    let old = reply["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    x.engine.poll_output();
    let new = x.start(A, "slow");
    // ...the new tasks/get sees it (same context only) and the old tasks/get sees the new one.
    assert_eq!(x.get(A, &old)["status"], "working");
    assert_eq!(code(&x.send(B, "tasks/get", json!({"taskId": old}), true).unwrap()), -32602);
    let legacy_get = json!({"jsonrpc":"2.0","id":101,"method":"tasks/get","params":{"taskId": new}}).to_string();
    let got: Value = serde_json::from_str(&x.engine.handle_message(&legacy_get, A).unwrap()).unwrap();
    Schema::load().check("GetTaskResult", &got["result"]);
    // Rules follow the task's own flow: isError fails a 2025-11-25 task, completes an extension one.
    let error_result = r#"{"content":[],"isError":true}"#;
    assert_eq!(x.engine.complete(&old, error_result).unwrap().status, TaskStatus::Failed);
    assert_eq!(x.engine.complete(&new, error_result).unwrap().status, TaskStatus::Completed);
    // Only the 2025-11-25 task sends a 2025-11-25 status notification.
    let mut notified = Vec::new();
    while let Some(out) = x.engine.poll_output() {
        if let Output::Send(t) = out {
            let v: Value = serde_json::from_str(&t.message).unwrap();
            assert_eq!(v["method"], "notifications/tasks/status");
            notified.push(v["params"]["taskId"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(notified, vec![old.clone()]);
    // The extension shows the old task's tool error as what it is: a completed call.
    let seen = x.get(A, &old);
    assert_eq!(
        (seen["status"].as_str(), &seen["result"]),
        (Some("completed"), &json!({"resultType": "complete", "content": [], "isError": true}))
    );
    // The new tasks/cancel reaches an old task.
    let again = serde_json::from_str::<Value>(&x.engine.handle_message(&legacy_call(102), A).unwrap()).unwrap();
    let old2 = again["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    while x.engine.poll_output().is_some() {}
    x.result(A, "tasks/cancel", json!({"taskId": old2}), "CancelTaskResult");
    assert_eq!(x.get(A, &old2)["status"], "cancelled");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_host_can_force_the_dialect() {
    let mut x = Ext::new();
    // No protocolVersion in _meta: read as 2025-11-25 unless the host says otherwise.
    let text = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{
        "io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}})
    .to_string();
    let as_read = x.send_text(&text, &Inbound::from_context(A)).unwrap();
    assert_eq!(code(&as_read), -32601, "2025-11-25: a task-only tool needs params.task");
    let forced = Inbound { context: A, dialect: Some(Dialect::Extension), ..Inbound::default() };
    let reply = x.send_text(&text, &forced).unwrap();
    assert_eq!(reply["result"]["resultType"], "task");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_inlined_result_carries_its_result_type() {
    // 2026-07-28: every result carries resultType ("Servers implementing this protocol version
    // MUST include this field"), and tasks/get returns exactly what the request would have
    // returned. A stored tool result without one is shown with "complete"; one that names a
    // type keeps it; an empty object and whitespace are handled.
    let mut x = Ext::new();
    for (stored, shown) in [
        (r#"{"content":[{"type":"text","text":"hi"}]}"#, json!({"resultType": "complete", "content": [{"type": "text", "text": "hi"}]})),
        (r#"{"resultType":"complete","content":[]}"#, json!({"resultType": "complete", "content": []})),
        (r#"{"content":[],"resultType":"complete"}"#, json!({"resultType": "complete", "content": []})),
        ("{}", json!({"resultType": "complete"})),
        (" { \"content\" : [ ] } ", json!({"resultType": "complete", "content": []})),
        (
            r#"{"content":[],"_meta":{"resultType":"nested, not the result's"}}"#,
            json!({"resultType": "complete", "content": [], "_meta": {"resultType": "nested, not the result's"}}),
        ),
    ] {
        let id = x.start(A, "slow");
        x.engine.complete(&id, stored).unwrap();
        let got = x.get(A, &id);
        assert_eq!(got["result"], shown, "{stored}");
    }
}
