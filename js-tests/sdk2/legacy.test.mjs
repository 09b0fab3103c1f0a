// The same runtime and engine serving MCP 2025-11-25 clients of an SDK 2.4 server: tasks the
// client asks for with `task`, tasks/get|result|list|cancel, input requests on the waiting
// tasks/result stream, and the tasks shared with 2026-07-28 clients. Sessions through the
// SDK's WebStandardStreamableHTTPServerTransport (its isLegacyRequest routing pattern), and
// createMcpHandler's default stateless legacy serving. Messages are checked against the
// official 2025-11-25 schema.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertValid } from '../helpers/schema.mjs';
import { installWithSdk2, modernClient, sessionful, sleep } from './harness.mjs';

let pkg;
let sdk;
let mod;
let z;

before(async () => {
  pkg = installWithSdk2();
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => pkg?.cleanup());

const RELATED = 'io.modelcontextprotocol/related-task';
const text = (value) => ({ content: [{ type: 'text', text: value }] });

function makeFactory(tasks) {
  return () => {
    const server = new sdk.McpServer({ name: 'legacy-test', version: '1.0.0' });
    tasks.install(server);
    server.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => text(`Hello, ${name}!`));
    tasks.registerTool(server, 'ask', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      const answer = await task.elicit({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
      return text(`Hello, ${answer.content.name}!`);
    });
    tasks.registerTool(server, 'outcome', { taskSupport: 'optional', inputSchema: z.object({ kind: z.string(), ms: z.number().optional() }) }, async ({ kind, ms }, task) => {
      if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
      if (kind === 'isError') return { ...text('tool said no'), isError: true };
      if (kind === 'rpc') throw new mod.TaskProtocolError(-32011, 'quota exhausted', { retryAfter: 30 });
      if (kind === 'wait') await new Promise((_, reject) => task.signal.addEventListener('abort', () => reject(task.signal.reason), { once: true }));
      return text(`ok (${task.isTask ? 'task' : 'plain'})`);
    });
    tasks.registerTool(server, 'decide', { taskSupport: 'perCall', runAsTask: () => true, inputSchema: z.object({}) }, async () => text('decided'));
    return server;
  };
}


/** A 2025-11-25 client: initialize, then requests; `stream(...)` hands each SSE message to `onMessage`. */
async function legacyClient(handler, capabilities = { elicitation: { form: {} } }) {
  let session = null;
  let seq = 0;
  const post = async (body) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    if (session) headers['mcp-session-id'] = session;
    const response = await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
    session ??= response.headers.get('mcp-session-id');
    return response;
  };
  const messages = async function* (response) {
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const t = await response.text();
      if (t) yield JSON.parse(t);
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value);
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(0, end).split('\n').find((l) => l.startsWith('data:'));
        buffer = buffer.slice(end + 2);
        if (data) yield JSON.parse(data.slice(5));
      }
    }
  };
  const client = {
    post,
    async call(method, params, onMessage = () => {}) {
      const id = ++seq;
      for await (const m of messages(await post({ jsonrpc: '2.0', id, method, params }))) {
        if (m.id === id && m.method === undefined) return m;
        await onMessage(m);
      }
      assert.fail(`${method}: no response`);
    },
    async result(method, params, onMessage) {
      const reply = await client.call(method, params, onMessage);
      assert.equal(reply.error, undefined, `${method}: ${JSON.stringify(reply.error)}`);
      return reply.result;
    },
  };
  const init = await client.result('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'legacy-test', version: '1.0.0' } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { client, init };
}

async function until(client, taskId, predicate) {
  for (let i = 0; i < 500; i++) {
    const task = await client.result('tasks/get', { taskId });
    assertValid('GetTaskResult', task);
    if (predicate(task)) return task;
    await sleep(10);
  }
  assert.fail(`task ${taskId} never got there`);
}

test('a 2025-11-25 session: the tasks capability, taskSupport in tools/list, a task whose input request travels on tasks/result', async () => {
  const tasks = new mod.TasksExtension();
  const handler = sessionful(sdk, makeFactory(tasks));
  const { client, init } = await legacyClient(handler);
  assertValid('InitializeResult', init);
  assert.deepEqual(init.capabilities.tasks, { cancel: {}, requests: { tools: { call: {} } } }, 'no tasks.list without an authenticated principal');
  const { tools } = await client.result('tools/list', {});
  const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? null]));
  assert.deepEqual(support, { greet: null, ask: 'required', outcome: 'optional', decide: 'optional' });

  const created = await client.result('tools/call', { name: 'ask', arguments: {}, task: { ttl: 60_000 } });
  assertValid('CreateTaskResult', created);
  const { taskId } = created.task;
  assert.equal(created.task.ttl, 60_000);
  await until(client, taskId, (t) => t.status === 'input_required');
  const asked = [];
  const result = await client.result('tasks/result', { taskId }, async (m) => {
    assertValid('ElicitRequest', m);
    assert.deepEqual(m.params._meta[RELATED], { taskId });
    asked.push(m.params.message);
    await client.post({ jsonrpc: '2.0', id: m.id, result: { action: 'accept', content: { name: 'Grace' } } });
  });
  assert.deepEqual(asked, ['Name?']);
  assertValid('CallToolResult', result);
  assert.equal(result.content[0].text, 'Hello, Grace!');
  assert.deepEqual(result._meta[RELATED], { taskId });
  assert.equal((await client.result('tasks/get', { taskId })).status, 'completed');
  await handler.close();
  tasks.close();
});

test('2025-11-25 outcomes and refusals: isError fails the task, tasks/result replays the JSON-RPC error, cancel, -32601', async () => {
  const tasks = new mod.TasksExtension();
  const handler = sessionful(sdk, makeFactory(tasks));
  const { client } = await legacyClient(handler);
  const start = async (args) => (await client.result('tools/call', { name: 'outcome', arguments: args, task: {} })).task.taskId;

  const isError = await start({ kind: 'isError' });
  assert.equal((await until(client, isError, (t) => t.status !== 'working')).status, 'failed', '2025-11-25: isError makes the task failed');
  assert.deepEqual(await client.result('tasks/result', { taskId: isError }), { ...text('tool said no'), isError: true, _meta: { [RELATED]: { taskId: isError } } });

  const rpc = await start({ kind: 'rpc' });
  const replay = await client.call('tasks/result', { taskId: rpc });
  assert.deepEqual(replay.error, { code: -32011, message: 'quota exhausted', data: { retryAfter: 30 } });

  const waiting = await start({ kind: 'wait' });
  const cancelled = await client.result('tasks/cancel', { taskId: waiting });
  assertValid('CancelTaskResult', cancelled);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal((await client.call('tasks/cancel', { taskId: waiting })).error?.code, -32602, 'a terminal task cannot be cancelled (2025-11-25)');

  assert.equal((await client.call('tools/call', { name: 'ask', arguments: {} })).error?.code, -32601, 'required without task');
  assert.deepEqual(await client.result('tools/call', { name: 'outcome', arguments: { kind: 'ok' } }), text('ok (plain)'));
  assert.equal((await client.call('tools/call', { name: 'greet', arguments: { name: 'x' }, task: {} })).result.content[0].text, 'Hello, x!', 'a plain tool ignores task');
  assert.ok((await client.call('tasks/list', {})).error, 'tasks/list needs a principal');
  await handler.close();
  tasks.close();
});

test('one engine, both surfaces: a 2026-07-28 client sees and cancels a task a 2025-11-25 session created', async () => {
  const tasks = new mod.TasksExtension();
  const factory = makeFactory(tasks);
  const legacy = sessionful(sdk, factory);
  const modern = modernClient(sdk.createMcpHandler(factory, { legacy: 'reject' }));
  const { client } = await legacyClient(legacy);
  const { taskId } = (await client.result('tools/call', { name: 'outcome', arguments: { kind: 'wait' }, task: {} })).task;
  const seen = await modern.result('tasks/get', { taskId });
  assert.equal(seen.status, 'working');
  assert.equal(seen.ttlMs, 3_600_000);
  await modern.result('tasks/cancel', { taskId });
  assert.equal((await client.result('tasks/get', { taskId })).status, 'cancelled');
  await legacy.close();
  tasks.close();
});

test("createMcpHandler's default stateless legacy serving reaches the task handlers too (a fresh McpServer per POST, one engine)", async () => {
  const tasks = new mod.TasksExtension();
  const handler = sdk.createMcpHandler(makeFactory(tasks));
  const { client, init } = await legacyClient(handler, {});
  assert.deepEqual(init.capabilities.tasks, { cancel: {}, requests: { tools: { call: {} } } });
  const { taskId } = (await client.result('tools/call', { name: 'outcome', arguments: { kind: 'ok', ms: 30 }, task: {} })).task;
  const result = await client.result('tasks/result', { taskId });
  assert.equal(result.content[0].text, 'ok (task)');
  assert.equal((await client.result('tasks/get', { taskId })).status, 'completed');
  tasks.close();
});
