//! Structured sequences of peer messages and host calls against one engine.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use mcp_task_core::{Clock, Config, Engine, Limits, ManualClock, SequentialIds, TaskSupport, TtlPolicy};

#[derive(Arbitrary, Debug)]
enum Step {
    Create { ctx: u8, ttl: Option<u16>, token: bool },
    Get { ctx: u8, task: u8 },
    Result { ctx: u8, task: u8, id: u8 },
    List { ctx: u8, cursor: Option<String> },
    Cancel { ctx: u8, task: u8 },
    Complete { task: u8, is_error: bool },
    Fail { task: u8, code: i32 },
    RequestInput { task: u8 },
    Answer { ctx: u8, task: u8, n: u8 },
    Resume { task: u8 },
    Progress { task: u8, progress: f64, total: Option<f64> },
    Message { task: u8, text: Option<String> },
    CancelWait { ctx: u8, id: u8 },
    Advance { ms: u16 },
    Raw { ctx: u8, text: String },
    // The tasks extension (2026-07-28) on the same engine.
    CreateExt { ctx: u8, declared: bool },
    ExtTask { ctx: u8, task: u8, method: u8, declared: bool },
    UpdateExt { ctx: u8, task: u8, n: u8 },
    Listen { ctx: u8, task: u8, sub: u8 },
    Unlisten { ctx: u8, sub: u8 },
}

fn ext_meta(declared: bool) -> String {
    let ext = if declared { r#"{"io.modelcontextprotocol/tasks":{}}"# } else { "{}" };
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"extensions":{ext}}}}}"#
    )
}

fn ctx(c: u8) -> Option<&'static str> {
    ["a", "b", "c"].get(c as usize % 4).copied()
}

fuzz_target!(|steps: Vec<Step>| {
    let clock = ManualClock::new(1_764_066_600_000);
    let config = Config {
        ttl: TtlPolicy { default_ms: 5_000, max_ms: 20_000, allow_unlimited: true },
        page_size: 2,
        limits: Limits {
            max_running_tasks_per_key: 8,
            max_running_tasks_total: 16,
            max_queued_messages_per_task: 3,
            max_waiters_per_task: 2,
            ..Limits::default()
        },
        ..Config::default()
    };
    let mut e = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("t")));
    e.register_tool("x", TaskSupport::Optional);
    let id = |n: u8| format!("t{}", n % 20);
    for step in steps.into_iter().take(200) {
        match step {
            Step::Create { ctx: c, ttl, token } => {
                let ttl = ttl.map_or("{}".to_owned(), |t| format!("{{\"ttl\":{t}}}"));
                let meta = if token { r#","_meta":{"progressToken":"p"}"# } else { "" };
                let m = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","task":{ttl}{meta}}}}}"#);
                let _ = e.handle_message(&m, ctx(c));
            }
            Step::Get { ctx: c, task } => {
                let _ = e.handle_message(
                    &format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{{"taskId":"{}"}}}}"#, id(task)),
                    ctx(c),
                );
            }
            Step::Result { ctx: c, task, id: rid } => {
                let _ = e.handle_message(
                    &format!(r#"{{"jsonrpc":"2.0","id":{rid},"method":"tasks/result","params":{{"taskId":"{}"}}}}"#, id(task)),
                    ctx(c),
                );
            }
            Step::List { ctx: c, cursor } => {
                let _ = e.sdk_store().list_tasks(ctx(c), cursor.as_deref());
            }
            Step::Cancel { ctx: c, task } => {
                let _ = e.handle_message(
                    &format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{{"taskId":"{}"}}}}"#, id(task)),
                    ctx(c),
                );
            }
            Step::Complete { task, is_error } => {
                let _ = e.complete(&id(task), &format!(r#"{{"content":[],"isError":{is_error}}}"#));
            }
            Step::Fail { task, code } => {
                let _ = e.fail(&id(task), &format!(r#"{{"code":{code},"message":"m"}}"#));
            }
            Step::RequestInput { task } => {
                let _ = e.request_input(&id(task), "elicitation/create", Some(r#"{"message":"?"}"#));
            }
            Step::Answer { ctx: c, task, n } => {
                let m = format!(r#"{{"jsonrpc":"2.0","id":"{}/input/{}","result":{{"action":"cancel"}}}}"#, id(task), n % 4);
                let _ = e.handle_message(&m, ctx(c));
            }
            Step::Resume { task } => {
                let _ = e.resume(&id(task));
            }
            Step::Progress { task, progress, total } => {
                let _ = e.report_progress(&id(task), progress, total, Some("p"));
            }
            Step::Message { task, text } => {
                let _ = e.set_status_message(&id(task), text.as_deref());
            }
            Step::CancelWait { ctx: c, id: rid } => {
                let m = format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{rid}}}}}"#);
                let _ = e.handle_message(&m, ctx(c));
            }
            Step::Advance { ms } => {
                clock.advance(ms as u64);
                e.handle_timeout();
            }
            Step::Raw { ctx: c, text } => {
                let _ = e.handle_message(&text, ctx(c));
            }
            Step::CreateExt { ctx: c, declared } => {
                let m = format!(r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"x",{}}}}}"#, ext_meta(declared));
                let _ = e.handle_message(&m, ctx(c));
            }
            Step::ExtTask { ctx: c, task, method, declared } => {
                let method = ["tasks/get", "tasks/cancel", "tasks/result", "tasks/list", "tasks/update"][usize::from(method % 5)];
                let m = format!(
                    r#"{{"jsonrpc":"2.0","id":5,"method":"{method}","params":{{"taskId":"{}","inputResponses":{{}},{}}}}}"#,
                    id(task),
                    ext_meta(declared)
                );
                let _ = e.handle_message(&m, ctx(c));
            }
            Step::UpdateExt { ctx: c, task, n } => {
                let key = format!("{}/input/{}", id(task), n % 4);
                let m = format!(
                    r#"{{"jsonrpc":"2.0","id":6,"method":"tasks/update","params":{{"taskId":"{}","inputResponses":{{"{key}":{{"action":"accept"}}}},{}}}}}"#,
                    id(task),
                    ext_meta(true)
                );
                let _ = e.handle_message(&m, ctx(c));
            }
            Step::Listen { ctx: c, task, sub } => {
                let m = format!(
                    r#"{{"jsonrpc":"2.0","id":{sub},"method":"subscriptions/listen","params":{{"notifications":{{"taskIds":["{}"]}},{}}}}}"#,
                    id(task),
                    ext_meta(true)
                );
                let _ = e.listen_tasks(&m, ctx(c));
            }
            Step::Unlisten { ctx: c, sub } => {
                if let Ok(sub) = mcp_task_core::RawId::parse(&sub.to_string()) {
                    let _ = e.unlisten_tasks(&sub, ctx(c));
                }
            }
        }
        // Invariants: outputs drain; after handle_timeout no deadline is due.
        while e.poll_output().is_some() {}
        e.handle_timeout();
        if let Some(d) = e.next_deadline() {
            assert!(d > clock.now_ms(), "a due deadline survived handle_timeout");
        }
        while e.poll_output().is_some() {}
    }
});
