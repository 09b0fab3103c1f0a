//! The requestor side: arbitrary receiver messages, transport failures and saved
//! states, after a real call is in flight. Never a panic; the outputs always
//! drain; a tracked task always has a deadline, and none is left in the past.
//! Both dialects: `extension` picks the tasks extension (2026-07-28).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_task_core::{CallMode, Dialect, ManualClock, Requestor, RequestorConfig, RequestorEvent, RequestorOutput};

fuzz_target!(|input: (String, Vec<String>, u16, Vec<u8>, bool)| {
    let (state, messages, advance, failures, extension) = input;
    let clock = ManualClock::new(1_764_066_600_000);
    let dialect = if extension { Dialect::Extension } else { Dialect::Legacy };
    let config = || RequestorConfig { dialect, ..RequestorConfig::default() };
    let mut r = Requestor::new(config(), Box::new(clock.clone()));
    let call = r.call("tools/call", Some(r#"{"name":"x"}"#), CallMode::Task { ttl_ms: Some(1000) }, Some("\"p\"")).unwrap();
    let _ = r.import_state(&state);
    // A well-formed creation answer first, so later messages meet a tracked task.
    let created = if r.dialect() == Dialect::Extension {
        r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":1000,"pollIntervalMs":10}"#
    } else {
        r#"{"task":{"taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":1000,"pollInterval":10}}"#
    };
    r.handle_message(&format!(r#"{{"jsonrpc":"2.0","id":{call},"result":{created}}}"#));
    let mut sent: Vec<mcp_task_core::RawId> = vec![];
    for (i, m) in messages.iter().take(50).enumerate() {
        r.handle_message(m);
        // Now and then the transport loses one of the requests sent so far.
        if let Some(&pick) = failures.get(i) {
            if !sent.is_empty() && pick % 4 == 0 {
                let id = sent.remove(usize::from(pick) % sent.len());
                r.request_failed(&id);
            }
        }
        clock.advance(u64::from(advance));
        r.handle_timeout();
        let now = mcp_task_core::Clock::now_ms(&clock);
        assert!(r.next_deadline().is_none_or(|d| d > now), "a deadline left in the past");
        while let Some(out) = r.poll_output() {
            if let Some(id) = out.request_id() {
                sent.push(id);
            }
            if let RequestorOutput::Event(RequestorEvent::Finished { status, .. }) = out {
                assert!(status.is_terminal(), "Finished with a non-terminal status");
            }
        }
        assert!(r.tracked().is_empty() || r.next_deadline().is_some(), "a tracked task with no deadline");
    }
    let saved = r.export_state();
    let mut again = Requestor::new(config(), Box::new(clock));
    again.import_state(&saved).expect("an exported state imports");
});
