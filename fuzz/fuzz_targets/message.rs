//! Arbitrary bytes into the JSON-RPC entry point of an engine holding tasks.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_task_core::{Config, Engine, ManualClock, SequentialIds, TaskSupport};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let clock = ManualClock::new(1_764_066_600_000);
    let mut engine = Engine::with_sources(Config::default(), Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
    engine.register_tool("t", TaskSupport::Optional);
    let _ = engine.handle_message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{"ttl":1000}}}"#, Some("a"));
    let before = engine.get_task_json("task-1", Some("a"));
    let reply = engine.handle_message(text, Some("a"));
    if let Some(reply) = reply {
        assert!(reply.starts_with("{\"jsonrpc\":\"2.0\","), "reply is not a JSON-RPC message: {reply}");
    }
    while engine.poll_output().is_some() {}
    // Bad input never changes a stored task (a valid cancel may).
    let after = engine.get_task_json("task-1", Some("a"));
    if !text.contains("cancel") {
        assert_eq!(before, after);
    }
});
