//! Export and import of tracked tasks, so polling survives a restart (the
//! spec advises requestors to persist task IDs).

use super::{Requestor, Tracked};
use crate::error::HostError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Serialize, Deserialize)]
struct Saved {
    version: u32,
    /// The receiver's dialect (absent in states from before the tasks extension: 2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dialect: Option<String>,
    tasks: Vec<SavedTask>,
}

#[derive(Serialize, Deserialize)]
struct SavedTask {
    #[serde(rename = "taskId")]
    task_id: String,
    method: String,
    task: Value,
    #[serde(rename = "progressToken", skip_serializing_if = "Option::is_none", default)]
    progress_token: Option<String>,
    #[serde(rename = "callId", skip_serializing_if = "String::is_empty", default)]
    call_id: String,
    /// `inputRequests` keys already shown to the host (tasks extension).
    #[serde(rename = "seenInputs", skip_serializing_if = "Vec::is_empty", default)]
    seen_inputs: Vec<String>,
}

impl Requestor {
    /// The tracked tasks as JSON text, for [`import_state`](Self::import_state) after a restart.
    pub fn export_state(&self) -> String {
        let mut tasks: Vec<SavedTask> = self
            .tasks
            .values()
            .map(|t| SavedTask {
                task_id: t.task_id.clone(),
                method: t.method.clone(),
                task: t.task.clone(),
                progress_token: t.progress_token.clone(),
                call_id: t.call_id.as_ref().map(|id| id.as_str().to_owned()).unwrap_or_default(),
                seen_inputs: {
                    let mut keys: Vec<String> = t.seen_inputs.iter().cloned().collect();
                    keys.sort_unstable();
                    keys
                },
            })
            .collect();
        tasks.sort_unstable_by(|a, b| a.task_id.cmp(&b.task_id));
        let dialect = Some(self.config.dialect.protocol_version().to_owned());
        serde_json::to_string(&Saved { version: 1, dialect, tasks }).unwrap_or_else(|_| "{\"version\":1,\"tasks\":[]}".to_owned())
    }

    /// Tracks the tasks of an exported state again; each is polled at the next
    /// [`handle_timeout`](Self::handle_timeout). A task the receiver no longer
    /// knows is then reported as [`Lost`](super::RequestorEvent::Lost). Returns how many were added.
    pub fn import_state(&mut self, state: &str) -> Result<usize, HostError> {
        let saved: Saved = serde_json::from_str(state).map_err(|e| HostError::invalid(format!("Not an exported requestor state: {e}")))?;
        if saved.version != 1 {
            return Err(HostError::invalid(format!("Unsupported requestor state version {}", saved.version)));
        }
        match saved.dialect.as_deref() {
            Some("2026-07-28") => self.config.dialect = crate::Dialect::Extension,
            Some("2025-11-25") | None => self.config.dialect = crate::Dialect::Legacy,
            Some(other) => return Err(HostError::invalid(format!("Unknown dialect {other} in the requestor state"))),
        }
        let mut added = 0;
        for s in saved.tasks {
            if s.task_id.is_empty() || self.tasks.contains_key(&s.task_id) {
                continue;
            }
            let backoff = self.config.poll.initial_backoff_ms;
            let id = s.task_id.clone();
            let mut tracked = Tracked::new(s.task_id, s.method, s.task, s.progress_token, backoff);
            // A call id that is not one (a hand-edited state) is dropped, not trusted.
            tracked.call_id = super::RawId::parse(&s.call_id).ok();
            tracked.seen_inputs = s.seen_inputs.into_iter().collect();
            self.tasks.insert(id.clone(), tracked);
            self.schedule(&id, super::Wait::Fixed(0));
            added += 1;
        }
        Ok(added)
    }
}
