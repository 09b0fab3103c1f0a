#!/usr/bin/env bash
# The quick gate, run after every change (and first by scripts/test-all.sh):
#   1. cargo fmt --check
#   2. cargo clippy -D warnings: native and wasm32 (--all-targets), and the requestor-only and
#      receiver-only wasm32 builds (`mcp-task-core/requestor`, `mcp-task-core/receiver`)
#   3. cargo test --all-targets and the doc tests
# Installs only what these need: the rustfmt and clippy components and the wasm32 target.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

for component in rustfmt clippy; do
  rustup component list --installed 2>/dev/null | grep -q "^$component" || rustup component add "$component"
done
ensure_wasm32_target

log "cargo fmt --check"
cargo fmt --check
log "cargo clippy (native, wasm32, and each role's wasm32 build)"
cargo clippy --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings
# The one-role builds have their own feature sets.
for role in requestor receiver; do
  cargo clippy --no-default-features --features "$role" --target wasm32-unknown-unknown -- -D warnings
done
log "cargo test"
cargo test --all-targets
cargo test --doc
log "check passed"
