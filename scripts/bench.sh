#!/usr/bin/env bash
# Set up, build the npm package, and run the benchmarks against the official MCP SDK:
# one table of ratios (with the absolute figures and the target beside each), the CPU model
# and the Node version; results also in js-tests/bench/results.json. About 1.5-2 minutes on a
# 2-core machine once set up.
#
#   scripts/bench.sh [--only=P1,P2,P2E,P3,P4,P5,P6,P7,P8] [--quick]
#   scripts/bench.sh --durable      WasmTaskStore in memory vs on Redis; one vs two server instances
#
# Env:
#   SKIP_BUILD=1        use the package already in BENCH_PKG_DIR
#   BENCH_PKG_DIR=path  where the package is built and read (default: target/bench-pkg, a
#                       private copy so a concurrent scripts/test-js.sh rebuilding pkg/ cannot
#                       pull it away mid-run; built by scripts/build-pkg.sh exactly like pkg/)
#
# Profiling (function names kept in the wasm): js-tests/bench/profile.sh [SECTION ...]
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export BENCH_PKG_DIR="${BENCH_PKG_DIR:-$REPO_ROOT/target/bench-pkg}"
"$REPO_ROOT/scripts/setup.sh"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  PKG_DIR="$BENCH_PKG_DIR" "$REPO_ROOT/scripts/build-pkg.sh"
fi
[ -f "$BENCH_PKG_DIR/package.json" ] || die "no package in $BENCH_PKG_DIR (unset SKIP_BUILD)"
cd "$REPO_ROOT"
if [ "${1:-}" = --durable ]; then
  # Durable storage: in memory vs Redis per operation (time, round trips); one vs two instances.
  exec node js-tests/bench/durable.mjs
fi
exec node --expose-gc js-tests/bench/run.mjs "$@"
