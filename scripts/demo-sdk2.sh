#!/usr/bin/env bash
# The 2026-07-28 demo: mcp-task-core/server as the task runtime of the official TypeScript SDK
# 2.x (@modelcontextprotocol/server), end to end over Streamable HTTP. Starts
# examples/sdk2-server (createMcpHandler + TasksExtension) on 127.0.0.1, waits until it
# listens, runs examples/sdk2-client (the official tasks requester @modelcontextprotocol/ext-tasks
# on the SDK 2.x Client: a task with input, a task cancelled while it waits for input, errors;
# then the same server as a 2025-11-25 client) and prints its lifecycle transcript, then the
# server's log. Exit code: the client's (it checks what it sees).
#
#   scripts/demo-sdk2.sh
#
# Env:
#   PORT=n          server port (default 0: a free one)
#   SKIP_BUILD=1    use the existing pkg/ (built when missing anyway)
#   STEP_MS=n       duration of one step of the demo tools (default 150)
# Needs Node >= 20 and npm (the examples install the SDK 2.x packages and ext-tasks from the
# registry once; re-runs reuse their node_modules).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

# 1. The package (pkg/), built from the crate.
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f pkg/server.js ]; then
  scripts/setup.sh
  scripts/build-pkg.sh
fi

# 2. The examples' dependencies: the SDK from npm, mcp-task-core linked from ../../pkg.
for dir in examples/sdk2-server examples/sdk2-client; do
  stamp="$(sha256sum "$dir/package.json" | cut -d' ' -f1) node-$(node --version)"
  if [ -f "$dir/node_modules/.demo-stamp" ] && [ "$(cat "$dir/node_modules/.demo-stamp")" = "$stamp" ]; then
    continue
  fi
  log "npm install in $dir"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
  printf '%s' "$stamp" >"$dir/node_modules/.demo-stamp"
done

# 3. The server, stopped whatever happens.
server_log="$(mktemp "${TMPDIR:-/tmp}/mcp-task-core-sdk2-server.XXXXXX")"
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

log "starting examples/sdk2-server"
(cd examples/sdk2-server && PORT="${PORT:-0}" exec node server.mjs) >"$server_log" 2>&1 &
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
(cd examples/sdk2-client && MCP_URL="$url" node client.mjs) || status=$?

echo
echo "--- server log ---"
sed 's/^/  /' "$server_log"
log "demo finished (exit $status)"
exit "$status"
