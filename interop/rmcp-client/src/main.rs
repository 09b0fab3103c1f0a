//! Test-only interop client: rmcp 3.x (the official Rust SDK) as a 2026-07-28 client of
//! `examples/sdk2-server` (SDK 2.x + mcp-task-core/server), over Streamable HTTP, through the
//! tasks extension: a task with input answered by `tasks/update`, a task cancelled while it
//! waits for input, a tool error, a JSON-RPC error, a plain tool, an unknown task. Prints a
//! transcript; exits 1 if anything is not as the spec says.
//!
//!   MCP_URL=http://127.0.0.1:3000/mcp cargo run --manifest-path interop/rmcp-client/Cargo.toml

use rmcp::model::ProtocolVersion;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, ElicitationCapability, ExtensionCapabilities,
    FormElicitationCapability, GetTaskParams, Implementation, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, Peer, RoleClient};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Duration;

struct Checks(Vec<String>);

impl Checks {
    fn check(&mut self, ok: bool, what: &str) {
        if !ok {
            println!("    !! unexpected: {what}");
            self.0.push(what.to_owned());
        }
    }
}

fn short(id: &str) -> &str {
    &id[..id.len().min(8)]
}

fn text_of(result: &serde_json::Map<String, Value>) -> String {
    result["content"].as_array().map(|c| c.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join(" ")).unwrap_or_default()
}

fn args(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

/// Calls a tool that must answer with a task; returns its ID.
async fn start(peer: &Peer<RoleClient>, checks: &mut Checks, name: &str, arguments: Value) -> Option<String> {
    println!("  -> tools/call {name} {arguments}");
    match peer.call_tool_once(CallToolRequestParams::new(name.to_owned()).with_arguments(args(arguments))).await {
        Ok(CallToolResponse::Task(created)) => {
            println!(
                "    task {} created: {:?}, ttlMs {:?}, pollIntervalMs {:?}",
                short(&created.task.task_id),
                created.task.status,
                created.task.ttl_ms,
                created.task.poll_interval_ms
            );
            Some(created.task.task_id)
        }
        other => {
            checks.check(false, &format!("{name} answers with a CreateTaskResult, got {other:?}"));
            None
        }
    }
}

/// Polls tasks/get until `done(payload)`; prints each new status.
async fn poll(peer: &Peer<RoleClient>, task_id: &str, done: impl Fn(&TaskPayload) -> bool) -> Option<TaskPayload> {
    let mut last = String::new();
    for _ in 0..500 {
        let got = match peer.get_task(GetTaskParams::new(task_id.to_owned())).await {
            Ok(got) => got,
            Err(e) => {
                println!("    tasks/get failed: {e}");
                return None;
            }
        };
        let line =
            format!("{:?}{}", got.task.task.status, got.task.task.status_message.as_deref().map(|m| format!(" - {m}")).unwrap_or_default());
        if line != last {
            println!("    status: {line}");
            last = line;
        }
        if done(&got.task.payload) {
            return Some(got.task.payload);
        }
        tokio::time::sleep(Duration::from_millis(got.task.task.poll_interval_ms.unwrap_or(100).min(100))).await;
    }
    None
}

fn terminal(p: &TaskPayload) -> bool {
    matches!(p, TaskPayload::Completed { .. } | TaskPayload::Failed { .. } | TaskPayload::Cancelled)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::var("MCP_URL").unwrap_or_else(|_| "http://127.0.0.1:3000/mcp".to_owned());
    println!("MCP server: {url} (rmcp client, protocol 2026-07-28, tasks extension and form elicitation declared)");
    // The builder needs rmcp's `server` feature; the fields are public.
    let mut capabilities = ClientCapabilities::default();
    capabilities.extensions = Some(ExtensionCapabilities::from([("io.modelcontextprotocol/tasks".to_owned(), serde_json::Map::new())]));
    // The tasks below ask for input: a server may ask only what the client declared (mrtr.mdx).
    let mut elicitation = ElicitationCapability::new();
    elicitation.form = Some(FormElicitationCapability::new());
    capabilities.elicitation = Some(elicitation);
    let config = ClientConfig::new(capabilities, Implementation::new("rmcp-client-interop", "0.0.0"));
    // `serve` is the 2025-11-25 initialize handshake; the 2026-07-28 lifecycle is server/discover.
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let client = match config.serve_with_lifecycle(StreamableHttpClientTransport::from_uri(url.as_str()), lifecycle).await {
        Ok(client) => client,
        Err(e) => {
            println!("connect failed: {e}");
            std::process::exit(1);
        }
    };
    let peer = client.peer().clone();
    let mut checks = Checks(Vec::new());

    println!("\n  1. a task that asks for input");
    if let Some(id) = start(&peer, &mut checks, "plan_trip", json!({"city": "Lisbon", "days": 2})).await {
        let waiting = poll(&peer, &id, |p| matches!(p, TaskPayload::InputRequired { .. }) || terminal(p)).await;
        match waiting {
            Some(TaskPayload::InputRequired { input_requests }) => {
                let mut responses = BTreeMap::new();
                for (key, request) in &input_requests {
                    println!("    <- input request {key}: {}", serde_json::to_string(request).unwrap_or_default());
                    responses.insert(key.clone(), json!({"action": "accept", "content": {"pace": "packed"}}));
                }
                println!("    -> tasks/update: accept {{\"pace\":\"packed\"}}");
                let ack = peer.update_task(UpdateTaskParams::new(id.clone(), responses)).await;
                checks.check(ack.is_ok(), &format!("tasks/update acknowledged: {ack:?}"));
                match poll(&peer, &id, terminal).await {
                    Some(TaskPayload::Completed { result }) => {
                        println!("    <= completed: \"{}\"", text_of(&result));
                        checks.check(text_of(&result) == "2-day packed plan for Lisbon ready", "the answer reached the task");
                        checks.check(result.get("resultType") == Some(&json!("complete")), "the inlined result carries resultType");
                    }
                    other => checks.check(false, &format!("plan_trip completes, got {other:?}")),
                }
            }
            other => checks.check(false, &format!("plan_trip asks for input, got {other:?}")),
        }
    }

    println!("\n  2. a task cancelled while it waits for input");
    if let Some(id) = start(&peer, &mut checks, "plan_trip", json!({"city": "Oslo", "days": 5})).await {
        poll(&peer, &id, |p| matches!(p, TaskPayload::InputRequired { .. }) || terminal(p)).await;
        println!("    -> tasks/cancel {}", short(&id));
        let ack = peer.cancel_task(CancelTaskParams::new(id.clone())).await;
        checks.check(ack.is_ok(), &format!("tasks/cancel acknowledged: {ack:?}"));
        let end = poll(&peer, &id, terminal).await;
        checks.check(matches!(end, Some(TaskPayload::Cancelled)), &format!("the task is cancelled, got {end:?}"));
        let again = peer.cancel_task(CancelTaskParams::new(id.clone())).await;
        checks.check(again.is_ok(), "tasks/cancel on a cancelled task is acknowledged again");
        if matches!(end, Some(TaskPayload::Cancelled)) {
            println!("    <= cancelled");
        }
    }

    println!("\n  3. a tool error and a JSON-RPC error");
    if let Some(id) = start(&peer, &mut checks, "failing_job", json!({})).await {
        match poll(&peer, &id, terminal).await {
            Some(TaskPayload::Completed { result }) => {
                println!("    <= completed (isError: {}): \"{}\"", result["isError"], text_of(&result));
                checks.check(result["isError"] == json!(true), "a tool error is a completed task with isError");
            }
            other => checks.check(false, &format!("failing_job completes with isError, got {other:?}")),
        }
    }
    if let Some(id) = start(&peer, &mut checks, "protocol_error_job", json!({})).await {
        match poll(&peer, &id, terminal).await {
            Some(TaskPayload::Failed { error }) => {
                println!("    <= failed: {}", Value::Object(error.clone()));
                checks.check(error["code"] == json!(-32603), "a JSON-RPC error fails the task with its code");
            }
            other => checks.check(false, &format!("protocol_error_job fails, got {other:?}")),
        }
    }

    println!("\n  4. a plain tool, and an unknown task");
    match peer.call_tool_once(CallToolRequestParams::new("greet").with_arguments(args(json!({"name": "Ferris"})))).await {
        Ok(CallToolResponse::Complete(result)) => {
            let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
            println!("  -> tools/call greet: \"{text}\"");
            checks.check(text == "Hello, Ferris!", "greet answers at once");
        }
        other => checks.check(false, &format!("greet answers at once, got {other:?}")),
    }
    match peer.get_task(GetTaskParams::new("no-such-task")).await {
        Err(e) => {
            println!("  -> tasks/get no-such-task: {e}");
            checks.check(e.to_string().contains("-32602"), "an unknown task is -32602");
        }
        Ok(got) => checks.check(false, &format!("an unknown task is refused, got {got:?}")),
    }

    let _ = client.cancel().await;
    println!();
    if checks.0.is_empty() {
        println!("All checks passed.");
    } else {
        println!("{} check(s) failed:", checks.0.len());
        for f in &checks.0 {
            println!("  - {f}");
        }
        std::process::exit(1);
    }
}
