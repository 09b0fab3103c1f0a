//! The JSON-RPC envelope around tasks: responses are never answered, refused
//! requests keep their id, side-channel ids never repeat, capabilities match
//! behaviour, values pass through byte for byte, and the output queue is bounded.

mod common;
use common::*;
use mcp_task_core::{AuditAction, Capabilities, Config, Event, Output, TaskSupport};
use serde_json::{json, Value};

const A: Option<&str> = Some("a");
const ELICIT: Option<&str> = Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#);

fn small_limits() -> Rig {
    let mut config = Config::default();
    config.limits.max_message_bytes = 256;
    config.limits.max_json_depth = 8;
    let mut rig = Rig::new(config);
    rig.engine.register_tool("slow", TaskSupport::Required);
    rig
}

fn forwarded(outs: &[Output]) -> Vec<String> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Event(Event::Forward { message, .. }) => Some(message.clone()),
            _ => None,
        })
        .collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn responses_are_never_answered_even_when_unusable() {
    let mut rig = small_limits();
    let huge_result = format!(r#"{{"jsonrpc":"2.0","id":"host-1","result":{{"data":"{}"}}}}"#, "x".repeat(1000));
    let deep_result = format!(r#"{{"jsonrpc":"2.0","id":7,"result":{}1{}}}"#, "[".repeat(50), "]".repeat(50));
    let unusable = [
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#.to_owned(),
        r#"{"jsonrpc":"1.0","id":3,"result":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"both"}}"#.to_owned(),
        huge_result.clone(),
        deep_result.clone(),
    ];
    for message in &unusable {
        assert_eq!(rig.engine.handle_message(message, A), None, "a response gets no reply: {message}");
        // Handed to the host untouched (its own request may be waiting on it).
        assert_eq!(forwarded(&rig.drain()), vec![message.clone()]);
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn two_engines_on_one_connection_do_not_trade_errors() {
    let mut engines = [small_limits(), small_limits()];
    let mut message = Some("not json at all".to_owned());
    let mut hops = 0;
    while let Some(m) = message.take() {
        assert!(hops < 4, "the exchange must die out");
        message = engines[hops % 2].engine.handle_message(&m, A);
        hops += 1;
    }
    assert_eq!(hops, 2, "one error reply, which is not answered");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_over_limit_response_to_a_side_channel_request_reaches_the_task() {
    let mut rig = small_limits();
    let t = rig.start(A);
    let request_id = rig.engine.request_input(&t, "elicitation/create", ELICIT).unwrap();
    let big =
        format!(r#"{{"jsonrpc":"2.0","id":{request_id},"result":{{"action":"accept","content":{{"image":"{}"}}}}}}"#, "A".repeat(2000));
    assert_eq!(rig.engine.handle_message(&big, A), None);
    let outs = rig.drain();
    let got = outs.iter().find_map(|o| match o {
        Output::Event(Event::InputResponse { request_id: r, response, .. }) => Some((r.clone(), response.clone())),
        _ => None,
    });
    assert_eq!(got, Some((request_id, big)));
    assert_eq!(rig.status(A, &t), "working");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn over_limit_requests_are_answered_under_their_own_id() {
    let mut rig = small_limits();
    let big = format!(r#"{{"jsonrpc":"2.0","id":"call-9","method":"tools/call","params":{{"name":"{}"}}}}"#, "x".repeat(400));
    let reply = rig.raw(&big, A).unwrap();
    assert_eq!(reply["id"], json!("call-9"));
    assert_eq!(error_code(&reply), -32600);
    assert!(error_message(&reply).contains("too large"), "{reply}");
    let deep = format!(r#"{{"params":{{"a":{}0{}}},"method":"ping","jsonrpc":"2.0","id":42}}"#, "[".repeat(20), "]".repeat(20));
    let reply = rig.raw(&deep, A).unwrap();
    assert_eq!(reply["id"], json!(42));
    assert!(error_message(&reply).contains("nested too deeply"), "{reply}");
    // Only a message whose id cannot be read gets an id-less error.
    let reply = rig.raw(&format!(r#"{{"id":{}1{}}}"#, "[".repeat(20), "]".repeat(20)), A).unwrap();
    assert!(reply.get("id").is_none(), "{reply}");
    let reply = rig.raw(&format!(r#"{{"jsonrpc":"2.0","id":{{"bad":1}},"method":"{}"}}"#, "m".repeat(300)), A).unwrap();
    assert!(reply.get("id").is_none(), "{reply}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn side_channel_ids_never_repeat_for_the_engines_lifetime() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    let mut seen = std::collections::HashSet::new();
    for round in 0..3 {
        let id = rig.engine.request_input(&t, "elicitation/create", ELICIT).unwrap();
        assert!(seen.insert(id.clone()), "round {round}: {id} was used before");
        let answer = json!({"jsonrpc": "2.0", "id": serde_json::from_str::<Value>(id.as_str()).unwrap(), "result": {"action": "decline"}});
        assert_eq!(rig.raw(&answer.to_string(), A), None);
        assert_eq!(rig.status(A, &t), "working", "answered before the next one");
    }
    assert_eq!(seen.len(), 3);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn list_is_advertised_exactly_where_it_answers() {
    for context_binding in [true, false] {
        for list in [true, false] {
            for context in [Some("s"), None] {
                let caps = Capabilities { list, ..Capabilities::server() };
                let mut rig = Rig::new(Config { capabilities: caps, context_binding, ..Config::default() });
                let advertised: Value = serde_json::from_str(&rig.engine.capabilities_json(context)).unwrap();
                rig.schema.check("ServerCapabilities", &json!({ "tasks": advertised }));
                let reply = rig.ask(context, "tasks/list", json!({}), "ListTasksResult").unwrap();
                let answers = reply.get("result").is_some();
                let case = format!("binding {context_binding}, list {list}, context {context:?}: {reply}");
                assert_eq!(advertised.get("list").is_some(), answers, "{case}");
                if !answers {
                    assert_eq!(error_code(&reply), -32601, "{case}");
                }
            }
        }
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn any_non_negative_integer_ttl_is_clamped_by_the_policy() {
    let mut rig = Rig::server();
    let max = rig.engine.config().ttl.max_ms;
    for ttl in ["1e20", "18446744073709551616", "18446744073709551615", "100000000000000000000000000000000000000000"] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"slow","task":{{"ttl":{ttl}}}}}}}"#);
        let reply = rig.raw(&text, A).unwrap();
        rig.schema.check_response("CreateTaskResult", &reply);
        assert_eq!(reply["result"]["task"]["ttl"], json!(max), "{ttl}: {reply}");
        rig.drain();
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn results_keep_numbers_of_any_size_byte_for_byte() {
    let mut rig = Rig::server();
    let t = rig.start(A);
    let result = r#"{"content":[],"structuredContent":{"big":123456789012345678901234567890,"tiny":1.0e-400},"_meta":{"n":98765432109876543210987654321,"f":1.50}}"#;
    rig.engine.complete(&t, result).unwrap();
    rig.drain();
    let id = rig.id();
    let reply = rig
        .engine
        .handle_message(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tasks/result","params":{{"taskId":"{t}"}}}}"#), A)
        .unwrap();
    for exact in ["123456789012345678901234567890", "1.0e-400", r#""n":98765432109876543210987654321"#, r#""f":1.50"#] {
        assert!(reply.contains(exact), "{exact} is kept in {reply}");
    }
    assert!(reply.contains(&format!(r#""io.modelcontextprotocol/related-task":{{"taskId":"{t}"}}"#)));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_output_queue_is_bounded_and_says_what_it_dropped() {
    let mut config = Config { audit: true, ..Config::default() };
    config.limits.max_pending_outputs = 4;
    config.limits.rate_limit = None;
    let mut rig = Rig::new(config);
    rig.engine.register_tool("slow", TaskSupport::Required);
    let t = rig.start(A);
    // A host that never drains: the peer floods notifications.
    for i in 0..100 {
        let n = format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":{i}}}}}"#);
        assert_eq!(rig.engine.handle_message(&n, A), None);
    }
    assert!(rig.engine.pending_outputs() <= 5, "{} outputs held", rig.engine.pending_outputs());
    // New requests are refused at the door, under their own id.
    let reply = rig.ask(A, "tasks/get", json!({"taskId": t}), "GetTaskResult").unwrap();
    assert_eq!(error_code(&reply), -32000);
    assert!(error_message(&reply).contains("overloaded"), "{reply}");
    // Work already accepted still produces what someone waits on.
    rig.engine.complete(&t, r#"{"content":[]}"#).unwrap();
    let outs = rig.drain();
    let dropped = outs.iter().find_map(|o| match o {
        Output::Event(Event::OutputsDropped { count }) => Some(*count),
        _ => None,
    });
    assert!(dropped.is_some_and(|n| n >= 96), "{outs:?}");
    assert!(matches!(outs[0], Output::Event(Event::OutputsDropped { .. })), "reported first");
    let audits = outs.iter().filter(|o| matches!(o, Output::Event(Event::Audit(a)) if a.action == AuditAction::LimitHit)).count();
    assert!(audits <= 1);
    // Drained: requests are served again and nothing is reported twice.
    assert_eq!(rig.status(A, &t), "completed");
    assert!(rig.drain().iter().all(|o| !matches!(o, Output::Event(Event::OutputsDropped { .. }))));
}
