// What @modelcontextprotocol/server 2.4 does that mcp-task-core/server works around or relies
// on, pinned on the bare SDK (no runtime of ours). Each test fails when the SDK changes the
// behaviour, so the workaround can be revisited. In-process: createMcpHandler's fetch face.
//
// Source lines are of @modelcontextprotocol/server 2.4.0 (its source maps carry the sources):
//   core-internal/src/wire/resultFamilies.ts:13-24    normalizeContentlessToolResult ...
//   src/server/server.ts:573                            ... applied to every tools/call result
//   core-internal/src/shared/protocol.ts:193-252       liftWireOnlyMaterial (inputResponses into ctx)
//   core-internal/src/shared/protocol.ts:1013-1020     era gate, with the tasks/get|cancel exemption of
//   core-internal/src/wire/codec.ts:340-342             isExtensionReusedRequestMethod (custom-method form only)
//   src/server/mcp.ts:296-322                            tools/call: a tool callback's throw becomes isError
//   src/server/createMcpHandler.ts:810-815              subscriptions/listen is served by the entry, and
//   core-internal/src/wire/rev2026-07-28/buildSchemas.ts:1063-1068 + src/server/serverEventBus.ts:166-181
//                                                        its filter keeps four fields (no taskIds)
//   src/server/createMcpHandler.ts:335-350              stateless legacy: a fresh instance per POST
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpServer, MissingRequiredClientCapabilityError, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { EXTENSION_ID, envelope, modernClient, responseBody } from './harness.mjs';

const ANY = z.looseObject({});
const FLAT_TASK = { resultType: 'task', taskId: 't-1', status: 'working', createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:00Z', ttlMs: 1000 };

function bare(setup, options) {
  const seen = [];
  const handler = createMcpHandler((ctx) => {
    const server = new McpServer({ name: 'bare', version: '1.0.0' });
    server.server.registerCapabilities({ extensions: { [EXTENSION_ID]: {} } });
    setup(server, seen, ctx);
    return server;
  }, options);
  return { handler, seen, client: modernClient(handler) };
}

test('SDK 2.4 injects content: [] into a flat resultType:"task" tool result (a result with a `task` key is refused instead)', async () => {
  const { client } = bare((server) => {
    server.registerTool('flat', { inputSchema: z.object({}) }, async () => FLAT_TASK);
    server.registerTool('nested', { inputSchema: z.object({}) }, async () => ({ task: { taskId: 't-2' } }));
  });
  const flat = await client.result('tools/call', { name: 'flat', arguments: {} });
  assert.equal(flat.resultType, 'task');
  assert.deepEqual(flat.content, [], 'content: [] injected (resultFamilies.ts normalizeContentlessToolResult)');
  // A `task` key exempts a result from the injection; the 2026-07-28 CallToolResult check then
  // refuses it for lacking content: a task result only reaches the wire through the injection.
  const nested = await client.call('tools/call', { name: 'nested', arguments: {} });
  assert.equal(nested.error?.code, -32602);
  assert.match(nested.error.message, /Invalid tools\/call result/);
});

test('SDK 2.4 lifts tasks/update inputResponses out of the params into ctx.mcpReq.inputResponses, dropping wrapped entries', async () => {
  const { client, seen } = bare((server, seen) => {
    server.server.setRequestHandler('tasks/update', { params: ANY }, async (params, ctx) => {
      seen.push({ params, inputResponses: ctx.mcpReq.inputResponses, dropped: ctx.mcpReq.droppedInputResponseKeys });
      return {};
    });
  });
  const ack = await client.result('tasks/update', {
    taskId: 't-1',
    inputResponses: { bare: { action: 'accept', content: { n: 1 } }, wrapped: { method: 'elicitation/create', result: {} }, scalar: 7 },
  });
  assert.deepEqual(ack.resultType, 'complete');
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0].params, { taskId: 't-1' }, 'params lose inputResponses');
  assert.deepEqual(seen[0].inputResponses, { bare: { action: 'accept', content: { n: 1 } } });
  assert.deepEqual(seen[0].dropped, ['wrapped', 'scalar']);
});

test('SDK 2.4 era gate: tasks/get|cancel reach 2026-07-28 handlers only in the custom-method form; tasks/result|list never', async () => {
  const { client, seen } = bare((server, seen) => {
    server.server.setRequestHandler('tasks/get', { params: ANY }, async () => (seen.push('get'), {}));
    server.server.setRequestHandler('tasks/cancel', (request) => (seen.push('cancel (spec form)'), {}));
    server.server.setRequestHandler('tasks/result', { params: ANY }, async () => (seen.push('result'), {}));
    server.server.setRequestHandler('tasks/list', { params: ANY }, async () => (seen.push('list'), {}));
  });
  assert.equal((await client.call('tasks/get', { taskId: 'x' })).result?.resultType, 'complete');
  for (const method of ['tasks/cancel', 'tasks/result', 'tasks/list']) {
    const reply = await client.call(method, method === 'tasks/list' ? {} : { taskId: 'x' });
    assert.equal(reply.error?.code, -32601, `${method} answers -32601 on 2026-07-28`);
  }
  assert.deepEqual(seen, ['get']);
});

test('SDK 2.4 McpServer turns a tool callback throw (even -32021) into an isError result', async () => {
  const { client } = bare((server) => {
    server.registerTool('needs_tasks', { inputSchema: z.object({}) }, async () => {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [EXTENSION_ID]: {} } } });
    });
  });
  const reply = await client.call('tools/call', { name: 'needs_tasks', arguments: {} }, { declared: false });
  assert.equal(reply.error, undefined, 'no JSON-RPC error reaches the wire');
  assert.equal(reply.result.isError, true);
});

test('SDK 2.4 Server exposes the _wrapHandler hook and calls it for McpServer tools/call', async () => {
  const wrapped = [];
  const { client } = bare((server) => {
    const original = server.server._wrapHandler.bind(server.server);
    server.server._wrapHandler = (method, handler) => {
      const inner = original(method, handler);
      return method === 'tools/call' ? async (request, ctx) => (wrapped.push(request.params.name), inner(request, ctx)) : inner;
    };
    server.registerTool('greet', { inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
  });
  assert.equal((await client.result('tools/call', { name: 'greet', arguments: {} })).content[0].text, 'hi');
  assert.deepEqual(wrapped, ['greet']);
});

test('SDK 2.4 checks Mcp-Name against params.taskId of tasks/* itself (-32020, HTTP 400), before any handler', async () => {
  const { client, seen } = bare((server, seen) => {
    server.server.setRequestHandler('tasks/get', { params: ANY }, async () => (seen.push('get'), {}));
  });
  const reply = await client.call('tasks/get', { taskId: 'a' }, { headers: { 'mcp-name': 'b' } });
  assert.equal(reply.error?.code, -32020);
  assert.equal(reply.httpStatus, 400);
  assert.deepEqual(seen, []);
});

test('SDK 2.4 serves subscriptions/listen at the entry: taskIds are dropped from the acknowledged filter, handlers never run', async () => {
  const { handler, seen } = bare((server, seen) => {
    server.registerTool('greet', { inputSchema: z.object({}) }, async () => ({ content: [] })); // tools.listChanged is advertised
    server.server.setRequestHandler('subscriptions/listen', (request) => (seen.push('listen handler'), {}));
  });
  const { request } = modernClient(handler).request('subscriptions/listen', { notifications: { taskIds: ['t-1'], toolsListChanged: true } });
  const response = await handler.fetch(request);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const reader = response.body.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  const ack = JSON.parse(new TextDecoder().decode(value).split('data: ')[1]);
  assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
  assert.deepEqual(ack.params.notifications, { toolsListChanged: true }, 'taskIds are not honoured');
  assert.deepEqual(seen, []);
  await handler.close();
});

test("SDK 2.4 stateless legacy serving (createMcpHandler's default): a client's answer to a server request never reaches the instance that asked", async () => {
  const { handler } = bare((server) => {
    server.registerTool('ask', { inputSchema: z.object({}) }, async (_args, ctx) => {
      try {
        const answer = await ctx.mcpReq.send({ method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } } }, ANY, { timeout: 400 });
        return { content: [{ type: 'text', text: `answered: ${answer.action}` }] };
      } catch (err) {
        return { content: [{ type: 'text', text: `no answer: ${err.message}` }], isError: true };
      }
    });
  });
  const post = (body) =>
    handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(body) }));
  const response = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let answered = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
    const request = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5))).find((m) => m.method === 'elicitation/create');
    if (request && !answered) {
      answered = true;
      const ack = await post({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: {} } });
      assert.equal(ack.status, 202, 'the answer is accepted by the endpoint');
    }
  }
  assert.ok(answered, 'the elicitation went out on the tools/call stream');
  const result = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5))).find((m) => m.id === 1);
  assert.equal(result.result.isError, true);
  assert.match(result.result.content[0].text, /no answer: .*timed out/i, 'the answer went to another (fresh) instance');
});

test('the envelope helper matches what SDK 2.4 requires of a 2026-07-28 request', async () => {
  const { client } = bare((server) => server.registerTool('greet', { inputSchema: z.object({}) }, async () => ({ content: [] })));
  const reply = await client.call('tools/list', {}, { meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': undefined } });
  assert.ok(reply.error, 'a request without the protocol version is refused');
  assert.ok(Array.isArray((await client.result('tools/list', {})).tools));
  void responseBody;
});
