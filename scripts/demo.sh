#!/usr/bin/env bash
# Sets up everything and runs the demos, each an official SDK server with mcp-task-core as its
# task runtime, on Streamable HTTP at 127.0.0.1, and a client printing the lifecycle:
#   1. scripts/demo-sdk.sh   MCP 2025-11-25: an SDK 1.x server whose task store is mcp-task-core
#                            (WasmTaskStore), the SDK's Client running every kind of task;
#   2. scripts/demo-sdk2.sh  the tasks extension (2026-07-28): an SDK 2.x server with
#                            mcp-task-core/server, the official requester (ext-tasks) running a
#                            task with input and a cancelled one, then a 2025-11-25 client.
# The servers are stopped at the end. Exit code: non-zero if either demo's client saw anything
# unexpected. (The Rust engine's own JSON-RPC transcript: cargo run --example lifecycle.)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
./scripts/demo-sdk.sh "$@" || status=$?
echo
echo "=================================================================================="
echo
SKIP_BUILD=1 ./scripts/demo-sdk2.sh "$@" || status=$?
exit "$status"
