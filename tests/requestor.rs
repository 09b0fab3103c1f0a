//! The requestor wired to a receiver engine on the shared test wire
//! (`tests/common/pair.rs`: schema checks both ways, a test clock).

use mcp_task_core::{
    should_augment, CallMode, Capabilities, Config, Event, ManualClock, PollPolicy, RawId, Requestor, RequestorConfig, RequestorEvent,
    RequestorOutput, TaskStatus, TaskSupport,
};
use serde_json::{json, Value};

const T0: u64 = 1_764_066_600_000;

mod common;
use common::pair::Pair;

/// The requestor and a receiver on the shared test wire, polling with a 100 ms floor.
fn pair(config: Config) -> Pair {
    let poll = PollPolicy { floor_ms: 100, ceiling_ms: 30_000, initial_backoff_ms: 500, ..PollPolicy::default() };
    Pair::with_configs(config, RequestorConfig { poll, ..Default::default() })
}

trait Now {
    fn now_ms_checked(&self) -> u64;
}
impl Now for ManualClock {
    fn now_ms_checked(&self) -> u64 {
        mcp_task_core::Clock::now_ms(self)
    }
}

const SERVER_CAPS: &str = r#"{"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}"#;

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn whole_lifecycle_with_input_required() {
    let mut p = pair(Config { poll_interval_ms: Some(1_000), ..Config::default() });
    assert!(should_augment(SERVER_CAPS, "tools/call", TaskSupport::Required, false).augment);
    p.requestor
        .call("tools/call", Some(r#"{"name":"slow","arguments":{}}"#), CallMode::Task { ttl_ms: Some(60_000) }, Some("\"tok\""))
        .unwrap();
    p.run_until(T0 + 3_000);
    let id = p.task_id();
    assert!(p.host.iter().any(|e| matches!(e, Event::Execute { task_id, .. } if *task_id == id)));
    p.engine.report_progress(&id, 1.0, Some(2.0), None).unwrap();
    p.engine
        .request_input(&id, "elicitation/create", Some(r#"{"message":"Units?","requestedSchema":{"type":"object","properties":{}}}"#))
        .unwrap();
    p.run_until(T0 + 3_500);
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::Progress { task_id, .. } if *task_id == id)));
    let (request_id, request) = p
        .events
        .iter()
        .find_map(|e| match e {
            RequestorEvent::InputRequest { request_id, request, .. } => Some((request_id.clone(), request.clone())),
            _ => None,
        })
        .expect("the elicitation reached the requestor");
    assert!(request.contains("Units?"));
    p.requestor.respond(&request_id, r#"{"action":"accept","content":{"units":"C"}}"#).unwrap();
    p.pump();
    let answer = p
        .host
        .iter()
        .find_map(|e| match e {
            Event::InputResponse { response, .. } => Some(serde_json::from_str::<Value>(response).unwrap()),
            _ => None,
        })
        .expect("the answer reached the receiver's host");
    assert_eq!(answer["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);
    assert_eq!(p.engine.task(&id).unwrap().status, TaskStatus::Working);
    p.run_until(T0 + 8_000);
    p.engine.complete(&id, r#"{"content":[{"type":"text","text":"21 C"}]}"#).unwrap();
    p.run_until(T0 + 9_000);
    let (status, response) = p.finished().expect("finished");
    assert_eq!(status, TaskStatus::Completed);
    assert_eq!(response["result"]["content"][0]["text"], "21 C");
    assert!(p.requestor.tracked().is_empty(), "no more polling after the end");
    let gets = p.count("tasks/get");
    p.run_until(T0 + 60_000);
    assert_eq!(p.count("tasks/get"), gets, "no polls after a terminal status");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_event_about_a_task_names_its_call_and_carries_a_typed_task() {
    let mut p = pair(Config { poll_interval_ms: Some(1_000), ..Config::default() });
    let call = p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: Some(60_000) }, Some("7")).unwrap();
    p.run_until(T0 + 1_500);
    let id = p.task_id();
    p.engine.set_status_message(&id, Some("half way")).unwrap();
    p.engine.report_progress(&id, 1.0, None, None).unwrap();
    p.engine
        .request_input(&id, "elicitation/create", Some(r#"{"message":"Go?","requestedSchema":{"type":"object","properties":{}}}"#))
        .unwrap();
    p.run_until(T0 + 3_000);
    let cancel = p.requestor.cancel(&id).unwrap();
    p.run_until(T0 + 5_000);
    let kinds: Vec<&str> = p
        .events
        .iter()
        .map(|e| {
            assert_eq!(e.call_id(), Some(&call), "{e:?}");
            match e {
                RequestorEvent::Created { task, .. } => {
                    assert_eq!((task.task_id.as_str(), task.ttl_ms, task.poll_interval_ms), (id.as_str(), Some(60_000), Some(1_000)));
                    "created"
                }
                RequestorEvent::Status { task, .. } if task.status_message.as_deref() == Some("half way") => "status message",
                RequestorEvent::Status { .. } => "status",
                RequestorEvent::Progress { .. } => "progress",
                RequestorEvent::InputRequest { .. } => "input",
                RequestorEvent::CancelAnswered { .. } => "cancel answered",
                RequestorEvent::Finished { status, .. } => status.as_str(),
                other => panic!("unexpected {other:?}"),
            }
        })
        .collect();
    for kind in ["created", "status message", "progress", "input", "cancel answered", "cancelled"] {
        assert!(kinds.contains(&kind), "{kind} missing from {kinds:?}");
    }
    assert_ne!(cancel, call);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_created_task_without_a_known_status_is_an_invalid_answer() {
    let mut s = Scripted::new(RequestorConfig::default());
    let call = s.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    let sent = s.drain();
    s.answer(&sent[0], json!({"task": {"taskId":"t1","status":"sleeping","createdAt":"x","lastUpdatedAt":"x","ttl":null}}));
    s.drain();
    let [RequestorEvent::CallRefused { call_id, response }] = s.events.as_slice() else { panic!("{:?}", s.events) };
    assert_eq!(call_id, &call);
    let response: Value = serde_json::from_str(response).unwrap();
    assert_eq!(response["error"]["code"], -32603);
    assert_eq!(response["error"]["data"]["requestor"], "invalidResponse");
    assert!(response["error"]["message"].as_str().unwrap().contains("sleeping"));
    assert!(s.requestor.tracked().is_empty());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn failure_is_handed_over_with_the_exact_error() {
    let mut p = pair(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.run_until(T0 + 1_500);
    let id = p.task_id();
    let error = json!({"code": -32050, "message": "quota", "data": {"left": 0}});
    p.engine.fail(&id, &error.to_string()).unwrap();
    p.run_until(T0 + 5_000);
    let (status, response) = p.finished().unwrap();
    assert_eq!(status, TaskStatus::Failed);
    assert_eq!(response["error"], error);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn cancel_reaches_the_receiver() {
    let mut p = pair(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.run_until(T0 + 1_500);
    let id = p.task_id();
    p.requestor.cancel(&id).unwrap();
    p.pump();
    assert!(p.host.iter().any(|e| matches!(e, Event::Cancelled { task_id, .. } if *task_id == id)));
    let answer = p.events.iter().find_map(|e| match e {
        RequestorEvent::CancelAnswered { response, .. } => Some(serde_json::from_str::<Value>(response).unwrap()),
        _ => None,
    });
    assert_eq!(answer.unwrap()["result"]["status"], "cancelled");
    // It ends as every task does: one Finished with the terminal status.
    let finished = p.events.iter().filter(|e| matches!(e, RequestorEvent::Finished { status: TaskStatus::Cancelled, .. })).count();
    assert_eq!(finished, 1);
    assert!(p.requestor.tracked().is_empty());
    let gets = p.count("tasks/get");
    p.run_until(T0 + 20_000);
    assert_eq!(p.count("tasks/get"), gets);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn expiry_on_the_receiver_is_reported_as_lost() {
    let mut p = pair(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: Some(4_000) }, None).unwrap();
    p.run_until(T0 + 10_000);
    let lost = p.events.iter().find_map(|e| match e {
        RequestorEvent::Lost { error, .. } => Some(serde_json::from_str::<Value>(error).unwrap()),
        _ => None,
    });
    let lost = lost.expect("reported lost");
    assert_eq!(lost["code"], -32602);
    assert_eq!(lost["message"], "Failed to retrieve task: Task has expired");
    assert!(p.requestor.tracked().is_empty());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn restart_and_resume() {
    let mut p = pair(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, Some("7")).unwrap();
    p.run_until(T0 + 2_500);
    let id = p.task_id();
    let saved = p.requestor.export_state();
    // The requestor process dies; a new one picks up from the saved state.
    let mut fresh = Requestor::new(RequestorConfig::default(), Box::new(p.clock.clone()));
    assert_eq!(fresh.import_state(&saved).unwrap(), 1);
    assert_eq!(fresh.tracked(), vec![id.clone()]);
    assert!(fresh.import_state("{nope").is_err());
    p.requestor = fresh;
    p.events.clear();
    p.engine.complete(&id, r#"{"content":[{"type":"text","text":"after restart"}]}"#).unwrap();
    p.run_until(T0 + 6_000);
    assert_eq!(p.finished().unwrap().1["result"]["content"][0]["text"], "after restart");
    // A task that expired while the requestor was down is reported lost.
    let mut p2 = pair(Config::default());
    p2.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: Some(3_000) }, None).unwrap();
    p2.run_until(T0 + 1_000);
    let saved = p2.requestor.export_state();
    p2.clock.set(T0 + 60_000);
    p2.engine.handle_timeout();
    let mut fresh = Requestor::new(RequestorConfig::default(), Box::new(p2.clock.clone()));
    fresh.import_state(&saved).unwrap();
    p2.requestor = fresh;
    p2.events.clear();
    p2.run_until(T0 + 61_000);
    assert!(p2.events.iter().any(|e| matches!(e, RequestorEvent::Lost { .. })), "{:?}", p2.events);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn receiver_that_never_notifies_is_polled_to_the_end() {
    let mut p = pair(Config { status_notifications: false, poll_interval_ms: Some(2_000), ..Config::default() });
    p.notifications = false;
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.run_until(T0 + 5_000);
    let id = p.task_id();
    p.engine.complete(&id, r#"{"content":[]}"#).unwrap();
    p.run_until(T0 + 7_000);
    assert_eq!(p.finished().unwrap().0, TaskStatus::Completed);
    assert_eq!(p.count("tasks/get"), 3, "polls at 2 s, 4 s and 6 s");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn notifications_alone_end_the_wait_early() {
    // pollInterval is long; the status notification brings the result sooner.
    let mut p = pair(Config { poll_interval_ms: Some(30_000), ..Config::default() });
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.run_until(T0 + 1_000);
    let id = p.task_id();
    p.engine.complete(&id, r#"{"content":[{"type":"text","text":"early"}]}"#).unwrap();
    p.run_until(T0 + 1_001);
    assert_eq!(p.count("tasks/get"), 0, "not one poll needed");
    assert_eq!(p.finished().unwrap().1["result"]["content"][0]["text"], "early");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn receiver_without_task_capability_gets_plain_requests() {
    let decision = should_augment("{}", "tools/call", TaskSupport::Required, true);
    assert!(!decision.augment);
    assert!(decision.reason.contains("no tasks capability"));
    let mut p = pair(Config { capabilities: Capabilities::default(), ..Config::default() });
    let call = p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Plain, None).unwrap();
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::PlainResponse { call_id, .. } if *call_id == call)));
    // Even augmented, an undeclared receiver runs it normally: still a plain response.
    let call = p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::PlainResponse { call_id, .. } if *call_id == call)));
    assert!(p.requestor.tracked().is_empty());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn refused_calls_and_listing() {
    let mut p = pair(Config { page_size: 2, ..Config::default() });
    let refused = p.requestor.call("tools/call", Some(r#"{"name":"maybe","task":5}"#), CallMode::Plain, None).unwrap();
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::CallRefused { call_id, .. } if *call_id == refused)));
    for _ in 0..5 {
        p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    }
    p.pump();
    p.requestor.list().unwrap();
    p.pump();
    let listed = p.events.iter().find_map(|e| match e {
        RequestorEvent::Listed { tasks, error: None } => Some(tasks.clone()),
        _ => None,
    });
    let listed = listed.unwrap();
    assert_eq!(listed.len(), 5, "three pages followed");
    assert!(listed.iter().all(|t| t.status == TaskStatus::Working), "typed tasks: {listed:?}");
    assert_eq!(p.count("tasks/list"), 3);
}

/// Simulates a 10-minute task and counts the `tasks/get` sent.
fn ten_minute_task(poll_interval: Option<u64>) -> usize {
    let mut p = pair(Config { poll_interval_ms: poll_interval, ..Config::default() });
    p.notifications = false;
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.pump();
    let id = p.task_id();
    p.run_until(T0 + 600_000);
    p.engine.complete(&id, r#"{"content":[]}"#).unwrap();
    p.run_until(T0 + 700_000);
    assert!(p.finished().is_some());
    p.count("tasks/get")
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn poll_schedule_follows_poll_interval() {
    for interval in [1_000u64, 5_000, 30_000] {
        let gets = ten_minute_task(Some(interval));
        let implied = (600_000 / interval) as usize;
        println!("poll schedule: pollInterval {interval} ms over 10 min -> {gets} tasks/get (implied {implied})");
        assert!(gets <= implied + 1 && gets + 1 >= implied, "{gets} vs {implied}");
    }
    // Below the floor the floor wins; without an interval the backoff climbs to the ceiling.
    let gets = ten_minute_task(Some(10));
    println!("poll schedule: pollInterval 10 ms (floor 100 ms) -> {gets} tasks/get");
    assert!(gets <= 6_001);
    let gets = ten_minute_task(None);
    println!("poll schedule: no pollInterval (backoff 500 ms doubling to 30 s) -> {gets} tasks/get");
    assert!((20..=30).contains(&gets), "{gets}");
}

// ---------------------------------------------------------------------------------------
// A scripted receiver: the test answers each request by hand (or drops it).

/// The requestor alone; the test plays the receiver.
struct Scripted {
    clock: ManualClock,
    requestor: Requestor,
    events: Vec<RequestorEvent>,
}

impl Scripted {
    fn new(config: RequestorConfig) -> Scripted {
        let clock = ManualClock::new(T0);
        let requestor = Requestor::new(config, Box::new(clock.clone()));
        Scripted { clock, requestor, events: vec![] }
    }

    fn now(&self) -> u64 {
        self.clock.now_ms_checked()
    }

    /// The requests sent since the last drain; events are kept.
    fn drain(&mut self) -> Vec<Value> {
        let mut sent = vec![];
        while let Some(out) = self.requestor.poll_output() {
            match out {
                RequestorOutput::Send(m) => sent.push(serde_json::from_str(&m).unwrap()),
                RequestorOutput::Event(e) => self.events.push(e),
            }
        }
        sent
    }

    fn answer(&mut self, request: &Value, result: Value) {
        self.requestor.handle_message(&json!({"jsonrpc":"2.0","id":request["id"],"result":result}).to_string());
    }

    fn answer_error(&mut self, request: &Value, error: Value) {
        self.requestor.handle_message(&json!({"jsonrpc":"2.0","id":request["id"],"error":error}).to_string());
    }

    fn notify(&mut self, task: Value) {
        self.requestor.handle_message(&json!({"jsonrpc":"2.0","method":"notifications/tasks/status","params":task}).to_string());
    }

    /// Creates task `t1` (status working) and returns its id.
    fn create(&mut self, poll_interval: Option<u64>) -> String {
        self.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
        let sent = self.drain();
        assert_eq!(sent.len(), 1);
        self.answer(&sent[0], json!({"task": task_json("working", poll_interval)}));
        assert!(self.drain().is_empty());
        "t1".to_owned()
    }

    /// Moves the clock to the next deadline (if any, and not past `until`) and fires it.
    fn tick(&mut self, until: u64) -> bool {
        match self.requestor.next_deadline() {
            Some(due) if due <= until => {
                if due > self.now() {
                    self.clock.set(due);
                }
                self.requestor.handle_timeout();
                true
            }
            _ => false,
        }
    }

    /// The Finished events so far (after draining the outputs).
    fn finished(&mut self) -> Vec<(TaskStatus, Value)> {
        self.drain();
        self.events
            .iter()
            .filter_map(|e| match e {
                RequestorEvent::Finished { status, response, .. } => Some((*status, serde_json::from_str(response).unwrap())),
                _ => None,
            })
            .collect()
    }
}

fn task_json(status: &str, poll_interval: Option<u64>) -> Value {
    let mut task =
        json!({"taskId":"t1","status":status,"createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":60_000});
    if let Some(ms) = poll_interval {
        task["pollInterval"] = json!(ms);
    }
    task
}

fn method(request: &Value) -> &str {
    request["method"].as_str().unwrap_or("")
}

fn tool_result(text: &str) -> Value {
    json!({"content":[{"type":"text","text":text}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}})
}

// Item 1: an error answer to a tasks/result sent while the task runs is not its outcome.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn early_tasks_result_error_is_retried_with_backoff_not_taken_as_outcome() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("input_required", Some(1_000)));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    // The receiver rate-limits every tasks/result for 10 s; tasks/get says input_required.
    let rate_limited = json!({"code":-32000,"message":"Rate limit exceeded"});
    s.answer_error(&sent[0], rate_limited.clone());
    let (mut gets, mut results) = (0, 1);
    let mut at_once = 0;
    let mut last_results_at = s.now();
    for _ in 0..10_000 {
        let sent = s.drain();
        if sent.is_empty() && !s.tick(T0 + 10_000) {
            break;
        }
        for request in sent {
            match method(&request) {
                "tasks/get" => {
                    gets += 1;
                    s.answer(&request, task_json("input_required", Some(1_000)));
                }
                "tasks/result" => {
                    results += 1;
                    if s.now() == last_results_at {
                        at_once += 1;
                    }
                    last_results_at = s.now();
                    s.answer_error(&request, rate_limited.clone());
                }
                other => panic!("unexpected {other}"),
            }
        }
    }
    assert_eq!(at_once, 0, "a tasks/result answered with an error is never re-sent at once");
    assert!(gets <= 11, "tasks/get stays on the 1 s pollInterval: {gets}");
    assert!((2..=8).contains(&results), "tasks/result is retried with backoff: {results}");
    assert!(s.finished().is_empty(), "a rate-limit error is not the outcome: {:?}", s.finished());
    // The task completes; tasks/result now returns the real result.
    s.notify(task_json("completed", Some(1_000)));
    for _ in 0..100 {
        let sent = s.drain();
        if sent.is_empty() && !s.tick(T0 + 100_000) {
            break;
        }
        for request in sent {
            match method(&request) {
                "tasks/result" => s.answer(&request, tool_result("the real result")),
                _ => s.answer(&request, task_json("completed", Some(1_000))),
            }
        }
    }
    let finished = s.finished();
    assert_eq!(finished.len(), 1, "{finished:?}");
    assert_eq!(finished[0].0, TaskStatus::Completed);
    assert_eq!(finished[0].1["result"]["content"][0]["text"], "the real result");
}

// Item 1: a task that expires while tasks/result waits is lost, not finished with a non-terminal status.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn task_expiring_during_tasks_result_is_lost_not_finished() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("input_required", Some(1_000)));
    let sent = s.drain();
    let expired = json!({"code":-32602,"message":"Failed to retrieve task: Task has expired"});
    s.answer_error(&sent[0], expired.clone());
    for _ in 0..100 {
        let sent = s.drain();
        if sent.is_empty() && !s.tick(T0 + 30_000) {
            break;
        }
        for request in sent {
            s.answer_error(&request, expired.clone());
        }
    }
    assert!(s.finished().is_empty(), "no Finished for a task that never ended: {:?}", s.finished());
    assert!(s.events.iter().any(|e| matches!(e, RequestorEvent::Lost { task_id, .. } if task_id == "t1")), "{:?}", s.events);
    assert!(s.requestor.tracked().is_empty());
}

// Item 1: an answer to tasks/result is the outcome only once the task is terminal.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn early_tasks_result_answer_needs_a_terminal_status() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(5_000));
    s.notify(task_json("input_required", Some(5_000)));
    let sent = s.drain();
    // A non-conforming receiver answers while the task still runs.
    s.answer(&sent[0], tool_result("not yet"));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/get"], "the answer is checked with tasks/get at once");
    s.answer(&sent[0], task_json("working", Some(5_000)));
    assert!(s.drain().is_empty(), "no busy polling");
    assert!(s.finished().is_empty());
    assert!(s.requestor.next_deadline().is_some_and(|d| d >= s.now() + 100));
    // It really completes later: the outcome is what tasks/result returns then.
    s.notify(task_json("completed", Some(5_000)));
    for _ in 0..100 {
        let sent = s.drain();
        if sent.is_empty() && !s.tick(T0 + 100_000) {
            break;
        }
        for request in sent {
            match method(&request) {
                "tasks/result" => s.answer(&request, tool_result("done")),
                _ => s.answer(&request, task_json("completed", Some(5_000))),
            }
        }
    }
    let finished = s.finished();
    assert_eq!(finished.len(), 1, "{finished:?}");
    assert_eq!(finished[0].0, TaskStatus::Completed);
    assert_eq!(finished[0].1["result"]["content"][0]["text"], "done");
}

// Item 1: a completed task's tasks/result answered with a receiver error (-32603) is asked again.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn receiver_error_for_a_completed_task_is_not_its_outcome() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("completed", Some(1_000)));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    s.answer_error(&sent[0], json!({"code":-32603,"message":"Internal error"}));
    assert!(s.drain().is_empty(), "not at once");
    assert!(s.finished().is_empty(), "{:?}", s.finished());
    assert!(s.tick(T0 + 60_000), "a retry is scheduled");
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    s.answer(&sent[0], tool_result("ok"));
    let finished = s.finished();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].1["result"]["content"][0]["text"], "ok");
}

// Item 1: the real failure of a task, returned early by the blocking tasks/result, is still the outcome.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn early_failure_answer_is_confirmed_and_handed_over() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("input_required", Some(1_000)));
    let sent = s.drain();
    let failure = json!({"code":-32050,"message":"quota","data":{"left":0}});
    s.answer_error(&sent[0], failure.clone());
    for _ in 0..100 {
        let sent = s.drain();
        if sent.is_empty() && !s.tick(T0 + 60_000) {
            break;
        }
        for request in sent {
            match method(&request) {
                "tasks/result" => s.answer_error(&request, failure.clone()),
                _ => s.answer(&request, task_json("failed", Some(1_000))),
            }
        }
    }
    let finished = s.finished();
    assert_eq!(finished.len(), 1, "{finished:?}");
    assert_eq!(finished[0].0, TaskStatus::Failed);
    assert_eq!(finished[0].1["error"], failure);
}

// Item 1, end to end: a real receiver whose rate limit refuses some tasks/* requests.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn rate_limited_receiver_still_yields_the_real_result() {
    let limits = mcp_task_core::Limits { rate_limit: Some(mcp_task_core::RateLimit { burst: 1, per_second: 1 }), ..Default::default() };
    let mut p = pair(Config { poll_interval_ms: Some(200), limits, ..Config::default() });
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    p.run_until(T0 + 100);
    let id = p.task_id();
    p.engine
        .request_input(&id, "elicitation/create", Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#))
        .unwrap();
    p.run_until(T0 + 3_000);
    p.engine.complete(&id, r#"{"content":[{"type":"text","text":"real"}]}"#).unwrap();
    p.run_until(T0 + 60_000);
    let (status, response) = p.finished().expect("finished");
    assert_eq!(status, TaskStatus::Completed);
    assert_eq!(response["result"]["content"][0]["text"], "real", "{response}");
    assert!(p.sent.len() < 400, "no busy polling: {} requests", p.sent.len());
}

// Item 2: a tasks/result whose stream was dropped is sent again.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn dropped_tasks_result_is_sent_again() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("completed", Some(1_000)));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    // The stream carrying it is dropped: no answer ever comes.
    let due = s.requestor.next_deadline().expect("a deadline while a tracked task waits on a request");
    assert!(due > s.now() && due <= s.now() + 60_000, "{due}");
    assert!(s.tick(T0 + 120_000));
    let sent = loop {
        let sent = s.drain();
        if !sent.is_empty() || !s.tick(T0 + 120_000) {
            break sent;
        }
    };
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"], "sent again");
    s.answer(&sent[0], tool_result("second try"));
    let finished = s.finished();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].1["result"]["content"][0]["text"], "second try");
}

// Item 2: a dropped tasks/get does not stop polling.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn dropped_tasks_get_is_sent_again() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    assert!(s.tick(T0 + 1_000));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/get"]);
    // Never answered.
    let mut resent = 0;
    while s.tick(T0 + 120_000) {
        resent += s.drain().iter().filter(|r| method(r) == "tasks/get").count();
        if resent > 0 {
            break;
        }
    }
    assert_eq!(resent, 1, "polling resumes after the timeout");
}

// Item 2: a dropped tasks/result while input_required: polling goes on, and it is re-sent.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn dropped_blocking_tasks_result_keeps_polling_and_is_re_sent() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("input_required", Some(1_000)));
    assert_eq!(s.drain().iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    let (mut gets, mut results) = (0, 0);
    while s.tick(T0 + 900_000) {
        for request in s.drain() {
            match method(&request) {
                "tasks/get" => {
                    gets += 1;
                    s.answer(&request, task_json("input_required", Some(1_000)));
                }
                _ => results += 1, // dropped again
            }
        }
    }
    assert!(gets >= 800, "polled all along: {gets}");
    assert!(results >= 1, "the blocking tasks/result is re-sent after its timeout");
}

// Item 3: a receiver's pollInterval above the requestor's ceiling is honoured.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn long_poll_interval_is_honoured() {
    for interval in [60_000u64, 300_000] {
        let mut p = pair(Config { poll_interval_ms: Some(interval), ..Config::default() });
        p.notifications = false;
        p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
        p.pump();
        assert_eq!(p.requestor.next_deadline(), Some(T0 + interval), "first poll after {interval} ms");
        let id = p.task_id();
        p.run_until(T0 + 600_000);
        assert_eq!(p.count("tasks/get") as u64, 600_000 / interval, "pollInterval {interval} over 10 min");
        p.engine.complete(&id, r#"{"content":[]}"#).unwrap();
        p.run_until(T0 + 600_000 + interval);
        assert_eq!(p.finished().map(|f| f.0), Some(TaskStatus::Completed));
        assert_eq!(p.count("tasks/get") as u64, 600_000 / interval + 1);
    }
    // Without an interval the requestor's own backoff still stops at the ceiling.
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(None);
    let mut waits = vec![];
    let mut last = s.now();
    while s.tick(T0 + 200_000) {
        for request in s.drain() {
            waits.push(s.now() - last);
            last = s.now();
            s.answer(&request, task_json("working", None));
        }
    }
    assert_eq!(waits[..8], [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
}

// Item 4: a receiver that repeats a cursor ends the listing with an error.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn list_stops_on_a_repeated_cursor() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.requestor.list().unwrap();
    let mut requests = 0;
    for _ in 0..1_000 {
        let sent = s.drain();
        assert!(sent.len() <= 1, "one page at a time");
        let Some(request) = sent.first() else { break };
        requests += 1;
        s.answer(request, json!({"tasks":[],"nextCursor":"x"}));
    }
    assert_eq!(requests, 2, "the second \"x\" ends it");
    let error = s.events.iter().find_map(|e| match e {
        RequestorEvent::Listed { tasks, error: Some(error) } => Some((tasks.clone(), error.clone())),
        _ => None,
    });
    let (tasks, error) = error.expect("a listed event with an error");
    assert!(tasks.is_empty());
    assert!(error.contains("repeated") && error.contains("\\\"x\\\""), "{error}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn listed_tasks_are_typed_and_entries_that_are_not_tasks_are_left_out() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.requestor.list().unwrap();
    let sent = s.drain();
    let page = json!({"tasks":[{"taskId":"a","status":"completed","ttl":null},{"bogus":1},{"taskId":"b","status":"sleeping"}]});
    s.answer(&sent[0], page);
    s.drain();
    let [RequestorEvent::Listed { tasks, error: None }] = s.events.as_slice() else { panic!("{:?}", s.events) };
    assert_eq!(tasks.iter().map(|t| (t.task_id.as_str(), t.status)).collect::<Vec<_>>(), [("a", TaskStatus::Completed)]);
    assert_eq!(serde_json::from_str::<Value>(tasks[0].json()).unwrap(), json!({"taskId":"a","status":"completed","ttl":null}));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_list_page_of_the_wrong_shape_ends_the_listing_with_the_answer() {
    for page in [json!({"tasks":{"taskId":"a"}}), json!({"tasks":[],"nextCursor":7}), json!([])] {
        let mut s = Scripted::new(RequestorConfig::default());
        s.requestor.list().unwrap();
        let sent = s.drain();
        s.answer(&sent[0], page.clone());
        s.drain();
        let [RequestorEvent::Listed { tasks, error: Some(error) }] = s.events.as_slice() else { panic!("{page}: {:?}", s.events) };
        assert!(tasks.is_empty());
        assert_eq!(serde_json::from_str::<Value>(error).unwrap()["result"], page, "the receiver's answer, as it came");
    }
    // The last page: no cursor, or a null one.
    let mut s = Scripted::new(RequestorConfig::default());
    s.requestor.list().unwrap();
    let sent = s.drain();
    s.answer(&sent[0], json!({"tasks":[{"taskId":"a","status":"working"}],"nextCursor":null}));
    s.drain();
    let [RequestorEvent::Listed { tasks, error: None }] = s.events.as_slice() else { panic!("{:?}", s.events) };
    assert_eq!(tasks.len(), 1);
}

// Item 4: new cursors forever end at the page limit.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn list_stops_at_the_page_limit() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.requestor.list().unwrap();
    let mut requests = 0;
    for n in 0..100_000 {
        let sent = s.drain();
        assert!(sent.len() <= 1, "one page at a time");
        let Some(request) = sent.first() else { break };
        requests += 1;
        s.answer(request, json!({"tasks":[{"taskId":format!("t{n}"),"status":"working"}],"nextCursor":format!("c{n}")}));
    }
    assert!(requests <= 1_000, "{requests} pages");
    let (tasks, error) = s
        .events
        .iter()
        .find_map(|e| match e {
            RequestorEvent::Listed { tasks, error: Some(error) } => Some((tasks.clone(), error.clone())),
            _ => None,
        })
        .expect("a listed event with an error");
    assert_eq!(tasks.len(), requests, "the tasks read so far");
    assert!(error.contains("page"), "{error}");
}

// ---------------------------------------------------------------------------------------
// The new surface: Retrying, request_failed, timeouts and limits in the config.

fn retrying(events: &[RequestorEvent]) -> Vec<(String, Value)> {
    events
        .iter()
        .filter_map(|e| match e {
            RequestorEvent::Retrying { method, response, .. } => Some((method.clone(), serde_json::from_str(response).unwrap())),
            _ => None,
        })
        .collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_receiver_error_to_tasks_result_is_reported_as_retrying() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("input_required", Some(1_000)));
    let sent = s.drain();
    s.answer_error(&sent[0], json!({"code":-32000,"message":"Rate limit exceeded"}));
    s.drain();
    let retries = retrying(&s.events);
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].0, "tasks/result");
    assert_eq!(retries[0].1["error"]["code"], -32000, "the receiver's answer, as it came");
    // Re-sent on the poll schedule: the 1 s pollInterval, not before.
    assert_eq!(s.requestor.next_deadline(), Some(s.now() + 1_000));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn request_failed_recovers_a_lost_tasks_result() {
    let mut s = Scripted::new(RequestorConfig::default());
    s.create(Some(1_000));
    s.notify(task_json("completed", Some(1_000)));
    let mut result_id = None;
    while let Some(out) = s.requestor.poll_output() {
        if let RequestorOutput::Send(m) = &out {
            assert!(m.contains("tasks/result"));
            result_id = out.request_id();
        }
    }
    let result_id = result_id.expect("tasks/result sent");
    assert!(result_id.as_str().starts_with('"'), "the raw JSON id: {result_id}");
    assert!(!s.requestor.request_failed(&RawId::string("nobody")), "not a request of the requestor");
    // The transport reports the stream lost.
    assert!(s.requestor.request_failed(&RawId::string(&result_id.as_string_id().unwrap())));
    assert!(!s.requestor.request_failed(&result_id), "no longer awaited");
    s.drain();
    let retries = retrying(&s.events);
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].1["error"]["data"]["requestor"], "transport");
    assert!(s.drain().is_empty(), "not at once");
    assert!(s.tick(T0 + 60_000));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    s.answer(&sent[0], tool_result("recovered"));
    assert_eq!(s.finished()[0].1["result"]["content"][0]["text"], "recovered");
    // A late answer to the abandoned request is not the requestor's any more.
    s.requestor
        .handle_message(&json!({"jsonrpc":"2.0","id":serde_json::from_str::<Value>(result_id.as_str()).unwrap(),"result":{}}).to_string());
    s.drain();
    assert!(matches!(s.events.last(), Some(RequestorEvent::Forward { .. })));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn calls_cancels_and_lists_without_an_answer_are_reported_failed() {
    let poll = PollPolicy { request_timeout_ms: 5_000, result_timeout_ms: 50_000, ..PollPolicy::default() };
    let mut s = Scripted::new(RequestorConfig { poll, ..Default::default() });
    let task_call = s.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
    let plain_call = s.requestor.call("tools/call", Some(r#"{"name":"quick"}"#), CallMode::Plain, None).unwrap();
    s.requestor.list().unwrap();
    assert_eq!(s.drain().len(), 3);
    assert_eq!(s.requestor.next_deadline(), Some(T0 + 5_000), "the request timeout");
    assert!(s.tick(T0 + 5_000));
    s.drain();
    let refused: Vec<(RawId, Value)> = s
        .events
        .iter()
        .filter_map(|e| match e {
            RequestorEvent::CallRefused { call_id, response } => Some((call_id.clone(), serde_json::from_str(response).unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(refused.len(), 1, "the task-augmented call times out first");
    assert_eq!(refused[0].0, task_call);
    assert_eq!(refused[0].1["error"]["code"], -32001);
    assert_eq!(refused[0].1["error"]["data"]["requestor"], "timeout");
    assert!(refused[0].1["error"]["message"].as_str().unwrap().contains("5000 ms"));
    assert!(s.events.iter().any(|e| matches!(e, RequestorEvent::Listed { error: Some(_), .. })));
    // A plain call runs to its end before its answer: the longer result timeout.
    assert_eq!(s.requestor.next_deadline(), Some(T0 + 50_000));
    assert!(s.tick(T0 + 50_000));
    s.drain();
    assert!(s.events.iter().any(|e| matches!(e, RequestorEvent::CallRefused { call_id, .. } if *call_id == plain_call)));
    assert_eq!(s.requestor.next_deadline(), None, "nothing left to wait for");
    // A cancel the transport loses.
    s.create(None);
    let cancel = s.requestor.cancel("t1").unwrap();
    s.drain();
    assert!(s.requestor.request_failed(&cancel));
    s.drain();
    let answer = s.events.iter().rev().find_map(|e| match e {
        RequestorEvent::CancelAnswered { response, .. } => Some(serde_json::from_str::<Value>(response).unwrap()),
        _ => None,
    });
    assert_eq!(answer.unwrap()["error"]["data"]["requestor"], "transport");
    assert_eq!(s.requestor.tracked(), ["t1"], "still tracked and polled");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_blocking_tasks_result_gets_the_longer_timeout_until_the_task_ends() {
    let poll = PollPolicy { request_timeout_ms: 5_000, result_timeout_ms: 600_000, ..PollPolicy::default() };
    let mut s = Scripted::new(RequestorConfig { poll, ..Default::default() });
    s.create(Some(10_000));
    s.notify(task_json("input_required", Some(10_000)));
    assert_eq!(s.drain().iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    // Polls go on meanwhile; no re-send of the blocking tasks/result for 10 min.
    let mut results = 0;
    while s.tick(T0 + 100_000) {
        for request in s.drain() {
            match method(&request) {
                "tasks/get" => s.answer(&request, task_json("input_required", Some(10_000))),
                _ => results += 1,
            }
        }
    }
    assert_eq!(results, 0);
    // The poll shows the end: the blocking tasks/result (its stream silently gone) now has 5 s.
    s.clock.set(T0 + 110_000);
    s.requestor.handle_timeout();
    let get = s.drain();
    assert_eq!(get.iter().map(method).collect::<Vec<_>>(), ["tasks/get"]);
    s.answer(&get[0], task_json("completed", Some(10_000)));
    assert_eq!(s.requestor.next_deadline(), Some(T0 + 115_000));
    assert!(s.tick(T0 + 115_000));
    s.drain();
    assert!(s.tick(T0 + 200_000));
    let sent = s.drain();
    assert_eq!(sent.iter().map(method).collect::<Vec<_>>(), ["tasks/result"]);
    s.answer(&sent[0], tool_result("late but here"));
    assert_eq!(s.finished()[0].0, TaskStatus::Completed);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn max_list_pages_is_configurable() {
    let mut s = Scripted::new(RequestorConfig { max_list_pages: 3, ..Default::default() });
    s.requestor.list().unwrap();
    let mut pages = 0;
    while let Some(request) = s.drain().pop() {
        pages += 1;
        s.answer(&request, json!({"tasks":[],"nextCursor":format!("c{pages}")}));
    }
    assert_eq!(pages, 3);
    let error = s.events.iter().find_map(|e| match e {
        RequestorEvent::Listed { error: Some(error), .. } => Some(serde_json::from_str::<Value>(error).unwrap()),
        _ => None,
    });
    let error = error.unwrap();
    assert_eq!(error["error"]["data"]["requestor"], "pageLimit");
    assert!(error["error"]["message"].as_str().unwrap().contains("page limit is 3"), "{error}");
}

// Any sequence of receiver behaviour: a tracked task or an awaited request always
// has a deadline, deadlines are never left in the past, and Finished is terminal.
mod random_receivers {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Act {
        Call { interval: Option<u64> },
        Answer { pick: usize, how: u8, status: u8 },
        Drop { pick: usize },
        Failed { pick: usize },
        Notify { status: u8 },
        Advance { ms: u64 },
        Timeout,
        List,
        Cancel,
    }

    const STATUSES: [&str; 6] = ["working", "input_required", "completed", "failed", "cancelled", "bogus"];

    fn act() -> impl Strategy<Value = Act> {
        prop_oneof![
            1 => prop::option::of(prop_oneof![Just(0u64), Just(50), Just(1_000), Just(300_000)]).prop_map(|interval| Act::Call { interval }),
            6 => (0usize..8, 0u8..6, 0u8..6).prop_map(|(pick, how, status)| Act::Answer { pick, how, status }),
            1 => (0usize..8).prop_map(|pick| Act::Drop { pick }),
            1 => (0usize..8).prop_map(|pick| Act::Failed { pick }),
            2 => (0u8..6).prop_map(|status| Act::Notify { status }),
            3 => (0u64..400_000).prop_map(|ms| Act::Advance { ms }),
            3 => Just(Act::Timeout),
            1 => Just(Act::List),
            1 => Just(Act::Cancel),
        ]
    }

    fn run(acts: Vec<Act>) {
        let mut s = Scripted::new(RequestorConfig::default());
        let mut open: Vec<Value> = vec![];
        let mut tasks = 0;
        for act in acts {
            match act {
                Act::Call { interval } => {
                    s.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap();
                    // Remember the interval in the request so the answer can use it.
                    let mut sent = s.drain();
                    for r in &mut sent {
                        r["interval"] = json!(interval);
                    }
                    open.extend(sent);
                }
                Act::Answer { pick, how, status } if !open.is_empty() => {
                    let request = open.remove(pick % open.len());
                    let status = STATUSES[status as usize];
                    let task_id = request["params"]["taskId"].as_str().map(str::to_owned);
                    match (method(&request), how) {
                        (_, 0) => s.answer_error(&request, json!({"code":-32000,"message":"Rate limit exceeded"})),
                        (_, 1) => s.answer_error(&request, json!({"code":-32602,"message":"Task not found"})),
                        (_, 2) => s.answer_error(&request, json!({"code":-32603,"message":"Internal error"})),
                        ("tools/call", _) => {
                            tasks += 1;
                            let mut task = task_json(status, request["interval"].as_u64());
                            task["taskId"] = json!(format!("t{tasks}"));
                            s.answer(&request, json!({ "task": task }));
                        }
                        ("tasks/get" | "tasks/cancel", _) => {
                            let mut task = task_json(status, Some(1_000));
                            task["taskId"] = json!(task_id);
                            s.answer(&request, task);
                        }
                        ("tasks/result", _) => {
                            let result = json!({"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":task_id}}});
                            s.answer(&request, result);
                        }
                        ("tasks/list", 3) => s.answer(&request, json!({"tasks":[],"nextCursor":"same"})),
                        ("tasks/list", 4) => s.answer(&request, json!({"tasks":[],"nextCursor":format!("c{}", s.now())})),
                        _ => s.answer(&request, json!({"tasks":[]})),
                    }
                }
                Act::Drop { pick } if !open.is_empty() => {
                    open.remove(pick % open.len());
                }
                Act::Failed { pick } if !open.is_empty() => {
                    let request = open.remove(pick % open.len());
                    // False when the requestor gave up on it already.
                    let _ = s.requestor.request_failed(&RawId::parse(&request["id"].to_string()).unwrap());
                }
                Act::Notify { status } => {
                    if let Some(id) = s.requestor.tracked().first() {
                        let mut task = task_json(STATUSES[status as usize], Some(1_000));
                        task["taskId"] = json!(id);
                        s.notify(task);
                    }
                }
                Act::Advance { ms } => s.clock.set(s.now() + ms),
                Act::Timeout => {
                    s.requestor.handle_timeout();
                    let now = s.now();
                    assert!(s.requestor.next_deadline().is_none_or(|d| d > now), "a deadline left in the past");
                }
                Act::List => {
                    s.requestor.list().unwrap();
                }
                Act::Cancel => {
                    if let Some(id) = s.requestor.tracked().first() {
                        s.requestor.cancel(id).unwrap();
                    }
                }
                _ => {}
            }
            open.extend(s.drain());
            let tracked = s.requestor.tracked();
            assert!(tracked.is_empty() || s.requestor.next_deadline().is_some(), "tracked with no deadline: {tracked:?}");
            for e in &s.events {
                if let RequestorEvent::Finished { status, .. } = e {
                    assert!(status.is_terminal(), "Finished with {status:?}");
                }
            }
        }
        // Then the receiver goes silent for an hour: every wait ends by a timeout,
        // time moves at each deadline (no busy loop) and requests stay few.
        let end = s.now() + 3_600_000;
        let mut sent = 0;
        for _ in 0..20_000 {
            let before = s.now();
            if !s.tick(end) {
                break;
            }
            sent += s.drain().len();
            assert!(s.requestor.next_deadline().is_none_or(|d| d > before), "a deadline left in the past");
        }
        assert!(s.requestor.next_deadline().is_none_or(|d| d > end), "the ticks ran out before the hour did");
        assert!(sent <= 2_000, "{sent} requests to a silent receiver in an hour");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn never_stuck_never_early(acts in prop::collection::vec(act(), 1..80)) {
            run(acts);
        }
    }
}
