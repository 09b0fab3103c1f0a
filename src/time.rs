//! Time as the host gives it: milliseconds since the Unix epoch.
//!
//! The engine never reads a system clock on its own; every instant comes from a
//! [`Clock`] the host provides. Time that goes backwards is clamped by the engine.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, UNIX_EPOCH};

/// A source of wall-clock time in milliseconds since the Unix epoch.
pub trait Clock {
    /// The current time in milliseconds since 1970-01-01T00:00:00Z.
    fn now_ms(&self) -> u64;
}

impl<F: Fn() -> u64> Clock for F {
    fn now_ms(&self) -> u64 {
        self()
    }
}

/// The operating system's clock (not available on `wasm32-unknown-unknown`,
/// where the host passes `Date.now` instead).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }
}

/// A clock that moves only when told to: for tests and simulations.
///
/// Clones share the same time, so a test can keep one handle and give another
/// to the engine.
///
/// ```
/// use mcp_task_core::{Clock, ManualClock};
/// let clock = ManualClock::new(1_000);
/// let engine_side = clock.clone();
/// clock.advance(500);
/// assert_eq!(engine_side.now_ms(), 1_500);
/// ```
#[derive(Debug, Clone, Default)]
pub struct ManualClock(Rc<Cell<u64>>);

impl ManualClock {
    /// A clock standing at `start_ms`.
    pub fn new(start_ms: u64) -> Self {
        ManualClock(Rc::new(Cell::new(start_ms)))
    }
    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: u64) {
        self.0.set(self.0.get().saturating_add(ms));
    }
    /// Sets the clock to `ms` (may go backwards; the engine clamps that).
    pub fn set(&self, ms: u64) {
        self.0.set(ms);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.get()
    }
}

/// Formats epoch milliseconds as ISO 8601 / RFC 3339 UTC with milliseconds,
/// e.g. `2025-11-25T10:30:00.000Z`.
///
/// ```
/// assert_eq!(mcp_task_core::format_timestamp(0), "1970-01-01T00:00:00.000Z");
/// ```
pub fn format_timestamp(ms: u64) -> String {
    // humantime only formats years up to 9999; clamp rather than fail.
    const MAX_MS: u64 = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
    let instant = UNIX_EPOCH + Duration::from_millis(ms.min(MAX_MS));
    humantime::format_rfc3339_millis(instant).to_string()
}
