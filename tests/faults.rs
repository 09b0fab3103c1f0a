//! Lost, duplicated, delayed and reordered messages between a requestor and
//! a receiver, in both dialects: every call ends (a terminal outcome, or a
//! clear refusal or loss), never twice, and the outcome is the work's.

mod common;
use common::pair::{Pair, Rng};
use mcp_task_core::{CallMode, Dialect, RawId, RequestorEvent};
use serde_json::Value;
use std::collections::HashMap;

const ELICIT: Option<&str> = Some(r#"{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{}}}"#);

/// Runs three calls (one with input, one failing, one cancelled) through a
/// wire whose fault plan comes from `seed`; returns how each call ended.
fn run(dialect: Dialect, seed: u64, percent: u64) -> (Pair, HashMap<String, String>) {
    let mut rng = Rng::new(seed);
    let mut pair = Pair::new(dialect).with_faults(move |_, _| rng.fault(percent));
    let calls: Vec<RawId> = (0..3)
        .map(|_| pair.requestor.call("tools/call", Some(r#"{"name":"slow"}"#), CallMode::Task { ttl_ms: None }, None).unwrap())
        .collect();
    pair.pump();
    let mut ended = HashMap::new();
    let mut cancel_sent = false;
    for step in 0..400 {
        let t = pair.now() + 250;
        pair.run_until(t);
        // The receiver's host: the first task asks for input once, then every task finishes in its own way.
        let executing = pair.executing.clone();
        if step == 4 {
            if let Some(first) = executing.first() {
                let _ = pair.engine.request_input(first, "elicitation/create", ELICIT);
            }
        }
        // From step 30 on, every task the receiver runs ends: even ones complete,
        // odd ones fail (a duplicated call can make a task nobody tracks; it ends too).
        if step >= 30 {
            for (i, task) in executing.iter().enumerate() {
                let _ = if i % 2 == 0 {
                    pair.engine.complete(task, r#"{"content":[{"type":"text","text":"done 0"}]}"#).map(|_| ())
                } else {
                    pair.engine.fail(task, r#"{"code":-32010,"message":"broke"}"#).map(|_| ())
                };
            }
        }
        // The requestor's host: answer input, cancel the third task once it exists.
        let events: Vec<RequestorEvent> = std::mem::take(&mut pair.events);
        for e in events {
            match e {
                RequestorEvent::InputRequest { request_id, .. } => {
                    let _ = pair.requestor.respond(&request_id, r#"{"action":"accept","content":{}}"#);
                }
                RequestorEvent::Created { call_id, task_id, .. } if call_id == calls[2] && !cancel_sent => {
                    cancel_sent = pair.requestor.cancel(&task_id).is_ok();
                }
                RequestorEvent::Finished { call_id, task_id, status, response } => {
                    assert!(call_id.is_some_and(|c| calls.contains(&c)), "every task event names its call");
                    assert!(status.is_terminal());
                    let previous = ended.insert(task_id.clone(), format!("{status}: {response}"));
                    assert!(previous.is_none(), "task {task_id} finished twice");
                }
                RequestorEvent::Lost { task_id, .. } => {
                    assert!(ended.insert(task_id.clone(), "lost".into()).is_none(), "task {task_id} ended twice");
                }
                RequestorEvent::CallRefused { call_id, response } => {
                    assert!(ended.insert(call_id.to_string(), format!("refused: {response}")).is_none());
                }
                _ => {}
            }
        }
        if pair.requestor.tracked().is_empty() && ended.len() >= 3 {
            break;
        }
    }
    assert!(pair.requestor.tracked().is_empty() || pair.requestor.next_deadline().is_some(), "a tracked task with no deadline");
    (pair, ended)
}

fn outcome_of(ended: &HashMap<String, String>, needle: &str) -> Option<String> {
    ended.values().find(|v| v.contains(needle)).cloned()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_clean_wire_gives_each_call_its_own_outcome() {
    for dialect in [Dialect::Legacy, Dialect::Extension] {
        let (pair, ended) = run(dialect, 1, 0);
        assert_eq!(ended.len(), 3, "{dialect:?}: {ended:?}");
        assert_eq!(pair.executing.len(), 3, "one task per call");
        assert!(outcome_of(&ended, "done 0").is_some_and(|o| o.starts_with("completed")), "{dialect:?}: {ended:?}");
        assert!(outcome_of(&ended, "broke").is_some_and(|o| o.starts_with("failed")), "{dialect:?}: {ended:?}");
        assert!(ended.values().any(|o| o.starts_with("cancelled")), "{dialect:?}: {ended:?}");
        assert!(pair.log.iter().all(|(_, _, m)| !m.starts_with("DROPPED")));
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_call_ends_once_whatever_the_wire_does() {
    let mut disturbed = 0;
    for dialect in [Dialect::Legacy, Dialect::Extension] {
        for seed in 1..=60 {
            let (pair, ended) = run(dialect, seed, 25);
            let faults = pair.log.iter().filter(|(_, _, m)| m.starts_with("DROPPED")).count();
            disturbed += faults;
            // Every call ends: an outcome for its task, or a clear refusal when the creation itself was lost.
            assert_eq!(ended.len(), 3, "{dialect:?} seed {seed} ({faults} dropped): {ended:?}");
            assert!(pair.requestor.tracked().is_empty(), "{dialect:?} seed {seed}: still tracking {:?}", pair.requestor.tracked());
            // An outcome, when there is one, is the work's own.
            for outcome in ended.values() {
                let terminal = ["completed", "failed", "cancelled", "lost", "refused"].iter().any(|p| outcome.starts_with(p));
                assert!(terminal, "{dialect:?} seed {seed}: {outcome}");
                if outcome.starts_with("completed") {
                    assert!(outcome.contains("done 0"), "{dialect:?} seed {seed}: {outcome}");
                }
                if outcome.starts_with("failed") {
                    let json: Value = serde_json::from_str(outcome.trim_start_matches("failed: ")).unwrap();
                    assert_eq!(json["error"]["code"], -32010, "{dialect:?} seed {seed}");
                }
            }
        }
    }
    assert!(disturbed > 100, "the plan really drops messages ({disturbed} in all)");
}
