//! The requestor side: arbitrary receiver messages and saved states, after a
//! real call is in flight. Never a panic; the outputs always drain.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_task_core::{ManualClock, Requestor, RequestorConfig};

fuzz_target!(|input: (String, Vec<String>, u16)| {
    let (state, messages, advance) = input;
    let clock = ManualClock::new(1_764_066_600_000);
    let mut r = Requestor::new(RequestorConfig::default(), Box::new(clock.clone()));
    let call = r.call("tools/call", Some(r#"{"name":"x"}"#), Some(Some(1000)), Some("\"p\"")).unwrap();
    let _ = r.import_state(&state);
    // A well-formed creation answer first, so later messages meet a tracked task.
    r.handle_message(&format!(
        r#"{{"jsonrpc":"2.0","id":{call},"result":{{"task":{{"taskId":"t1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":1000,"pollInterval":10}}}}}}"#
    ));
    for m in messages.iter().take(50) {
        r.handle_message(m);
        clock.advance(u64::from(advance));
        r.handle_timeout();
        while r.poll_output().is_some() {}
    }
    let saved = r.export_state();
    let mut again = Requestor::new(RequestorConfig::default(), Box::new(clock));
    again.import_state(&saved).expect("an exported state imports");
});
