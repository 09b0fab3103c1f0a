//! The engine over an external storage: persist-before-reply, restart from
//! records, compare-and-set between instances (exactly one outcome wins),
//! leases that fail a dead worker's task and carry a cancel to the instance
//! running the work. The storage here is a map with compare-and-set, the
//! contract every adapter (Redis, Durable Objects) keeps.

mod common;
use common::*;
use mcp_task_core::{
    Config, Engine, Event, Inbound, ManualClock, Output, Persist, RequestKind, SequentialIds, StorageMode, TaskStatus, TaskSupport,
    TtlRequest,
};
use serde_json::{json, Value};
use std::collections::HashMap;

/// A storage with compare-and-set on versions.
#[derive(Default)]
struct MapStorage {
    records: HashMap<String, (u64, String)>,
    writes: usize,
}

impl MapStorage {
    /// Applies a Persist; `Err(current record)` when the version did not match.
    fn apply(&mut self, p: &Persist) -> Result<(), Option<String>> {
        let current = self.records.get(&p.task_id);
        if current.map(|(v, _)| *v) != p.expected_version {
            return Err(current.map(|(_, r)| r.clone()));
        }
        match &p.record {
            Some(r) => self.records.insert(p.task_id.clone(), (p.version, r.clone())),
            None => self.records.remove(&p.task_id),
        };
        self.writes += 1;
        Ok(())
    }
}

/// An engine in storage mode and its outputs, driven as an adapter drives one:
/// persist in order; on a compare-and-set failure, restore and retry.
struct Node {
    engine: Engine,
}

fn node(instance: &str, clock: &ManualClock, ids: &str) -> Node {
    let config = Config {
        storage: Some(StorageMode { instance_id: instance.into(), lease_ms: 3_000 }),
        poll_interval_ms: Some(1_000),
        ..Config::default()
    };
    let mut engine = Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new(ids)));
    engine.register_tool("slow", TaskSupport::Required);
    Node { engine }
}

impl Node {
    /// Drains outputs; persists each Persist before anything after it. Returns
    /// what followed, or the conflicting record when a compare-and-set failed.
    fn drain(&mut self, storage: &mut MapStorage) -> Result<Vec<Output>, (String, Option<String>)> {
        let mut rest = Vec::new();
        while let Some(out) = self.engine.poll_output() {
            match out {
                Output::Persist(p) => {
                    assert!(rest.is_empty(), "a Persist came after an output it must precede");
                    if let Err(current) = storage.apply(&p) {
                        // Drop what this attempt produced; the caller restores and retries.
                        while self.engine.poll_output().is_some() {}
                        return Err((p.task_id, current));
                    }
                }
                other => rest.push(other),
            }
        }
        Ok(rest)
    }

    /// Runs the next heartbeat (due within one poll interval of T), which must conflict with a
    /// change another instance wrote: restores the stored record and returns what followed.
    fn next_heartbeat_conflicts(&mut self, clock: &ManualClock, storage: &mut MapStorage) -> Vec<Output> {
        let heartbeat = self.engine.next_deadline().unwrap();
        assert!(heartbeat <= T + 1_000, "renewed at least every poll interval");
        clock.set(heartbeat);
        self.engine.handle_timeout();
        let (_, current) = self.drain(storage).expect_err("the renewal conflicts with the other instance's change");
        self.engine.storage().restore(&current.unwrap()).unwrap();
        self.drain(storage).unwrap()
    }

    /// Loads the storage's copy of a task before acting on it (another instance may have changed it).
    fn load(&mut self, storage: &MapStorage, task_id: &str) {
        match storage.records.get(task_id) {
            Some((_, r)) => self.engine.storage().restore(r).unwrap(),
            None => {
                self.engine.storage().forget_task(task_id);
            }
        }
    }
}

fn reply_of(outs: &[Output]) -> Value {
    outs.iter()
        .find_map(|o| match o {
            Output::Send(t) if t.in_reply_to.is_some() => Some(serde_json::from_str(&t.message).unwrap()),
            _ => None,
        })
        .expect("a reply")
}

const T: u64 = T0;

fn tool_call(id: u64) -> String {
    json!({"jsonrpc":"2.0","id": id,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}).to_string()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_reply_waits_behind_the_persist_of_what_it_changed() {
    let clock = ManualClock::new(T);
    let mut a = node("a", &clock, "t");
    let mut storage = MapStorage::default();
    assert_eq!(a.engine.handle_message(&tool_call(1), Some("s")), None, "no reply before the task is durable");
    let first = a.engine.poll_output().unwrap();
    let Output::Persist(p) = first else { panic!("{first:?}") };
    assert_eq!((p.task_id.as_str(), p.expected_version, p.version), ("t1", None, 1));
    assert_eq!(p.expires_at, Some(T + 60_000));
    storage.apply(&p).unwrap();
    let outs = a.drain(&mut storage).unwrap();
    let reply = reply_of(&outs);
    Schema::load().check("CreateTaskResult", &reply["result"]);
    assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::Execute { .. }))));
    // Reads change nothing: no Persist.
    a.engine.handle_message(r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1"}}"#, Some("s"));
    assert!(matches!(a.engine.poll_output(), Some(Output::Send(_))));
    assert_eq!(storage.writes, 1);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_restart_restores_every_acknowledged_task_and_fails_the_dead_workers_ones() {
    let clock = ManualClock::new(T);
    let mut storage = MapStorage::default();
    let mut a = node("boot-1", &clock, "t");
    for i in 1..=3 {
        a.engine.handle_message(&tool_call(i), Some("s"));
    }
    a.drain(&mut storage).unwrap();
    let result = r#"{"content":[{"type":"text","text":"done"}],"_meta":{"n":123456789012345678901234567890}}"#;
    a.engine.complete("t2", result).unwrap();
    a.engine
        .request_input("t3", "elicitation/create", Some(r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#))
        .unwrap();
    a.drain(&mut storage).unwrap();
    drop(a); // SIGKILL: nothing more is written.

    let mut b = node("boot-2", &clock, "u");
    for (_, record) in storage.records.values() {
        b.engine.storage().restore(record).unwrap();
    }
    assert_eq!(b.drain(&mut storage).unwrap().len(), 0, "nothing to say while the leases last");
    let get = |b: &mut Node, id: &str| b.engine.sdk_store().get_task(id, Some("s")).unwrap();
    assert_eq!(get(&mut b, "t1").status, TaskStatus::Working);
    assert_eq!(get(&mut b, "t2").status, TaskStatus::Completed);
    assert_eq!(get(&mut b, "t3").status, TaskStatus::InputRequired);
    assert_eq!(b.engine.sdk_store().get_task_result("t2", Some("s")).ok().cloned().unwrap().json(), result, "the result, byte for byte");
    // The unanswered elicitation is still there, under the same id.
    let waiting: Value = {
        b.engine.handle_message(r#"{"jsonrpc":"2.0","id":9,"method":"tasks/result","params":{"taskId":"t3"}}"#, Some("s"));
        let outs = b.drain(&mut storage).unwrap();
        let Output::Send(t) = &outs[0] else { panic!("{outs:?}") };
        serde_json::from_str(&t.message).unwrap()
    };
    assert_eq!(waiting["id"], "t3/input/1");
    // A dashboard's figures: the tasks held by status (working, input_required, completed,
    // failed, cancelled), then the lease failures found here.
    let figures = |b: &Node| (0..6).map(|which| b.engine.figure(which)).collect::<Vec<_>>();
    assert_eq!(figures(&b), [1, 1, 1, 0, 0, 0]);
    // The dead instance's leases run out: its running tasks fail with a clear error, within the lease.
    let deadline = b.engine.next_deadline().unwrap();
    assert!(deadline <= T + 3_000, "checked when the lease ends");
    clock.set(deadline);
    b.engine.handle_timeout();
    b.drain(&mut storage).unwrap();
    for id in ["t1", "t3"] {
        let t = get(&mut b, id);
        assert_eq!(t.status, TaskStatus::Failed, "{id}");
        assert!(t.status_message.as_deref().unwrap().contains("lease ran out"), "{t:?}");
        let Some(mcp_task_core::Outcome::Error(e)) = b.engine.sdk_store().get_task_result(id, Some("s")).ok().cloned() else { panic!() };
        assert!(e.contains("-32603"));
        let stored: Value = serde_json::from_str(&storage.records[id].1).unwrap();
        assert_eq!(stored["status"], "failed", "the failure is durable too");
    }
    assert_eq!(get(&mut b, "t2").status, TaskStatus::Completed, "finished work is untouched");
    assert_eq!(figures(&b), [0, 0, 1, 2, 0, 2], "two lease failures");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn complete_and_cancel_race_across_instances_with_exactly_one_winner() {
    for round in 0..200u64 {
        let clock = ManualClock::new(T);
        let mut storage = MapStorage::default();
        let mut a = node("a", &clock, "t");
        let mut b = node("b", &clock, "u");
        a.engine.handle_message(&tool_call(1), Some("s"));
        a.drain(&mut storage).unwrap();
        b.load(&storage, "t1");
        // Both decide on the same version; the order of their writes varies.
        a.engine.complete("t1", r#"{"content":[]}"#).unwrap();
        let cancel = r#"{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"taskId":"t1"}}"#;
        b.engine.handle_message(cancel, Some("s"));
        let (first, second) = if round % 2 == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
        assert!(first.drain(&mut storage).is_ok());
        let (task, current) = second.drain(&mut storage).expect_err("the second write must conflict");
        // The loser reads the winner's record and decides again.
        second.engine.storage().restore(&current.unwrap()).unwrap();
        assert_eq!(task, "t1");
        let winner: Value = serde_json::from_str(&storage.records["t1"].1).unwrap();
        let status = winner["status"].as_str().unwrap().to_owned();
        if round % 2 == 0 {
            assert_eq!(status, "completed");
            // B retries its cancel on the new state: refused, nothing written.
            let reply = b.engine.handle_message(cancel, Some("s"));
            assert!(reply.is_none());
            let outs = b.drain(&mut storage).unwrap();
            assert_eq!(reply_of(&outs)["error"]["code"], -32602);
        } else {
            assert_eq!(status, "cancelled");
            // A's late completion is refused, and A was told to stop the work.
            let outs = a.drain(&mut storage).unwrap();
            assert!(outs.is_empty());
            assert_eq!(a.engine.complete("t1", r#"{"content":[]}"#).unwrap_err().code(), "task_cancelled");
        }
        assert_eq!(storage.records["t1"].0, 2, "one write after creation: no lost update");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_cancel_on_another_instance_reaches_the_running_work_within_a_poll_interval() {
    let clock = ManualClock::new(T);
    let mut storage = MapStorage::default();
    let mut a = node("a", &clock, "t");
    let mut b = node("b", &clock, "u");
    a.engine.handle_message(&tool_call(1), Some("s"));
    a.drain(&mut storage).unwrap();
    b.load(&storage, "t1");
    b.engine.handle_message(r#"{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"taskId":"t1"}}"#, Some("s"));
    let outs = b.drain(&mut storage).unwrap();
    assert_eq!(reply_of(&outs)["result"]["status"], "cancelled");
    // A's next heartbeat comes within one poll interval and finds the new version.
    let outs = a.next_heartbeat_conflicts(&clock, &mut storage);
    assert!(outs.iter().any(|o| matches!(o, Output::Event(Event::Cancelled { task_id, .. }) if task_id == "t1")), "{outs:?}");
    assert_eq!(a.engine.sdk_store().get_task("t1", Some("s")).unwrap().status, TaskStatus::Cancelled);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn an_answer_on_another_instance_reaches_the_waiting_work_within_a_poll_interval() {
    let clock = ManualClock::new(T);
    let mut storage = MapStorage::default();
    let mut a = node("a", &clock, "t");
    let mut b = node("b", &clock, "u");
    let envelope = json!({"io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}});
    let call = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":envelope}});
    a.engine.handle_message(&call.to_string(), Some("s"));
    a.drain(&mut storage).unwrap();
    let asked = a
        .engine
        .request_input(
            "t1",
            "elicitation/create",
            Some(r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{}}}"#),
        )
        .unwrap();
    a.drain(&mut storage).unwrap();
    // B takes the answer: the task goes on, and the answer waits in the record for A.
    b.load(&storage, "t1");
    let answer = json!({"action":"accept","content":{"name":"Ada"}});
    let update = json!({"jsonrpc":"2.0","id":2,"method":"tasks/update","params":{"taskId":"t1","inputResponses":{"t1/input/1":answer},"_meta":envelope}});
    b.engine.handle_message(&update.to_string(), Some("s"));
    let outs = b.drain(&mut storage).unwrap();
    assert!(reply_of(&outs).get("result").is_some(), "{outs:?}");
    let stored: Value = serde_json::from_str(&storage.records["t1"].1).unwrap();
    assert_eq!((stored["status"].as_str(), stored["answers"][0]["id"].as_str()), (Some("working"), Some(asked.as_str())));
    // Another write by B (a status message) keeps the answer for A.
    b.engine.set_status_message("t1", Some("answered")).unwrap();
    b.drain(&mut storage).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&storage.records["t1"].1).unwrap()["answers"][0]["id"], asked.as_str());
    // A's next heartbeat conflicts, restores the record and hands the answer to the work.
    let outs = a.next_heartbeat_conflicts(&clock, &mut storage);
    let delivered: Vec<Value> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Event(Event::InputResponse { task_id, request_id, response, .. })
                if task_id == "t1" && request_id.as_ref() == asked =>
            {
                Some(serde_json::from_str(response).unwrap())
            }
            _ => None,
        })
        .collect();
    assert_eq!(delivered.len(), 1, "{outs:?}");
    assert_eq!(delivered[0]["result"], answer);
    // Taken: the record no longer carries it, and a later restore delivers nothing again.
    let stored: Value = serde_json::from_str(&storage.records["t1"].1).unwrap();
    assert!(stored.get("answers").is_none(), "{stored}");
    a.engine.storage().restore(&storage.records["t1"].1).unwrap();
    assert!(!a.drain(&mut storage).unwrap().iter().any(|o| matches!(o, Output::Event(Event::InputResponse { .. }))));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_live_worker_keeps_its_task_alive_past_many_leases() {
    let clock = ManualClock::new(T);
    let mut storage = MapStorage::default();
    let mut a = node("a", &clock, "t");
    let mut b = node("b", &clock, "u");
    a.engine.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    a.drain(&mut storage).unwrap();
    for _ in 0..20 {
        clock.advance(1_000);
        a.engine.handle_timeout();
        a.drain(&mut storage).unwrap();
        b.load(&storage, "t1");
        b.drain(&mut storage).unwrap();
        assert_eq!(b.engine.sdk_store().get_task("t1", Some("s")).unwrap().status, TaskStatus::Working);
    }
    // Work done: the lease ends with it, and nothing renews it any more.
    a.engine.complete("t1", r#"{"content":[]}"#).unwrap();
    a.drain(&mut storage).unwrap();
    let stored: Value = serde_json::from_str(&storage.records["t1"].1).unwrap();
    assert!(stored.get("lease").is_none());
    let writes = storage.writes;
    clock.advance(10_000);
    a.engine.handle_timeout();
    a.drain(&mut storage).unwrap();
    assert_eq!(storage.writes, writes);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn extension_tasks_and_their_input_requests_survive_too() {
    let clock = ManualClock::new(T);
    let mut storage = MapStorage::default();
    let mut a = node("a", &clock, "t");
    let call = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}}});
    a.engine.handle_message(&call.to_string(), Inbound::from_context(Some("s")));
    a.drain(&mut storage).unwrap();
    a.engine
        .request_input(
            "t1",
            "elicitation/create",
            Some(r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{}}}"#),
        )
        .unwrap();
    a.drain(&mut storage).unwrap();
    let mut b = node("b", &clock, "u");
    b.engine.storage().restore_snapshot(&format!("[{}]", storage.records["t1"].1)).unwrap();
    let get = json!({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1","_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}});
    b.engine.handle_message(&get.to_string(), Some("s"));
    let reply = reply_of(&b.drain(&mut storage).unwrap());
    Schema::extension().check("GetTaskResult", &reply["result"]);
    assert_eq!(reply["result"]["inputRequests"]["t1/input/1"]["method"], "elicitation/create");
    // The next request id continues the count: never a repeat across a restart.
    b.engine.storage().restore(&storage.records["t1"].1).unwrap();
    assert_eq!(b.engine.request_input("t1", "elicitation/create", Some("{}")).unwrap(), "\"t1/input/2\"");
    // Snapshot round trip keeps the records as they are.
    let snap = b.engine.storage().snapshot();
    let mut c = node("c", &clock, "v");
    assert_eq!(c.engine.storage().restore_snapshot(&snap).unwrap(), 1);
    assert_eq!(c.engine.storage().export_task("t1"), b.engine.storage().export_task("t1"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn ttl_expiry_deletes_from_the_store_and_bad_records_are_refused() {
    let clock = ManualClock::new(T);
    let mut storage = MapStorage::default();
    let mut a = node("a", &clock, "t");
    a.engine.handle_message(&tool_call(1), Some("s"));
    a.drain(&mut storage).unwrap();
    clock.advance(60_001);
    a.engine.handle_timeout();
    a.drain(&mut storage).unwrap();
    assert!(storage.records.is_empty(), "the expired task is deleted");
    for bad in
        ["", "{}", "[1]", r#"{"v":1,"id":"x","kind":"tools/call","dialect":"2025-11-25","status":"sleeping","createdAt":0,"updatedAt":0}"#]
    {
        assert_eq!(a.engine.storage().restore(bad).unwrap_err().code(), "invalid_argument", "{bad}");
    }
    assert_eq!(a.engine.task_count(), 0);
}

/// An engine in storage mode with a given cursor key and page size 2.
fn lister(instance: &str, clock: &ManualClock, ids: &str, cursor_key: Option<[u8; 16]>) -> Engine {
    let config = Config {
        storage: Some(StorageMode { instance_id: instance.into(), lease_ms: 3_000 }),
        cursor_key,
        page_size: 2,
        ..Config::default()
    };
    Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new(ids)))
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn list_pages_continue_on_another_instance_that_shares_the_cursor_key() {
    let clock = ManualClock::new(T);
    let key = Some([42u8; 16]);
    let mut storage = MapStorage::default();
    let mut a = lister("a", &clock, "t", key);
    for _ in 0..5 {
        a.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
        clock.advance(1); // some tasks share a millisecond, some do not
        a.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    }
    while let Some(out) = a.poll_output() {
        if let Output::Persist(p) = out {
            storage.apply(&p).unwrap();
        }
    }
    // B learns the tasks in another order than A made them (a hash map's order, reversed).
    let mut b = lister("b", &clock, "u", key);
    let mut records: Vec<&String> = storage.records.values().map(|(_, r)| r).collect();
    records.reverse();
    for r in records {
        b.storage().restore(r).unwrap();
    }
    let ids = |page: &mcp_task_core::TaskPage| page.tasks.iter().map(|t| t.task_id.to_string()).collect::<Vec<_>>();
    let whole_a: Vec<String> = {
        let mut all = Vec::new();
        let mut cursor = None;
        loop {
            let page = a.sdk_store().list_tasks(Some("s"), cursor.as_deref()).unwrap();
            all.extend(ids(&page));
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break all,
            }
        }
    };
    // Creation time order; tasks made in the same millisecond in a fixed order (their ID hash).
    let mut sorted = whole_a.clone();
    sorted.sort_by_key(|id| id[1..].parse::<u32>().unwrap());
    assert_eq!(sorted, (1..=10).map(|i| format!("t{i}")).collect::<Vec<_>>(), "every task once");
    let created: Vec<u64> = whole_a.iter().map(|id| a.sdk_store().get_task(id, Some("s")).unwrap().created_at_ms).collect();
    assert!(created.windows(2).all(|w| w[0] <= w[1]), "creation time order: {created:?}");
    // Alternate instances page by page: the same tasks, once each, in the same order.
    let mut alternating = Vec::new();
    let mut cursor = None;
    for turn in 0.. {
        let engine = if turn % 2 == 0 { &mut a } else { &mut b };
        let page = engine.sdk_store().list_tasks(Some("s"), cursor.as_deref()).unwrap();
        alternating.extend(ids(&page));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(alternating, whole_a);
    // Without a shared key, another instance refuses the cursor: a clear error, not a wrong page.
    let mut c = lister("c", &clock, "v", None);
    for (_, r) in storage.records.values() {
        c.storage().restore(r).unwrap();
    }
    let first = a.sdk_store().list_tasks(Some("s"), None).unwrap();
    assert!(c.sdk_store().list_tasks(Some("s"), first.next_cursor.as_deref()).is_err());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_memory_snapshot_keeps_list_places_so_cursors_hold_in_an_engine_with_the_same_key() {
    let clock = ManualClock::new(T);
    let config = Config { page_size: 2, ..Config::default() };
    let mut a = Engine::with_sources(config.clone(), Box::new(clock.clone()), Box::new(SequentialIds::new("t")));
    for ttl in [TtlRequest::Ms(1), TtlRequest::Default, TtlRequest::Default, TtlRequest::Ms(1), TtlRequest::Default] {
        a.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, ttl, None, None).unwrap();
    }
    let first = a.sdk_store().list_tasks(Some("s"), None).unwrap();
    let cursor = first.next_cursor.unwrap();
    // t1 and t4 expire: the live places are no longer 1..n.
    clock.advance(10);
    a.handle_timeout();
    let expected = a.sdk_store().list_tasks(Some("s"), Some(&cursor)).unwrap();
    let mut b = Engine::with_sources(
        Config { cursor_key: Some(a.cursor_key()), ..config },
        Box::new(clock.clone()),
        Box::new(SequentialIds::new("u")),
    );
    assert_eq!(b.storage().restore_snapshot(&a.storage().snapshot()).unwrap(), 3);
    let page = b.sdk_store().list_tasks(Some("s"), Some(&cursor)).unwrap();
    let ids = |p: &mcp_task_core::TaskPage| p.tasks.iter().map(|t| t.task_id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&page), ["t3", "t5"]);
    assert_eq!(ids(&page), ids(&expected));
    assert_eq!(page.next_cursor, expected.next_cursor);
    // A task made after the restore is listed after them, as it would have been in `a`.
    b.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap();
    let start = b.sdk_store().list_tasks(Some("s"), None).unwrap();
    let rest = b.sdk_store().list_tasks(Some("s"), start.next_cursor.as_deref()).unwrap();
    assert_eq!([ids(&start), ids(&rest)].concat(), ["t2", "t3", "t5", "u1"]);
}
