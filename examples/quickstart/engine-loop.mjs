// A bare TaskEngine serving MCP tasks over stdio (one JSON-RPC message per line): you own the
// transport and the timers, the engine owns the task protocol.
//
//   npm install mcp-task-core && node engine-loop.mjs      then write JSON-RPC lines on stdin
import { createInterface } from 'node:readline';
import { TaskEngine } from 'mcp-task-core';

const engine = new TaskEngine({ tools: { shout: 'required' } });
const CONTEXT = 'stdio'; // one peer: the process that started us
const write = (message) => process.stdout.write(JSON.stringify(message) + '\n');
let timer;

// 1. Every incoming line goes to the engine; its reply (if any) goes back.
createInterface({ input: process.stdin }).on('line', (line) => {
  const reply = engine.handle(line, CONTEXT);
  if (reply !== null) write(reply);
  drain();
});

// 2. After every call into the engine: act on its outputs, then re-arm the timer.
function drain() {
  for (let out = engine.pollOutput(); out !== null; out = engine.pollOutput()) {
    if (out.kind === 'send') write(out.message); // task results, status notifications
    if (out.kind === 'execute') runTool(out.taskId, out.request.params.arguments);
    if (out.kind === 'forward') answerPlain(out.message); // not task business
  }
  clearTimeout(timer);
  const deadline = engine.nextDeadline(); // the next TTL expiry, or null
  if (deadline !== null) timer = setTimeout(() => (engine.handleTimeout(), drain()), deadline - Date.now()).unref();
}

// 3. The tool: the work runs on its own and reports to the engine when done.
function runTool(taskId, { text = '' } = {}) {
  engine.setStatusMessage(taskId, 'shouting');
  setTimeout(() => {
    try {
      engine.complete(taskId, { content: [{ type: 'text', text: text.toUpperCase() }] });
    } catch (err) {
      if (err.code !== 'task_cancelled' && err.code !== 'unknown_task') throw err; // cancelled or expired meanwhile
    }
    drain();
  }, 200);
}

// The rest of a (tiny) MCP server: initialize and tools/list.
function answerPlain(message) {
  const result = {
    initialize: { protocolVersion: '2025-11-25', capabilities: { tools: {}, tasks: engine.capabilities(CONTEXT) }, serverInfo: { name: 'quickstart', version: '1.0.0' } },
    'tools/list': { tools: [{ name: 'shout', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }] },
  }[message?.method];
  if (message?.id === undefined || message.method === undefined) return; // notifications and responses
  write(result ? { jsonrpc: '2.0', id: message.id, result } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
}
