#!/usr/bin/env bash
# Sets up and runs the main demo: a whole task lifecycle, printing the JSON-RPC exchange.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
cargo run --quiet --example lifecycle
