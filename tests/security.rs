//! The security section of the spec: audit records, rate limiting, unguessable
//! IDs that never overwrite.

mod common;
use common::*;
use mcp_task_core::{AuditAction, AuditEvent, Config, Event, IdSource, Limits, Output, RateLimit, TaskStatus, TaskSupport, UuidV4Ids};
use serde_json::json;
use std::collections::HashSet;

const A: Option<&str> = Some("alice");
const M: Option<&str> = Some("mallory");

fn audit_rig() -> Rig {
    let mut rig = Rig::new(Config { audit: true, ..Config::default() });
    rig.engine.register_tool("slow", TaskSupport::Required);
    rig
}

fn audits(outs: &[Output]) -> Vec<AuditEvent> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Event(Event::Audit(a)) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn audit_trail_of_a_lifecycle() {
    let mut rig = audit_rig();
    let r = rig.call_tool_task(A, "slow", json!({}));
    let id = r["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    rig.engine
        .request_input(&id, "elicitation/create", Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#))
        .unwrap();
    rig.engine.resume(&id).unwrap();
    rig.engine.complete(&id, r#"{"content":[]}"#).unwrap();
    rig.ask(A, "tasks/result", json!({"taskId": id}), "CallToolResult").unwrap();
    let r2 = rig.call_tool_task(A, "slow", json!({"ttl": 1000}));
    let id2 = r2["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    rig.ask(A, "tasks/cancel", json!({"taskId": id2}), "CancelTaskResult").unwrap();
    rig.clock.advance(1_000);
    rig.engine.handle_timeout();
    let trail: Vec<(AuditAction, Option<String>)> = audits(&rig.drain()).into_iter().map(|a| (a.action, a.task_id)).collect();
    use TaskStatus::*;
    assert_eq!(
        trail,
        vec![
            (AuditAction::Created, Some(id.clone())),
            (AuditAction::Transitioned { from: Working, to: InputRequired }, Some(id.clone())),
            (AuditAction::Transitioned { from: InputRequired, to: Working }, Some(id.clone())),
            (AuditAction::Transitioned { from: Working, to: Completed }, Some(id.clone())),
            (AuditAction::ResultFetched, Some(id.clone())),
            (AuditAction::Created, Some(id2.clone())),
            (AuditAction::Cancelled { from: Working }, Some(id2.clone())),
            (AuditAction::Expired, Some(id2.clone())),
        ]
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn audit_trail_of_a_cross_context_probe() {
    let mut rig = audit_rig();
    let r = rig.call_tool_task(A, "slow", json!({}));
    let id = r["result"]["task"]["taskId"].as_str().unwrap().to_owned();
    rig.drain();
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let reply = rig.ask(M, method, json!({"taskId": id}), "Result").unwrap();
        assert!(error_message(&reply).contains("Task not found"));
    }
    let records = audits(&rig.drain());
    assert_eq!(records.len(), 3);
    for a in records {
        assert_eq!(a.action, AuditAction::AccessRefused);
        assert_eq!(a.context.as_deref(), M, "the prober's context is logged");
        assert_eq!(a.detail.as_deref(), Some("the task belongs to another context"), "the log knows what the peer is not told");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn rate_limit_per_context_on_the_injected_clock() {
    let mut config = Config { audit: true, ..Config::default() };
    config.limits.rate_limit = Some(RateLimit { burst: 5, per_second: 10 });
    let mut rig = Rig::new(config);
    rig.engine.register_tool("slow", TaskSupport::Required);
    let id = rig.start(A);
    for _ in 0..5 {
        assert_eq!(rig.status(A, &id), "working");
    }
    let refused = rig.get(A, &id);
    assert_eq!(error_code(&refused), -32000);
    assert!(error_message(&refused).contains("at most 10 per second"));
    assert_eq!(error_code(&rig.get(M, &id)), -32602, "another context has its own bucket (and sees no task)");
    // Non-tasks requests are not counted.
    let plain = r#"{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"slow","task":{}}}"#;
    assert!(rig.raw(plain, A).is_some());
    rig.clock.advance(100);
    assert_eq!(rig.status(A, &id), "working", "a token back after 100 ms");
    assert!(audits(&rig.drain()).iter().any(|a| a.action == AuditAction::RateLimited && a.context.as_deref() == A));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_limit_is_audited() {
    let mut config = Config { audit: true, ..Config::default() };
    config.limits =
        Limits { max_running_tasks_per_key: 1, max_message_bytes: 200, max_json_depth: 4, max_result_bytes: 10, ..Limits::default() };
    let mut rig = Rig::new(config);
    rig.engine.register_tool("slow", TaskSupport::Required);
    let id = rig.start(A);
    rig.call_tool_task(A, "slow", json!({}));
    rig.raw(&"x".repeat(300), A);
    rig.raw("[[[[[[[[]]]]]]]]", A);
    let _ = rig.engine.complete(&id, r#"{"content":[{"type":"text","text":"too long"}]}"#);
    let hits = audits(&rig.drain()).into_iter().filter(|a| a.action == AuditAction::LimitHit).count();
    assert_eq!(hits, 4);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn default_ids_are_unique_uuid_v4() {
    let mut ids = UuidV4Ids::default();
    let mut seen = HashSet::with_capacity(1_000_000);
    for _ in 0..1_000_000 {
        let id = ids.next_id();
        assert!(seen.insert(id), "duplicate ID");
    }
    let sample = ids.next_id();
    let parsed = sample.as_bytes();
    assert_eq!(parsed.len(), 36);
    assert_eq!(parsed[14], b'4', "version 4");
    assert!(matches!(parsed[19], b'8' | b'9' | b'a' | b'b'), "RFC 4122 variant");
}

/// The state machines can move to another thread (a server may run each on a
/// worker pool), as quinn-proto's and str0m's can. A change that makes them
/// `!Send` fails to compile here. Native targets only: on wasm32 they hold
/// JavaScript functions (the host's clock), which are not `Send`.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn engine_and_requestor_are_send() {
    fn assert_send<T: Send>() {}
    assert_send::<mcp_task_core::Engine>();
    assert_send::<mcp_task_core::Requestor>();
    let clock = mcp_task_core::ManualClock::new(0);
    let engine =
        mcp_task_core::Engine::with_sources(Default::default(), Box::new(clock.clone()), Box::new(mcp_task_core::SequentialIds::new("t")));
    let moved = std::thread::spawn(move || engine.task_count()).join().unwrap();
    assert_eq!(moved, 0);
}
