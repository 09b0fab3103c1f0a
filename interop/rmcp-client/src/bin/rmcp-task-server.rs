//! Test-only interop server: rmcp 3.x (the official Rust SDK) as a 2026-07-28 task server
//! (the tasks extension, `io.modelcontextprotocol/tasks`, SEP-2663) over Streamable HTTP on
//! 127.0.0.1, built on rmcp's own `TaskManager`. mcp-task-core's `TaskRequestor` drives it in
//! js-tests/requestor/rmcp-server.test.mjs. Tools, each run as a task for a request that
//! declares the extension:
//!
//! - `slow_echo {text, delayMs?}`: answers "echo: <text>" after `delayMs` (default 300);
//!   `tasks/cancel` stops it (cooperatively) and it ends `cancelled`.
//! - `ask_name {}`: asks for a name through `inputRequests` (an `elicitation/create`),
//!   answered by `tasks/update`; answers "Hello, <name>!". Only for a request that declares
//!   elicitation; otherwise an `isError` result at once.
//! - `failing_job {}`: the operation fails with a JSON-RPC error: the task ends `failed`.
//!
//! A request without the extension gets `slow_echo` run plainly. Prints
//! `listening on http://127.0.0.1:<port>/mcp` once it accepts connections.
//!
//!   cargo run --manifest-path interop/rmcp-client/Cargo.toml --bin rmcp-task-server -- [port]
//!   (or PORT=...; 0, the default, picks a free port)

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ContentBlock, CreateTaskResult, GetTaskParams,
    GetTaskResult, InputRequest, ServerCapabilities, ServerConfig, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskExit, TaskManager, TaskOptions};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, ServerHandler};
use serde_json::{json, Value};
use std::time::Duration;

/// One per request (the 2026-07-28 transport is stateless); every copy shares the tasks.
#[derive(Clone, Default)]
struct TaskServer {
    tasks: TaskManager,
}

fn text(t: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t)])
}

/// Short polls, so the test does not wait for rmcp's default 1 s interval.
fn options() -> TaskOptions {
    TaskOptions::new().with_ttl_ms(60_000).with_poll_interval_ms(50)
}

impl ServerHandler for TaskServer {
    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let caps = context.client_capabilities().unwrap_or_default();
        let as_task = caps.supports_tasks();
        let text_arg = args.get("text").and_then(Value::as_str).unwrap_or("").to_owned();
        let delay = Duration::from_millis(args.get("delayMs").and_then(Value::as_u64).unwrap_or(300));
        let task = match request.name.as_ref() {
            "slow_echo" if !as_task => {
                tokio::time::sleep(delay).await;
                return Ok(CallToolResponse::Complete(text(format!("echo: {text_arg}"))));
            }
            _ if !as_task => return Err(McpError::invalid_params(format!("{} runs only as a task", request.name), None)),
            "slow_echo" => self.tasks.spawn(options().with_status_message("echoing"), move |ctx| {
                Box::pin(async move {
                    // Cooperative cancellation (SEP-2663): stop and settle as `cancelled`.
                    tokio::select! {
                        _ = ctx.cancelled() => Err(TaskExit::Cancelled),
                        _ = tokio::time::sleep(delay) => Ok(text(format!("echo: {text_arg}"))),
                    }
                })
            }),
            // mrtr.mdx: a server MUST NOT send an inputRequests the client has not declared.
            "ask_name" if caps.elicitation.is_none() => {
                return Ok(CallToolResponse::Complete(CallToolResult::error(vec![ContentBlock::text("ask_name needs elicitation")])));
            }
            "ask_name" => self.tasks.spawn(options(), |ctx| {
                Box::pin(async move {
                    let request: InputRequest = serde_json::from_value(json!({
                        "method": "elicitation/create",
                        "params": {
                            "mode": "form",
                            "message": "What is your name?",
                            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
                        }
                    }))
                    .map_err(|e| McpError::internal_error(e.to_string(), None))?;
                    let answer = ctx.request_input("name", request).await?;
                    if answer["action"] != "accept" {
                        return Ok(CallToolResult::error(vec![ContentBlock::text(format!("no name: {}", answer["action"]))]));
                    }
                    Ok(text(format!("Hello, {}!", answer["content"]["name"].as_str().unwrap_or("?"))))
                })
            }),
            "failing_job" => self.tasks.spawn(options(), |_ctx| {
                Box::pin(async move {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    Err(TaskExit::Error(McpError::internal_error("the job failed: disk quota exceeded", Some(json!({"quota": "disk"})))))
                })
            }),
            other => return Err(McpError::invalid_params(format!("unknown tool {other}"), None)),
        };
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    async fn get_task(&self, request: GetTaskParams, _context: RequestContext<RoleServer>) -> Result<GetTaskResult, McpError> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    async fn update_task(&self, request: UpdateTaskParams, _context: RequestContext<RoleServer>) -> Result<(), McpError> {
        self.tasks.update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(&self, request: CancelTaskParams, _context: RequestContext<RoleServer>) -> Result<(), McpError> {
        self.tasks.cancel_task(&request.task_id)
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let port: u16 = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("PORT").ok())
        .map(|p| p.parse().expect("the port is a number"))
        .unwrap_or(0);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.expect("bind 127.0.0.1");
    let addr = listener.local_addr().expect("a local address");
    let server = TaskServer::default();
    let service = TowerToHyperService::new(StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    ));
    println!("listening on http://{addr}/mcp");
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let service = service.clone();
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}
