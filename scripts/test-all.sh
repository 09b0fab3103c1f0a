#!/usr/bin/env bash
# Sets up everything and runs every test:
#   1. installs what is missing (wasm32 target, pinned wasm-bindgen-cli, npm packages, Chromium, cargo-fuzz)
#   2. scripts/check.sh, the quick gate: cargo fmt --check, cargo clippy -D warnings (native,
#      wasm32 and each role's build), the Rust unit, scenario, model-based property, security
#      and doc tests
#   3. the Rust unit and integration tests again on wasm32 (wasm-bindgen-test-runner under Node)
#   4. each fuzz target briefly (FUZZ_SECONDS, default 60), so regressions are caught
#   5. builds the test-only rmcp 3.x crate (interop/rmcp-client: a client, and a task server
#      the requestor drives) used by two interop tests
#   6. builds the npm package (pkg/) and runs the JS tests: Node ESM/CJS, Chromium (also pages
#      built from the packed tarball by Vite, webpack 5 and esbuild),
#      workerd, the official MCP SDK 1.x end to end, the requestor against the SDK server,
#      the SDK 2.x runtime (mcp-task-core/server) with the conformance suite's tasks-*
#      scenarios on Node 22, the official requester ext-tasks and the rmcp client; the
#      requestor (2026-07-28) against the rmcp task server
# Expected time on 2 cores from a fresh machine: ~21 minutes (about 3 of them
# installing wasm-bindgen-cli, under 2 building interop/rmcp-client, 4 to 5 building and
# running the wasm32 tests); about 15 minutes from a clean clone when the tools are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

echo "== Setup"
./scripts/setup.sh --browser

echo "== Gate: scripts/check.sh (rustfmt, clippy, Rust tests)"
./scripts/check.sh

echo "== Rust unit and integration tests on wasm32 (wasm-bindgen-test-runner under Node)"
start=$SECONDS
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$PWD/scripts/wasm-test-runner.sh" cargo test --target wasm32-unknown-unknown --tests
echo "wasm32 tests built and run in $((SECONDS - start)) s"

echo "== Fuzz smoke (${FUZZ_SECONDS:-60} s per target)"
fuzz_log="$(mktemp)"
for target in message sequence cursor requestor; do
  if ! ./fuzz/run.sh "$target" "${FUZZ_SECONDS:-60}" >"$fuzz_log" 2>&1; then
    tail -n 40 "$fuzz_log"
    echo "fuzz target $target failed (inputs in fuzz/artifacts/$target)"
    exit 1
  fi
  echo "fuzz $target: $(grep -E '^Done [0-9]+ runs' "$fuzz_log" || tail -n 1 "$fuzz_log")"
done
rm -f "$fuzz_log"

echo "== Interop: rmcp 3.x client and task server (test-only crate interop/rmcp-client, its own workspace)"
start=$SECONDS
cargo build --locked --quiet --manifest-path interop/rmcp-client/Cargo.toml
echo "interop/rmcp-client built in $((SECONDS - start)) s"

echo "== JS tests"
./scripts/test-js.sh
