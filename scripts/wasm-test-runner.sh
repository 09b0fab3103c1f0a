#!/usr/bin/env bash
# Cargo's runner for the wasm32 tests: wasm-bindgen-test-runner on the test module without its
# target_features section. That section carries std's features, reference types among them,
# which our wasm32 builds leave out (.cargo/config.toml); see strip-target-features.mjs.
#
#   CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=scripts/wasm-test-runner.sh cargo test --target wasm32-unknown-unknown
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$1"
shift
stripped="${module%.wasm}.bindgen-input.wasm"
node "$here/strip-target-features.mjs" "$module" "$stripped"
exec wasm-bindgen-test-runner "$stripped" "$@"
