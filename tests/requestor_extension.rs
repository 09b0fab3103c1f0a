//! The requestor in the tasks extension (2026-07-28) against our receiver:
//! declaration per request, `resultType: "task"`, polling `tasks/get` on
//! `pollIntervalMs`, `inputRequests` once per key answered by `tasks/update`,
//! the inlined outcome, cancel as an ack then polling, `-32021`, and resume
//! after a restart. Every request it sends is checked against the schemas.

mod common;
use common::pair::{Fault, Pair};
use common::T0;
use mcp_task_core::{CallMode, Dialect, ManualClock, Requestor, RequestorConfig, RequestorEvent, RequestorOutput, TaskStatus};
use serde_json::{json, Value};

/// A call to the task tool from a client that declares form elicitation (the requestor adds the extension).
const SLOW_ASKING: &str = r#"{"name":"slow","_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}}"#;

const ELICIT: Option<&str> =
    Some(r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}"#);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_task_with_input_from_call_to_outcome() {
    let mut p = Pair::with_requestor(RequestorConfig::default());
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
    assert_eq!(p.engine.sdk_store().get_task(&task_id, Some("s")).unwrap().status, TaskStatus::Working);
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
    let mut p = Pair::with_requestor(RequestorConfig::default());
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
    let mut p = Pair::with_requestor(RequestorConfig::default());
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
    let mut p = Pair::with_requestor(RequestorConfig::default());
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
    let mut p = Pair::with_requestor(RequestorConfig::default());
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

/// With `listen`, the requestor asks the receiver to push the task's status
/// (`subscriptions/listen` naming it): every status message arrives as it is
/// set, the outcome comes inlined without a poll, and the stream is closed
/// (`notifications/cancelled`) once the task ends.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn pushed_status_arrives_between_polls() {
    let mut p = Pair::with_requestor(RequestorConfig { listen: true, ..RequestorConfig::default() });
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let task_id = p.task_id();
    let listen = p.sent.iter().find(|v| v["method"] == "subscriptions/listen").expect("a listen request").clone();
    assert_eq!(listen["params"]["notifications"]["taskIds"], json!([task_id]));
    let exec = p.executing.pop().unwrap();
    let mut seen = vec![];
    for step in ["1/4", "2/4", "3/4"] {
        p.engine.set_status_message(&exec, Some(step)).unwrap();
        p.pump();
        for e in p.take_events() {
            if let RequestorEvent::Status { task, .. } = e {
                seen.push(serde_json::from_str::<Value>(task.json()).unwrap()["statusMessage"].clone());
            }
        }
    }
    assert_eq!(seen, [json!("1/4"), json!("2/4"), json!("3/4")], "each message as it is set, no poll due yet");
    p.engine.complete(&exec, r#"{"content":[{"type":"text","text":"done"}]}"#).unwrap();
    p.pump();
    let (status, response) = p.finished().expect("the pushed outcome, before any poll");
    assert_eq!((status, &response["result"]["content"][0]["text"]), (TaskStatus::Completed, &json!("done")));
    assert_eq!(p.count("tasks/get"), 0, "no poll was due");
    let closed = p.sent.iter().find(|v| v["method"] == "notifications/cancelled").expect("the stream is closed");
    assert_eq!(closed["params"]["requestId"], listen["id"]);
    assert_eq!(p.requestor.next_deadline(), None, "nothing left to do");
}

/// A receiver that pushes no task status on listen streams (its acknowledgement
/// has no `taskIds`) is not asked again, and its tasks are polled as before; a
/// pushed status that is lost is caught by the next poll.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn polling_guards_pushes() {
    let mut p = Pair::with_requestor(RequestorConfig { listen: true, ..RequestorConfig::default() }).with_faults(|_, m| {
        if m.contains("\"notifications/tasks\"") && m.contains("completed") {
            Fault::Drop
        } else {
            Fault::Deliver
        }
    });
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let exec = p.executing.pop().unwrap();
    p.engine.complete(&exec, r#"{"content":[]}"#).unwrap();
    p.pump();
    assert!(p.finished().is_none(), "the push was lost");
    p.tick();
    assert_eq!(p.finished().map(|f| f.0), Some(TaskStatus::Completed), "the next poll finds the outcome");

    // A receiver that acknowledges without taskIds: the stream is closed, and no later task asks.
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    let Some(RequestorOutput::Send(call)) = p.requestor.poll_output() else { panic!() };
    let call: Value = serde_json::from_str(&call).unwrap();
    let created = json!({"jsonrpc":"2.0","id":call["id"],"result":{"resultType":"task","taskId":"other","status":"working",
        "createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null}});
    p.requestor.handle_message(&created.to_string());
    let mut sent = vec![];
    while let Some(out) = p.requestor.poll_output() {
        if let RequestorOutput::Send(m) = out {
            sent.push(serde_json::from_str::<Value>(&m).unwrap());
        }
    }
    let listen = sent.iter().find(|v| v["method"] == "subscriptions/listen").expect("a listen request");
    let ack = json!({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged",
        "params":{"notifications":{},"_meta":{"io.modelcontextprotocol/subscriptionId":listen["id"]}}});
    p.requestor.handle_message(&ack.to_string());
    let Some(RequestorOutput::Send(closed)) = p.requestor.poll_output() else { panic!("the stream is closed") };
    let closed: Value = serde_json::from_str(&closed).unwrap();
    assert_eq!((closed["method"].as_str(), &closed["params"]["requestId"]), (Some("notifications/cancelled"), &listen["id"]));
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    assert_eq!(p.sent.iter().filter(|v| v["method"] == "subscriptions/listen").count(), 1, "only the first task asked");
}

/// A listen the receiver answers with an error (it does not serve `subscriptions/listen`)
/// is not asked again; one the host reports lost in transport ends, and polling goes on.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_refused_or_lost_listen_leaves_polling() {
    let config = RequestorConfig { dialect: Dialect::Extension, listen: true, ..RequestorConfig::default() };
    let mut r = Requestor::new(config, Box::new(ManualClock::new(0)));
    let create = |r: &mut Requestor, task_id: &str| -> Vec<Value> {
        let call = r.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
        r.poll_output();
        let created = json!({"jsonrpc":"2.0","id":serde_json::from_str::<Value>(call.as_str()).unwrap(),"result":{"resultType":"task",
            "taskId":task_id,"status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"pollIntervalMs":1000}});
        r.handle_message(&created.to_string());
        std::iter::from_fn(|| r.poll_output())
            .filter_map(|o| match o {
                RequestorOutput::Send(m) => Some(serde_json::from_str(&m).unwrap()),
                RequestorOutput::Event(_) => None,
            })
            .collect()
    };
    let sent = create(&mut r, "t1");
    let listen = sent.iter().find(|v| v["method"] == "subscriptions/listen").expect("a listen request").clone();
    // The transport lost the stream: the requestor knows it as its own, and polls on.
    assert!(r.request_failed(&mcp_task_core::RawId::parse(&listen["id"].to_string()).unwrap()));
    assert_eq!(r.next_deadline(), Some(1_000));
    let sent = create(&mut r, "t2");
    let listen = sent.iter().find(|v| v["method"] == "subscriptions/listen").expect("asked again: a lost stream is no refusal").clone();
    r.handle_message(&json!({"jsonrpc":"2.0","id":listen["id"],"error":{"code":-32601,"message":"Method not found"}}).to_string());
    assert!(r.poll_output().is_none(), "the refusal is the requestor's own business");
    let sent = create(&mut r, "t3");
    assert!(sent.iter().all(|v| v["method"] != "subscriptions/listen"), "not asked again: {sent:?}");
}
