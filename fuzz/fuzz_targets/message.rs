//! Arbitrary bytes into the JSON-RPC entry point of an engine holding tasks
//! of both dialects. The first byte picks how the host reads the message
//! (from its own `_meta`, or forced to 2025-11-25 or to the tasks extension)
//! and whether an `Mcp-Name` header comes with it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_task_core::{Config, Dialect, Engine, Inbound, ManualClock, SequentialIds, TaskSupport};

const EXT_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let clock = ManualClock::new(1_764_066_600_000);
    let mut engine = Engine::with_sources(Config::default(), Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
    engine.register_tool("t", TaskSupport::Optional);
    let _ = engine.handle_message(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{"ttl":1000}}}"#, Some("a"));
    let _ = engine
        .handle_message(&format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t",{EXT_META}}}}}"#), Some("a"));
    let _ = engine.request_input("task-2", "elicitation/create", Some(r#"{"message":"?"}"#));
    let ids = ["task-1", "task-2"];
    let before: Vec<_> = ids.iter().map(|id| engine.sdk_store().get_task(id, Some("a")).map(|t| t.to_json())).collect();
    let dialect = [None, Some(Dialect::Legacy), Some(Dialect::Extension)][usize::from(mode % 3)];
    let mcp_name = (mode & 4 != 0).then_some("task-2");
    let reply = engine.handle_message(text, &Inbound { context: Some("a"), dialect, mcp_name, ..Inbound::default() });
    if let Some(reply) = &reply {
        assert!(reply.starts_with("{\"jsonrpc\":\"2.0\","), "reply is not a JSON-RPC message: {reply}");
        assert!(serde_json::from_str::<serde_json::Value>(reply).is_ok(), "reply is not JSON: {reply}");
    }
    while engine.poll_output().is_some() {}
    // Bad input never changes a stored task (a valid cancel, update or answer may;
    // escapes could spell one).
    let after: Vec<_> = ids.iter().map(|id| engine.sdk_store().get_task(id, Some("a")).map(|t| t.to_json())).collect();
    let may_change = ["cancel", "update", "input", "\\"].iter().any(|w| text.contains(w));
    if !may_change {
        assert_eq!(before, after);
    }
});
