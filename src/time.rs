//! Time as the host gives it: milliseconds since the Unix epoch.
//!
//! The engine never reads a system clock on its own; every instant comes from a
//! [`Clock`] the host provides. Time that goes backwards is clamped by the engine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::time::UNIX_EPOCH;

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

/// The clock an [`Engine`](crate::Engine) or [`Requestor`](crate::Requestor)
/// holds: `Send` on native targets, so either can move to another thread (as
/// quinn's and str0m's state machines can); on `wasm32` a JavaScript function.
#[cfg(not(target_arch = "wasm32"))]
pub type BoxedClock = Box<dyn Clock + Send>;
/// The clock an [`Engine`](crate::Engine) or [`Requestor`](crate::Requestor) holds.
#[cfg(target_arch = "wasm32")]
pub type BoxedClock = Box<dyn Clock>;

/// The operating system's clock (not available on `wasm32-unknown-unknown`,
/// where the host passes `Date.now` instead).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
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
pub struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    /// A clock standing at `start_ms`.
    pub fn new(start_ms: u64) -> Self {
        ManualClock(Arc::new(AtomicU64::new(start_ms)))
    }
    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: u64) {
        let _ = self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| Some(t.saturating_add(ms)));
    }
    /// Sets the clock to `ms` (may go backwards; the engine clamps that).
    pub fn set(&self, ms: u64) {
        self.0.store(ms, Ordering::Relaxed);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Formats epoch milliseconds as ISO 8601 / RFC 3339 UTC with milliseconds,
/// e.g. `2025-11-25T10:30:00.000Z`. Years past 9999 are clamped to its last instant.
///
/// ```
/// assert_eq!(mcp_task_core::format_timestamp(0), "1970-01-01T00:00:00.000Z");
/// assert_eq!(mcp_task_core::format_timestamp(1_764_066_600_250), "2025-11-25T10:30:00.250Z");
/// ```
pub fn format_timestamp(ms: u64) -> String {
    let mut out = String::with_capacity(24);
    write_timestamp(&mut out, ms);
    out
}

/// Appends [`format_timestamp`]'s text to `out`.
pub(crate) fn write_timestamp(out: &mut String, ms: u64) {
    // Written by hand because it runs for every task serialized (twice): a date library's
    // general formatter costs more than the rest of a tasks/get. 32-bit arithmetic after
    // the first split: 64-bit division is several times slower in wasm32.
    const MAX_MS: u64 = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
    let ms = ms.min(MAX_MS);
    let secs = ms / 1000;
    let (year, month, day) = civil_from_days((secs / 86_400) as u32);
    let (sod, milli) = ((secs % 86_400) as u32, (ms % 1000) as u32);
    let mut text = *b"0000-00-00T00:00:00.000Z";
    put_digits(&mut text[0..4], year);
    put_digits(&mut text[5..7], month);
    put_digits(&mut text[8..10], day);
    put_digits(&mut text[11..13], sod / 3600);
    put_digits(&mut text[14..16], sod / 60 % 60);
    put_digits(&mut text[17..19], sod % 60);
    put_digits(&mut text[20..23], milli);
    // Digits and separators only: always UTF-8.
    out.push_str(std::str::from_utf8(&text).unwrap_or_default());
}

/// Writes `value`'s last `slot.len()` decimal digits into `slot`.
fn put_digits(slot: &mut [u8], mut value: u32) {
    for digit in slot.iter_mut().rev() {
        *digit = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`, for days on or after the epoch).
fn civil_from_days(days: u32) -> (u32, u32, u32) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + u32::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    #[cfg(not(target_arch = "wasm32"))]
    use super::format_timestamp;
    #[cfg(not(target_arch = "wasm32"))]
    use std::time::{Duration, UNIX_EPOCH};

    // humantime is a native-only dev-dependency (the wasm32 run skips this comparison).
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn agrees_with_humantime() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let edges = [0, 999, 1_000, 86_399_999, 951_782_400_000, 4_107_542_400_000, 253_402_300_799_999];
        for i in 0..200_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let ms = if i < edges.len() as u64 { edges[i as usize] } else { x % 253_402_300_800_000 };
            let expected = humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string();
            assert_eq!(format_timestamp(ms), expected, "{ms}");
        }
        assert_eq!(format_timestamp(u64::MAX), "9999-12-31T23:59:59.999Z");
    }
}
