//! Token-bucket rate limiting of `tasks/*` requests per quota key, on the
//! injected clock.

use crate::core::fast_map::FastMap;
use crate::core::quota::QuotaKey;

/// A token bucket: `burst` requests at once, refilled at `per_second`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests allowed in a burst (bucket size).
    pub burst: u32,
    /// Requests allowed per second, sustained.
    pub per_second: u32,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Tokens in thousandths, to refill by the millisecond without floats.
    milli_tokens: u64,
    last_ms: u64,
}

/// Buckets per quota key; full (idle) buckets are dropped when the map grows.
#[derive(Debug, Default)]
pub(crate) struct RateLimiter {
    buckets: FastMap<QuotaKey, Bucket>,
}

const PRUNE_AT: usize = 10_000;

impl RateLimiter {
    /// Takes one token for `key` at `now`; `false` when the bucket is empty.
    pub fn allow(&mut self, limit: RateLimit, key: QuotaKey, now: u64) -> bool {
        let full = u64::from(limit.burst).saturating_mul(1_000);
        if self.buckets.len() >= PRUNE_AT {
            self.buckets.retain(|_, b| {
                let refilled = b.milli_tokens.saturating_add(now.saturating_sub(b.last_ms).saturating_mul(u64::from(limit.per_second)));
                refilled < full
            });
        }
        let bucket = self.buckets.entry(key).or_insert(Bucket { milli_tokens: full, last_ms: now });
        let elapsed = now.saturating_sub(bucket.last_ms);
        bucket.milli_tokens = bucket.milli_tokens.saturating_add(elapsed.saturating_mul(u64::from(limit.per_second))).min(full);
        bucket.last_ms = now.max(bucket.last_ms);
        if bucket.milli_tokens >= 1_000 {
            bucket.milli_tokens -= 1_000;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn bursts_then_refills_at_the_rate() {
        let limit = RateLimit { burst: 3, per_second: 2 };
        let mut r = RateLimiter::default();
        let a = || QuotaKey::of(None, Some("a"));
        assert!((0..3).all(|_| r.allow(limit, a(), 0)));
        assert!(!r.allow(limit, a(), 0));
        assert!(r.allow(limit, QuotaKey::of(None, Some("b")), 0), "buckets are per context");
        assert!(!r.allow(limit, a(), 499));
        assert!(r.allow(limit, a(), 500), "one token per 500 ms");
        assert!(!r.allow(limit, a(), 500));
        assert!((0..3).all(|_| r.allow(limit, a(), 60_000)), "refills up to the burst only");
        assert!(!r.allow(limit, a(), 60_000));
        let huge = RateLimit { burst: u32::MAX, per_second: u32::MAX };
        assert!(r.allow(huge, a(), u64::MAX), "no overflow on extreme clocks and limits");
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn clients_of_one_context_spend_their_own_quota_key() {
        let limit = RateLimit { burst: 2, per_second: 1 };
        let mut r = RateLimiter::default();
        let flood = || QuotaKey::of(Some("10.0.0.1"), None);
        assert!(r.allow(limit, flood(), 0) && r.allow(limit, flood(), 0));
        assert!(!r.allow(limit, flood(), 0), "the flooding key is refused");
        assert!(r.allow(limit, QuotaKey::of(Some("10.0.0.2"), None), 0), "another key of the same (anonymous) context is not");
        assert!(r.allow(limit, QuotaKey::of(None, None), 0), "nor the context itself, whose bucket is its own");
        assert!(!r.allow(limit, QuotaKey::of(Some("10.0.0.1"), Some("alice")), 0), "a key is one allowance, whatever the context");
    }
}
