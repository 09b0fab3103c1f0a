#!/usr/bin/env bash
# Install everything the wasm build and the JS tests need. Idempotent: re-running is quick.
#
#   scripts/setup.sh [--browser]
#
#   --browser          also install Debian's chromium (only if /usr/bin/chromium is missing)
#   SETUP_BROWSER=1    same as --browser
#
# Needs: rustup + cargo, Node >= 20 with npm. Installs:
#   - rustup target wasm32-unknown-unknown
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock (cargo install, no --locked)
#   - js-tests/node_modules (npm ci; wasm-opt comes from the npm `binaryen` package there)
#   - chromium from apt (with --browser)
#   - redis-server from apt (the durable-storage tests start their own instances)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

want_browser="${SETUP_BROWSER:-0}"
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) die "unknown argument: $arg (see --help)" ;;
  esac
done

command -v cargo >/dev/null || die "cargo not found (install Rust via rustup)"
command -v node >/dev/null || die "node not found (Node >= 20 needed)"
command -v npm >/dev/null || die "npm not found"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node >= 20 needed, found $(node --version)"

# 1. Rust target
ensure_wasm32_target

# 2. wasm-bindgen CLI, same version as the crate
want_wb="$(wasm_bindgen_lock_version "$REPO_ROOT")"
have_wb="$(wasm_bindgen_cli_version)"
if [ "$have_wb" = "$want_wb" ]; then
  log "wasm-bindgen-cli $want_wb: present"
else
  log "wasm-bindgen-cli $want_wb: installing (have: ${have_wb:-none}; takes ~3 min on 2 cores)"
  # No --locked: the CLI's own lockfile pins a crate version this registry lacks.
  cargo install wasm-bindgen-cli --version "$want_wb"
  have_wb="$(wasm_bindgen_cli_version)"
  [ "$have_wb" = "$want_wb" ] || die "wasm-bindgen on PATH is ${have_wb:-missing}, expected $want_wb ($(command -v wasm-bindgen || true))"
fi

# 3. JS test harness dependencies (skipped when node_modules matches the lockfile)
cd "$JS_TESTS_DIR"
stamp_file="node_modules/.setup-stamp"
if [ -f package-lock.json ]; then
  stamp="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1) node-$(node --version)"
  if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ]; then
    log "js-tests/node_modules: up to date"
  else
    log "js-tests: npm ci"
    npm ci --no-audit --no-fund
    printf '%s' "$stamp" >"$stamp_file"
  fi
else
  log "js-tests: npm install (no package-lock.json yet)"
  npm install --no-audit --no-fund
fi
[ -x node_modules/.bin/wasm-opt ] || die "js-tests/node_modules/.bin/wasm-opt missing after npm install"

# 4. Chromium (Debian's; `npx playwright install` cannot download here)
if [ "$want_browser" = 1 ]; then
  if [ -x /usr/bin/chromium ]; then
    log "chromium: present ($(/usr/bin/chromium --version 2>/dev/null | tail -n 1))"
  else
    command -v apt-get >/dev/null || die "--browser needs apt-get (Debian/Ubuntu) to install chromium"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    log "chromium: apt-get update && apt-get install chromium (a few minutes)"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q chromium
    [ -x /usr/bin/chromium ] || die "chromium install did not produce /usr/bin/chromium"
  fi
fi

# 5. redis-server (Debian's) for the durable-storage tests (js-tests/durable/): the tests start
#    their own on 127.0.0.1 with a free port, so the package's service is never used. Its
#    dependency redis-tools brings redis-cli, which joins the cluster test's nodes.
if command -v redis-server >/dev/null; then
  log "redis-server: present ($(redis-server --version | awk '{ print $3 }'))"
else
  command -v apt-get >/dev/null || die "the durable-storage tests need redis-server: install it (apt-get install redis-server)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  log "redis-server: apt-get update && apt-get install redis-server"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends redis-server
  command -v redis-server >/dev/null || die "apt-get install redis-server did not put redis-server on PATH"
fi
command -v redis-cli >/dev/null || die "redis-cli missing (Debian package redis-tools): the Redis Cluster test needs it"

log "setup done"
