//! `Pair`: a requestor and a receiver engine on one simulated wire, with a
//! test clock, a timestamped log, schema checks of what each side sends, and
//! faults injected by editing the queues: drop, duplicate, delay, reorder.
#![allow(dead_code)]

use super::{Schema, T0};
use mcp_task_core::{
    Clock, Config, Dialect, Engine, Event, ManualClock, Output, RawId, Requestor, RequestorConfig, RequestorEvent, RequestorOutput,
    SequentialIds, TaskSupport,
};
use serde_json::{json, Value};
use std::collections::VecDeque;

/// Which way a message travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ToReceiver,
    ToRequestor,
}

/// What happens to one message on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Deliver,
    Drop,
    Duplicate,
    /// Held this many ms.
    Delay(u64),
    /// Delivered after the next message.
    Reorder,
}

/// A small deterministic generator for fault plans (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A fault with the given percentage of messages disturbed.
    pub fn fault(&mut self, percent: u64) -> Fault {
        if self.next() % 100 >= percent {
            return Fault::Deliver;
        }
        match self.next() % 4 {
            0 => Fault::Drop,
            1 => Fault::Duplicate,
            2 => Fault::Delay(self.next() % 3_000),
            _ => Fault::Reorder,
        }
    }
}

/// Decides the fate of each message.
type FaultPlan = Box<dyn FnMut(Direction, &str) -> Fault>;

/// The two peers and the wire between them.
pub struct Pair {
    pub clock: ManualClock,
    pub requestor: Requestor,
    pub engine: Engine,
    pub dialect: Dialect,
    /// Requestor events, in order.
    pub events: Vec<RequestorEvent>,
    /// Tasks the receiver's host was told to run, in order (a test may take those it acts on).
    pub executing: Vec<String>,
    /// Every event the receiver's host got (execute, cancelled, forward, input responses...).
    pub host: Vec<Event>,
    /// Every message the requestor sent (requests and its answers), in order.
    pub sent: Vec<Value>,
    /// Deliver the receiver's `notifications/tasks/status` (a test may switch them off).
    pub notifications: bool,
    /// `(time, direction, message)` of everything that crossed.
    pub log: Vec<(u64, Direction, String)>,
    in_flight: VecDeque<(u64, Direction, String)>,
    faults: FaultPlan,
    legacy_schema: Schema,
    extension_schema: Schema,
    /// The 2026-07-28 base protocol's, for the envelopes of the extension's requests.
    base_schema: Schema,
}

impl Pair {
    /// A pair in `dialect` with a receiver holding tools `slow` (required),
    /// `maybe` (optional) and `quick` (forbidden), polling every second.
    pub fn new(dialect: Dialect) -> Pair {
        let config = Config { poll_interval_ms: Some(1_000), ..Config::default() };
        let mut requestor_config = RequestorConfig { dialect, ..RequestorConfig::default() };
        requestor_config.poll.request_timeout_ms = 5_000;
        requestor_config.poll.result_timeout_ms = 20_000;
        Pair::with_configs(config, requestor_config)
    }

    /// A pair with the receiver's and the requestor's configuration given.
    pub fn with_configs(config: Config, requestor_config: RequestorConfig) -> Pair {
        let clock = ManualClock::new(T0);
        let mut engine = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
        engine.register_tool("slow", TaskSupport::Required);
        engine.register_tool("maybe", TaskSupport::Optional);
        engine.register_tool("quick", TaskSupport::Forbidden);
        let dialect = requestor_config.dialect;
        let requestor = Requestor::new(requestor_config, Box::new(clock.clone()));
        Pair {
            clock,
            requestor,
            engine,
            dialect,
            events: vec![],
            executing: vec![],
            host: vec![],
            sent: vec![],
            notifications: true,
            log: vec![],
            in_flight: VecDeque::new(),
            faults: Box::new(|_, _| Fault::Deliver),
            legacy_schema: Schema::load(),
            extension_schema: Schema::extension(),
            base_schema: Schema::base_2026(),
        }
    }

    /// A pair in the tasks extension: a receiver polling every 2 s, and a requestor with
    /// `requestor_config` that learns the dialect from the receiver's `server/discover` answer.
    pub fn with_requestor(requestor_config: RequestorConfig) -> Pair {
        let config = Config { poll_interval_ms: Some(2_000), ..Config::default() };
        let mut pair = Pair::with_configs(config, requestor_config);
        let extensions: Value = serde_json::from_str(mcp_task_core::protocol::extension::capability_json()).unwrap();
        let discover = json!({"supportedVersions": ["2026-07-28"], "capabilities": {"extensions": extensions}});
        assert_eq!(pair.requestor.use_server_info(&discover.to_string()), Dialect::Extension);
        pair.dialect = Dialect::Extension;
        pair
    }

    /// Decides each message's fate from now on.
    pub fn with_faults(mut self, faults: impl FnMut(Direction, &str) -> Fault + 'static) -> Pair {
        self.faults = Box::new(faults);
        self
    }

    pub fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    fn check(&mut self, direction: Direction, message: &str) {
        let v: Value = serde_json::from_str(message).unwrap_or_else(|e| panic!("{direction:?} sent non-JSON ({e}): {message}"));
        let method = v.get("method").and_then(Value::as_str).unwrap_or_default();
        match (self.dialect, direction, method) {
            (Dialect::Legacy, Direction::ToReceiver, "tasks/get") => self.legacy_schema.check("GetTaskRequest", &v),
            (Dialect::Legacy, Direction::ToReceiver, "tasks/result") => self.legacy_schema.check("GetTaskPayloadRequest", &v),
            (Dialect::Legacy, Direction::ToReceiver, "tasks/cancel") => self.legacy_schema.check("CancelTaskRequest", &v),
            (Dialect::Legacy, _, _) => self.legacy_schema.check("JSONRPCMessage", &v),
            (Dialect::Extension, Direction::ToReceiver, _) => self.check_extension_request(message, &v),
            (Dialect::Extension, Direction::ToRequestor, _) if v["result"]["resultType"] == "task" => {
                self.extension_schema.check("CreateTaskResult", &v["result"])
            }
            _ => {}
        }
    }

    /// What the requestor sends in the extension: requests only, each naming its version and
    /// carrying client capabilities, with `Mcp-Name` naming its target.
    fn check_extension_request(&mut self, message: &str, v: &Value) {
        if v["method"] == "notifications/cancelled" {
            // Closing a listen stream (stdio's way).
            return self.base_schema.check("CancelledNotification", v);
        }
        self.base_schema.check("JSONRPCRequest", v);
        let meta = &v["params"]["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28", "every request names its version: {v}");
        // basic/index.mdx: clientCapabilities is a required per-request field (rmcp 3.x answers -32602 without it).
        assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object(), "every request carries client capabilities: {v}");
        if let Some(name) = RequestorOutput::Send(message.to_owned()).mcp_name() {
            let param = if v["method"] == "tools/call" { &v["params"]["name"] } else { &v["params"]["taskId"] };
            assert_eq!(json!(name), *param, "Mcp-Name names the request's target");
        }
        let method = v["method"].as_str().unwrap();
        match method {
            "tasks/get" => self.extension_schema.check("GetTaskRequest", v),
            "tasks/update" => self.extension_schema.check("UpdateTaskRequest", v),
            "tasks/cancel" => self.extension_schema.check("CancelTaskRequest", v),
            "tools/call" => assert!(v["params"].get("task").is_none(), "no params.task in the extension"),
            "subscriptions/listen" => {
                self.base_schema.check("SubscriptionsListenRequest", v);
                self.extension_schema.check("TaskSubscriptionNotifications", &v["params"]["notifications"]);
            }
            other => panic!("unexpected request {other}"),
        }
        if method.starts_with("tasks/") {
            assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"], json!({}));
        }
    }

    /// Puts a message on the wire, through the fault plan.
    fn post(&mut self, direction: Direction, message: String) {
        self.check(direction, &message);
        let now = self.now();
        match (self.faults)(direction, &message) {
            Fault::Deliver => self.in_flight.push_back((now, direction, message)),
            Fault::Drop => self.log.push((now, direction, format!("DROPPED {message}"))),
            Fault::Duplicate => {
                self.in_flight.push_back((now, direction, message.clone()));
                self.in_flight.push_back((now, direction, message));
            }
            Fault::Delay(ms) => self.in_flight.push_back((now + ms, direction, message)),
            Fault::Reorder => {
                let at = self.in_flight.len().saturating_sub(1);
                self.in_flight.insert(at, (now, direction, message));
            }
        }
    }

    /// Moves what both sides produce onto the wire and delivers what is due.
    /// Bounded: a livelock fails the test.
    pub fn pump(&mut self) {
        for _ in 0..100_000 {
            let mut moved = false;
            while let Some(out) = self.requestor.poll_output() {
                moved = true;
                match out {
                    RequestorOutput::Send(m) => {
                        self.post(Direction::ToReceiver, m.clone());
                        self.sent.push(serde_json::from_str(&m).unwrap());
                    }
                    RequestorOutput::Event(e) => self.events.push(e),
                }
            }
            while let Some(out) = self.engine.poll_output() {
                moved = true;
                match out {
                    Output::Send(t) => {
                        if !self.notifications && t.message.contains("notifications/tasks/status") {
                            continue;
                        }
                        self.post(Direction::ToRequestor, t.message)
                    }
                    Output::Event(Event::Execute { task_id, context, kind, request }) => {
                        self.executing.push(task_id.clone());
                        self.host.push(Event::Execute { task_id, context, kind, request });
                    }
                    Output::Event(Event::Forward { message, context }) => {
                        // The receiver's host runs plain calls itself, at once.
                        let v: Value = serde_json::from_str(&message).unwrap();
                        if v.get("id").is_some() && v.get("method").is_some() {
                            let mut result = json!({"content":[{"type":"text","text":"plain"}]});
                            if self.dialect == Dialect::Extension {
                                result["resultType"] = json!("complete");
                            }
                            self.post(Direction::ToRequestor, json!({"jsonrpc":"2.0","id": v["id"],"result": result}).to_string());
                        }
                        self.host.push(Event::Forward { message, context });
                    }
                    Output::Event(e) => self.host.push(e),
                    Output::Persist(_) => {}
                }
            }
            let now = self.now();
            if let Some(i) = self.in_flight.iter().position(|(due, _, _)| *due <= now) {
                moved = true;
                let (_, direction, message) = self.in_flight.remove(i).unwrap();
                self.log.push((now, direction, message.clone()));
                match direction {
                    Direction::ToReceiver => {
                        let reply = match self.listen_stream(&message) {
                            Some(reply) => reply,
                            None => self.engine.handle_message(&message, Some("s")),
                        };
                        if let Some(reply) = reply {
                            self.post(Direction::ToRequestor, reply);
                        }
                    }
                    Direction::ToRequestor => self.requestor.handle_message(&message),
                }
            }
            if !moved {
                return;
            }
        }
        panic!("livelock on the wire; last messages: {:?}", self.log.iter().rev().take(10).collect::<Vec<_>>());
    }

    /// What the receiver's host does with `subscriptions/listen` (acknowledges the
    /// tasks the engine follows on it) and with `notifications/cancelled` of one
    /// (the engine stops): `Some` with its reply, if any; `None` for any other message.
    fn listen_stream(&mut self, message: &str) -> Option<Option<String>> {
        let v: Value = serde_json::from_str(message).ok()?;
        match v["method"].as_str()? {
            "subscriptions/listen" => Some(Some(match self.engine.listen_tasks(message, Some("s")) {
                Ok(task_ids) => json!({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{
                    "notifications":{"taskIds":task_ids},"_meta":{"io.modelcontextprotocol/subscriptionId":v["id"]}}})
                .to_string(),
                Err(error) => error,
            })),
            "notifications/cancelled" => {
                let id = RawId::parse(&v["params"]["requestId"].to_string()).ok()?;
                self.engine.unlisten_tasks(&id, Some("s"));
                Some(None)
            }
            _ => None,
        }
    }

    /// Advances to the requestor's next deadline and runs it (the receiver's deadlines wait).
    pub fn tick(&mut self) {
        let due = self.requestor.next_deadline().expect("a tracked task always has a deadline");
        self.clock.set(due.max(self.now()));
        self.requestor.handle_timeout();
        self.pump();
    }

    /// Runs time forward to `until`, waking at every deadline and delayed message.
    pub fn run_until(&mut self, until: u64) {
        self.pump();
        loop {
            let wire = self.in_flight.iter().map(|(due, _, _)| *due).min();
            let next = [self.requestor.next_deadline(), self.engine.next_deadline(), wire].into_iter().flatten().min();
            match next {
                Some(t) if t <= until => {
                    if t > self.now() {
                        self.clock.set(t);
                    }
                    self.requestor.handle_timeout();
                    self.engine.handle_timeout();
                    self.pump();
                }
                _ => break,
            }
        }
        if until > self.now() {
            self.clock.set(until);
        }
        self.pump();
    }

    /// The ID of the first task created.
    pub fn task_id(&self) -> String {
        self.events
            .iter()
            .find_map(|e| match e {
                RequestorEvent::Created { task_id, .. } => Some(task_id.clone()),
                _ => None,
            })
            .expect("a task was created")
    }

    /// The first `Finished`: its status and response.
    pub fn finished(&self) -> Option<(mcp_task_core::TaskStatus, Value)> {
        self.events.iter().find_map(|e| match e {
            RequestorEvent::Finished { status, response, .. } => Some((*status, serde_json::from_str(response).unwrap())),
            _ => None,
        })
    }

    /// The requestor's events so far, leaving none.
    pub fn take_events(&mut self) -> Vec<RequestorEvent> {
        std::mem::take(&mut self.events)
    }

    /// The request id of the input request among the events so far (which it takes).
    pub fn take_input_request(&mut self) -> RawId {
        self.take_events()
            .into_iter()
            .find_map(|e| match e {
                RequestorEvent::InputRequest { request_id, .. } => Some(request_id),
                _ => None,
            })
            .expect("an input request event")
    }

    /// How many `method` requests the requestor sent.
    pub fn count(&self, method: &str) -> usize {
        self.sent.iter().filter(|v| v["method"] == method).count()
    }
}
