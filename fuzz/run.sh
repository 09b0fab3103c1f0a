#!/usr/bin/env bash
# Runs one fuzz target for a given time: fuzz/run.sh TARGET SECONDS
# Targets: message (JSON-RPC entry point, raw bytes), sequence (host calls and
# peer messages via `arbitrary`), cursor (tasks/list cursor decoding), requestor
# (receiver messages and saved requestor states).
# Needs the nightly toolchain and cargo-fuzz (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
target=${1:?usage: fuzz/run.sh TARGET SECONDS}
seconds=${2:-60}
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2
corpus=fuzz/corpus/$target
mkdir -p "$corpus"
[ -d "fuzz/seeds/$target" ] && cp -n fuzz/seeds/"$target"/* "$corpus"/ 2>/dev/null || true
cargo +nightly fuzz run -O "$target" "$corpus" -- -max_total_time="$seconds" -max_len=65536 -print_final_stats=1
