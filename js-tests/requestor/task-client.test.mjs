// TaskClient against the official SDK 1.x: an McpServer whose task store is mcp-task-core's
// WasmTaskStore, reached over the SDK's own transports (InMemoryTransport, and
// StreamableHTTPClientTransport to a real HTTP server on 127.0.0.1). callTool resolves with the
// task's result; progress and input requests reach their callbacks; a failed task rejects with
// its JSON-RPC error; an AbortSignal cancels the task at the server; a closed transport rejects
// the open call; callToolStream yields the call's events in order. Also over the SDK's
// StdioClientTransport to examples/node-stdio (a server on our TaskEngine).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { ElicitResultSchema, McpError, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT, installPackage } from '../helpers/package.mjs';

let pkg;
let mod;
let ours;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
  ours = await import(pathToFileURL(path.join(pkg.installed, 'adapters/sdk-v1.js')).href);
});
after(() => pkg?.cleanup());

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** Resolves once `predicate()` holds, checking after each turn of the event loop. */
async function until(predicate, what) {
  for (let i = 0; !predicate(); i++) {
    if (i > 20_000) assert.fail(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Gates the test opens: a tool awaits `gates.wait(taskId)` until the test calls `gates.open(taskId)`. */
function gates() {
  const map = new Map();
  const get = (id) => {
    if (!map.has(id)) {
      let open;
      const promise = new Promise((r) => (open = r));
      map.set(id, { promise, open });
    }
    return map.get(id);
  };
  return { wait: (id) => get(id).promise, open: (id) => get(id).open() };
}

/**
 * An SDK 1.x McpServer with WasmTaskStore. Tools: `slow` (a task that reports progress, then
 * waits for its gate; stops when cancelled), `ask` (elicitation mid-task), `tool_error`
 * (isError: true), `charge` (a JSON-RPC error), `echo` (never a task).
 */
function buildServer(taskStore, taskMessageQueue, gate, seen) {
  const server = new McpServer(
    { name: 'task-client-test', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue, defaultTaskPollInterval: 10 },
  );
  const taskTool = (work) => ({
    createTask: async (args, extra) => {
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl, pollInterval: 10 });
      work(task.taskId, args, extra).catch((err) => extra.taskStore.storeTaskResult(task.taskId, 'failed', err).catch(() => {}));
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  const tasks = server.experimental.tasks;
  tasks.registerToolTask(
    'slow',
    { inputSchema: { label: z.string() }, execution: { taskSupport: 'required' } },
    taskTool(async (id, { label }, extra) => {
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        await server.server.notification({ method: 'notifications/progress', params: { progressToken, progress: 1, total: 2, message: 'half way' } });
      }
      await gate.wait(id);
      if ((await extra.taskStore.getTask(id))?.status === 'cancelled') return void seen.push(`stopped ${label}`);
      await extra.taskStore.storeTaskResult(id, 'completed', text(`done ${label}`));
    }),
  );
  tasks.registerToolTask(
    'ask',
    { inputSchema: { what: z.string() }, execution: { taskSupport: 'required' } },
    taskTool(async (id, { what }, extra) => {
      const answer = await extra.sendRequest(
        { method: 'elicitation/create', params: { mode: 'form', message: what, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } },
        ElicitResultSchema,
        { relatedTask: { taskId: id } },
      );
      await extra.taskStore.storeTaskResult(id, 'completed', text(`Hello, ${answer.content?.name}`));
    }),
  );
  tasks.registerToolTask(
    'tool_error',
    { inputSchema: {}, execution: { taskSupport: 'required' } },
    taskTool(async (id, _args, extra) => extra.taskStore.storeTaskResult(id, 'failed', { ...text('disk quota exceeded'), isError: true })),
  );
  tasks.registerToolTask(
    'charge',
    { inputSchema: {}, execution: { taskSupport: 'required' } },
    taskTool(async () => {
      throw new McpError(-32010, 'Card declined', { reason: 'insufficient_funds' });
    }),
  );
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));
  return server;
}

/** A connected TaskClient over InMemoryTransport; `received` lists the methods the server got. */
async function inMemory(clientOptions = {}) {
  const taskStore = new ours.WasmTaskStore({ pollIntervalMs: 10 });
  const taskMessageQueue = new ours.WasmTaskMessageQueue({ taskStore });
  const gate = gates();
  const seen = [];
  const server = buildServer(taskStore, taskMessageQueue, gate, seen);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const received = [];
  const messages = [];
  const deliver = serverTransport.onmessage;
  serverTransport.onmessage = (message, extra) => {
    if (message.method) received.push(message.method);
    messages.push(message);
    deliver(message, extra);
  };
  const answered = new Set();
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = (message, options) => {
    if (message.id !== undefined && message.method === undefined) answered.add(message.id);
    return send(message, options);
  };
  const client = new mod.TaskClient(clientTransport, { capabilities: { elicitation: {} }, requestor: { pollFloorMs: 5 }, ...clientOptions });
  const dialect = await client.connect();
  return {
    client,
    dialect,
    gate,
    seen,
    received,
    messages,
    serverTransport,
    /** Whether the server has answered its `n`th (0-based) request of `method`. */
    answered: (method, n = 0) => {
      const request = messages.filter((m) => m.method === method)[n];
      return request !== undefined && answered.has(request.id);
    },
    async close() {
      await client.close().catch(() => {});
      await server.close().catch(() => {});
      taskMessageQueue.cleanup();
      taskStore.cleanup();
    },
  };
}

test('callTool over InMemoryTransport: the task result, progress with the call id, and the handshake', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    assert.equal(s.dialect, '2025-11-25', 'an SDK 1.x server offers 2025-11-25');
    assert.equal(s.client.serverInfo.protocolVersion, '2025-11-25');
    assert.ok(s.received.includes('initialize') && s.received.includes('notifications/initialized'));
    const progress = [];
    const events = [];
    const call = s.client.callTool('slow', { label: 'a' }, {
      task: { ttl: 60_000 },
      onProgress: (p) => progress.push(p),
      onEvent: (e) => events.push(e),
    });
    await until(() => progress.length === 1, 'progress');
    assert.equal(progress[0].message, 'half way');
    const created = events.find((e) => e.kind === 'created');
    s.gate.open(created.taskId);
    const { result, callId, taskId, status } = await call;
    assert.deepEqual(result.content, text('done a').content);
    assert.equal(taskId, created.taskId);
    assert.equal(status, 'completed');
    assert.ok(events.length >= 2 && events.every((e) => e.callId === callId), 'every event names the call');
    assert.ok(s.received.includes('tasks/result'), 'the outcome comes from tasks/result');

    // A plain tool: no task, the call's own result.
    const echo = await s.client.callTool('echo', { text: 'hi' });
    assert.deepEqual(echo.result.content, text('hi').content);
    assert.equal(echo.taskId, null);
  } finally {
    await s.close();
  }
});

test('input requests are answered through onInputRequest', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    const asked = [];
    const { result } = await s.client.callTool('ask', { what: 'Your name?' }, {
      task: true,
      onInputRequest: async (request, about) => {
        asked.push({ request, about });
        return { action: 'accept', content: { name: 'Luca' } };
      },
    });
    assert.equal(result.content[0].text, 'Hello, Luca');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].request.method, 'elicitation/create');
    assert.equal(asked[0].request.params.message, 'Your name?');
    assert.equal(typeof asked[0].about.taskId, 'string');
  } finally {
    await s.close();
  }
});

test('a failed task: a tool error resolves with isError, a JSON-RPC error rejects with its code and data', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    const toolError = await s.client.callTool('tool_error', {}, { task: true });
    assert.equal(toolError.status, 'failed');
    assert.equal(toolError.result.isError, true);
    assert.equal(toolError.result.content[0].text, 'disk quota exceeded');

    const err = await s.client.callTool('charge', {}, { task: true }).then(
      () => assert.fail('resolved'),
      (e) => e,
    );
    assert.ok(err instanceof Error);
    assert.equal(err.code, -32010);
    assert.deepEqual(err.data, { reason: 'insufficient_funds' });
    assert.match(err.message, /Card declined/);
    assert.equal(err.status, 'failed');
    assert.equal(typeof err.taskId, 'string');
  } finally {
    await s.close();
  }
});

test('an AbortSignal rejects the call and cancels the task at the server', { timeout: 30_000 }, async () => {
  const unowned = [];
  const s = await inMemory({ onEvent: (e) => unowned.push(e) });
  try {
    const controller = new AbortController();
    let created = null;
    const call = s.client.callTool('slow', { label: 'b' }, { task: true, signal: controller.signal, onEvent: (e) => e.kind === 'created' && (created = e) });
    await until(() => created !== null, 'the task is created');
    controller.abort();
    await assert.rejects(call, (e) => e.name === 'AbortError');
    await until(() => s.received.includes('tasks/cancel'), 'the server gets tasks/cancel');
    await until(() => unowned.some((e) => e.kind === 'cancelAnswered'), 'the cancel is answered');
    const answer = unowned.find((e) => e.kind === 'cancelAnswered');
    assert.equal(answer.response.result.status, 'cancelled');
    assert.equal(answer.callId, created.callId);
    s.gate.open(created.taskId);
    await until(() => s.seen.includes('stopped b'), 'the work sees the cancel');

    // Aborted before it starts: rejected at once, nothing sent.
    const before = s.received.length;
    const early = new AbortController();
    early.abort();
    await assert.rejects(s.client.callTool('slow', { label: 'c' }, { task: true, signal: early.signal }), (e) => e.name === 'AbortError');
    assert.equal(s.received.length, before);
  } finally {
    await s.close();
  }
});

test('the transport closing mid-call rejects the call with a clear error', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    let created = null;
    const call = s.client.callTool('slow', { label: 'd' }, { task: true, onEvent: (e) => e.kind === 'created' && (created = e) });
    await until(() => created !== null, 'the task is created');
    await s.serverTransport.close();
    const err = await call.then(() => assert.fail('resolved'), (e) => e);
    assert.equal(err.code, -32000);
    assert.match(err.message, /Connection closed/);
    assert.equal(err.taskId, created.taskId);
    await assert.rejects(s.client.callTool('echo', { text: 'late' }), /Connection closed/);
  } finally {
    await s.close();
  }
});

test('callToolStream yields the call\'s events in order and ends after the last', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    const kinds = [];
    for await (const event of s.client.callToolStream('slow', { label: 'e' }, { task: true, onProgress: () => {} })) {
      kinds.push(event.kind);
      if (event.kind === 'created') s.gate.open(event.taskId);
    }
    // The server reports progress before it answers with the task: routed by the call's token.
    assert.deepEqual(kinds.filter((k) => k !== 'status'), ['progress', 'created', 'finished']);
    // A refused call ends the stream with the error.
    const stream = s.client.callToolStream('no_such_tool', {}, { task: true });
    await assert.rejects(async () => {
      for await (const _ of stream);
    }, (e) => typeof e.code === 'number');
  } finally {
    await s.close();
  }
});

test('callTool over StreamableHTTPClientTransport (SDK 1.x) to a real HTTP server', { timeout: 30_000 }, async () => {
  const taskStore = new ours.WasmTaskStore({ pollIntervalMs: 10 });
  const taskMessageQueue = new ours.WasmTaskMessageQueue({ taskStore });
  const gate = gates();
  const sessions = new Map();
  const servers = [];
  const app = createMcpExpressApp();
  app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    if (sid && sessions.has(sid)) return sessions.get(sid).handleRequest(req, res, req.body);
    if (!isInitializeRequest(req.body)) return res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'No session' }, id: null });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
    const server = buildServer(taskStore, taskMessageQueue, gate, []);
    servers.push(server);
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', async (req, res) => sessions.get(req.headers['mcp-session-id'])?.handleRequest(req, res) ?? res.status(404).end());
  const httpServer = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const client = new mod.TaskClient(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${httpServer.address().port}/mcp`)), {
    capabilities: { elicitation: {} },
    requestor: { pollFloorMs: 5 },
  });
  try {
    assert.equal(await client.connect(), '2025-11-25');
    const { result, status } = await client.callTool('ask', { what: 'Name?' }, { task: { ttl: 30_000 }, onInputRequest: () => ({ action: 'accept', content: { name: 'HTTP' } }) });
    assert.equal(status, 'completed');
    assert.equal(result.content[0].text, 'Hello, HTTP');
    const err = await client.callTool('charge', {}, { task: true }).then(() => assert.fail('resolved'), (e) => e);
    assert.equal(err.code, -32010);
  } finally {
    await client.close().catch(() => {});
    for (const server of servers) await server.close().catch(() => {});
    httpServer.closeAllConnections?.();
    await new Promise((r) => httpServer.close(() => r()));
    taskMessageQueue.cleanup();
    taskStore.cleanup();
  }
});

test('callTool over the SDK 1.x StdioClientTransport to examples/node-stdio', { timeout: 30_000 }, async () => {
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'node-stdio', 'server.mjs'), path.join(pkg.dir, 'stdio-server.mjs'));
  const transport = new StdioClientTransport({ command: process.execPath, args: ['stdio-server.mjs'], cwd: pkg.dir, env: { ...process.env, WORK_MS: '30' }, stderr: 'pipe' });
  const client = new mod.TaskClient(transport, { requestor: { pollFloorMs: 5 } });
  try {
    assert.equal(await client.connect(), '2025-11-25', 'server/discover is refused (-32601): initialize');
    const task = await client.callTool('slow_echo', { text: 'over stdio' }, { task: { ttl: 10_000 } });
    assert.equal(task.status, 'completed');
    assert.equal(task.result.content[0].text, 'echo: over stdio');
    const plain = await client.callTool('slow_echo', { text: 'plain' });
    assert.equal(plain.taskId, null);
    assert.equal(plain.result.content[0].text, 'echo: plain');
    const err = await client.callTool('nope', {}).then(() => assert.fail('resolved'), (e) => e);
    assert.equal(err.code, -32602);
  } finally {
    await client.close();
  }
});

/** 'pending' if `promise` has not settled within `ms`, else its outcome: { value } or { error }. */
function settledWithin(promise, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  const outcome = promise.then((value) => ({ value }), (error) => ({ error }));
  return Promise.race([outcome, late]).finally(() => clearTimeout(timer));
}

test('no onInputRequest handler: the receiver\'s request is answered with an error, the call rejects and its task is cancelled', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    const outcome = await settledWithin(s.client.callTool('ask', { what: 'Your name?' }, { task: true }), 5_000);
    assert.notEqual(outcome, 'pending', 'the call waits without a word');
    const { error } = outcome;
    assert.ok(error instanceof Error, `rejected: ${JSON.stringify(outcome)}`);
    assert.equal(error.code, -32601);
    assert.match(error.message, /elicitation\/create/);
    assert.match(error.message, /onInputRequest/);
    assert.equal(typeof error.taskId, 'string');
    // The server's tool got a clear refusal of its request, and the task was cancelled.
    await until(() => s.received.includes('tasks/cancel'), 'tasks/cancel');
    const refusal = s.messages.find((m) => m.method === undefined && m.error);
    assert.equal(refusal?.error.code, -32601);
    assert.match(refusal.error.message, /onInputRequest/);
    // A stream hands the request to its reader, who answers with respond().
    for await (const event of s.client.callToolStream('ask', { what: 'Name?' }, { task: true })) {
      if (event.kind === 'inputRequest') s.client.respond(event.requestId, { action: 'accept', content: { name: 'Stream' } });
      if (event.kind === 'finished') assert.equal(event.response.result.content[0].text, 'Hello, Stream');
    }
  } finally {
    await s.close();
  }
});

test('a throw in a call\'s onEvent or onProgress rejects the call with it and cancels the task', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    const boom = new Error('onEvent broke');
    const call = s.client.callTool('ask', { what: 'Name?' }, {
      task: true,
      onEvent: (e) => {
        if (e.kind === 'inputRequest') throw boom;
      },
      onInputRequest: () => ({ action: 'accept', content: { name: 'never' } }),
    });
    const outcome = await settledWithin(call, 5_000);
    assert.notEqual(outcome, 'pending', 'the call hangs after the throw');
    assert.equal(outcome.error, boom);
    await until(() => s.received.includes('tasks/cancel'), 'tasks/cancel');

    // Progress comes before the task is created: the task is cancelled once it is.
    const progressBoom = new Error('onProgress broke');
    const slow = s.client.callTool('slow', { label: 'p' }, {
      task: true,
      onProgress: () => {
        throw progressBoom;
      },
    });
    const second = await settledWithin(slow, 5_000);
    assert.notEqual(second, 'pending', 'the call hangs after the throw');
    assert.equal(second.error, progressBoom);
    await until(() => s.answered('tasks/cancel', 1), 'the server answers tasks/cancel of the second task');
    s.gate.open(s.messages.filter((m) => m.method === 'tasks/cancel')[1].params.taskId);
    await until(() => s.seen.includes('stopped p'), 'the work sees the cancel');
  } finally {
    await s.close();
  }
});

test('a throw in the client\'s own callbacks reaches onError, or the console without one', { timeout: 30_000 }, async () => {
  const reported = [];
  const s = await inMemory({
    onMessage: () => {
      throw new Error('onMessage broke');
    },
    onError: (e) => reported.push(e),
  });
  try {
    // A notification that belongs to no call goes to onMessage.
    await s.serverTransport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
    await until(() => reported.length === 1, 'onError hears of the throw');
    assert.equal(reported[0].message, 'onMessage broke');
    // The client goes on working.
    const echo = await s.client.callTool('echo', { text: 'still here' });
    assert.equal(echo.result.content[0].text, 'still here');
  } finally {
    await s.close();
  }
  const logged = [];
  const consoleError = console.error;
  console.error = (...args) => logged.push(args);
  const quiet = await inMemory({
    onMessage: () => {
      throw new Error('nobody listens');
    },
  });
  try {
    await quiet.serverTransport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
    await until(() => logged.length === 1, 'the console hears of the throw');
    assert.ok(logged[0].some((a) => a?.message === 'nobody listens'), String(logged[0]));
  } finally {
    console.error = consoleError;
    await quiet.close();
  }
});

test('leaving a callToolStream loop early cancels the task at the server', { timeout: 30_000 }, async () => {
  const s = await inMemory();
  try {
    let taskId = null;
    for await (const event of s.client.callToolStream('slow', { label: 'f' }, { task: true })) {
      if (event.kind === 'created') {
        taskId = event.taskId;
        break;
      }
    }
    assert.ok(taskId);
    await until(() => s.answered('tasks/cancel'), 'the server answers tasks/cancel');
    assert.equal(s.messages.find((m) => m.method === 'tasks/cancel').params.taskId, taskId);
    s.gate.open(taskId);
    await until(() => s.seen.includes('stopped f'), 'the work sees the cancel');

    // Left before the task exists (progress comes first): cancelled once it is created.
    for await (const event of s.client.callToolStream('slow', { label: 'g' }, { task: true, onProgress: () => {} })) {
      assert.equal(event.kind, 'progress');
      break;
    }
    await until(() => s.answered('tasks/cancel', 1), 'the server answers the second tasks/cancel');
    s.gate.open(s.messages.filter((m) => m.method === 'tasks/cancel')[1].params.taskId);
    await until(() => s.seen.includes('stopped g'), 'the work sees the cancel');
  } finally {
    await s.close();
  }
});

test('unknown option keys are refused by name, with the known ones listed', async () => {
  const [clientTransport] = InMemoryTransport.createLinkedPair();
  assert.throws(
    () => new mod.TaskClient(clientTransport, { capabilites: { elicitation: {} } }),
    (e) => e instanceof TypeError && /options\.capabilites is not an option \(known here: .*capabilities.*\)/.test(e.message) && e.code === 'invalid_options',
  );
  assert.throws(() => new mod.TaskClient(clientTransport, { onInputRequest: () => ({}) }), /options\.onInputRequest is not an option/);
  assert.throws(() => new mod.TaskClient(clientTransport, 'fast'), TypeError);
  // Per call too: a misspelt handler must not mean "no handler".
  const client = new mod.TaskClient(clientTransport, { capabilities: {} });
  await assert.rejects(
    client.callTool('slow', {}, { task: true, onInputrequest: () => ({}) }),
    (e) => e instanceof TypeError && /options\.onInputrequest is not an option \(known here: .*onInputRequest.*\)/.test(e.message),
  );
  assert.throws(() => client.callToolStream('slow', {}, { sigal: null }), /options\.sigal is not an option/);
});
