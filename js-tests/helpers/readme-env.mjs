// What the npm README's examples leave to the reader ("yours": the transport, the work, the
// session), as globals, and what js-tests/readme.test.mjs checks after running an example.
// Each example runs in its own Node process (helpers/readme-run.mjs).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { modernClient, terminal, waitFor } from '../sdk2/harness.mjs';

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
    // The task console
    isOperator: (cookie) => (cookie ?? '').split(/;\s*/).includes('ops=1'),
    // SDK 2.x
    inputSchema: z.object({ format: z.string() }),
    requestedSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  });
  return record;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** The package as installed in the scratch project the example runs in (its cwd). */
const installed = (entry) => import(pathToFileURL(path.resolve('node_modules', 'mcp-task-core', entry)).href);

/** The /mcp URL of an example's `httpServer` (it listens on PORT=0: a free port). */
async function urlOf(httpServer) {
  if (!httpServer.listening) await once(httpServer, 'listening');
  return `http://127.0.0.1:${httpServer.address().port}/mcp`;
}

/** `callTool(tool, {}, { task: true })` with a TaskClient over the SDK's Streamable HTTP transport. */
async function callAsTask(url, tool, headers = {}) {
  const { TaskClient } = await installed('entries/index.node.mjs');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new TaskClient(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    const protocol = await client.connect();
    return { protocol, ...(await client.callTool(tool, {}, { task: true, signal: AbortSignal.timeout(10_000) })) };
  } finally {
    await client.close();
  }
}

// A page of another origin: the requestor entry bundled by esbuild (as README "Browser" shows)
// with the SDK's transport; window.callReport(url) calls `report` as a task.
const CORS_PAGE = `import wasmUrl from 'mcp-task-core/mcp_task_core_requestor_bg.wasm';
import { init, TaskClient } from 'mcp-task-core/requestor';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

await init(new URL(wasmUrl, import.meta.url));
window.callReport = async (url) => {
  const client = new TaskClient(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const protocol = await client.connect();
    const { result, status } = await client.callTool('report', {}, { task: true, signal: AbortSignal.timeout(10000) });
    return { protocol, status, text: result.content[0].text };
  } catch (err) {
    return { error: String(err) };
  } finally {
    await client.close().catch(() => {});
  }
};
`;

/** The header names of a comma-separated CORS list, lower-cased. */
const names = (list) => new Set((list ?? '').split(',').map((name) => name.trim().toLowerCase()));

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
  async 'A task console (`mcp-task-core/console`)'(mod) {
    const base = (await urlOf(mod.httpServer)).replace(/\/mcp$/, '/console');
    const get = (route, cookie) => fetch(base + route, { headers: cookie ? { cookie } : {} });
    for (const route of ['/', '/events', '/tasks']) assert.equal((await get(route)).status, 403, `${route} without the cookie`);
    assert.equal((await get('/tasks', 'ops=0')).status, 403);
    const page = await get('/', 'ops=1');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>Tasks · task console<\/title>/);
    const task = await mod.taskStore.createTask({ ttl: 60_000 }, 1, { method: 'tools/call', params: { name: 'report' } }, 'session-1');
    const { tasks } = await (await get('/tasks', 'ops=1')).json();
    assert.deepEqual(tasks.map((t) => [t.taskId, t.tool, t.context, t.status]), [[task.taskId, 'report', 'session-1', 'working']]);
  },
  async 'Serving it from Node'(mod) {
    const call = await callAsTask(await urlOf(mod.httpServer), 'report');
    assert.equal(call.protocol, '2026-07-28');
    assert.equal(typeof call.taskId, 'string', 'report ran as a task');
    assert.equal(call.status, 'completed');
    assert.deepEqual(call.result.content, [{ type: 'text', text: 'report ready' }]);
  },
  async 'Browser clients (CORS)'(mod) {
    const url = await urlOf(mod.httpServer);
    const preflight = (origin) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-method,mcp-name,mcp-protocol-version' },
      });
    const allowed = await preflight('https://app.example.com');
    assert.ok(allowed.ok, `preflight: HTTP ${allowed.status}`);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
    const allowedHeaders = names(allowed.headers.get('access-control-allow-headers'));
    for (const header of ['content-type', 'authorization', 'last-event-id', 'mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name']) {
      assert.ok(allowedHeaders.has(header), `access-control-allow-headers lacks ${header}`);
    }
    assert.ok(names(allowed.headers.get('access-control-allow-methods')).has('post'));
    assert.ok(names(allowed.headers.get('access-control-expose-headers')).has('mcp-session-id'));
    assert.equal((await preflight('https://elsewhere.example')).headers.get('access-control-allow-origin'), null);

    // Chromium enforces it: the page (at /pages/app/, its bundle under /assets/) on another port.
    const { default: esbuild } = await import('esbuild');
    const { withChromium } = await import('./browser.mjs');
    const dir = path.resolve('cors-page');
    await esbuild.build({
      stdin: { contents: CORS_PAGE, resolveDir: process.cwd(), loader: 'js' },
      outfile: path.join(dir, 'main.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      loader: { '.wasm': 'file' },
      logLevel: 'warning',
    });
    const { ok, refused } = await withChromium(
      async (page, baseUrl) => {
        await page.goto(`${baseUrl}/pages/app/index.html`);
        await page.waitForFunction(() => typeof window.callReport === 'function');
        mod.allowedOrigins.add(baseUrl);
        const ok = await page.evaluate((u) => window.callReport(u), url);
        mod.allowedOrigins.delete(baseUrl);
        return { ok, refused: await page.evaluate((u) => window.callReport(u), url) };
      },
      { mounts: { '/assets/': dir }, files: { '/pages/app/index.html': '<!doctype html><script type="module" src="/assets/main.js"></script>' } },
    );
    assert.deepEqual(ok, { protocol: '2026-07-28', status: 'completed', text: 'report ready' });
    assert.match(refused.error, /Failed to fetch/);
  },
  async 'Authenticated users'(mod) {
    const url = await urlOf(mod.httpServer);
    const anonymous = modernClient({ fetch: (request) => fetch(request) }, { url });
    const refused = await fetch(anonymous.request('tools/call', { name: 'report', arguments: {} }).request);
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate'), /^Bearer /);
    const call = await callAsTask(url, 'report', { authorization: 'Bearer token-1' });
    assert.equal(call.status, 'completed');
    assert.deepEqual(call.result.content, [{ type: 'text', text: 'report for user-1' }], 'the tool saw the verified authInfo');
    const user1 = modernClient({ fetch: (request) => (request.headers.set('authorization', 'Bearer token-1'), fetch(request)) }, { url });
    assert.equal((await user1.result('tasks/get', { taskId: call.taskId })).status, 'completed');
    // Another user of the same client application does not see it.
    const user2 = modernClient({ fetch: (request) => (request.headers.set('authorization', 'Bearer token-2'), fetch(request)) }, { url });
    assert.equal((await user2.call('tasks/get', { taskId: call.taskId })).error?.code, -32602, 'the default principal keeps two users of one client apart');
    const forged = await fetch(anonymous.request('tasks/get', { taskId: call.taskId }, { headers: { authorization: 'Bearer token-9' } }).request);
    assert.equal(forged.status, 401);
  },
  async 'Choosing the principal'(mod) {
    const client = modernClient(mod.handler);
    const as = (sub, clientId) => ({ authInfo: { token: `t-${sub}-${clientId}`, clientId, scopes: [], extra: { sub } } });
    const created = await client.result('tools/call', { name: 'report', arguments: {} }, as('user-1', 'web'));
    assert.equal(created.resultType, 'task');
    // The same user from another client application sees the task; another user does not.
    const task = await waitFor(client, created.taskId, terminal, { opts: as('user-1', 'cli') });
    assert.equal(task.status, 'completed');
    const other = await client.call('tasks/get', { taskId: created.taskId }, as('user-2', 'web'));
    assert.equal(other.error?.code, -32602, JSON.stringify(other));
  },
  async 'Work that outlives its request'(mod) {
    const call = await callAsTask(await urlOf(mod.httpServer), 'report');
    assert.equal(call.protocol, '2025-11-25');
    assert.equal(call.status, 'completed');
    assert.deepEqual(call.result.content, [{ type: 'text', text: 'report ready' }]);

    // What the README says of extra.taskStore once the request's McpServer is closed: the write
    // reaches the store, then `Not connected`.
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { CreateTaskResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const { WasmTaskStore } = await installed('adapters/sdk-v1.js');
    const taskStore = new WasmTaskStore();
    const server = new McpServer({ name: 'kept', version: '1.0.0' }, { taskStore, capabilities: { tasks: { requests: { tools: { call: {} } } } } });
    let kept;
    server.experimental.tasks.registerToolTask('keep', { execution: { taskSupport: 'required' } }, {
      async createTask(extra) {
        kept = extra;
        return { task: await extra.taskStore.createTask({}) };
      },
      getTask: (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: (extra) => extra.taskStore.getTaskResult(extra.taskId),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    const { task } = await client.request({ method: 'tools/call', params: { name: 'keep', arguments: {}, task: {} } }, CreateTaskResultSchema);
    await server.close();
    await assert.rejects(kept.taskStore.updateTaskStatus(task.taskId, 'working', 'after the response'), /Not connected/);
    assert.equal((await taskStore.allSessions().getTask(task.taskId)).statusMessage, 'after the response');
    await taskStore.allSessions().storeTaskResult(task.taskId, 'completed', { content: [] });
    assert.equal((await taskStore.allSessions().getTask(task.taskId)).status, 'completed');
  },
};
