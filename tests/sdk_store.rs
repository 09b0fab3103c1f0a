//! The SDK 1.x store calls (`update_task_status`, `store_task_result`,
//! `task_result`), the host message queue on the task channel, and the one
//! answer every host call gives for a cancelled task.

mod common;
use common::*;
use mcp_task_core::{Config, Limits, Outcome, RequestKind, TaskBinding, TtlRequest};

const A: Option<&str> = Some("a");
const B: Option<&str> = Some("b");
const AS_A: Option<TaskBinding<&str>> = Some(TaskBinding::Context("a"));
const AS_B: Option<TaskBinding<&str>> = Some(TaskBinding::Context("b"));
const PING: &str = r#"{"type":"request","message":{"jsonrpc":"2.0","id":0,"method":"ping"},"timestamp":0}"#;

fn note(n: u32) -> String {
    format!(
        r#"{{"type":"notification","message":{{"jsonrpc":"2.0","method":"notifications/message","params":{{"n":{n}}}}},"timestamp":{n}}}"#
    )
}

fn create(rig: &mut Rig, ctx: Option<&str>) -> String {
    rig.engine.sdk_store().create_task(ctx, RequestKind::ToolsCall, TtlRequest::Ms(60_000), None, None).unwrap().task_id
}

fn status_and_message(rig: &mut Rig, id: &str) -> (String, Option<String>) {
    let t = rig.engine.sdk_store().get_task(id, A).unwrap();
    (t.status.as_str().to_owned(), t.status_message)
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn update_task_status_keeps_the_message_and_refuses_terminal_moves_in_the_sdk_words() {
    let mut rig = Rig::server();
    let id = create(&mut rig, A);
    rig.engine.sdk_store().update_task_status(&id, A, "working", Some("step 1")).unwrap();
    assert_eq!(status_and_message(&mut rig, &id), ("working".into(), Some("step 1".into())));
    rig.engine.sdk_store().update_task_status(&id, A, "input_required", None).unwrap();
    assert_eq!(status_and_message(&mut rig, &id), ("input_required".into(), Some("step 1".into())), "message kept");
    rig.engine.sdk_store().update_task_status(&id, A, "input_required", Some("")).unwrap();
    assert_eq!(status_and_message(&mut rig, &id).1.as_deref(), Some("step 1"), "an empty message is no message");
    rig.engine.sdk_store().update_task_status(&id, A, "working", Some("answered")).unwrap();
    assert_eq!(status_and_message(&mut rig, &id).1.as_deref(), Some("answered"));

    let e = rig.engine.sdk_store().update_task_status(&id, A, "paused", None).unwrap_err();
    assert_eq!((e.code, e.rpc_code, e.message.as_str()), ("invalid_argument", -32602, "Unknown task status 'paused'"));
    let e = rig.engine.sdk_store().update_task_status(&id, B, "working", None).unwrap_err();
    assert_eq!((e.code, e.rpc_code), ("unknown_task", -32602));
    assert_eq!(e.message, format!("Task not found: {id}"), "another context's task is not found");

    rig.engine.sdk_store().update_task_status(&id, A, "cancelled", None).unwrap();
    assert_eq!(status_and_message(&mut rig, &id), ("cancelled".into(), Some("The task was cancelled by request.".into())));
    for to in ["working", "input_required", "completed", "failed", "cancelled"] {
        let e = rig.engine.sdk_store().update_task_status(&id, A, to, None).unwrap_err();
        assert_eq!((e.code, e.rpc_code), ("already_terminal", -32602));
        assert_eq!(e.message, format!("Cannot update task {id} from terminal status 'cancelled' to '{to}'"));
    }
    // A terminal status without a result: the message is not carried over.
    let done = create(&mut rig, A);
    rig.engine.sdk_store().update_task_status(&done, A, "working", Some("busy")).unwrap();
    rig.engine.sdk_store().update_task_status(&done, A, "completed", None).unwrap();
    assert_eq!(status_and_message(&mut rig, &done), ("completed".into(), None));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn store_task_result_and_task_result() {
    let mut rig = Rig::server();
    let id = create(&mut rig, A);
    let e = rig.engine.sdk_store().get_task_result(&id, A).cloned().unwrap_err();
    assert_eq!((e.code, e.rpc_code, e.message.clone()), ("no_result", -32603, format!("Task {id} is 'working' and has no stored result")));
    let e = rig.engine.sdk_store().store_task_result(&id, A, "working", Outcome::Result("{}".into())).unwrap_err();
    assert_eq!(e.message, "A result can be stored only with status 'completed' or 'failed', not 'working'");
    let error = Outcome::Error(r#"{"code":-32011,"message":"Quota exceeded"}"#.into());
    let e = rig.engine.sdk_store().store_task_result(&id, A, "completed", error.clone()).unwrap_err();
    assert_eq!((e.code, e.message.as_str()), ("invalid_argument", "A JSON-RPC error can be stored only with status 'failed'"));
    let e = rig.engine.sdk_store().store_task_result(&id, A, "completed", Outcome::Result("[1]".into())).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert_eq!(rig.engine.sdk_store().store_task_result(&id, B, "failed", error.clone()).unwrap_err().code, "unknown_task");
    rig.engine.sdk_store().store_task_result(&id, A, "failed", error.clone()).unwrap();
    assert_eq!(rig.engine.sdk_store().get_task_result(&id, A).cloned().unwrap(), error);
    let e = rig.engine.sdk_store().store_task_result(&id, A, "completed", Outcome::Result("{}".into())).unwrap_err();
    assert_eq!((e.code, e.rpc_code), ("already_terminal", -32602));

    let cancelled = create(&mut rig, A);
    rig.engine.sdk_store().cancel_task(&cancelled, A, None).unwrap();
    let e = rig.engine.sdk_store().get_task_result(&cancelled, A).cloned().unwrap_err();
    assert_eq!(e.message, format!("Task {cancelled} was cancelled before it produced a result"));
    let e = rig.engine.sdk_store().store_task_result(&cancelled, A, "completed", Outcome::Result("{}".into())).unwrap_err();
    assert_eq!((e.code, e.rpc_code), ("task_cancelled", -32602));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_host_and_store_call_after_a_cancel_is_task_cancelled() {
    let mut rig = Rig::server();
    let id = rig.start(A);
    rig.engine.cancel(&id, None).unwrap();
    let e = &mut rig.engine;
    let codes = [
        ("complete", e.complete(&id, r#"{"content":[]}"#).unwrap_err()),
        ("complete with bad JSON", e.complete(&id, "not json").unwrap_err()),
        ("fail", e.fail(&id, r#"{"code":1,"message":"m"}"#).unwrap_err()),
        ("request_input", e.request_input(&id, "elicitation/create", None).unwrap_err()),
        ("resume", e.resume(&id).unwrap_err()),
        ("set_status_message", e.set_status_message(&id, Some("x")).unwrap_err()),
        ("report_progress", e.report_progress(&id, 1.0, None, None).unwrap_err()),
        ("cancel", e.cancel(&id, None).unwrap_err()),
        ("cancel_task", e.sdk_store().cancel_task(&id, A, None).unwrap_err()),
    ];
    for (call, err) in codes {
        assert_eq!(err.code(), "task_cancelled", "{call}: {err}");
        assert_eq!(err.rpc_code(), -32602, "{call}");
    }
    // The SDK store's result call is refused as every host call is; a status move out of a
    // cancelled task is refused in the SDK store's words.
    let stored = e.sdk_store().store_task_result(&id, A, "completed", Outcome::Result("{}".into())).unwrap_err();
    assert_eq!((stored.code, stored.rpc_code), ("task_cancelled", -32602));
    let moved = e.sdk_store().update_task_status(&id, A, "working", None).unwrap_err();
    assert_eq!((moved.code, moved.rpc_code), ("already_terminal", -32602));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn message_queue_belongs_to_the_task_context_and_is_fifo() {
    let mut rig = Rig::server();
    let id = create(&mut rig, A);
    // Named no context: the queue takes the task's.
    rig.engine.sdk_store().enqueue_message(&id, None, &note(1), None).unwrap();
    assert_eq!(rig.engine.sdk_store().enqueue_message(&id, AS_B, &note(2), None).unwrap_err().message, format!("Task not found: {id}"));
    assert!(rig.engine.sdk_store().dequeue_messages(&id, B, true).is_empty());
    assert!(rig.engine.sdk_store().dequeue_messages(&id, None, true).is_empty());
    rig.engine.sdk_store().enqueue_message(&id, AS_A, &note(2), None).unwrap();
    assert_eq!(rig.engine.sdk_store().queued_message_count(Some(&id)), 2);
    assert_eq!(rig.engine.sdk_store().dequeue_messages(&id, A, false), vec![note(1)]);
    assert_eq!(rig.engine.sdk_store().dequeue_messages(&id, A, true), vec![note(2)]);
    assert!(rig.engine.sdk_store().dequeue_messages(&id, A, true).is_empty());
    // Not a task of this engine: the first context named owns it; unnamed, anyone reads.
    rig.engine.sdk_store().enqueue_message("loose", None, PING, None).unwrap();
    assert_eq!(rig.engine.sdk_store().dequeue_messages("loose", B, false), vec![PING.to_owned()]);
    for bad in ["null", "[]", r#"{"type":"other"}"#, "{", r#"{"message":{}}"#] {
        let e = rig.engine.sdk_store().enqueue_message(&id, AS_A, bad, None).unwrap_err();
        assert_eq!((e.code, e.rpc_code), ("invalid_argument", -32602), "{bad}");
    }
    assert_eq!(rig.engine.sdk_store().queued_message_count(None), 0);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn message_queue_survives_the_task_end_and_goes_with_its_expiry() {
    let mut rig = Rig::server();
    let id = rig.engine.sdk_store().create_task(A, RequestKind::ToolsCall, TtlRequest::Ms(1_000), None, None).unwrap().task_id;
    rig.engine.sdk_store().enqueue_message(&id, AS_A, PING, None).unwrap();
    rig.engine.complete(&id, r#"{"content":[]}"#).unwrap();
    assert_eq!(rig.engine.sdk_store().queued_message_count(Some(&id)), 1, "read before the result");
    rig.clock.advance(1_000);
    rig.engine.handle_timeout();
    assert_eq!(rig.engine.sdk_store().queued_message_count(None), 0);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn message_queue_limit_is_the_side_channel_limit() {
    let mut rig = Rig::new(Config { limits: Limits { max_queued_messages_per_task: 3, ..Limits::default() }, ..Config::default() });
    for n in 0..3 {
        rig.engine.sdk_store().enqueue_message("t", AS_A, &note(n), None).unwrap();
    }
    let e = rig.engine.sdk_store().enqueue_message("t", AS_A, &note(3), None).unwrap_err();
    assert_eq!((e.code, e.rpc_code), ("limit_exceeded", -32603));
    assert_eq!(e.message, "Task message queue overflow: task t already has 3 queued messages (limit 3)");
    let e = rig.engine.sdk_store().enqueue_message("u", AS_A, &note(0), Some(0)).unwrap_err();
    assert_eq!(e.message, "Task message queue overflow: task u already has 0 queued messages (limit 0)", "a call's cap lowers it");
    // No cap at all: what a drop-in for an unbounded queue configures.
    let mut rig =
        Rig::new(Config { limits: Limits { max_queued_messages_per_task: usize::MAX, ..Limits::default() }, ..Config::default() });
    for n in 0..1_001 {
        rig.engine.sdk_store().enqueue_message("t", AS_A, &note(n), None).unwrap();
    }
    assert_eq!(rig.engine.sdk_store().queued_message_count(Some("t")), 1_001);
}
