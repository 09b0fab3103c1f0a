//! Random bytes for task IDs, cursor keys and instance ids, from the platform's
//! CSPRNG: `getrandom` natively; on wasm32 the JS host's source (`crypto.getRandomValues`
//! unless an entry point installed another, see `wasm::random`).

/// There is no usable source of random bytes on this platform.
#[derive(Debug)]
pub(crate) struct NoEntropy;

/// Fills every byte of `bytes` from the platform's CSPRNG.
pub(crate) fn fill(bytes: &mut [u8]) -> Result<(), NoEntropy> {
    #[cfg(not(target_arch = "wasm32"))]
    return getrandom::fill(bytes).map_err(|_| NoEntropy);
    #[cfg(target_arch = "wasm32")]
    return crate::wasm::random::fill(bytes).map_err(|_| NoEntropy);
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn fills_every_byte() {
        // 64 random bytes are all zero with probability 2^-512: a source that wrote nothing fails.
        let mut bytes = [0u8; 64];
        super::fill(&mut bytes).expect("a CSPRNG");
        assert!(bytes.iter().any(|&b| b != 0));
    }
}
