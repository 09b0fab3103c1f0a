#!/usr/bin/env bash
# The main demo: mcp-task-core as the task runtime of the official TypeScript SDK 1.x, end to
# end over Streamable HTTP. Starts examples/sdk-server (McpServer + WasmTaskStore) on
# 127.0.0.1, waits until it listens, runs examples/sdk-client (the SDK's Client, calling every
# tool as a task) and prints its lifecycle transcript, then the server's log. Exit code: the
# client's (it checks what it sees).
#
#   scripts/demo-sdk.sh
#
# Env:
#   PORT=n          server port (default 0: a free one)
#   SKIP_BUILD=1    use the existing pkg/ (built when missing anyway)
#   STEP_MS=n       duration of one step of the demo tools (default 150)
# Needs Node >= 20 and npm (the examples install @modelcontextprotocol/sdk from the registry
# once; re-runs reuse their node_modules).
exec "$(dirname "${BASH_SOURCE[0]}")/demo-http.sh" examples/sdk-server examples/sdk-client sdk.js
