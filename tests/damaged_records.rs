//! Damage under a task's key in the storage (an unreadable record, another
//! task's record, a version that disagrees with the record, a value of the
//! wrong type): the engine decides one outcome every instance reads. A task
//! held here fails with a storage-corruption error that is written over the
//! damage with a fresh version; its running work is told to stop; an instance
//! that holds no copy answers a server-side error (-32603) and restores nothing.
//! The storage here keeps a version text beside each record, as Redis does.

mod common;
use common::T0;
use mcp_task_core::{
    AuditAction, Config, Engine, Event, HostError, ManualClock, Outcome, Output, Persist, RequestKind, SequentialIds, StorageMode,
    TaskStatus, TtlRequest,
};
use serde_json::Value;
use std::collections::HashMap;

/// What a key holds: the version text and the record (`None`: a value of another type).
#[derive(Default)]
struct MapStorage {
    keys: HashMap<String, (String, Option<String>)>,
}

impl MapStorage {
    /// Compare-and-set on the version text; `Err(what the key holds)` on a mismatch.
    fn apply(&mut self, p: &Persist) -> Result<(), Option<(String, Option<String>)>> {
        let current = self.keys.get(&p.task_id);
        let expected = p.replaces.clone().or(p.expected_version.map(|v| v.to_string()));
        if current.map(|(v, _)| v.clone()) != expected {
            return Err(current.cloned());
        }
        match &p.record {
            Some(r) => self.keys.insert(p.task_id.clone(), (p.version.to_string(), Some(r.clone()))),
            None => self.keys.remove(&p.task_id),
        };
        Ok(())
    }

    fn record(&self, task_id: &str) -> Value {
        serde_json::from_str(self.keys[task_id].1.as_deref().unwrap()).unwrap()
    }
}

fn engine(instance: &str, clock: &ManualClock, ids: &str, audit: bool) -> Engine {
    let config = Config {
        storage: Some(StorageMode { instance_id: instance.into(), lease_ms: 3_000 }),
        poll_interval_ms: Some(1_000),
        audit,
        ..Config::default()
    };
    Engine::with_sources(config, Box::new(clock.clone()), Box::new(SequentialIds::new(ids)))
}

/// Drains outputs as an adapter does: writes persists (restoring what a conflict
/// found, through `restore_stored`), returns the rest and the damage reports.
fn drain(e: &mut Engine, storage: &mut MapStorage) -> (Vec<Output>, Vec<String>) {
    let mut rest = Vec::new();
    let mut reports = Vec::new();
    while let Some(out) = e.poll_output() {
        match out {
            Output::Persist(p) => {
                if let Err(found) = storage.apply(&p) {
                    // What this attempt produced for the task is dropped; the stored state decides.
                    rest.retain(|o: &Output| !matches!(o, Output::Event(Event::Cancelled { task_id, .. }) if *task_id == p.task_id));
                    match found {
                        None => {
                            e.storage().forget_task(&p.task_id);
                        }
                        Some((version, record)) => match e.storage().restore_stored(&p.task_id, record.as_deref(), Some(&version)) {
                            Ok(Some(detail)) => reports.push(detail),
                            Ok(None) => {}
                            Err(err) => panic!("a held task's damage: {err}"),
                        },
                    }
                }
            }
            other => rest.push(other),
        }
    }
    (rest, reports)
}

fn create(e: &mut Engine, storage: &mut MapStorage) -> String {
    let id = e.sdk_store().create_task(Some("s"), RequestKind::ToolsCall, TtlRequest::Default, None, None).unwrap().task_id;
    drain(e, storage);
    id
}

fn cancelled(outs: &[Output], task_id: &str) -> bool {
    outs.iter().any(|o| matches!(o, Output::Event(Event::Cancelled { task_id: t, .. }) if t == task_id))
}

fn corruption_error(e: &mut Engine, task_id: &str) -> Value {
    let task = e.sdk_store().get_task(task_id, Some("s")).expect("the task");
    assert_eq!(task.status, TaskStatus::Failed);
    let Some(Outcome::Error(error)) = e.sdk_store().get_task_result(task_id, Some("s")).ok().cloned() else { panic!("no error outcome") };
    let error: Value = serde_json::from_str(&error).unwrap();
    assert_eq!(error["code"], -32603, "{error}");
    assert!(error["message"].as_str().unwrap().contains("damaged"), "{error}");
    error
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_garbage_version_under_a_running_task_fails_it_everywhere_and_stops_its_work() {
    let clock = ManualClock::new(T0);
    let mut storage = MapStorage::default();
    let mut a = engine("a", &clock, "t", false);
    let id = create(&mut a, &mut storage);
    storage.keys.get_mut(&id).unwrap().0 = "garbage".into();

    // The cancel meets the damage at its compare-and-set: not "cancelled" here and
    // "working" in the storage, but one outcome, written over the damage.
    a.cancel(&id, None).unwrap();
    let (outs, reports) = drain(&mut a, &mut storage);
    assert_eq!(reports.len(), 1);
    assert!(reports[0].contains("\"garbage\""), "{}", reports[0]);
    assert!(cancelled(&outs, &id), "the work is told to stop: {outs:?}");
    let error = corruption_error(&mut a, &id);
    let stored = storage.record(&id);
    assert_eq!(stored["status"], "failed");
    assert_eq!(storage.keys[&id].0, stored["v"].to_string(), "a fresh, valid version");
    assert!(stored["v"].as_u64().unwrap() > 1);

    // A fresh instance reads the same outcome.
    let mut b = engine("b", &clock, "u", false);
    assert_eq!(b.storage().restore_stored(&id, storage.keys[&id].1.as_deref(), Some(&storage.keys[&id].0)), Ok(None));
    assert_eq!(corruption_error(&mut b, &id), error);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_lease_renewal_that_meets_damage_stops_the_work() {
    let clock = ManualClock::new(T0);
    let mut storage = MapStorage::default();
    let mut a = engine("a", &clock, "t", false);
    let id = create(&mut a, &mut storage);
    storage.keys.get_mut(&id).unwrap().0 = "7x".into();
    clock.advance(1_000);
    a.handle_timeout();
    let (outs, reports) = drain(&mut a, &mut storage);
    assert_eq!(reports.len(), 1, "the renewal's failure is reported");
    assert!(cancelled(&outs, &id), "{outs:?}");
    corruption_error(&mut a, &id);
    assert_eq!(storage.record(&id)["status"], "failed");
    // Nothing runs any more: no renewal is due for it.
    clock.advance(10_000);
    a.handle_timeout();
    assert!(a.poll_output().is_none());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn another_tasks_record_under_a_key_replaces_the_local_copy_not_the_other_task() {
    let clock = ManualClock::new(T0);
    let mut storage = MapStorage::default();
    let mut a = engine("a", &clock, "t", false);
    let t1 = create(&mut a, &mut storage);
    let t2 = create(&mut a, &mut storage);
    a.complete(&t1, r#"{"content":[]}"#).unwrap();
    drain(&mut a, &mut storage);
    let copied = storage.keys[&t2].clone();
    storage.keys.insert(t1.clone(), copied.clone());

    // A read of t1 (the adapter loads before reading) finds t2's record there.
    let detail = a.storage().restore_stored(&t1, copied.1.as_deref(), Some(&copied.0)).unwrap().expect("damage");
    assert!(detail.contains(&format!("'{t2}'")), "{detail}");
    corruption_error(&mut a, &t1);
    assert_eq!(a.sdk_store().get_task(&t2, Some("s")).unwrap().status, TaskStatus::Working, "t2 untouched");
    let (outs, _) = drain(&mut a, &mut storage);
    assert!(!cancelled(&outs, &t1), "a completed task runs nothing");
    assert_eq!(storage.record(&t1)["id"], t1.as_str(), "the repair is t1's own record");
    assert_eq!(storage.record(&t1)["status"], "failed");
    assert_eq!(storage.record(&t2)["status"], "working");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn damage_under_a_task_not_held_is_a_server_side_error_and_restores_nothing() {
    let clock = ManualClock::new(T0);
    let mut storage = MapStorage::default();
    let mut a = engine("a", &clock, "t", false);
    let t1 = create(&mut a, &mut storage);
    let t2 = create(&mut a, &mut storage);
    let mut b = engine("b", &clock, "u", false);
    let cases = [
        (Some("{not json".to_owned()), Some("1".to_owned())),
        (storage.keys[&t2].1.clone(), Some(storage.keys[&t2].0.clone())),
        (storage.keys[&t1].1.clone(), Some("x".to_owned())),
        (None, Some("type:string".to_owned())),
    ];
    for (record, version) in cases {
        let err = b.storage().restore_stored(&t1, record.as_deref(), version.as_deref()).unwrap_err();
        let HostError::DamagedRecord { task_id, detail } = &err else { panic!("{err:?}") };
        assert_eq!(task_id, &t1);
        assert_eq!(err.rpc_code(), -32603, "a server-side data problem, not the caller's mistake");
        // The client's message names the task only; what was found is the operator's.
        let message = err.to_string();
        assert!(!message.contains("json") && !message.contains("type:") && !message.contains(&t2), "{message}");
        assert!(detail.contains(&t1), "{detail}");
    }
    assert_eq!(b.task_count(), 0, "nothing restored, not even the copied record's task");
    assert!(b.poll_output().is_none(), "nothing to write without a copy to write");
    // A sound record still restores.
    assert_eq!(b.storage().restore_stored(&t1, storage.keys[&t1].1.as_deref(), Some(&storage.keys[&t1].0)), Ok(None));
    assert_eq!(b.sdk_store().get_task(&t1, Some("s")).unwrap().status, TaskStatus::Working);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_key_of_the_wrong_type_is_replaced_by_the_repair_and_audited() {
    let clock = ManualClock::new(T0);
    let mut storage = MapStorage::default();
    let mut a = engine("a", &clock, "t", true);
    let id = create(&mut a, &mut storage);
    storage.keys.insert(id.clone(), ("type:list".into(), None));
    a.storage().restore_stored(&id, None, Some("type:list")).unwrap().expect("damage");
    let mut repair = None;
    let mut audit = None;
    while let Some(out) = a.poll_output() {
        match out {
            Output::Persist(p) => repair = Some(p),
            Output::Event(Event::Audit(r)) if r.action == AuditAction::RecordDamaged => audit = Some(r),
            _ => {}
        }
    }
    let repair = repair.expect("a repair");
    assert_eq!(repair.replaces.as_deref(), Some("type:list"));
    storage.apply(&repair).expect("the repair replaces the damaged key");
    assert_eq!(storage.record(&id)["status"], "failed");
    let audit = audit.expect("an audit record");
    assert_eq!((audit.task_id.as_deref(), audit.context.as_deref()), (Some(id.as_str()), Some("s")));
    assert!(audit.detail.unwrap().contains("type"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn two_instances_that_repair_the_same_damage_agree() {
    let clock = ManualClock::new(T0);
    let mut storage = MapStorage::default();
    let mut a = engine("a", &clock, "t", false);
    let id = create(&mut a, &mut storage);
    let mut b = engine("b", &clock, "u", false);
    b.storage().restore_stored(&id, storage.keys[&id].1.as_deref(), Some(&storage.keys[&id].0)).unwrap();
    storage.keys.get_mut(&id).unwrap().0 = "??".into();
    for e in [&mut a, &mut b] {
        let (version, record) = storage.keys[&id].clone();
        let _ = e.storage().restore_stored(&id, record.as_deref(), Some(&version));
        drain(e, &mut storage);
    }
    let stored = storage.keys[&id].clone();
    for e in [&mut a, &mut b] {
        assert_eq!(e.storage().restore_stored(&id, stored.1.as_deref(), Some(&stored.0)), Ok(None));
        assert_eq!(e.storage().export_task(&id).as_deref(), stored.1.as_deref(), "every copy is the stored record");
    }
}
