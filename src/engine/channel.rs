//! The side channel of tasks: `tasks/result` requests waiting for a task to
//! finish, and the requests a task sends the requestor on them (e.g. an
//! `elicitation/create` while it is `input_required`).

use crate::core::fast_map::FastMap;
use std::collections::VecDeque;

/// A `tasks/result` request waiting for its task.
#[derive(Debug, Clone)]
pub(crate) struct Waiter {
    /// Raw JSON id of the request.
    pub id: String,
    pub context: Option<String>,
    /// Writes its answer, in the dialect that asked, once the task has ended.
    pub respond: crate::protocol::OutcomeResponse,
}

#[derive(Debug, Default)]
struct Channel {
    waiters: Vec<Waiter>,
    /// Requests not yet delivered because no `tasks/result` was waiting: (raw id, message).
    queued: VecDeque<(String, String)>,
    /// Requests delivered, queued or listed in `inputRequests`, still unanswered.
    pending: Vec<PendingRequest>,
    /// Messages the host queues for the requestor itself (an SDK's task message
    /// queue), JSON texts. Kept past the task's end, until read or until the task
    /// is deleted: the requestor reads them before the result.
    messages: VecDeque<String>,
    /// The context allowed to read `messages`: the task's, or the first one
    /// named. `None` while no one is known (they are then readable by anyone).
    reader: Option<Option<String>>,
}

/// An unanswered side-channel request.
#[derive(Debug)]
pub(crate) struct PendingRequest {
    /// Raw JSON id (a JSON string); its text is the `inputRequests` key.
    pub id: String,
    /// `{"method", "params"}`, as `inputRequests` lists it.
    pub request: String,
}

impl PendingRequest {
    /// The `inputRequests` key: the id's string value.
    pub fn key(&self) -> &str {
        self.id.get(1..self.id.len().saturating_sub(1)).unwrap_or_default()
    }

    pub fn as_input_request(&self) -> crate::protocol::InputRequest<'_> {
        crate::protocol::InputRequest { key: self.key(), request: &self.request }
    }
}

impl Channel {
    fn is_idle(&self) -> bool {
        self.waiters.is_empty() && self.queued.is_empty() && self.pending.is_empty() && self.messages.is_empty()
    }
}

/// Side-channel state, only for tasks that have any.
#[derive(Debug, Default)]
pub(crate) struct Channels {
    by_task: FastMap<String, Channel>,
    /// Raw id of an outgoing request -> its task.
    owner: FastMap<String, String>,
}

/// Why [`Channels::enqueue_message`] refused a message.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum EnqueueRefusal {
    /// The queue belongs to another context.
    OtherContext,
    /// The queue already holds `queued` messages, its `limit`.
    Full { queued: usize, limit: usize },
}

/// Where a new side-channel request goes.
pub(crate) enum Delivery {
    /// Send it now on this waiting `tasks/result`.
    Now(Waiter),
    /// Held until a `tasks/result` arrives.
    Queued,
    /// Only listed in the task's `inputRequests` (tasks extension).
    Listed,
}

impl Channels {
    /// Drops the side channel of a task (it ended or vanished); returns its
    /// waiters. Host messages stay until read or [`drop_messages`](Self::drop_messages).
    pub fn close(&mut self, task_id: &str) -> Vec<Waiter> {
        let Some(channel) = self.by_task.get_mut(task_id) else { return Vec::new() };
        for p in channel.pending.drain(..) {
            self.owner.remove(&p.id);
        }
        channel.queued.clear();
        let waiters = std::mem::take(&mut channel.waiters);
        if channel.is_idle() {
            self.by_task.remove(task_id);
        }
        waiters
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
        channel.queued.drain(..).map(|(_, message)| message).collect()
    }

    /// Registers an outgoing request of a task and says where it goes.
    /// `message` is the JSON-RPC request for a side channel on `tasks/result`;
    /// `None` when the request is only listed in `inputRequests`.
    pub fn add_request(&mut self, task_id: &str, pending: PendingRequest, message: Option<String>) -> Delivery {
        let channel = self.by_task.entry(task_id.to_owned()).or_default();
        self.owner.insert(pending.id.clone(), task_id.to_owned());
        channel.pending.push(pending);
        match (message, channel.waiters.last()) {
            (None, _) => Delivery::Listed,
            (Some(_), Some(w)) => Delivery::Now(w.clone()),
            (Some(message), None) => {
                channel.queued.push_back((channel.pending.last().map(|p| p.id.clone()).unwrap_or_default(), message));
                Delivery::Queued
            }
        }
    }

    /// Sets a task's unanswered requests from its stored record. With
    /// `side_channel` (a 2025-11-25 task) they are queued again for the next
    /// `tasks/result`, since no one knows which ones the lost stream carried.
    pub fn replace_pending(&mut self, task_id: &str, pending: Vec<PendingRequest>, side_channel: bool) {
        let old = self.by_task.remove(task_id);
        if let Some(old) = &old {
            for p in &old.pending {
                self.owner.remove(&p.id);
            }
        }
        let (waiters, messages, reader) = old.map(|c| (c.waiters, c.messages, c.reader)).unwrap_or_default();
        let mut channel = Channel { waiters, messages, reader, ..Channel::default() };
        for p in pending {
            self.owner.insert(p.id.clone(), task_id.to_owned());
            if side_channel {
                // {"method":…,"params":…} -> {"jsonrpc":"2.0","id":…,"method":…,"params":…}
                let message = format!("{{\"jsonrpc\":\"2.0\",\"id\":{},{}", p.id, p.request.get(1..).unwrap_or("}"));
                channel.queued.push_back((p.id.clone(), message));
            }
            channel.pending.push(p);
        }
        if !channel.is_idle() {
            self.by_task.insert(task_id.to_owned(), channel);
        }
    }

    /// The unanswered requests of a task, oldest first.
    pub fn pending(&self, task_id: &str) -> &[PendingRequest] {
        self.by_task.get(task_id).map_or(&[], |c| c.pending.as_slice())
    }

    /// The task an outgoing request belongs to.
    pub fn owner_of(&self, request_id: &str) -> Option<&str> {
        self.owner.get(request_id).map(String::as_str)
    }

    /// Marks a request answered; returns how many of its task's remain unanswered.
    pub fn answer(&mut self, request_id: &str) -> Option<(String, usize)> {
        let task_id = self.owner.remove(request_id)?;
        let channel = self.by_task.get_mut(&task_id)?;
        channel.pending.retain(|p| p.id != request_id);
        // Answered some other way (tasks/update): no longer to be delivered.
        channel.queued.retain(|(id, _)| id != request_id);
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
    /// Queues a host message for a task's requestor. `owner` is the context
    /// of the live task, if the engine holds it; `named` the context the
    /// caller names, if any. The queue takes the first known of the two.
    pub fn enqueue_message(
        &mut self,
        task_id: &str,
        owner: Option<Option<&str>>,
        named: Option<Option<&str>>,
        message: String,
        limit: usize,
    ) -> Result<(), EnqueueRefusal> {
        let queue = self.by_task.get(task_id);
        let reader = queue.and_then(|q| q.reader.as_ref().map(Option::as_deref)).or(owner);
        if let (Some(reader), Some(named)) = (reader, named) {
            if reader != named {
                return Err(EnqueueRefusal::OtherContext);
            }
        }
        let queued = queue.map_or(0, |q| q.messages.len());
        if queued >= limit {
            return Err(EnqueueRefusal::Full { queued, limit });
        }
        let reader = reader.or(named).map(|c| c.map(str::to_owned));
        let queue = self.by_task.entry(task_id.to_owned()).or_default();
        queue.reader = reader;
        queue.messages.push_back(message);
        Ok(())
    }

    /// Takes the oldest (`all`: every) queued message of a task, if `reader`
    /// may read them; `owner` as for [`enqueue_message`](Self::enqueue_message).
    pub fn dequeue_messages(&mut self, task_id: &str, owner: Option<Option<&str>>, reader: Option<&str>, all: bool) -> Vec<String> {
        let Some(queue) = self.by_task.get_mut(task_id) else { return Vec::new() };
        if queue.reader.as_ref().map(Option::as_deref).or(owner).is_some_and(|r| r != reader) {
            return Vec::new();
        }
        let taken: Vec<String> = if all { queue.messages.drain(..).collect() } else { queue.messages.pop_front().into_iter().collect() };
        if queue.is_idle() {
            self.by_task.remove(task_id);
        }
        taken
    }

    /// Queued host messages of one task, or of every task.
    pub fn message_count(&self, task_id: Option<&str>) -> usize {
        match task_id {
            Some(id) => self.by_task.get(id).map_or(0, |q| q.messages.len()),
            None => self.by_task.values().map(|q| q.messages.len()).sum(),
        }
    }

    /// Drops the queued host messages of a deleted task (or of every task).
    pub fn drop_messages(&mut self, task_id: Option<&str>) {
        // Clears them; whether the channel still holds anything else.
        let clear = |channel: &mut Channel| {
            channel.messages.clear();
            channel.reader = None;
            !channel.is_idle()
        };
        match task_id {
            Some(id) => {
                if self.by_task.get_mut(id).is_some_and(|c| !clear(c)) {
                    self.by_task.remove(id);
                }
            }
            None => self.by_task.retain(|_, channel| clear(channel)),
        }
    }
}
