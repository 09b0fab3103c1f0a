//! Plays a whole task lifecycle against the engine and prints the JSON-RPC
//! exchange: creation, polling, an elicitation during the task, completion,
//! the result, a cancel, a failure replayed by `tasks/result`, and expiry.
//!
//! Run with `cargo run --example lifecycle`.

use mcp_task_core::{Config, Engine, Event, ManualClock, Output, SequentialIds, TaskSupport};

const SESSION: Option<&str> = Some("session-1");

struct Demo {
    engine: Engine,
    clock: ManualClock,
}

impl Demo {
    fn peer(&mut self, message: &str) {
        println!("client → server  {message}");
        if let Some(reply) = self.engine.handle_message(message, SESSION) {
            println!("server → client  {reply}");
        }
        self.drain();
    }

    fn host(&mut self, what: &str) {
        println!("\n   [host] {what}");
    }

    fn wait(&mut self, ms: u64) {
        self.clock.advance(ms);
        println!("\n   ... {ms} ms later");
        self.engine.handle_timeout();
        self.drain();
    }

    fn drain(&mut self) {
        while let Some(out) = self.engine.poll_output() {
            match out {
                Output::Send(t) => match t.in_reply_to {
                    Some(on) => println!("server → client  {}   (on the stream of tasks/result {on})", t.message),
                    None => println!("server → client  {}", t.message),
                },
                Output::Persist(p) => println!("   [engine → store] write task {} version {}", p.task_id, p.version),
                Output::Event(Event::Execute { task_id, .. }) => println!("   [engine → host] execute the request as task {task_id}"),
                Output::Event(Event::Cancelled { task_id, .. }) => println!("   [engine → host] stop the work of task {task_id}"),
                Output::Event(Event::Expired { task_id, .. }) => println!("   [engine → host] task {task_id} expired and was deleted"),
                Output::Event(Event::InputResponse { task_id, response, .. }) => {
                    println!("   [engine → host] answer for task {task_id}: {response}")
                }
                Output::Event(Event::Forward { message, .. }) => println!("   [engine → host] not a task message: {message}"),
                Output::Event(Event::Audit(record)) => println!("   [audit] {:?}", record),
                Output::Event(Event::OutputsDropped { count }) => println!("   [host] {count} outputs dropped (queue full)"),
            }
        }
    }
}

fn main() {
    let clock = ManualClock::new(1_764_066_600_000); // 2025-11-25T10:30:00Z
    let config = Config { poll_interval_ms: Some(2_000), ..Config::default() };
    let mut engine = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
    engine.register_tool("get_weather", TaskSupport::Required);
    println!("tasks capability for initialize: {}\n", engine.capabilities_json(Some("session-1")));
    let mut demo = Demo { engine, clock };

    println!("== 1. A task-augmented tool call");
    demo.peer(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"New York"},"task":{"ttl":60000}}}"#);
    demo.wait(2_000);
    demo.peer(r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"task-1"}}"#);

    println!("\n== 2. The tool needs the user's input");
    demo.host("asks which units to use");
    demo.engine
        .request_input("task-1", "elicitation/create", Some(r#"{"message":"Celsius or Fahrenheit?","requestedSchema":{"type":"object","properties":{"units":{"type":"string","enum":["C","F"]}}}}"#))
        .expect("task-1 is running");
    demo.drain();
    demo.peer(r#"{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"task-1"}}"#);
    demo.peer(r#"{"jsonrpc":"2.0","id":"task-1/input/1","result":{"action":"accept","content":{"units":"F"}}}"#);

    println!("\n== 3. The work finishes; the waiting tasks/result gets the result");
    demo.wait(1_500);
    demo.host("completes the tool call");
    demo.engine
        .complete("task-1", r#"{"content":[{"type":"text","text":"New York: 72°F, partly cloudy"}],"isError":false}"#)
        .expect("task-1 is running");
    demo.drain();
    demo.peer(r#"{"jsonrpc":"2.0","id":4,"method":"tasks/list","params":{}}"#);

    println!("\n== 4. Cancel, and cancel again");
    demo.peer(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"},"task":{}}}"#);
    demo.peer(r#"{"jsonrpc":"2.0","id":6,"method":"tasks/cancel","params":{"taskId":"task-2"}}"#);
    demo.host("the work ends anyway and reports a result");
    match demo.engine.complete("task-2", r#"{"content":[]}"#) {
        Ok(_) => println!("   [engine] stored (unexpected)"),
        Err(e) => println!("   [engine] refused: {e}"),
    }
    demo.peer(r#"{"jsonrpc":"2.0","id":7,"method":"tasks/cancel","params":{"taskId":"task-2"}}"#);

    println!("\n== 5. A failure is replayed exactly by tasks/result");
    demo.peer(r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Atlantis"},"task":{"ttl":5000}}}"#);
    demo.host("the weather API fails");
    demo.engine
        .fail("task-3", r#"{"code":-32002,"message":"Unknown city: Atlantis","data":{"city":"Atlantis"}}"#)
        .expect("task-3 is running");
    demo.drain();
    demo.peer(r#"{"jsonrpc":"2.0","id":9,"method":"tasks/result","params":{"taskId":"task-3"}}"#);

    println!("\n== 6. TTL expiry (next deadline at {:?})", demo.engine.next_deadline());
    demo.wait(5_000);
    demo.peer(r#"{"jsonrpc":"2.0","id":10,"method":"tasks/get","params":{"taskId":"task-3"}}"#);

    println!("\n== 7. Bad input never breaks anything");
    demo.peer(r#"{"jsonrpc":"2.0","id":11,"method":"tasks/get","params":{"taskId":42}}"#);
    demo.peer(r#"{"jsonrpc": oops"#);
}
