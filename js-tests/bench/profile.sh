#!/usr/bin/env bash
# Profile the benchmark's hot paths with function names in the wasm.
#
#   js-tests/bench/profile.sh [SECTION ...]     SECTION: p1 p2 p2e p2e-sdk create get sweep list cold (default: all but p2e-sdk)
#
# Builds a copy of the package whose .wasm keeps its name section (wasm-bindgen --keep-debug,
# then the same wasm-opt -Oz as scripts/build-pkg.sh plus -g), runs each section under
# `node --cpu-prof`, and prints self / inclusive time per function (profile-summary.mjs).
# Profiles are left in target/bench-prof/. Run scripts/bench.sh (or build-pkg.sh) first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib.sh
source "$here/../../scripts/lib.sh"
src_pkg="${BENCH_PKG_DIR:-$REPO_ROOT/target/bench-pkg}"
[ -f "$src_pkg/package.json" ] || src_pkg="$REPO_ROOT/pkg"
prof_pkg="$REPO_ROOT/target/bench-prof-pkg"
out="$REPO_ROOT/target/bench-prof"
wasm_in="$REPO_ROOT/target/wasm32-unknown-unknown/bindgen-input/release.wasm"  # as build-pkg.sh hands it to wasm-bindgen
receiver_in="$REPO_ROOT/target/wasm32-unknown-unknown/bindgen-input/receiver.wasm"  # the build mcp-task-core/sdk loads
[ -f "$wasm_in" ] && [ -f "$receiver_in" ] || die "no $wasm_in or $receiver_in: run scripts/bench.sh first"

rm -rf "$prof_pkg" "$out"
mkdir -p "$out"
cp -R "$src_pkg" "$prof_pkg"
tmp="$(mktemp -d)"
wasm-bindgen "$wasm_in" --out-dir "$tmp" --target experimental-nodejs-module --out-name mcp_task_core --keep-debug
"$JS_TESTS_DIR/node_modules/.bin/wasm-opt" "$tmp/mcp_task_core_bg.wasm" -o "$prof_pkg/node-esm/mcp_task_core_bg.wasm" -g "${WASM_OPT_FLAGS[@]}"
cp "$tmp/mcp_task_core.js" "$prof_pkg/node-esm/mcp_task_core.js"
cp -R "$tmp/snippets" "$prof_pkg/node-esm/"
rm -rf "$tmp"
# The same for the receiver-only build (P2e: the SDK store runs on it).
tmp="$(mktemp -d)"
wasm-bindgen "$receiver_in" --out-dir "$tmp" --target experimental-nodejs-module --out-name mcp_task_core_receiver --keep-debug
"$JS_TESTS_DIR/node_modules/.bin/wasm-opt" "$tmp/mcp_task_core_receiver_bg.wasm" -o "$prof_pkg/receiver-node-esm/mcp_task_core_receiver_bg.wasm" -g "${WASM_OPT_FLAGS[@]}"
cp "$tmp/mcp_task_core_receiver.js" "$prof_pkg/receiver-node-esm/mcp_task_core_receiver.js"
cp -R "$tmp/snippets" "$prof_pkg/receiver-node-esm/"
rm -rf "$tmp"
# Their snippets folded in, and the receiver's glue made reinstantiable, as build-pkg.sh does.
node "$REPO_ROOT/scripts/bundle-glue.mjs" "$prof_pkg"

sections=("$@")
[ "${#sections[@]}" -gt 0 ] || sections=(p1 p2 p2e create get sweep list cold)
cd "$JS_TESTS_DIR"
for s in "${sections[@]}"; do
  log "profiling $s"
  mkdir -p "$out/$s"
  BENCH_PKG_DIR="$prof_pkg" node --expose-gc --cpu-prof --cpu-prof-dir="$out/$s" "$here/profile-driver.mjs" "$s"
  node "$here/profile-summary.mjs" "$out/$s"/*.cpuprofile "${TOP:-25}"
done
