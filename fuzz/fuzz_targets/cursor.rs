//! Arbitrary strings as tasks/list cursors: never a panic, never a page of another context.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_task_core::{Config, Engine, ManualClock, RequestKind, SequentialIds, TtlRequest};

fuzz_target!(|cursor: &str| {
    let clock = ManualClock::new(1_764_066_600_000);
    let config = Config { page_size: 1, cursor_key: Some([9; 16]), ..Config::default() };
    let mut engine = Engine::with_sources(config, Box::new(clock), Box::new(SequentialIds::new("t")));
    for ctx in ["a", "b", "a"] {
        engine.sdk_store().create_task(Some(ctx), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    }
    if let Ok(page) = engine.sdk_store().list_tasks(Some("b"), Some(cursor)) {
        assert!(page.tasks.iter().all(|t| t.task_id == "t2"), "only b's tasks");
    }
    let message = serde_json_string(cursor);
    let _ =
        engine.handle_message(&format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{{"cursor":{message}}}}}"#), Some("a"));
});

fn serde_json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
