//! `subscriptions/listen` streams that follow tasks (tasks extension): which
//! stream hears `notifications/tasks` for which task.

use crate::core::fast_map::FastMap;

/// One stream following a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listener {
    /// Raw JSON id of the `subscriptions/listen` request (the subscription id).
    pub subscription_id: String,
    pub context: Option<String>,
}

#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    by_task: FastMap<String, Vec<Listener>>,
}

impl Subscriptions {
    pub fn add(&mut self, task_id: &str, listener: Listener) {
        let listeners = self.by_task.entry(task_id.to_owned()).or_default();
        if !listeners.contains(&listener) {
            listeners.push(listener);
        }
    }

    /// The streams following a task (cloned: the caller writes to them while changing the engine).
    pub fn listeners(&self, task_id: &str) -> Vec<Listener> {
        self.by_task.get(task_id).cloned().unwrap_or_default()
    }

    /// Whether any stream follows the task.
    pub fn follows(&self, task_id: &str) -> bool {
        self.by_task.contains_key(task_id)
    }

    /// The task ended or vanished: nothing more to tell about it.
    pub fn forget_task(&mut self, task_id: &str) {
        self.by_task.remove(task_id);
    }

    /// A stream closed. Returns how many task follows it held.
    pub fn remove_stream(&mut self, subscription_id: &str, context: Option<&str>) -> usize {
        let mut removed = 0;
        self.by_task.retain(|_, listeners| {
            let before = listeners.len();
            listeners.retain(|l| !(l.subscription_id == subscription_id && l.context.as_deref() == context));
            removed += before - listeners.len();
            !listeners.is_empty()
        });
        removed
    }
}
