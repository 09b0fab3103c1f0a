//! Export and import of tracked tasks, so polling survives a restart (the
//! spec advises requestors to persist task IDs).

use super::{Requestor, Tracked};
use crate::error::HostError;
use crate::protocol::jsonrpc::json_string;
use serde_json::{Map, Value};

// The state is read and written by hand over `Value` (already in the build for tasks) rather
// than with serde derives: their deserializers and serializers were a tenth of the
// requestor-only wasm. Format, version 1:
//   {"version":1,"dialect":"2025-11-25"|"2026-07-28","tasks":[{"taskId","method","task",
//    "progressToken"?,"callId"?,"seenInputs"?}]}   (no "dialect" in states from before the
//   tasks extension: 2025-11-25)

fn not_a_state(why: &str) -> HostError {
    HostError::invalid(format!("Not an exported requestor state: {why}"))
}

/// Member `key` of a saved task: a string, or `None` when absent (or null, when `nullable`).
fn opt_string(task: &mut Map<String, Value>, key: &str, nullable: bool) -> Result<Option<String>, HostError> {
    match task.remove(key) {
        None => Ok(None),
        Some(Value::Null) if nullable => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(not_a_state(&format!("\"{key}\" of a task must be a string"))),
    }
}

impl Requestor {
    /// The tracked tasks as JSON text, for [`import_state`](Self::import_state) after a restart.
    pub fn export_state(&self) -> String {
        // By task ID (`tracked()` sorts them), so equal states export equal text.
        let tracked = self.tracked().into_iter().filter_map(|id| self.tasks.get(&id));
        let mut out = format!("{{\"version\":1,\"dialect\":{},\"tasks\":[", json_string(self.config.dialect.protocol_version()));
        for (i, t) in tracked.enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"taskId\":");
            out.push_str(&json_string(&t.task_id));
            out.push_str(",\"method\":");
            out.push_str(&json_string(&t.method));
            out.push_str(",\"task\":");
            out.push_str(&t.task.to_string());
            if let Some(token) = &t.progress_token {
                out.push_str(",\"progressToken\":");
                out.push_str(&json_string(token));
            }
            if let Some(call_id) = &t.call_id {
                out.push_str(",\"callId\":");
                out.push_str(&json_string(call_id.as_str()));
            }
            if !t.seen_inputs.is_empty() {
                // Kept sorted (see `Tracked::seen_inputs`).
                out.push_str(",\"seenInputs\":[");
                for (i, key) in t.seen_inputs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&json_string(key));
                }
                out.push(']');
            }
            out.push('}');
        }
        out.push_str("]}");
        out
    }

    /// Tracks the tasks of an exported state again; each is polled at the next
    /// [`handle_timeout`](Self::handle_timeout). A task the receiver no longer
    /// knows is then reported as [`Lost`](super::RequestorEvent::Lost). Returns how many were added.
    pub fn import_state(&mut self, state: &str) -> Result<usize, HostError> {
        let saved: Value = serde_json::from_str(state).map_err(|e| HostError::invalid(format!("Not an exported requestor state: {e}")))?;
        let Value::Object(mut saved) = saved else { return Err(not_a_state("expected an object")) };
        match saved.get("version") {
            None => return Err(not_a_state("missing field `version`")),
            Some(v) if v.as_u64() == Some(1) => {}
            Some(v) => return Err(HostError::invalid(format!("Unsupported requestor state version {v}"))),
        }
        let dialect = match saved.get("dialect") {
            None | Some(Value::Null) => crate::Dialect::Legacy,
            Some(other) => other
                .as_str()
                .and_then(crate::Dialect::named)
                .ok_or_else(|| HostError::invalid(format!("Unknown dialect {other} in the requestor state")))?,
        };
        let Some(Value::Array(saved_tasks)) = saved.remove("tasks") else { return Err(not_a_state("\"tasks\" must be an array")) };
        // Read every task first: a state with one bad task changes nothing.
        let mut tasks = Vec::with_capacity(saved_tasks.len());
        for task in saved_tasks {
            let Value::Object(mut task) = task else { return Err(not_a_state("each task must be an object")) };
            let task_id = opt_string(&mut task, "taskId", false)?.ok_or_else(|| not_a_state("a task has no \"taskId\""))?;
            let method = opt_string(&mut task, "method", false)?.ok_or_else(|| not_a_state("a task has no \"method\""))?;
            let view = task.remove("task").ok_or_else(|| not_a_state("a task has no \"task\""))?;
            let progress_token = opt_string(&mut task, "progressToken", true)?;
            let call_id = opt_string(&mut task, "callId", false)?.unwrap_or_default();
            let seen_inputs = match task.remove("seenInputs") {
                None => Some(Vec::new()),
                Some(Value::Array(keys)) => keys.into_iter().map(|k| k.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>(),
                Some(_) => None,
            }
            .ok_or_else(|| not_a_state("\"seenInputs\" of a task must be an array of strings"))?;
            tasks.push((task_id, method, view, progress_token, call_id, seen_inputs));
        }
        self.config.dialect = dialect;
        let mut added = 0;
        for (task_id, method, view, progress_token, call_id, seen_inputs) in tasks {
            if task_id.is_empty() || self.tasks.contains_key(&task_id) {
                continue;
            }
            let backoff = self.config.poll.initial_backoff_ms;
            let mut tracked = Tracked::new(task_id.clone(), method, view, progress_token, backoff);
            // A call id that is not one (a hand-edited state) is dropped, not trusted.
            tracked.call_id = super::RawId::parse(&call_id).ok();
            tracked.seen_inputs = seen_inputs;
            tracked.seen_inputs.sort_unstable();
            tracked.seen_inputs.dedup();
            self.tasks.insert(task_id.clone(), tracked);
            self.schedule(&task_id, super::Wait::Fixed(0));
            self.listen(&task_id);
            added += 1;
        }
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    use crate::{ManualClock, Requestor, RequestorConfig};

    fn requestor() -> Requestor {
        Requestor::new(RequestorConfig::default(), Box::new(ManualClock::new(0)))
    }

    const TASK: &str = r#"{"createdAt":"x","status":"working","taskId":"t1"}"#;

    #[test]
    fn export_format_round_trips_byte_for_byte() {
        // The version 1 format, as earlier releases wrote it (states outlive upgrades).
        let state = format!(
            r#"{{"version":1,"dialect":"2026-07-28","tasks":[{{"taskId":"t1","method":"tools/call","task":{TASK},"progressToken":"7","callId":"\"mcp-task-core:1\"","seenInputs":["a","b"]}},{{"taskId":"t2","method":"tools/call","task":{TASK}}}]}}"#
        );
        let mut r = requestor();
        assert_eq!(r.import_state(&state).unwrap(), 2);
        assert_eq!(r.dialect(), crate::Dialect::Extension);
        assert_eq!(r.export_state(), state);
    }

    #[test]
    fn a_state_without_dialect_is_2025_11_25() {
        let mut r = Requestor::new(
            RequestorConfig { dialect: crate::Dialect::Extension, ..RequestorConfig::default() },
            Box::new(ManualClock::new(0)),
        );
        let state = format!(r#"{{"version":1,"tasks":[{{"taskId":"t1","method":"tools/call","task":{TASK},"progressToken":null}}]}}"#);
        assert_eq!(r.import_state(&state).unwrap(), 1);
        assert_eq!(r.dialect(), crate::Dialect::Legacy);
        assert_eq!(r.tracked(), vec!["t1".to_owned()]);
    }

    #[test]
    fn a_bad_state_is_refused_whole_with_the_reason() {
        let cases = [
            ("[]", "Not an exported requestor state: expected an object"),
            (r#"{"tasks":[]}"#, "Not an exported requestor state: missing field `version`"),
            (r#"{"version":2,"tasks":[]}"#, "Unsupported requestor state version 2"),
            (r#"{"version":1,"dialect":"2030-01-01","tasks":[]}"#, "Unknown dialect \"2030-01-01\" in the requestor state"),
            (r#"{"version":1}"#, "Not an exported requestor state: \"tasks\" must be an array"),
            (
                r#"{"version":1,"tasks":[{"taskId":"t9","method":"m","task":{}},{"method":"m","task":{}}]}"#,
                "Not an exported requestor state: a task has no \"taskId\"",
            ),
            (r#"{"version":1,"tasks":[{"taskId":"t1","method":"m"}]}"#, "Not an exported requestor state: a task has no \"task\""),
            (
                r#"{"version":1,"tasks":[{"taskId":"t1","method":"m","task":{},"seenInputs":[1]}]}"#,
                "Not an exported requestor state: \"seenInputs\" of a task must be an array of strings",
            ),
            (
                r#"{"version":1,"tasks":[{"taskId":7,"method":"m","task":{}}]}"#,
                "Not an exported requestor state: \"taskId\" of a task must be a string",
            ),
        ];
        for (state, message) in cases {
            let mut r = requestor();
            let error = r.import_state(state).unwrap_err();
            assert_eq!(error.to_string(), message, "{state}");
            assert!(r.tracked().is_empty(), "nothing imported from {state}");
        }
        assert!(requestor()
            .import_state("{nope")
            .unwrap_err()
            .to_string()
            .starts_with("Not an exported requestor state: key must be a string"));
    }
}
