// What the npm README's examples leave to the reader ("yours": the transport, the work, the
// session), as globals, and what js-tests/readme.test.mjs checks after running an example.
// Each example runs in its own Node process (helpers/readme-run.mjs).
import assert from 'node:assert/strict';
import { z } from 'zod';

const RESULT = { content: [{ type: 'text', text: 'done' }] };
const EXTENSION_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** Installs the globals; returns what they record. */
export function installGlobals() {
  const record = { sent: [], forwarded: [], started: [], posted: [] };
  Object.assign(globalThis, {
    // The host loop (Node, Workers)
    send: (context, text, inReplyTo) => record.sent.push({ context, message: JSON.parse(text), inReplyTo }),
    handleOtherMessage: (context, message) => record.forwarded.push({ context, message }),
    doTheWork: async () => RESULT,
    authenticate: async () => 'alice',
    startWork: (out) => record.started.push(out),
    // The tasks extension
    text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', _meta: EXTENSION_META } }),
    sessionId: 'alice',
    request: new Request('http://localhost/mcp', { method: 'POST', headers: { 'mcp-name': 'slow' } }),
    // The requestor: examples/sdk-server, started by readme.test.mjs
    url: process.env.MCP_URL,
    render: () => {},
    serverCapabilities: { tasks: { requests: { tools: { call: {} } } } },
    tool: { name: 'slow', execution: { taskSupport: 'optional' } },
    arguments: { n: 1 },
    post: async (message) => record.posted.push(message),
    ask: async () => ({ action: 'decline' }),
    show: () => {},
    // SDK 2.x
    inputSchema: z.object({ format: z.string() }),
    requestedSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  });
  return record;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Checks after an example ran, by the heading it sits under (none: running it is the check). */
export const checks = {
  async Node(mod, record) {
    mod.onMessage('alice', rpc(1, 'tools/call', { name: 'generate_report', arguments: {}, task: {} }));
    const { taskId } = record.sent[0].message.result.task;
    await tick(); // doTheWork resolves; complete(); drain()
    mod.onMessage('alice', rpc(2, 'tasks/result', { taskId }));
    assert.deepEqual(record.sent.at(-1).message.result.content, RESULT.content);
    mod.onMessage('alice', rpc(3, 'ping', {}));
    assert.equal(record.forwarded[0].message.method, 'ping');
  },
  async 'Cloudflare Workers'(mod, record) {
    const res = await mod.default.fetch(new Request('http://localhost/', { method: 'POST', body: rpc(1, 'tools/call', { name: 'crawl', task: {} }) }));
    assert.equal(res.status, 200);
    assert.equal((await res.json()).result.task.status, 'working');
    assert.equal(record.started.length, 1);
    assert.equal(record.started[0].request.params.name, 'crawl');
  },
};
