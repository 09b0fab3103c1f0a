//! The requestor engine wired to a receiver engine in memory, with a test clock.

use mcp_task_core::{
    should_augment, Capabilities, Config, Engine, Event, ManualClock, Output, PollPolicy, Requestor, RequestorConfig, RequestorEvent,
    RequestorOutput, SequentialIds, TaskStatus, TaskSupport,
};
use serde_json::{json, Value};

const T0: u64 = 1_764_066_600_000;
const CTX: Option<&str> = Some("session");

/// Both engines and the wire between them.
struct Pair {
    clock: ManualClock,
    requestor: Requestor,
    receiver: Engine,
    /// Deliver the receiver's notifications/tasks/status to the requestor.
    notifications: bool,
    /// Requestor-side events, in order.
    events: Vec<RequestorEvent>,
    /// Receiver-side events (execute, cancelled, input responses...).
    host: Vec<Event>,
    /// Messages the requestor sent, by method.
    sent: Vec<String>,
}

impl Pair {
    fn new(config: Config) -> Pair {
        let clock = ManualClock::new(T0);
        let mut receiver = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
        receiver.register_tool("slow", TaskSupport::Required);
        receiver.register_tool("maybe", TaskSupport::Optional);
        let poll = PollPolicy { floor_ms: 100, ceiling_ms: 30_000, initial_backoff_ms: 500 };
        let requestor = Requestor::new(RequestorConfig { poll, ..Default::default() }, Box::new(clock.clone()));
        Pair { clock, requestor, receiver, notifications: true, events: vec![], host: vec![], sent: vec![] }
    }

    /// Moves messages both ways until nothing is left.
    fn pump(&mut self) {
        for _ in 0..10_000 {
            let mut moved = false;
            while let Some(out) = self.requestor.poll_output() {
                moved = true;
                match out {
                    RequestorOutput::Send(m) => {
                        let v: Value = serde_json::from_str(&m).unwrap();
                        self.sent.push(v["method"].as_str().unwrap_or("(response)").to_owned());
                        if let Some(reply) = self.receiver.handle_message(&m, CTX) {
                            self.requestor.handle_message(&reply);
                        }
                    }
                    RequestorOutput::Event(e) => self.events.push(e),
                }
            }
            while let Some(out) = self.receiver.poll_output() {
                moved = true;
                match out {
                    Output::Persist(_) => {}
                    Output::Send(t) => {
                        if !self.notifications && t.message.contains("notifications/tasks/status") {
                            continue;
                        }
                        self.requestor.handle_message(&t.message);
                    }
                    Output::Event(Event::Forward { message, .. }) => {
                        // The receiver's host runs plain requests itself.
                        let v: Value = serde_json::from_str(&message).unwrap();
                        if v.get("method").is_some() && v.get("id").is_some() {
                            let reply = json!({"jsonrpc":"2.0","id": v["id"], "result": {"content":[{"type":"text","text":"plain"}]}});
                            self.requestor.handle_message(&reply.to_string());
                        }
                        self.host.push(Event::Forward { message, context: None });
                    }
                    Output::Event(e) => self.host.push(e),
                }
            }
            if !moved {
                return;
            }
        }
        panic!("livelock: the engines never went idle");
    }

    /// Runs time forward to `until`, waking at every deadline of either side.
    fn run_until(&mut self, until: u64) {
        self.pump();
        loop {
            let next = [self.requestor.next_deadline(), self.receiver.next_deadline()].into_iter().flatten().min();
            match next {
                Some(t) if t <= until => {
                    if t > self.clock.now_ms_checked() {
                        self.clock.set(t);
                    }
                    self.requestor.handle_timeout();
                    self.receiver.handle_timeout();
                    self.pump();
                }
                _ => break,
            }
        }
        if until > self.clock.now_ms_checked() {
            self.clock.set(until);
        }
        self.pump();
    }

    fn task_id(&self) -> String {
        self.events
            .iter()
            .find_map(|e| match e {
                RequestorEvent::Created { task_id, .. } => Some(task_id.clone()),
                _ => None,
            })
            .expect("a task was created")
    }

    fn finished(&self) -> Option<(TaskStatus, Value)> {
        self.events.iter().find_map(|e| match e {
            RequestorEvent::Finished { status, response, .. } => Some((*status, serde_json::from_str(response).unwrap())),
            _ => None,
        })
    }

    fn gets(&self) -> usize {
        self.sent.iter().filter(|m| *m == "tasks/get").count()
    }
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

#[test]
fn whole_lifecycle_with_input_required() {
    let mut p = Pair::new(Config { poll_interval_ms: Some(1_000), ..Config::default() });
    assert!(should_augment(SERVER_CAPS, "tools/call", Some("required"), false).augment);
    p.requestor.call("tools/call", Some(r#"{"name":"slow","arguments":{}}"#), Some(Some(60_000)), Some("\"tok\"")).unwrap();
    p.run_until(T0 + 3_000);
    let id = p.task_id();
    assert!(p.host.iter().any(|e| matches!(e, Event::Execute { task_id, .. } if *task_id == id)));
    p.receiver.report_progress(&id, 1.0, Some(2.0), None).unwrap();
    p.receiver
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
    assert_eq!(p.receiver.task(&id).unwrap().status, TaskStatus::Working);
    p.run_until(T0 + 8_000);
    p.receiver.complete(&id, r#"{"content":[{"type":"text","text":"21 C"}]}"#).unwrap();
    p.run_until(T0 + 9_000);
    let (status, response) = p.finished().expect("finished");
    assert_eq!(status, TaskStatus::Completed);
    assert_eq!(response["result"]["content"][0]["text"], "21 C");
    assert!(p.requestor.tracked().is_empty(), "no more polling after the end");
    let gets = p.gets();
    p.run_until(T0 + 60_000);
    assert_eq!(p.gets(), gets, "no polls after a terminal status");
}

#[test]
fn failure_is_handed_over_with_the_exact_error() {
    let mut p = Pair::new(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
    p.run_until(T0 + 1_500);
    let id = p.task_id();
    let error = json!({"code": -32050, "message": "quota", "data": {"left": 0}});
    p.receiver.fail(&id, &error.to_string()).unwrap();
    p.run_until(T0 + 5_000);
    let (status, response) = p.finished().unwrap();
    assert_eq!(status, TaskStatus::Failed);
    assert_eq!(response["error"], error);
}

#[test]
fn cancel_reaches_the_receiver() {
    let mut p = Pair::new(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
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
    assert!(p.requestor.tracked().is_empty());
    let gets = p.gets();
    p.run_until(T0 + 20_000);
    assert_eq!(p.gets(), gets);
}

#[test]
fn expiry_on_the_receiver_is_reported_as_lost() {
    let mut p = Pair::new(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(Some(4_000)), None).unwrap();
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

#[test]
fn restart_and_resume() {
    let mut p = Pair::new(Config::default());
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), Some("7")).unwrap();
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
    p.receiver.complete(&id, r#"{"content":[{"type":"text","text":"after restart"}]}"#).unwrap();
    p.run_until(T0 + 6_000);
    assert_eq!(p.finished().unwrap().1["result"]["content"][0]["text"], "after restart");
    // A task that expired while the requestor was down is reported lost.
    let mut p2 = Pair::new(Config::default());
    p2.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(Some(3_000)), None).unwrap();
    p2.run_until(T0 + 1_000);
    let saved = p2.requestor.export_state();
    p2.clock.set(T0 + 60_000);
    p2.receiver.handle_timeout();
    let mut fresh = Requestor::new(RequestorConfig::default(), Box::new(p2.clock.clone()));
    fresh.import_state(&saved).unwrap();
    p2.requestor = fresh;
    p2.events.clear();
    p2.run_until(T0 + 61_000);
    assert!(p2.events.iter().any(|e| matches!(e, RequestorEvent::Lost { .. })), "{:?}", p2.events);
}

#[test]
fn receiver_that_never_notifies_is_polled_to_the_end() {
    let mut p = Pair::new(Config { status_notifications: false, poll_interval_ms: Some(2_000), ..Config::default() });
    p.notifications = false;
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
    p.run_until(T0 + 5_000);
    let id = p.task_id();
    p.receiver.complete(&id, r#"{"content":[]}"#).unwrap();
    p.run_until(T0 + 7_000);
    assert_eq!(p.finished().unwrap().0, TaskStatus::Completed);
    assert_eq!(p.gets(), 3, "polls at 2 s, 4 s and 6 s");
}

#[test]
fn notifications_alone_end_the_wait_early() {
    // pollInterval is long; the status notification brings the result sooner.
    let mut p = Pair::new(Config { poll_interval_ms: Some(30_000), ..Config::default() });
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
    p.run_until(T0 + 1_000);
    let id = p.task_id();
    p.receiver.complete(&id, r#"{"content":[{"type":"text","text":"early"}]}"#).unwrap();
    p.run_until(T0 + 1_001);
    assert_eq!(p.gets(), 0, "not one poll needed");
    assert_eq!(p.finished().unwrap().1["result"]["content"][0]["text"], "early");
}

#[test]
fn receiver_without_task_capability_gets_plain_requests() {
    let decision = should_augment("{}", "tools/call", Some("required"), true);
    assert!(!decision.augment);
    assert!(decision.reason.contains("no tasks capability"));
    let mut p = Pair::new(Config { capabilities: Capabilities::default(), ..Config::default() });
    let call = p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), None, None).unwrap();
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::PlainResponse { call_id, .. } if *call_id == call)));
    // Even augmented, an undeclared receiver runs it normally: still a plain response.
    let call = p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::PlainResponse { call_id, .. } if *call_id == call)));
    assert!(p.requestor.tracked().is_empty());
}

#[test]
fn refused_calls_and_listing() {
    let mut p = Pair::new(Config { page_size: 2, ..Config::default() });
    let refused = p.requestor.call("tools/call", Some(r#"{"name":"maybe","task":5}"#), None, None).unwrap();
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, RequestorEvent::CallRefused { call_id, .. } if *call_id == refused)));
    for _ in 0..5 {
        p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
    }
    p.pump();
    p.requestor.list();
    p.pump();
    let listed = p.events.iter().find_map(|e| match e {
        RequestorEvent::Listed { tasks, error: None } => Some(serde_json::from_str::<Vec<Value>>(tasks).unwrap()),
        _ => None,
    });
    assert_eq!(listed.unwrap().len(), 5, "three pages followed");
    assert_eq!(p.sent.iter().filter(|m| *m == "tasks/list").count(), 3);
}

/// Simulates a 10-minute task and counts the `tasks/get` sent.
fn ten_minute_task(poll_interval: Option<u64>) -> usize {
    let mut p = Pair::new(Config { poll_interval_ms: poll_interval, ..Config::default() });
    p.notifications = false;
    p.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), Some(None), None).unwrap();
    p.pump();
    let id = p.task_id();
    p.run_until(T0 + 600_000);
    p.receiver.complete(&id, r#"{"content":[]}"#).unwrap();
    p.run_until(T0 + 700_000);
    assert!(p.finished().is_some());
    p.gets()
}

#[test]
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
