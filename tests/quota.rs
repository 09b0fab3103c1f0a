//! Limits per quota key: whose allowance a request spends (a session, a user, a
//! client address), apart from the context that decides whose tasks it sees.
//! Anonymous clients of one context that the host tells apart do not share
//! one allowance; finished tasks count by their stored size, not as running work.

mod common;
use common::*;
use mcp_task_core::{Config, Inbound, Limits, TaskSupport};
use serde_json::{json, Value};

/// Sends a request as an anonymous client (no context) whose quota key is `key`.
fn ask(rig: &mut Rig, key: Option<&str>, method: &str, params: Value) -> Value {
    let id = rig.id();
    let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    let reply = rig.engine.handle_message(&text, Inbound { quota_key: key, ..Inbound::default() }).expect("an immediate reply");
    serde_json::from_str(&reply).unwrap()
}

fn create(rig: &mut Rig, key: Option<&str>) -> Result<String, Value> {
    let reply = ask(rig, key, "tools/call", json!({"name": "slow", "arguments": {}, "task": {"ttl": 600_000}}));
    rig.drain();
    match reply["result"]["task"]["taskId"].as_str() {
        Some(id) => Ok(id.to_owned()),
        None => Err(reply),
    }
}

fn engine_rig(limits: Limits) -> Rig {
    let mut rig = Rig::new(Config { limits, context_binding: false, poll_interval_ms: Some(200), ..Config::default() });
    rig.engine.register_tool("slow", TaskSupport::Required);
    rig
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_hundred_anonymous_clients_polling_at_the_advertised_interval_are_never_refused() {
    let mut rig = engine_rig(Limits::default());
    let keys: Vec<String> = (0..100).map(|i| format!("10.0.0.{i}")).collect();
    let mut refused = 0;
    // Every client runs a task of its own and polls it every 200 ms for a minute;
    // each second it finishes and starts another (6,000 tasks kept for their TTL).
    let mut tasks: Vec<String> = keys.iter().map(|k| create(&mut rig, Some(k)).unwrap()).collect();
    for tick in 1..=300 {
        rig.clock.advance(200);
        for (key, task) in keys.iter().zip(tasks.iter_mut()) {
            let reply = ask(&mut rig, Some(key), "tasks/get", json!({"taskId": task}));
            refused += usize::from(reply.get("error").is_some());
            if tick % 5 == 0 {
                rig.engine.complete(task, r#"{"content":[{"type":"text","text":"done"}]}"#).unwrap();
                *task = create(&mut rig, Some(key)).unwrap_or_else(|e| panic!("create refused: {e}"));
            }
        }
        rig.drain();
    }
    assert_eq!(refused, 0, "no poll refused");
    assert_eq!(rig.engine.task_count(), 100 + 100 * 60, "every finished task is still held for its TTL");

    // A flood from one client is refused, and spends only its own allowance.
    let flood = (0..2_000).filter(|_| ask(&mut rig, Some("10.0.0.0"), "tasks/get", json!({"taskId": tasks[0]})).get("error").is_some());
    let flood = flood.count();
    assert!(flood >= 900, "a flood of 2,000 at once is refused past the burst ({flood} refused)");
    let refusal = ask(&mut rig, Some("10.0.0.0"), "tasks/get", json!({"taskId": tasks[0]}));
    assert_eq!(error_code(&refusal), -32000);
    let other = ask(&mut rig, Some("10.0.0.1"), "tasks/get", json!({"taskId": tasks[1]}));
    assert_eq!(other["result"]["status"], "working", "a new client is not starved by the flooding one: {other}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn running_tasks_are_limited_per_key_and_finished_ones_free_their_slot() {
    let mut rig = engine_rig(Limits { max_running_tasks_per_key: 2, max_running_tasks_total: 3, ..Limits::default() });
    let a1 = create(&mut rig, Some("a")).unwrap();
    create(&mut rig, Some("a")).unwrap();
    let refused = create(&mut rig, Some("a")).unwrap_err();
    assert_eq!(error_code(&refused), -32000);
    assert!(error_message(&refused).contains("Too many running tasks for this client (limit 2)"), "{refused}");
    create(&mut rig, Some("b")).expect("another key of the same context has its own allowance");
    let refused = create(&mut rig, Some("c")).unwrap_err();
    assert!(error_message(&refused).contains("runs its maximum of 3 tasks"), "the engine-wide limit holds: {refused}");
    rig.engine.complete(&a1, r#"{"content":[]}"#).unwrap();
    create(&mut rig, Some("a")).expect("a finished task no longer counts as running work");
    // Without a key, the context is the key: anonymous requests share it.
    let mut shared = engine_rig(Limits { max_running_tasks_per_key: 1, ..Limits::default() });
    create(&mut shared, None).unwrap();
    assert!(create(&mut shared, None).is_err());
    create(&mut shared, Some("10.0.0.9")).expect("a client the host names is not the shared context");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn stored_bytes_are_limited_per_key_until_finished_tasks_expire() {
    // Room for two tasks' records and one 2,000-byte result per key.
    let mut rig = engine_rig(Limits { max_stored_bytes_per_key: 2 * 300 + 2_100, ..Limits::default() });
    let big = format!(r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#, "x".repeat(2_000));
    let first = create(&mut rig, Some("a")).unwrap();
    rig.engine.complete(&first, &big).unwrap();
    let second = create(&mut rig, Some("a")).unwrap();
    rig.engine.complete(&second, r#"{"content":[]}"#).unwrap();
    let refused = create(&mut rig, Some("a")).unwrap_err();
    assert_eq!(error_code(&refused), -32000);
    assert!(error_message(&refused).contains("hold their maximum of 2700 bytes"), "{refused}");
    create(&mut rig, Some("b")).expect("another key's bytes are its own");
    rig.clock.advance(600_000);
    rig.engine.handle_timeout();
    create(&mut rig, Some("a")).expect("expired tasks free their bytes");
}
