#!/usr/bin/env bash
# Sets up everything and runs every test: Rust unit, scenario, property and doc tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
echo "== Rust tests"
cargo test --all-targets
cargo test --doc
