//! Model-based property test: random operation sequences against a plain
//! reference model of the spec's task lifecycle. After every step the engine's
//! observable answers equal the model's.

mod common;
use common::*;
use mcp_task_core::{Config, TaskSupport, TtlPolicy};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const CONTEXTS: [&str; 2] = ["a", "b"];

#[derive(Debug, Clone)]
enum Op {
    Create { ctx: usize, ttl: Option<u64> },
    Complete { task: usize, is_error: bool },
    Fail { task: usize },
    RequestInput { task: usize },
    Resume { task: usize },
    Cancel { ctx: usize, task: usize },
    Get { ctx: usize, task: usize },
    Result { ctx: usize, task: usize },
    List { ctx: usize },
    Advance { ms: u64 },
    Garbage { ctx: usize, text: String },
    // The tasks extension (2026-07-28) on the same engine.
    CreateExt { ctx: usize },
    GetExt { ctx: usize, task: usize },
    CancelExt { ctx: usize, task: usize },
}

fn op() -> impl Strategy<Value = Op> {
    let ctx = 0..CONTEXTS.len();
    let task = 0usize..12;
    prop_oneof![
        3 => (ctx.clone(), prop::option::of(0u64..4_000)).prop_map(|(ctx, ttl)| Op::Create { ctx, ttl }),
        2 => (task.clone(), any::<bool>()).prop_map(|(task, is_error)| Op::Complete { task, is_error }),
        1 => task.clone().prop_map(|task| Op::Fail { task }),
        1 => task.clone().prop_map(|task| Op::RequestInput { task }),
        1 => task.clone().prop_map(|task| Op::Resume { task }),
        1 => (ctx.clone(), task.clone()).prop_map(|(ctx, task)| Op::Cancel { ctx, task }),
        2 => (ctx.clone(), task.clone()).prop_map(|(ctx, task)| Op::Get { ctx, task }),
        1 => (ctx.clone(), task.clone()).prop_map(|(ctx, task)| Op::Result { ctx, task }),
        1 => ctx.clone().prop_map(|ctx| Op::List { ctx }),
        1 => (0u64..2_500).prop_map(|ms| Op::Advance { ms }),
        1 => (ctx.clone(), "\\PC{0,40}").prop_map(|(ctx, text)| Op::Garbage { ctx, text }),
        2 => ctx.clone().prop_map(|ctx| Op::CreateExt { ctx }),
        2 => (ctx.clone(), task.clone()).prop_map(|(ctx, task)| Op::GetExt { ctx, task }),
        1 => (ctx, task).prop_map(|(ctx, task)| Op::CancelExt { ctx, task }),
    ]
}

#[derive(Debug, Clone, PartialEq)]
enum St {
    Working,
    Input,
    Completed,
    Failed,
    Cancelled,
}

impl St {
    fn wire(&self) -> &'static str {
        match self {
            St::Working => "working",
            St::Input => "input_required",
            St::Completed => "completed",
            St::Failed => "failed",
            St::Cancelled => "cancelled",
        }
    }
    fn terminal(&self) -> bool {
        matches!(self, St::Completed | St::Failed | St::Cancelled)
    }
}

#[derive(Debug, Clone)]
struct ModelTask {
    ctx: usize,
    /// Created through the tasks extension (isError: true completes it).
    ext: bool,
    status: St,
    deadline: u64,
    outcome: Option<Value>,
}

#[derive(Default)]
struct Model {
    now: u64,
    tasks: BTreeMap<String, ModelTask>,
    expired: BTreeMap<String, usize>,
    created: Vec<String>,
}

impl Model {
    fn sweep(&mut self) {
        let now = self.now;
        let gone: Vec<String> = self.tasks.iter().filter(|(_, t)| t.deadline <= now).map(|(id, _)| id.clone()).collect();
        for id in gone {
            let t = self.tasks.remove(&id).unwrap();
            self.expired.insert(id, t.ctx);
        }
    }
    /// What `tasks/get` from `ctx` must say: Ok(status) or the error message.
    fn visible(&self, ctx: usize, id: &str) -> Result<&ModelTask, &'static str> {
        match self.tasks.get(id) {
            Some(t) if t.ctx == ctx => Ok(t),
            Some(_) => Err("Task not found"),
            None if self.expired.get(id) == Some(&ctx) => Err("Task has expired"),
            None => Err("Task not found"),
        }
    }
    fn pick(&self, i: usize) -> String {
        if self.created.is_empty() || i >= self.created.len() + 2 {
            return format!("task-unknown-{i}");
        }
        self.created[i % self.created.len()].clone()
    }
}

/// A request in the tasks extension from a declaring client; the reply, parsed.
fn ext_request(rig: &mut Rig, ext_schema: &mut Schema, ctx: usize, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}
    });
    let id = rig.id();
    let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    let reply = rig.raw(&text, Some(CONTEXTS[ctx])).expect("an immediate reply");
    assert_eq!(reply["id"], json!(id));
    if let Some(ack) = reply.get("result").filter(|r| r.as_object().is_some_and(|o| o.len() == 1)) {
        ext_schema.check("CancelTaskResult", ack);
    }
    reply
}

fn run(ops: Vec<Op>) {
    let config = Config {
        ttl: TtlPolicy { default_ms: 3_000, max_ms: 3_500, allow_unlimited: false },
        page_size: 2,
        cursor_key: Some([3; 16]),
        ..Config::default()
    };
    let mut rig = Rig::new(config);
    rig.engine.register_tool("t", TaskSupport::Optional);
    let mut ext_schema = Schema::extension();
    let mut m = Model { now: T0, ..Default::default() };
    for op in ops {
        match op {
            Op::Create { ctx, ttl } => {
                let task = match ttl {
                    Some(ms) => json!({"ttl": ms}),
                    None => json!({}),
                };
                let r = rig.call_tool_task(Some(CONTEXTS[ctx]), "t", task);
                let id = r["result"]["task"]["taskId"].as_str().unwrap().to_owned();
                let granted = ttl.unwrap_or(3_000).min(3_500);
                assert_eq!(r["result"]["task"]["ttl"], granted);
                m.sweep();
                m.tasks.insert(id.clone(), ModelTask { ctx, ext: false, status: St::Working, deadline: m.now + granted, outcome: None });
                m.created.push(id);
                m.sweep();
            }
            Op::Complete { task, is_error } => {
                let id = m.pick(task);
                let result = json!({"content": [{"type": "text", "text": format!("r-{id}")}], "isError": is_error});
                let got = rig.engine.complete(&id, &result.to_string());
                m.sweep();
                match m.tasks.get_mut(&id) {
                    None => assert_eq!(got.unwrap_err().code(), "unknown_task"),
                    Some(t) if t.status == St::Cancelled => assert_eq!(got.unwrap_err().code(), "task_cancelled"),
                    Some(t) if t.status.terminal() => assert_eq!(got.unwrap_err().code(), "already_terminal"),
                    Some(t) => {
                        got.unwrap();
                        t.status = if is_error && !t.ext { St::Failed } else { St::Completed };
                        t.outcome = Some(json!({"result": result}));
                    }
                }
            }
            Op::Fail { task } => {
                let id = m.pick(task);
                let error = json!({"code": -32001, "message": format!("e-{id}")});
                let got = rig.engine.fail(&id, &error.to_string());
                m.sweep();
                match m.tasks.get_mut(&id) {
                    None => assert_eq!(got.unwrap_err().code(), "unknown_task"),
                    Some(t) if t.status == St::Cancelled => assert_eq!(got.unwrap_err().code(), "task_cancelled"),
                    Some(t) if t.status.terminal() => assert_eq!(got.unwrap_err().code(), "already_terminal"),
                    Some(t) => {
                        got.unwrap();
                        t.status = St::Failed;
                        t.outcome = Some(json!({"error": error}));
                    }
                }
            }
            Op::RequestInput { task } => {
                let id = m.pick(task);
                let got = rig.engine.request_input(
                    &id,
                    "elicitation/create",
                    Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#),
                );
                m.sweep();
                match m.tasks.get_mut(&id) {
                    None => assert_eq!(got.unwrap_err().code(), "unknown_task"),
                    Some(t) if t.status.terminal() => assert!(got.is_err()),
                    Some(t) => {
                        got.unwrap();
                        t.status = St::Input;
                    }
                }
            }
            Op::Resume { task } => {
                let id = m.pick(task);
                let got = rig.engine.resume(&id);
                m.sweep();
                match m.tasks.get_mut(&id) {
                    None => assert_eq!(got.unwrap_err().code(), "unknown_task"),
                    Some(t) if t.status == St::Input => {
                        got.unwrap();
                        t.status = St::Working;
                    }
                    Some(_) => assert!(got.is_err()),
                }
            }
            Op::Cancel { ctx, task } => {
                let id = m.pick(task);
                let r = rig.ask(Some(CONTEXTS[ctx]), "tasks/cancel", json!({"taskId": id}), "CancelTaskResult").unwrap();
                m.sweep();
                match m.visible(ctx, &id) {
                    Err(why) => assert_eq!(error_message(&r), format!("Failed to cancel task: {why}")),
                    Ok(t) if t.status.terminal() => {
                        assert_eq!(error_message(&r), format!("Cannot cancel task: already in terminal status '{}'", t.status.wire()))
                    }
                    Ok(_) => {
                        assert_eq!(r["result"]["status"], "cancelled");
                        m.tasks.get_mut(&id).unwrap().status = St::Cancelled;
                    }
                }
            }
            Op::Get { ctx, task } => {
                let id = m.pick(task);
                let r = rig.get(Some(CONTEXTS[ctx]), &id);
                m.sweep();
                match m.visible(ctx, &id) {
                    Err(why) => assert_eq!(error_message(&r), format!("Failed to retrieve task: {why}")),
                    Ok(t) => assert_eq!(r["result"]["status"], t.status.wire()),
                }
            }
            Op::Result { ctx, task } => {
                let id = m.pick(task);
                let r = rig.ask(Some(CONTEXTS[ctx]), "tasks/result", json!({"taskId": id}), "CallToolResult");
                m.sweep();
                match m.visible(ctx, &id) {
                    Err(why) => assert_eq!(error_message(&r.unwrap()), format!("Failed to retrieve task: {why}")),
                    Ok(t) if !t.status.terminal() => assert!(r.is_none(), "blocks while not terminal"),
                    Ok(t) => {
                        let r = r.unwrap();
                        match &t.outcome {
                            Some(o) if o.get("error").is_some() => assert_eq!(r["error"], o["error"]),
                            Some(o) => assert_eq!(r["result"]["content"], o["result"]["content"]),
                            None => assert!(error_message(&r).contains("cancelled")),
                        }
                    }
                }
            }
            Op::List { ctx } => {
                let mut seen = Vec::new();
                let mut cursor: Option<String> = None;
                loop {
                    let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
                    let r = rig.ask(Some(CONTEXTS[ctx]), "tasks/list", params, "ListTasksResult").unwrap();
                    for t in r["result"]["tasks"].as_array().unwrap() {
                        seen.push((t["taskId"].as_str().unwrap().to_owned(), t["status"].as_str().unwrap().to_owned()));
                    }
                    match r["result"]["nextCursor"].as_str() {
                        Some(c) => cursor = Some(c.to_owned()),
                        None => break,
                    }
                }
                m.sweep();
                let expected: Vec<(String, String)> = m
                    .created
                    .iter()
                    .filter_map(|id| m.tasks.get(id).filter(|t| t.ctx == ctx).map(|t| (id.clone(), t.status.wire().to_owned())))
                    .collect();
                assert_eq!(seen, expected, "list shows exactly the caller's live tasks, in creation order");
            }
            Op::Advance { ms } => {
                rig.clock.advance(ms);
                m.now += ms;
                rig.engine.handle_timeout();
                m.sweep();
            }
            Op::CreateExt { ctx } => {
                let r = ext_request(&mut rig, &mut ext_schema, ctx, "tools/call", json!({"name": "t"}));
                ext_schema.check("CreateTaskResult", &r["result"]);
                let id = r["result"]["taskId"].as_str().unwrap().to_owned();
                assert_eq!(r["result"]["ttlMs"], 3_000);
                m.sweep();
                m.tasks.insert(id.clone(), ModelTask { ctx, ext: true, status: St::Working, deadline: m.now + 3_000, outcome: None });
                m.created.push(id);
                m.sweep();
            }
            Op::GetExt { ctx, task } => {
                let id = m.pick(task);
                let r = ext_request(&mut rig, &mut ext_schema, ctx, "tasks/get", json!({"taskId": id}));
                m.sweep();
                match m.visible(ctx, &id) {
                    Err(why) => assert_eq!(error_message(&r), format!("Failed to retrieve task: {why}")),
                    Ok(t) => {
                        ext_schema.check("GetTaskResult", &r["result"]);
                        // The extension shows a tool error as a completed call, whatever flow made the task.
                        let shown = match (&t.status, &t.outcome) {
                            (St::Failed, Some(o)) if o.get("result").is_some() => St::Completed,
                            (s, _) => s.clone(),
                        };
                        assert_eq!(r["result"]["status"], shown.wire());
                        match &t.outcome {
                            Some(o) if o.get("error").is_some() => assert_eq!(r["result"]["error"], o["error"]),
                            Some(o) => {
                                // Shown as the 2026-07-28 result it is: with resultType ("complete" unless it names one).
                                let mut shown = o["result"].clone();
                                if shown.get("resultType").is_none() {
                                    shown["resultType"] = json!("complete");
                                }
                                assert_eq!(r["result"]["result"], shown)
                            }
                            None => assert!(r["result"].get("result").is_none() && r["result"].get("error").is_none()),
                        }
                    }
                }
            }
            Op::CancelExt { ctx, task } => {
                let id = m.pick(task);
                let r = ext_request(&mut rig, &mut ext_schema, ctx, "tasks/cancel", json!({"taskId": id}));
                m.sweep();
                match m.visible(ctx, &id) {
                    Err(why) => assert_eq!(error_message(&r), format!("Failed to cancel task: {why}")),
                    Ok(t) => {
                        assert_eq!(r["result"], json!({"resultType": "complete"}), "an ack, also for a finished task");
                        if !t.status.terminal() {
                            m.tasks.get_mut(&id).unwrap().status = St::Cancelled;
                        }
                    }
                }
            }
            Op::Garbage { ctx, text } => {
                // Whatever it is, it must not panic or touch a task; anything
                // that parses as a request gets an answer or is forwarded.
                let _ = rig.engine.handle_message(&text, Some(CONTEXTS[ctx]));
            }
        }
        // A task whose deadline is now (ttl 0) is deleted by the next call into the engine.
        rig.engine.handle_timeout();
        rig.drain();
        assert_eq!(rig.engine.task_count(), m.tasks.len(), "live task count");
        assert_eq!(rig.engine.next_deadline(), m.tasks.values().map(|t| t.deadline).min(), "next deadline");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn engine_matches_the_model(ops in prop::collection::vec(op(), 1..60)) {
        run(ops);
    }
}
