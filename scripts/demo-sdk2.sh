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
exec "$(dirname "${BASH_SOURCE[0]}")/demo-http.sh" examples/sdk2-server examples/sdk2-client server.js
