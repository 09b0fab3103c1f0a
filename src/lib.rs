//! # mcp-task-core
//!
//! The task runtime of the Model Context Protocol ("tasks": MCP 2025-11-25 and
//! the `io.modelcontextprotocol/tasks` extension of MCP 2026-07-28) as
//! a synchronous, sans-IO state machine: no threads, timers or I/O. The host
//! feeds it JSON-RPC messages and its own calls, and drains what to send and
//! do from [`Engine::poll_output`]; time and task IDs come from a [`Clock`]
//! and an [`IdSource`] the host provides.
//!
//! The host loop:
//!
//! ```text
//! on message from peer:  if let Some(reply) = engine.handle_message(msg, ctx) { send(reply) }
//! on work progress:      engine.set_status_message / request_input / report_progress
//! on work done:          engine.complete(task_id, result) or engine.fail(task_id, error)
//! after each of these:   while let Some(out) = engine.poll_output() { send or act }
//! timer:                 sleep until engine.next_deadline(); then engine.handle_timeout()
//! ```
//!
//! See [`Engine`] for a runnable example.

// Unsafe code only where it cannot be avoided: the requestor-only wasm's allocator, below.
#![deny(unsafe_code)]

mod audit;
mod config;
mod core;
mod engine;
mod error;
mod ids;
// Read by the wasm layer (and held to the .d.ts files by its tests).
#[cfg(any(target_arch = "wasm32", test))]
mod js_names;
mod output;
pub mod protocol;
mod random;
#[cfg(feature = "requestor")]
mod requestor;
mod sdk_store;
mod task_json;
mod time;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use crate::audit::{AuditAction, AuditEvent};
pub use crate::config::{Capabilities, Config, Limits, StorageMode, TtlPolicy};
pub use crate::core::{Outcome, RequestKind, Task, TaskStatus, TaskSupport};
pub use crate::engine::{Engine, Inbound, RateLimit, Storage};
pub use crate::error::HostError;
pub use crate::ids::{BoxedIdSource, IdSource, SequentialIds, UuidV4Ids};
pub use crate::output::{Event, Output, Persist, Transmit};
pub use crate::protocol::json::{Json, JsonError};
pub use crate::protocol::raw_id::RawId;
pub use crate::protocol::{Dialect, TtlRequest};
#[cfg(feature = "requestor")]
pub use crate::requestor::{
    should_augment, CallMode, Decision, PollPolicy, Requestor, RequestorConfig, RequestorEvent, RequestorOutput, TaskView,
};
pub use crate::sdk_store::{SdkStore, StoreError, TaskBinding, TaskPage};
#[cfg(not(target_arch = "wasm32"))]
pub use crate::time::SystemClock;
pub use crate::time::{format_timestamp, BoxedClock, Clock, ManualClock};

/// The README's Rust example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

// The requestor-only wasm (a browser client) takes talc, which is smaller than std's dlmalloc
// in wasm; the builds with the receiver keep std's allocator, whose memory the bench tracks.
// SAFETY: wasm32 without threads is single-threaded, as TalckWasm requires.
#[cfg(all(target_arch = "wasm32", not(feature = "receiver")))]
#[global_allocator]
#[allow(unsafe_code)]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
