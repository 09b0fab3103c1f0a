//! Task identifiers: where they come from.

/// A source of task IDs, and of the engine's other randomness. The engine asks
/// it once per created task and refuses an ID that is empty or already in use
/// rather than overwrite a task.
pub trait IdSource {
    /// A new task ID.
    fn next_id(&mut self) -> String;

    /// 16 secret random bytes, asked once, for the key that makes list cursors
    /// tamper-evident when [`Config::cursor_key`](crate::Config::cursor_key) is
    /// not set; `None` when there is no source of them. By default the
    /// platform's CSPRNG (on wasm32, the JS host's).
    fn secret_key(&mut self) -> Option<[u8; 16]> {
        let mut key = [0u8; 16];
        crate::random::fill(&mut key).ok().map(|()| key)
    }
}

impl<F: FnMut() -> String> IdSource for F {
    fn next_id(&mut self) -> String {
        self()
    }
}

/// The ID source an [`Engine`](crate::Engine) holds: `Send` on native targets.
#[cfg(not(target_arch = "wasm32"))]
pub type BoxedIdSource = Box<dyn IdSource + Send>;
/// The ID source an [`Engine`](crate::Engine) holds.
#[cfg(target_arch = "wasm32")]
pub type BoxedIdSource = Box<dyn IdSource>;

/// Random bytes drawn from the platform CSPRNG per refill: one call serves
/// 256 IDs (in browsers each call crosses into `crypto.getRandomValues`).
const POOL_BYTES: usize = 4096;

/// The default source: random UUID v4 strings (122 random bits from the
/// platform's CSPRNG), unguessable as the spec asks when there is no
/// authorization context. If the platform has no CSPRNG it yields `""`, and
/// the engine refuses to create the task rather than use a weak ID.
///
/// ```
/// use mcp_task_core::{IdSource, UuidV4Ids};
/// let id = UuidV4Ids::default().next_id();
/// assert_eq!(id.len(), 36);
/// assert_eq!(&id[14..15], "4");
/// ```
#[derive(Debug, Clone, Default)]
pub struct UuidV4Ids {
    pool: Vec<u8>,
    used: usize,
}

impl IdSource for UuidV4Ids {
    fn next_id(&mut self) -> String {
        if self.used + 16 > self.pool.len() {
            self.pool.resize(POOL_BYTES, 0);
            if crate::random::fill(&mut self.pool).is_err() {
                self.pool.clear();
                return String::new();
            }
            self.used = 0;
        }
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&self.pool[self.used..self.used + 16]);
        // Each pool byte is used once: an ID is never derivable from another.
        self.pool[self.used..self.used + 16].fill(0);
        self.used += 16;
        uuid_text(bytes)
    }
}

/// The hyphenated lower-case text of a version 4 UUID made of these random
/// bytes (RFC 9562: version and variant bits set), written without `core::fmt`.
fn uuid_text(mut bytes: [u8; 16]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    // Written as bytes (a char at a time, String::push re-encodes each as UTF-8).
    let mut text = [b'-'; 36];
    let mut at = 0;
    for (i, b) in bytes.into_iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            at += 1;
        }
        text[at] = HEX[usize::from(b >> 4)];
        text[at + 1] = HEX[usize::from(b & 0x0f)];
        at += 2;
    }
    // Only ASCII hex digits and hyphens were written: the check cannot fail.
    core::str::from_utf8(&text).map(str::to_owned).unwrap_or_default()
}

/// Counting IDs with a prefix (`task-1`, `task-2`, ...): deterministic, for
/// tests and simulations only. They are guessable; never use them where a
/// peer could probe for other requestors' tasks.
#[derive(Debug, Clone)]
pub struct SequentialIds {
    prefix: String,
    next: u64,
}

impl SequentialIds {
    /// IDs `"{prefix}1"`, `"{prefix}2"`, ...
    pub fn new(prefix: &str) -> Self {
        SequentialIds { prefix: prefix.to_owned(), next: 1 }
    }
}

impl IdSource for SequentialIds {
    fn next_id(&mut self) -> String {
        let id = format!("{}{}", self.prefix, self.next);
        self.next += 1;
        id
    }
}

#[cfg(test)]
mod tests {
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn uuid_text_matches_the_uuid_crate() {
        for seed in 0u8..=255 {
            let bytes: [u8; 16] = std::array::from_fn(|i| seed.wrapping_mul(31).wrapping_add(i as u8 * 17));
            assert_eq!(super::uuid_text(bytes), uuid::Builder::from_random_bytes(bytes).into_uuid().to_string());
        }
    }
}
