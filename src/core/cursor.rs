//! Opaque, tamper-evident `tasks/list` cursors.
//!
//! A cursor names the creation number of the last task a page returned, bound
//! to the caller's context by a keyed SipHash tag. Pages continue from that
//! number, so a cursor stays valid while tasks are added and removed.

use siphasher::sip::SipHasher13;
use std::hash::Hasher;

/// Keyed codec for list cursors.
#[derive(Clone)]
pub(crate) struct CursorCodec {
    key: [u8; 16],
}

impl std::fmt::Debug for CursorCodec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CursorCodec { .. }")
    }
}

impl CursorCodec {
    pub fn new(key: [u8; 16]) -> Self {
        CursorCodec { key }
    }

    /// The key, for a host that hands this engine's cursors on to another (see `Config::cursor_key`).
    pub(crate) fn key(&self) -> [u8; 16] {
        self.key
    }

    fn tag(&self, context: Option<&str>, seq: u64) -> u64 {
        let mut hasher = SipHasher13::new_with_key(&self.key);
        match context {
            Some(c) => {
                hasher.write_u8(1);
                hasher.write_usize(c.len());
                hasher.write(c.as_bytes());
            }
            None => hasher.write_u8(0),
        }
        hasher.write_u64(seq);
        hasher.finish()
    }

    /// Encodes "after creation number `seq`" for `context`.
    pub fn encode(&self, context: Option<&str>, seq: u64) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(32);
        for word in [seq, self.tag(context, seq)] {
            for shift in (0..16).rev() {
                text.push(char::from(HEX[(word >> (shift * 4)) as usize & 0xf]));
            }
        }
        text
    }

    /// Decodes a cursor made by [`encode`](Self::encode) for the same context;
    /// `None` for anything else.
    pub fn decode(&self, context: Option<&str>, cursor: &str) -> Option<u64> {
        if cursor.len() != 32 || !cursor.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let seq = u64::from_str_radix(cursor.get(..16)?, 16).ok()?;
        let tag = u64::from_str_radix(cursor.get(16..)?, 16).ok()?;
        // Accept only our own lowercase spelling so one cursor has one form.
        (tag == self.tag(context, seq) && cursor == self.encode(context, seq)).then_some(seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn round_trips_and_rejects_tampering() {
        let codec = CursorCodec::new([7; 16]);
        let c = codec.encode(Some("alice"), 42);
        assert_eq!(&c[..16], "000000000000002a");
        assert_eq!(c[16..], format!("{:016x}", codec.tag(Some("alice"), 42)));
        assert_eq!(codec.decode(Some("alice"), &c), Some(42));
        assert_eq!(codec.decode(Some("bob"), &c), None, "bound to its context");
        assert_eq!(codec.decode(None, &c), None);
        let mut forged = c.clone().into_bytes();
        forged[15] = if forged[15] == b'0' { b'1' } else { b'0' };
        assert_eq!(codec.decode(Some("alice"), std::str::from_utf8(&forged).unwrap()), None);
        assert_eq!(codec.decode(Some("alice"), &c.to_uppercase()), None);
        assert_eq!(codec.decode(Some("alice"), "garbage"), None);
        assert_eq!(codec.decode(Some("alice"), "é"), None);
        let other_key = CursorCodec::new([8; 16]);
        assert_eq!(other_key.decode(Some("alice"), &c), None);
    }
}
