//! Inputs found by fuzzing, kept as tests.

mod common;
use common::*;
use mcp_task_core::{Event, Output};
use serde_json::json;

/// fuzz/sequence: a `ttl: 0` task's deadline is due the moment it is created;
/// the host learns so from `next_deadline` and one `handle_timeout` clears it.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn ttl_zero_is_due_at_creation_and_cleared_by_one_timeout() {
    let mut rig = Rig::server();
    rig.engine.register_tool("x", mcp_task_core::TaskSupport::Optional);
    rig.call_tool_task(Some("a"), "x", json!({"ttl": 0}));
    rig.drain();
    assert_eq!(rig.engine.next_deadline(), Some(T0), "due now: wake at once");
    rig.engine.handle_timeout();
    assert_eq!(rig.engine.next_deadline(), None);
    assert!(matches!(&rig.drain()[..], [Output::Event(Event::Expired { .. })]));
}
