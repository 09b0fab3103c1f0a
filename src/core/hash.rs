//! The hash of the engine's maps. Their keys are task IDs, contexts and tool
//! names the engine or its host chose (a peer only looks keys up, it never
//! adds one), so flooding them with colliding keys is not open to a peer and
//! std's SipHash buys nothing; it was a measurable part of every request.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hash over 8-byte words (the scheme of rustc's `FxHasher`),
/// finished with a full mix so the low bits a table indexes by depend on every word.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

const SEED: u64 = 0xf135_7aea_2e62_a9c5;

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(SEED).rotate_left(5);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            self.add(u64::from_le_bytes(w));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // MurmurHash3's finalizer: every input bit reaches the low bits a table indexes by.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A `HashMap` keyed by IDs, contexts or names.
pub(crate) type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;
/// A `HashSet` of such keys.
pub(crate) type KeySet<K> = HashSet<K, BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(value: T) -> u64 {
        BuildHasherDefault::<KeyHasher>::default().hash_one(value)
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn similar_keys_spread_over_the_low_bits() {
        // Sequential IDs and IDs that differ in one late byte land in distinct buckets of a 1024-slot table.
        let ids: Vec<String> = (0..1024).map(|i| format!("task-{i}")).collect();
        let buckets: KeySet<u64> = ids.iter().map(|id| hash(id.as_str()) & 1023).collect();
        assert!(buckets.len() > 600, "{} distinct buckets", buckets.len());
        assert_ne!(hash("abcdefgh"), hash("abcdefgh\0"));
        assert_ne!(hash(""), hash("\0"));
    }
}
