#!/usr/bin/env bash
# Sets up everything and runs the main demo: an official MCP SDK 1.x server whose task store
# is mcp-task-core (WasmTaskStore), on Streamable HTTP at 127.0.0.1, and the SDK's Client
# running every kind of task against it, printing the lifecycle transcript. The server is
# stopped at the end. (The Rust engine's own JSON-RPC transcript: cargo run --example lifecycle.)
set -euo pipefail
cd "$(dirname "$0")/.."
exec ./scripts/demo-sdk.sh "$@"
