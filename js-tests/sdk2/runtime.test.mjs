// mcp-task-core/server on @modelcontextprotocol/server 2.4 (the packed package, as a user
// installs it), 2026-07-28 clients in process through createMcpHandler: task tools and their
// outcomes, input through inputRequests / tasks/update, cancel, expiry, per-request gating,
// create(ctx) from a plain tool (multi round-trip first), principals, subscriptions/listen.
// Every task message is checked against the tasks extension's official schema.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertValidIn } from '../helpers/schema.mjs';
import { EXTENSION_ID, installWithSdk2, modernClient, sleep, terminal, waitFor } from './harness.mjs';

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

const text = (value) => ({ content: [{ type: 'text', text: value }] });
/** Request options of a client that declares form elicitation (what `ask` needs). */
const ASKING = { capabilities: { elicitation: { form: {} } } };
const FORM = { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

/** Resolves when `signal` aborts, with its reason. */
const aborted = (signal) => new Promise((resolve) => (signal.aborted ? resolve(signal.reason) : signal.addEventListener('abort', () => resolve(signal.reason), { once: true })));

/**
 * A runtime with a set of task tools, served by createMcpHandler (one McpServer per request).
 * `log` records what handlers saw; `gate` lets a test hold a tool until it says so.
 */
function setup(engineOptions = {}) {
  const tasks = new mod.TasksExtension({ engineOptions: { pollIntervalMs: 50, ...engineOptions } });
  const log = [];
  const gates = new Map();
  const gate = (name) => {
    let open;
    const promise = new Promise((resolve) => (open = resolve));
    gates.set(name, promise);
    return open;
  };
  const factory = () => {
    const server = new sdk.McpServer({ name: 'runtime-test', version: '1.0.0' });
    tasks.install(server);
    server.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => text(`Hello, ${name}!`));
    tasks.registerTool(server, 'ask', { taskSupport: 'required', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, task) => {
      task.setStatus(`thinking about ${topic}`);
      const answer = await task.elicit({ ...FORM, message: `Name for ${topic}?` }).catch((err) => {
        log.push({ tool: 'ask', taskId: task.taskId, rejected: err.reason });
        throw err;
      });
      log.push({ tool: 'ask', taskId: task.taskId, answer });
      return text(`${topic}: ${answer.content?.name}`);
    });
    tasks.registerTool(server, 'outcome', { taskSupport: 'optional', inputSchema: z.object({ kind: z.string() }) }, async ({ kind }, task) => {
      log.push({ tool: 'outcome', isTask: task.isTask, taskId: task.taskId });
      if (kind === 'isError') return { ...text('tool said no'), isError: true };
      if (kind === 'rpc') throw new mod.TaskProtocolError(-32011, 'quota exhausted', { retryAfter: 30 });
      if (kind === 'sdkError') throw new sdk.ProtocolError(-32602, 'bad range');
      if (kind === 'throw') throw new Error('plain failure');
      return text(`ok (${task.isTask ? 'task' : 'plain'})`);
    });
    tasks.registerTool(server, 'hold', { taskSupport: 'required', inputSchema: z.object({ gate: z.string() }) }, async ({ gate: name }, task) => {
      log.push({ tool: 'hold', taskId: task.taskId, signal: task.signal });
      const reason = await Promise.race([aborted(task.signal), gates.get(name)]);
      log.push({ tool: 'hold', taskId: task.taskId, ended: reason?.reason ?? 'released' });
      return text('held and released');
    });
    tasks.registerTool(
      server,
      'decide',
      { taskSupport: 'perCall', runAsTask: ({ big }) => big, inputSchema: z.object({ big: z.boolean() }) },
      async ({ big }, task) => text(`${big ? 'big' : 'small'} as ${task.isTask ? 'a task' : 'a plain call'}`),
    );
    return server;
  };
  const handler = tasks.withTaskListen(sdk.createMcpHandler(factory));
  return { tasks, handler, client: modernClient(handler), log, gate };
}

async function createTask(client, name, args, opts) {
  const reply = await client.call('tools/call', { name, arguments: args }, opts);
  assert.equal(reply.error, undefined, JSON.stringify(reply.error));
  assertValidIn('extension', 'CreateTaskResult', reply.result);
  assert.equal('content' in reply.result, false, 'no content in a CreateTaskResult');
  return reply.result.taskId;
}

async function get(client, taskId, opts) {
  const task = await client.result('tasks/get', { taskId }, opts);
  assertValidIn('extension', 'GetTaskResult', task);
  return task;
}

test('a task asks for input: inputRequests on tasks/get, the answer through tasks/update, status messages, the result', async () => {
  const { client, log } = setup();
  const taskId = await createTask(client, 'ask', { topic: 'the cat' }, ASKING);
  const waiting = await waitFor(client, taskId, (t) => t.status === 'input_required');
  assertValidIn('extension', 'GetTaskResult', waiting);
  assert.equal(waiting.statusMessage, 'thinking about the cat');
  const [[key, request]] = Object.entries(waiting.inputRequests);
  assert.deepEqual(request, { method: 'elicitation/create', params: { ...FORM, message: 'Name for the cat?' } });
  // An unknown key is ignored; the task keeps waiting.
  assert.deepEqual(await client.result('tasks/update', { taskId, inputResponses: { 'no-such-key': { action: 'decline' } } }), { resultType: 'complete', _meta: waiting._meta });
  assert.equal((await get(client, taskId)).status, 'input_required');
  const ack = await client.result('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Tom' } } } });
  assertValidIn('extension', 'UpdateTaskResult', ack);
  const done = await waitFor(client, taskId, terminal);
  assertValidIn('extension', 'GetTaskResult', done);
  assert.equal(done.status, 'completed');
  assert.deepEqual(done.result, { resultType: 'complete', content: [{ type: 'text', text: 'the cat: Tom' }] });
  assert.deepEqual(log.find((e) => e.tool === 'ask').answer, { action: 'accept', content: { name: 'Tom' } });
  // Answering again changes nothing.
  await client.result('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Jerry' } } } });
  assert.equal((await get(client, taskId)).result.content[0].text, 'the cat: Tom');
});

test('outcomes: a result, isError (completed), a thrown JSON-RPC error (failed), a plain throw (an isError result)', async () => {
  const { client } = setup();
  const cases = {
    ok: (t) => t.status === 'completed' && t.result.content[0].text === 'ok (task)',
    isError: (t) => t.status === 'completed' && t.result.isError === true && t.result.content[0].text === 'tool said no',
    rpc: (t) => t.status === 'failed' && t.error.code === -32011 && t.error.message === 'quota exhausted' && t.error.data.retryAfter === 30 && t.result === undefined,
    sdkError: (t) => t.status === 'failed' && t.error.code === -32602 && t.error.message === 'bad range',
    throw: (t) => t.status === 'completed' && t.result.isError === true && t.result.content[0].text === 'plain failure',
  };
  for (const [kind, expected] of Object.entries(cases)) {
    const taskId = await createTask(client, 'outcome', { kind });
    const done = await waitFor(client, taskId, terminal);
    assertValidIn('extension', 'GetTaskResult', done);
    assert.ok(expected(done), `${kind}: ${JSON.stringify(done)}`);
  }
});

test('tasks/cancel: the ack, the signal fires (reason cancelled), a late outcome is ignored, a pending input request rejects', async () => {
  const { client, log, gate } = setup();
  const release = gate('g1');
  const taskId = await createTask(client, 'hold', { gate: 'g1' });
  await waitFor(client, taskId, () => log.some((e) => e.taskId === taskId));
  const ack = await client.result('tasks/cancel', { taskId });
  assertValidIn('extension', 'CancelTaskResult', ack);
  const { signal } = log.find((e) => e.taskId === taskId && e.signal);
  assert.equal(signal.aborted, true);
  assert.equal(signal.reason.reason, 'cancelled');
  await waitFor(client, taskId, () => log.some((e) => e.taskId === taskId && e.ended === 'cancelled'));
  release();
  await sleep(20);
  assert.equal((await get(client, taskId)).status, 'cancelled', 'the work returning later changes nothing');
  assert.deepEqual(await client.result('tasks/cancel', { taskId }), ack, 'idempotent');

  // Cancelled while waiting for input: the pending requestInput rejects.
  const asking = await createTask(client, 'ask', { topic: 'the dog' }, ASKING);
  await waitFor(client, asking, (t) => t.status === 'input_required');
  await client.result('tasks/cancel', { taskId: asking });
  const task = await get(client, asking);
  assert.equal(task.status, 'cancelled');
  assert.equal(task.inputRequests, undefined);
  await waitFor(client, asking, () => log.some((e) => e.taskId === asking && e.rejected === 'cancelled'));
});

test('the server cancels (TasksExtension.cancel) and tasks expire: the signal fires with the reason, expired tasks are gone', async () => {
  const { tasks, client, log, gate } = setup({ ttl: { defaultMs: 300, maxMs: 300 } });
  gate('never');
  const byServer = await createTask(client, 'hold', { gate: 'never' });
  const expiring = await createTask(client, 'hold', { gate: 'never' });
  assert.equal((await get(client, expiring)).ttlMs, 300);
  await waitFor(client, byServer, () => log.filter((e) => e.signal).length === 2);
  tasks.cancel(byServer, 'shutting down');
  const cancelled = await get(client, byServer);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal(cancelled.statusMessage, 'shutting down');
  const { signal } = log.find((e) => e.taskId === expiring && e.signal);
  // The runtime's expiry timer is unref'd (it never keeps a process alive): hold the loop open.
  const keepAlive = setTimeout(() => {}, 5000);
  const reason = await aborted(signal);
  clearTimeout(keepAlive);
  assert.equal(reason.reason, 'expired', 'the expiry timer fired without any request');
  const gone = await client.call('tasks/get', { taskId: expiring });
  assert.equal(gone.error?.code, -32602);
  assertValidIn('2026-07-28', 'JSONRPCErrorResponse', gone);
  tasks.close();
});

test('gating per request: -32021 for required tools and tasks/* without the declaration, plain calls for optional ones, perCall by runAsTask', async () => {
  const { client, log } = setup();
  const refused = await client.call('tools/call', { name: 'ask', arguments: { topic: 'x' } }, { declared: false });
  assert.equal(refused.error?.code, -32021);
  assert.deepEqual(refused.error.data.requiredCapabilities, { extensions: { [EXTENSION_ID]: {} } });
  assertValidIn('2026-07-28', 'MissingRequiredClientCapabilityError', refused);
  assert.equal(refused.httpStatus, 400);

  const plain = await client.result('tools/call', { name: 'outcome', arguments: { kind: 'ok' } }, { declared: false });
  assert.deepEqual(plain.content, [{ type: 'text', text: 'ok (plain)' }]);
  assert.equal(plain.resultType, 'complete');
  assert.equal(plain.taskId, undefined);
  assert.deepEqual(log.at(-1), { tool: 'outcome', isTask: false, taskId: undefined });

  const big = await createTask(client, 'decide', { big: true });
  assert.equal((await waitFor(client, big, terminal)).result.content[0].text, 'big as a task');
  const small = await client.result('tools/call', { name: 'decide', arguments: { big: false } });
  assert.equal(small.content[0].text, 'small as a plain call');
  const undeclared = await client.result('tools/call', { name: 'decide', arguments: { big: true } }, { declared: false });
  assert.equal(undeclared.content[0].text, 'big as a plain call', 'no task for a client that did not declare the extension');

  for (const [method, params] of [['tasks/get', { taskId: big }], ['tasks/update', { taskId: big, inputResponses: {} }], ['tasks/cancel', { taskId: big }]]) {
    const reply = await client.call(method, params, { declared: false });
    assert.equal(reply.error?.code, -32021, method);
  }
  for (const method of ['tasks/result', 'tasks/list']) {
    assert.equal((await client.call(method, method === 'tasks/list' ? {} : { taskId: big })).error?.code, -32601, method);
  }
  const unknown = await client.call('tasks/get', { taskId: 'no-such-task' });
  assert.equal(unknown.error?.code, -32602);
  assert.equal((await client.call('tasks/get', { taskId: big }, { headers: { 'mcp-name': 'other' } })).error?.code, -32020);

  // Invalid arguments: the SDK's own answer, and no task.
  const before = log.length;
  const invalid = await client.result('tools/call', { name: 'ask', arguments: { topic: 42 } });
  assert.equal(invalid.isError, true);
  assert.match(invalid.content[0].text, /Input validation error/);
  assert.equal(log.length, before);
  // Plain tools are the SDK's.
  assert.equal((await client.result('tools/call', { name: 'greet', arguments: { name: 'Ada' } })).content[0].text, 'Hello, Ada!');
});

test('create(ctx) from a plain tool: multi round-trip first, then a task (no injected content); -32021 when undeclared', async () => {
  const tasks = new mod.TasksExtension();
  const handler = sdk.createMcpHandler(() => {
    const server = new sdk.McpServer({ name: 'create-test', version: '1.0.0' });
    tasks.install(server);
    server.registerTool('greet_later', { inputSchema: z.object({}) }, async (_args, ctx) => {
      const reply = ctx.mcpReq.inputResponses?.who;
      if (reply === undefined) return sdk.inputRequired({ inputRequests: { who: sdk.inputRequired.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }) } });
      const created = tasks.create(ctx);
      const handle = tasks.handle(created.taskId);
      handle.status('greeting');
      setTimeout(() => handle.complete(text(`Hello, ${reply.content.name}!`)), 10);
      return created;
    });
    // With an outputSchema, McpServer would refuse the CreateTaskResult ("Output validation error").
    server.registerTool('typed_later', { inputSchema: z.object({}), outputSchema: z.object({ n: z.number() }) }, async (_args, ctx) => {
      const created = tasks.create(ctx);
      setTimeout(() => tasks.handle(created.taskId).complete({ ...text('7'), structuredContent: { n: 7 } }), 10);
      return created;
    });
    return server;
  });
  const client = modernClient(handler);
  const capabilities = { elicitation: { form: {} } };
  const typed = await client.call('tools/call', { name: 'typed_later', arguments: {} });
  assertValidIn('extension', 'CreateTaskResult', typed.result);
  assert.deepEqual((await waitFor(client, typed.result.taskId, terminal)).result.structuredContent, { n: 7 });
  const round1 = await client.result('tools/call', { name: 'greet_later', arguments: {} }, { capabilities });
  assert.equal(round1.resultType, 'input_required');
  assert.equal(round1.taskId, undefined);
  const round2 = await client.call('tools/call', { name: 'greet_later', arguments: {}, inputResponses: { who: { action: 'accept', content: { name: 'Alice' } } } }, { capabilities });
  assertValidIn('extension', 'CreateTaskResult', round2.result);
  assert.equal('content' in round2.result, false, 'the content: [] McpServer injects is taken out');
  const done = await waitFor(client, round2.result.taskId, terminal);
  assert.equal(done.result.content[0].text, 'Hello, Alice!');
  const refused = await client.call('tools/call', { name: 'greet_later', arguments: {}, inputResponses: { who: { action: 'accept', content: { name: 'Bob' } } } }, { capabilities, declared: false });
  assert.equal(refused.error?.code, -32021, 'a JSON-RPC error, not an isError result');
  assert.deepEqual(refused.error.data.requiredCapabilities, { extensions: { [EXTENSION_ID]: {} } });
  assert.throws(() => tasks.handle('no-such-task'), (err) => err.code === -32602);
});

test('tasks are bound to the principal of the request (the token subject within its client)', async () => {
  const { client } = setup();
  const alice = { token: 't-a', clientId: 'app', scopes: [], extra: { sub: 'alice' } };
  const bob = { token: 't-b', clientId: 'app', scopes: [], extra: { sub: 'bob' } };
  const taskId = await createTask(client, 'outcome', { kind: 'ok' }, { authInfo: alice });
  assert.equal((await client.result('tasks/get', { taskId }, { authInfo: alice })).taskId, taskId);
  for (const opts of [{ authInfo: bob }, {}]) {
    assert.equal((await client.call('tasks/get', { taskId }, opts)).error?.code, -32602);
    assert.equal((await client.call('tasks/cancel', { taskId }, opts)).error?.code, -32602);
  }
});

/** Reads SSE frames of a listen stream as parsed messages. */
function sseReader(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue = [];
  return {
    async next(ms = 2000) {
      const until = Date.now() + ms;
      for (;;) {
        if (queue.length > 0) return queue.shift();
        const chunk = await Promise.race([reader.read(), sleep(Math.max(0, until - Date.now())).then(() => null)]);
        if (chunk === null) return null;
        if (chunk.done) return undefined;
        buffer += decoder.decode(chunk.value);
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data:'));
          if (data) queue.push(JSON.parse(data.slice(5)));
        }
      }
    },
    cancel: () => reader.cancel(),
  };
}

test('subscriptions/listen with taskIds: acknowledged, one notifications/tasks per change, nothing after the stream is gone', async () => {
  const { tasks, handler, client } = setup();
  const taskId = await createTask(client, 'ask', { topic: 'listen' }, ASKING);
  const other = await createTask(client, 'ask', { topic: 'unfollowed' }, ASKING);
  await waitFor(client, taskId, (t) => t.status === 'input_required');
  const listen = (params, opts) => {
    const { request } = client.request('subscriptions/listen', params, { id: 'sub-1', ...opts });
    return handler.fetch(request);
  };
  const response = await listen({ notifications: { taskIds: [taskId, 'not-mine'] } });
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const stream = sseReader(response);
  const ack = await stream.next();
  assert.deepEqual(ack, {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { taskIds: [taskId] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
  });
  const [key] = Object.keys((await get(client, taskId)).inputRequests);
  await client.result('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Rex' } } } });
  const seen = [];
  for (let n = await stream.next(); n; n = seen.at(-1)?.params.status === 'completed' ? null : await stream.next()) {
    assertValidIn('extension', 'TaskStatusNotification', n);
    assert.equal(n.params._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    assert.equal(n.params.taskId, taskId, 'only the followed task');
    seen.push(n);
  }
  assert.deepEqual(seen.map((n) => n.params.status), ['working', 'completed']);
  assert.equal(seen.at(-1).params.result.content[0].text, 'listen: Rex');

  await stream.cancel();

  // A lost stream (the client goes away while the task runs): the engine stops following it.
  const [otherKey] = Object.keys((await waitFor(client, other, (t) => t.status === 'input_required')).inputRequests);
  const second = sseReader(await listen({ notifications: { taskIds: [other] } }));
  assert.deepEqual((await second.next()).params.notifications, { taskIds: [other] });
  const unlistened = [];
  const unlisten = tasks.engine.unlistenTasks.bind(tasks.engine);
  tasks.engine.unlistenTasks = (...args) => (unlistened.push([args[0], unlisten(...args)]), unlistened.at(-1)[1]);
  await second.cancel();
  assert.equal(unlistened.length, 1, 'the closed stream is unlistened');
  assert.equal(unlistened[0][1], 1, 'the engine stopped following the one task of the closed stream');
  assert.notEqual(unlistened[0][0], '"sub-1"', "the engine knows the stream by the runtime's id, not the client's");
  delete tasks.engine.unlistenTasks;
  await client.result('tasks/update', { taskId: other, inputResponses: { [otherKey]: { action: 'accept', content: { name: 'Max' } } } });
  assert.equal((await waitFor(client, other, terminal)).status, 'completed');

  // Not declared: -32021. Nothing to follow: the ack, then the graceful end of the stream.
  const refused = await listen({ notifications: { taskIds: [taskId] } }, { declared: false });
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error.code, -32021);
  const empty = sseReader(await listen({ notifications: { taskIds: ['nope'] } }));
  assert.deepEqual((await empty.next()).params.notifications, { taskIds: [] });
  const end = await empty.next();
  assert.deepEqual(end.result, { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } });
  assert.equal(await empty.next(), undefined, 'closed');
  // Other listen requests are the SDK's.
  const sdkListen = await listen({ notifications: { toolsListChanged: true } });
  const sdkStream = sseReader(sdkListen);
  assert.deepEqual((await sdkStream.next()).params.notifications, { toolsListChanged: true });
  await sdkStream.cancel();
  await handler.close();
});

test('install and registerTool refuse misuse', () => {
  const tasks = new mod.TasksExtension();
  const server = new sdk.McpServer({ name: 'misuse', version: '1.0.0' });
  assert.throws(() => tasks.registerTool(server, 't', { taskSupport: 'required' }, async () => text('x')), /install\(server\) first/);
  server.registerTool('plain', {}, async () => text('x'));
  assert.throws(() => tasks.install(server), /before the first registerTool/);
  const fresh = new sdk.McpServer({ name: 'misuse', version: '1.0.0' });
  tasks.install(fresh);
  tasks.install(fresh); // idempotent
  assert.throws(() => tasks.registerTool(fresh, 't', { taskSupport: 'sometimes' }, async () => text('x')), TypeError);
  assert.throws(() => tasks.registerTool(fresh, 't', { taskSupport: 'perCall' }, async () => text('x')), /runAsTask/);
  assert.throws(() => tasks.install({}), TypeError);
  assert.deepEqual(mod.TasksExtension.capability(), { [EXTENSION_ID]: {} });
});

test("the expiry timer follows the engine's clock (engineOptions.now), read at each use", async () => {
  let now = 1_000_000;
  const { tasks, client } = setup({ now: () => now, ttl: { defaultMs: 60_000 } });
  let timeouts = 0;
  const handleTimeout = tasks.engine.handleTimeout.bind(tasks.engine);
  tasks.engine.handleTimeout = () => (timeouts++, handleTimeout());
  const taskId = await createTask(client, 'outcome', { kind: 'ok' });
  await sleep(200);
  // The deadline is a minute away on the engine's clock: the timer waits for it, it does not spin.
  assert.ok(timeouts <= 1, `the timer fired ${timeouts} times in 200 ms for a deadline 60 s ahead`);
  assert.equal((await get(client, taskId)).status, 'completed');
  now += 61_000;
  assert.equal((await client.call('tasks/get', { taskId })).error?.code, -32602, 'expired on the engine clock');
  delete tasks.engine.handleTimeout;
});
