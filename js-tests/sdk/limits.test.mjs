// Limits of the drop-in, through the official SDK 1.x (McpServer / Server + Client, no mocks):
//
// - Its defaults let a server that worked with InMemoryTaskStore / InMemoryTaskMessageQueue
//   keep working: no cap on running tasks or stored bytes per session or in total, no cap on queued messages.
// - When a configured limit refuses a task, the reason reaches the client. McpServer turns
//   every error of a tool handler into an `isError` result (only an McpError -32042 passes), and
//   for a task-augmented call Server then answers "-32602 Invalid task creation result":
//   propagateTaskCreationErrors(server) makes the store's error the request's JSON-RPC error.
//   The tests below pin that SDK behaviour: if the SDK changes it, they fail. (Installed beside
//   the SDK, a WasmTaskStore applies it by itself in Node: js-tests/durable/sdk-outage.test.mjs.
//   Here the store is loaded from pkg/, where no SDK sits beside it, so nothing is applied.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolResultSchema,
  Control,
  CreateTaskResultSchema,
  connectInMemory,
  createTask,
  makeStores,
  ours,
  outcome,
  startHttp,
  textOf,
} from './harness.mjs';

const { WasmTaskStore, WasmTaskMessageQueue, propagateTaskCreationErrors } = ours;
const TOO_MANY = /^MCP error -32603: Too many running tasks for this client \(limit 2\): wait for some to finish, or cancel some$/;

/** A low-level SDK Server whose store holds one running task per client (no handler of its own yet). */
function lowLevelServer() {
  const taskStore = new WasmTaskStore({ timer: false, limits: { maxRunningTasksPerKey: 1 } });
  const server = new Server(
    { name: 'low-level', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { list: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue: new WasmTaskMessageQueue({ taskStore }) },
  );
  return { server, taskStore };
}

/** An SDK Client connected to `server` in memory; `call()` sends it a task-augmented tools/call. */
async function connected(server) {
  const client = new Client({ name: 'c', version: '1.0.0' });
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  await client.connect(ct);
  const call = () => client.request({ method: 'tools/call', params: { name: 'x', arguments: {}, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
  return { client, call };
}

/** Runs `fn` over InMemoryTransport and Streamable HTTP, each with a fresh store. */
async function overBoth(storeOptions, extra, fn) {
  for (const transport of ['memory', 'http']) {
    const stores = { ...makeStores('wasm', storeOptions), ...extra };
    const ctl = new Control();
    const conn = transport === 'memory' ? await connectInMemory(stores, ctl) : await startHttp(stores, ctl);
    try {
      const client = transport === 'memory' ? conn.client : (await conn.connect('a')).client;
      await fn({ client, ctl, stores, conn, transport });
    } finally {
      await conn.close();
      stores.close();
    }
  }
}

describe('drop-in defaults: what worked with InMemoryTaskStore keeps working', () => {
  test('one session holds 1,001 live tasks (no per-session or total cap by default)', { timeout: 60_000 }, async () => {
    const stores = makeStores('wasm'); // defaults, on an injected clock: every task stays live
    const ctl = new Control();
    const http = await startHttp(stores, ctl);
    try {
      const { client } = await http.connect('busy');
      const ids = [];
      for (let batch = 0; batch < 1001; batch += 77) {
        const n = Math.min(77, 1001 - batch);
        const created = await Promise.all(Array.from({ length: n }, (_, i) => outcome(createTask(client, 'quick', { n: batch + i }))));
        for (const c of created) {
          assert.ok(c.ok, `task ${ids.length + 1} created: ${c.message}`);
          ids.push(c.ok.taskId);
        }
      }
      assert.equal(new Set(ids).size, 1001);
      assert.equal(stores.taskStore.size, 1001);
      await Promise.all(ids.map((id) => ctl.done(id)));
      // All of them the session's, all listed to it.
      let listed = 0;
      let cursor;
      do {
        const page = await client.experimental.tasks.listTasks(cursor);
        listed += page.tasks.length;
        cursor = page.nextCursor;
      } while (cursor);
      assert.equal(listed, 1001);
      const last = await client.experimental.tasks.getTaskResult(ids.at(-1), CallToolResultSchema);
      assert.equal(textOf(last), 'quick 1000');
    } finally {
      await http.close();
      stores.close();
    }
  });

  test('a task queues 1,001 messages before its client reads them (no queue cap by default)', { timeout: 30_000 }, async () => {
    const taskStore = new WasmTaskStore({ timer: false });
    const taskMessageQueue = new WasmTaskMessageQueue({ taskStore });
    const server = new McpServer(
      { name: 'chatty', version: '1.0.0' },
      { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue },
    );
    let work;
    server.experimental.tasks.registerToolTask(
      'chatty',
      { description: 'Sends 1,001 task-related notifications, then completes', inputSchema: {} },
      {
        createTask: async (_args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 5 });
          work = (async () => {
            // Queued for the task (delivered on its tasks/result), as the SDK does for related notifications.
            for (let i = 1; i <= 1001; i++) {
              await server.server.notification({ method: 'notifications/test/tick', params: { i } }, { relatedTask: { taskId: task.taskId } });
            }
            await extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: 'sent 1001' }] });
          })();
          return { task };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
      },
    );
    const client = new Client({ name: 'reader', version: '1.0.0' });
    const ticks = [];
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/test/tick') ticks.push(n.params.i);
    };
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    await client.connect(ct);
    try {
      const { task } = await client.request({ method: 'tools/call', params: { name: 'chatty', arguments: {}, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      await work; // every message is queued before the client asks for any
      assert.equal(taskMessageQueue.size(task.taskId), 1001);
      const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      assert.equal(textOf(result), 'sent 1001');
      assert.deepEqual(ticks, Array.from({ length: 1001 }, (_, i) => i + 1), 'every queued message delivered, in order');
      assert.equal(taskMessageQueue.size(), 0);
    } finally {
      await client.close();
      await server.close();
      taskStore.cleanup();
      taskMessageQueue.cleanup();
    }
  });
});

describe('a limit that refuses a task: the reason reaches the client', () => {
  const limited = { limits: { maxRunningTasksPerKey: 2 } };

  test('SDK behaviour pinned: McpServer alone loses the reason ("-32602 Invalid task creation result")', async () => {
    await overBoth(limited, {}, async ({ client, stores }) => {
      await createTask(client, 'work', { steps: 0 });
      await createTask(client, 'work', { steps: 0 });
      const refused = await outcome(createTask(client, 'quick'));
      assert.equal(refused.code, -32602);
      assert.match(refused.message, /Invalid task creation result/);
      assert.doesNotMatch(refused.message, /Too many running tasks/);
      assert.equal(stores.taskStore.size, 2, 'the store refused the third task');
    });
  });

  test('with propagateTaskCreationErrors(server): the store\u2019s JSON-RPC error, code and message', async () => {
    await overBoth(limited, { onServer: propagateTaskCreationErrors }, async ({ client, ctl, stores, conn, transport }) => {
      await createTask(client, 'work', { steps: 0 }, { ttl: 1000 });
      const second = await createTask(client, 'work', { steps: 0 }, { ttl: 5000 });
      const refused = await outcome(createTask(client, 'quick'));
      assert.equal(refused.code, -32603);
      assert.match(refused.message, TOO_MANY);
      // Through the SDK's own streaming API too.
      const seen = [];
      for await (const m of client.experimental.tasks.callToolStream({ name: 'quick', arguments: {} }, CallToolResultSchema, { task: { ttl: 1000 } })) {
        seen.push(m.type === 'error' ? { error: m.error.code, message: m.error.message } : m.type);
      }
      assert.equal(seen.length, 1);
      assert.equal(seen[0].error, -32603);
      assert.match(seen[0].message, TOO_MANY);
      // An optional tool called without a task: McpServer's own path, an isError result with the reason.
      const plain = await client.callTool({ name: 'maybe', arguments: { word: 'x' } });
      assert.equal(plain.isError, true);
      assert.match(textOf(plain), /^Too many running tasks for this client \(limit 2\): wait for some to finish, or cancel some$/);
      // Nothing else changes: plain tools, tool errors and the tasks/* requests.
      assert.equal(textOf(await client.callTool({ name: 'plain', arguments: { word: 'y' } })), 'plain: y');
      assert.equal((await outcome(client.callTool({ name: 'nope', arguments: {} }))).ok.isError, true);
      assert.equal((await client.experimental.tasks.listTasks()).tasks.length, 2);
      // The limit counts running tasks: once one finishes (or expires), the session may create again.
      ctl.open(second.taskId, 1);
      await ctl.done(second.taskId);
      assert.equal(textOf(await client.experimental.tasks.getTaskResult(second.taskId, CallToolResultSchema)), 'done after 0 steps');
      const again = await createTask(client, 'work', { steps: 0 });
      assert.equal(again.status, 'working');
      assert.equal((await outcome(createTask(client, 'quick'))).code, -32603);
      stores.clock.advance(1000);
      assert.equal((await createTask(client, 'quick')).status, 'working', 'the expired task freed its slot');
      assert.equal(stores.taskStore.size, 3);
      if (transport === 'http') {
        // Per session: another session is not refused.
        const other = (await conn.connect('b')).client;
        assert.equal((await createTask(other, 'quick')).status, 'working');
      }
    });
  });

  test('low-level Server: a refusal thrown by the handler already is the JSON-RPC error', async () => {
    const { server, taskStore } = lowLevelServer();
    server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => ({ task: await extra.taskStore.createTask({ ttl: 60_000 }) }));
    const { client, call } = await connected(server);
    try {
      assert.equal((await call()).task.status, 'working');
      const refused = await outcome(call());
      assert.equal(refused.code, -32603);
      assert.match(refused.message, /^MCP error -32603: Too many running tasks for this client \(limit 1\): wait for some to finish, or cancel some$/);
    } finally {
      await client.close();
      await server.close();
      taskStore.cleanup();
    }
  });

  test('propagateTaskCreationErrors wraps the handlers of task-capable requests, set before or after it, and no other', async () => {
    const { server, taskStore } = lowLevelServer();
    const handlers = server._requestHandlers;
    const before = new Map(handlers);
    propagateTaskCreationErrors(server);
    // Every handler already set is the SDK's own (none of them is a task-capable request yet).
    for (const [method, handler] of before) assert.equal(handlers.get(method), handler, method);
    // Set afterwards, as McpServer does: a handler that turns the store's refusal into a tool result.
    server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
      try {
        return { task: await extra.taskStore.createTask({ ttl: 60_000 }) };
      } catch (err) {
        return { content: [{ type: 'text', text: String(err) }], isError: true };
      }
    });
    const wrapped = handlers.get('tools/call');
    propagateTaskCreationErrors(server);
    assert.equal(handlers.get('tools/call'), wrapped, 'twice is once');
    const { client, call } = await connected(server);
    try {
      assert.equal((await call()).task.status, 'working');
      const refused = await outcome(call());
      assert.equal(refused.code, -32603, 'the store\u2019s refusal, not the SDK\u2019s "Invalid task creation result"');
      assert.match(refused.message, /Too many running tasks for this client \(limit 1\)/);
      assert.equal((await client.experimental.tasks.listTasks()).tasks.length, 1);
    } finally {
      await client.close();
      await server.close();
      taskStore.cleanup();
    }
  });

  test('propagateTaskCreationErrors: takes an McpServer, Server or Client; twice is once', () => {
    const mcp = new McpServer({ name: 's', version: '1.0.0' });
    assert.equal(propagateTaskCreationErrors(mcp), mcp);
    assert.equal(propagateTaskCreationErrors(mcp), mcp);
    const client = new Client({ name: 'c', version: '1.0.0' });
    assert.equal(propagateTaskCreationErrors(client), client);
    for (const bad of [null, {}, { server: {} }, new WasmTaskStore({ timer: false })]) {
      assert.throws(() => propagateTaskCreationErrors(bad), TypeError);
    }
  });
});
