// Calls a tool of an MCP server as a task from a browser page: mcp-task-core's TaskClient over
// the official SDK's Streamable HTTP transport (no HTTP code of our own). Bundle it, e.g.:
//
//   npm install mcp-task-core @modelcontextprotocol/client
//   npx esbuild main.js --bundle --format=esm --loader:.wasm=file --outdir=dist
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client'; // SDK 1.x: '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { TaskClient, init } from 'mcp-task-core';
import wasmUrl from 'mcp-task-core/mcp_task_core_bg.wasm'; // esbuild only: Vite and webpack find the .wasm themselves

const $ = (id) => document.getElementById(id);
const log = (line) => $('log').append(Object.assign(document.createElement('li'), { textContent: line }));

await init(new URL(wasmUrl, import.meta.url)); // Vite, webpack: `await init()`
const server = new URL(new URLSearchParams(location.search).get('server') ?? 'http://127.0.0.1:3000/mcp');
$('server').value = server.href;
const client = new TaskClient(new StreamableHTTPClientTransport(server), {
  // A cancelled call is still followed to its end: the server's last word on the task comes here.
  onEvent: (event) => event.kind === 'finished' && log(`server: task ${event.taskId} ${event.status}`),
});
$('protocol').value = await client.connect(); // '2026-07-28' (tasks extension) or '2025-11-25'
$('run').disabled = false;

$('run').onclick = async () => {
  const abort = new AbortController();
  $('cancel').onclick = () => abort.abort();
  $('cancel').disabled = false;
  try {
    const { result, status } = await client.callTool($('tool').value, JSON.parse($('args').value), {
      task: true,
      signal: abort.signal, // aborting sends tasks/cancel
      onEvent: (event) => {
        if (event.kind === 'created') log(`task ${event.taskId} created`);
        if (event.kind === 'status') log(`${event.task.status}${event.task.statusMessage ? `: ${event.task.statusMessage}` : ''}`);
      },
      // Progress notifications (2025-11-25; the tasks extension has status messages only).
      onProgress: ({ progress, total, message }) => {
        Object.assign($('progress'), { value: progress, max: total ?? progress });
        log(`progress ${progress}/${total ?? '?'}${message ? ` (${message})` : ''}`);
      },
    });
    log(`result (${status}): ${result.content.map((c) => c.text).join(' ')}`);
  } catch (err) {
    log(err.name === 'AbortError' ? 'cancelled' : `error ${err.code}: ${err.message}`);
  } finally {
    $('cancel').disabled = true;
  }
};
