#!/usr/bin/env bash
# An HTTP demo: starts an example server (SERVER_DIR/server.mjs, which prints
# "listening on URL") on 127.0.0.1, waits until it listens, runs the example client
# (CLIENT_DIR/client.mjs with MCP_URL) and prints its transcript, then the server's log.
# Exit code: the client's (it checks what it sees). Used by demo-sdk.sh and demo-sdk2.sh.
#
#   scripts/demo-http.sh SERVER_DIR CLIENT_DIR PKG_ENTRY
#
# PKG_ENTRY: the pkg/ file the demo needs (built when missing or unless SKIP_BUILD=1).
server_dir=${1:?usage: demo-http.sh SERVER_DIR CLIENT_DIR PKG_ENTRY}
client_dir=${2:?usage: demo-http.sh SERVER_DIR CLIENT_DIR PKG_ENTRY}
entry=${3:?usage: demo-http.sh SERVER_DIR CLIENT_DIR PKG_ENTRY}
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

# 1. The package (pkg/), built from the crate.
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f "pkg/$entry" ]; then
  scripts/setup.sh
  scripts/build-pkg.sh
fi

# 2. The examples' dependencies: the SDK from npm, mcp-task-core linked from ../../pkg.
for dir in "$server_dir" "$client_dir"; do
  stamp="$(sha256sum "$dir/package.json" | cut -d' ' -f1) node-$(node --version)"
  if [ -f "$dir/node_modules/.demo-stamp" ] && [ "$(cat "$dir/node_modules/.demo-stamp")" = "$stamp" ]; then
    continue
  fi
  log "npm install in $dir"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
  printf '%s' "$stamp" >"$dir/node_modules/.demo-stamp"
done

# 3. The server, stopped whatever happens.
server_log="$(mktemp "${TMPDIR:-/tmp}/mcp-task-core-demo-server.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -f "$server_log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting $server_dir"
(cd "$server_dir" && PORT="${PORT:-0}" exec node server.mjs) >"$server_log" 2>&1 &
server_pid=$!

url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^listening on \(http:[^ ]*\)$/\1/p' "$server_log" | head -n 1)"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    cat "$server_log" >&2
    die "the server exited before listening"
  fi
  sleep 0.1
done
[ -n "$url" ] || { cat "$server_log" >&2; die "the server did not listen within 30 s"; }
log "server listening on $url"

# 4. The client; its exit code is the demo's.
status=0
(cd "$client_dir" && MCP_URL="$url" node client.mjs) || status=$?

echo
echo "--- server log ---"
sed 's/^/  /' "$server_log"
log "demo finished (exit $status)"
exit "$status"
