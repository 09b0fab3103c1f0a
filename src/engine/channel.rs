//! The side channel of tasks: `tasks/result` requests waiting for a task to
//! finish, and the requests a task sends the requestor on them (e.g. an
//! `elicitation/create` while it is `input_required`).

use std::collections::{HashMap, VecDeque};

/// A `tasks/result` request waiting for its task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Waiter {
    /// Raw JSON id of the request.
    pub id: String,
    pub context: Option<String>,
}

#[derive(Debug, Default)]
struct Channel {
    waiters: Vec<Waiter>,
    /// Requests not yet delivered because no `tasks/result` was waiting.
    queued: VecDeque<String>,
    /// Raw ids of delivered or queued requests still unanswered.
    pending: Vec<String>,
}

impl Channel {
    fn is_idle(&self) -> bool {
        self.waiters.is_empty() && self.queued.is_empty() && self.pending.is_empty()
    }
}

/// Side-channel state, only for tasks that have any.
#[derive(Debug, Default)]
pub(crate) struct Channels {
    by_task: HashMap<String, Channel>,
    /// Raw id of an outgoing request -> its task.
    owner: HashMap<String, String>,
}

/// Where a new side-channel request goes.
pub(crate) enum Delivery {
    /// Send it now on this waiting `tasks/result`.
    Now(Waiter),
    /// Held until a `tasks/result` arrives.
    Queued,
}

impl Channels {
    /// Drops everything of a task (it ended or vanished); returns its waiters.
    pub fn close(&mut self, task_id: &str) -> Vec<Waiter> {
        let Some(channel) = self.by_task.remove(task_id) else { return Vec::new() };
        for id in &channel.pending {
            self.owner.remove(id);
        }
        channel.waiters
    }

    pub fn waiter_count(&self, task_id: &str) -> usize {
        self.by_task.get(task_id).map_or(0, |c| c.waiters.len())
    }

    pub fn queued_count(&self, task_id: &str) -> usize {
        self.by_task.get(task_id).map_or(0, |c| c.queued.len())
    }

    pub fn pending_count(&self, task_id: &str) -> usize {
        self.by_task.get(task_id).map_or(0, |c| c.pending.len())
    }

    /// Adds a waiter; returns the queued requests to deliver on it now.
    pub fn add_waiter(&mut self, task_id: &str, waiter: Waiter) -> Vec<String> {
        let channel = self.by_task.entry(task_id.to_owned()).or_default();
        channel.waiters.push(waiter);
        channel.queued.drain(..).collect()
    }

    /// Registers an outgoing request of a task and says where it goes.
    pub fn add_request(&mut self, task_id: &str, request_id: String, message: String) -> Delivery {
        let channel = self.by_task.entry(task_id.to_owned()).or_default();
        channel.pending.push(request_id.clone());
        self.owner.insert(request_id, task_id.to_owned());
        match channel.waiters.last() {
            Some(w) => Delivery::Now(w.clone()),
            None => {
                channel.queued.push_back(message);
                Delivery::Queued
            }
        }
    }

    /// The task an outgoing request belongs to.
    pub fn owner_of(&self, request_id: &str) -> Option<&str> {
        self.owner.get(request_id).map(String::as_str)
    }

    /// Marks a request answered; returns how many of its task's remain unanswered.
    pub fn answer(&mut self, request_id: &str) -> Option<(String, usize)> {
        let task_id = self.owner.remove(request_id)?;
        let channel = self.by_task.get_mut(&task_id)?;
        channel.pending.retain(|id| id != request_id);
        let remaining = channel.pending.len();
        if channel.is_idle() {
            self.by_task.remove(&task_id);
        }
        Some((task_id, remaining))
    }

    /// Removes a waiting `tasks/result` the requestor gave up on.
    pub fn drop_waiter(&mut self, context: Option<&str>, request_id: &str) -> bool {
        let mut found = None;
        for (task_id, channel) in self.by_task.iter_mut() {
            let before = channel.waiters.len();
            channel.waiters.retain(|w| !(w.id == request_id && w.context.as_deref() == context));
            if channel.waiters.len() != before {
                found = Some((task_id.clone(), channel.is_idle()));
                break;
            }
        }
        match found {
            Some((task_id, idle)) => {
                if idle {
                    self.by_task.remove(&task_id);
                }
                true
            }
            None => false,
        }
    }
}
