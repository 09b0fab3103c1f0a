//! A requestor and a receiver engine on one simulated wire, with a test
//! clock, a timestamped log, schema checks of what each side sends, and
//! faults injected by editing the queues: drop, duplicate, delay, reorder.
#![allow(dead_code)]

use super::{Schema, T0};
use mcp_task_core::{
    Clock, Config, Dialect, Engine, Event, ManualClock, Output, Requestor, RequestorConfig, RequestorEvent, RequestorOutput, SequentialIds,
    TaskSupport,
};
use serde_json::Value;
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

pub struct Wire {
    pub clock: ManualClock,
    pub requestor: Requestor,
    pub engine: Engine,
    pub dialect: Dialect,
    /// Requestor events, in order.
    pub events: Vec<RequestorEvent>,
    /// Tasks the receiver's host was told to run.
    pub executing: Vec<String>,
    /// Every event the receiver's host got (execute, cancelled, forward, input responses...).
    pub host: Vec<Event>,
    /// Methods of the requests the requestor sent (`(response)` for its answers), in order.
    pub sent: Vec<String>,
    /// Deliver the receiver's `notifications/tasks/status` (a test may switch them off).
    pub notifications: bool,
    /// `(time, direction, message)` of everything that crossed.
    pub log: Vec<(u64, Direction, String)>,
    in_flight: VecDeque<(u64, Direction, String)>,
    faults: FaultPlan,
    legacy_schema: Schema,
    extension_schema: Schema,
}

impl Wire {
    /// A wire in `dialect` with a receiver holding tools `slow` (required),
    /// `maybe` (optional) and `quick` (forbidden), polling every second.
    pub fn new(dialect: Dialect) -> Wire {
        let config = Config { poll_interval_ms: Some(1_000), ..Config::default() };
        let mut requestor_config = RequestorConfig { dialect, ..RequestorConfig::default() };
        requestor_config.poll.request_timeout_ms = 5_000;
        requestor_config.poll.result_timeout_ms = 20_000;
        Wire::with_configs(config, requestor_config)
    }

    /// A wire with the receiver's and the requestor's configuration given.
    pub fn with_configs(config: Config, requestor_config: RequestorConfig) -> Wire {
        let clock = ManualClock::new(T0);
        let mut engine = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new("task-")));
        engine.register_tool("slow", TaskSupport::Required);
        engine.register_tool("maybe", TaskSupport::Optional);
        engine.register_tool("quick", TaskSupport::Forbidden);
        let dialect = requestor_config.dialect;
        let requestor = Requestor::new(requestor_config, Box::new(clock.clone()));
        Wire {
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
        }
    }

    /// Decides each message's fate from now on.
    pub fn with_faults(mut self, faults: impl FnMut(Direction, &str) -> Fault + 'static) -> Wire {
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
            (Dialect::Extension, Direction::ToReceiver, "tasks/get") => self.extension_schema.check("GetTaskRequest", &v),
            (Dialect::Extension, Direction::ToReceiver, "tasks/update") => self.extension_schema.check("UpdateTaskRequest", &v),
            (Dialect::Extension, Direction::ToReceiver, "tasks/cancel") => self.extension_schema.check("CancelTaskRequest", &v),
            (Dialect::Extension, Direction::ToRequestor, _) if v["result"]["resultType"] == "task" => {
                self.extension_schema.check("CreateTaskResult", &v["result"])
            }
            _ => {}
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
                        let method = serde_json::from_str::<Value>(&m).ok().and_then(|v| v["method"].as_str().map(str::to_owned));
                        self.sent.push(method.unwrap_or_else(|| "(response)".to_owned()));
                        self.post(Direction::ToReceiver, m)
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
                            let reply =
                                serde_json::json!({"jsonrpc":"2.0","id": v["id"],"result":{"content":[{"type":"text","text":"plain"}]}});
                            self.post(Direction::ToRequestor, reply.to_string());
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
                        if let Some(reply) = self.engine.handle_message(&message, Some("s")) {
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

    /// How many `tasks/get` the requestor sent.
    pub fn gets(&self) -> usize {
        self.sent.iter().filter(|m| *m == "tasks/get").count()
    }
}
