#!/usr/bin/env bash
# Build pkg/ and run the JS/wasm tests (Node ESM + CJS, headless Chromium, workerd).
#
#   scripts/test-js.sh [TEST_FILE ...]    (default: every js-tests/**/*.test.mjs and *.test.cjs)
#
# Env:
#   SKIP_BUILD=1           use the existing pkg/ as is
#   CRATE_DIR=path         crate to build (default: the repo root), passed to build-pkg.sh
#   TEST_CONCURRENCY=N     test files run in parallel (default 2: this is a 2-core machine,
#                          and a browser or workerd per file is heavy)
# Run scripts/setup.sh --browser once first.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ -d "$JS_TESTS_DIR/node_modules" ] || die "js-tests/node_modules missing: run scripts/setup.sh --browser"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  "$REPO_ROOT/scripts/build-pkg.sh" ${CRATE_DIR:+"$CRATE_DIR"}
fi

files=()
if [ "$#" -gt 0 ]; then
  for f in "$@"; do
    [ -f "$f" ] || die "no such test file: $f"
    files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
  done
  cd "$JS_TESTS_DIR"
else
  cd "$JS_TESTS_DIR"
  # Node 20's `node --test` takes no globs: list the files ourselves.
  while IFS= read -r f; do files+=("$f"); done < <(
    find . -path ./node_modules -prune -o -type f \( -name '*.test.mjs' -o -name '*.test.cjs' \) -print | sort
  )
fi
[ "${#files[@]}" -gt 0 ] || die "no *.test.mjs / *.test.cjs files under js-tests/"

log "node --test (${#files[@]} files, concurrency ${TEST_CONCURRENCY:-2})"
start=$SECONDS
status=0
node --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}" || status=$?
log "js tests finished in $((SECONDS - start)) s (exit $status)"
exit "$status"
