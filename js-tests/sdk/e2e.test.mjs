// Official Client <-> official McpServer (@modelcontextprotocol/sdk from npm) with our
// WasmTaskStore + WasmTaskMessageQueue, over InMemoryTransport and real Streamable HTTP on
// 127.0.0.1. Every scenario's observation must match what the 2025-11-25 spec asks for.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MULTI, run, SINGLE } from './scenarios.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, Control, connectInMemory, createTask, makeStores, ours, outcome, startHttp, waitForTask } from './harness.mjs';

const EXPECTED = {
  required: {
    created: 'working',
    statuses: ['working', 'completed'],
    progress: [null, 'step 1/2', 'step 2/2'],
    end: { result: 'done after 2 steps', isError: false, relatedTask: true },
    statusAfter: 'completed',
    ttl: 60000,
    pollInterval: 5,
    workNotes: ['stored'],
    plainCall: { isError: true },
  },
  optional: {
    asTask: { created: 'working', end: { result: 'maybe: a', isError: false, relatedTask: true }, final: 'completed' },
    plain: { text: 'maybe: b', isError: false },
    tasksInStore: 2,
  },
  forbidden: { asTask: { taskCreated: false, end: { error: -32602 } }, plain: 'plain: y', tasksInStore: 0 },
  elicitation: {
    statuses: ['working', 'input_required'],
    end: { result: 'Hello, Ada!', isError: false, relatedTask: true },
    elicitations: 1,
    elicitation: { message: 'What is your name?', relatedTask: true },
    toolNotes: ['answer: {"name":"Ada"}'],
    statusAfter: 'completed',
  },
  cancel: {
    cancelResponse: 'cancelled',
    workNotes: ['refused', 'late result refused'],
    statusAfterWork: 'cancelled',
    cancelAgain: -32602,
    resultOfCancelled: -32603,
    cancelCompleted: -32602,
    completedStays: 'completed',
  },
  toolError: {
    statuses: ['working', 'failed'],
    end: { error: -32603 },
    result: { kind: 'result', text: 'disk full', isError: true },
    statusAfter: 'failed',
  },
  rpcError: {
    statuses: ['working', 'failed'],
    end: { error: -32603 },
    // tasks/result answers with the tool's JSON-RPC error itself: code and data as thrown.
    result: { kind: 'error', code: -32011, data: { retryAfterMs: 30000 } },
    statusAfter: 'failed',
    // McpServer (optional tool, plain call) turns the replayed error into an isError result.
    plainCall: { kind: 'result', text: 'MCP error -32011: Quota exceeded', isError: true },
  },
  list: { pageSizes: [10, 10, 5], inCreationOrder: true, badCursor: -32602 },
  ttl: {
    zeroGranted: 0,
    zeroVisibleAfterwards: -32602,
    zeroWork: ['store refused: -32602'],
    hugeGranted: 86_400_000,
    noneGranted: 3_600_000,
  },
  isolation: {
    otherGet: -32602,
    otherResult: -32602,
    otherCancel: -32602,
    otherList: 0,
    ownerStatus: 'working',
    ownerList: 1,
    ownerStatusAtEnd: 'completed',
  },
  sessionless: {
    sessionGetsSessionless: -32602,
    sessionListsSessionless: false,
    sessionlessGetsSession: -32602,
    sessionlessListsSession: false,
    sessionCancelsSessionless: -32602,
  },
};

for (const transport of ['memory', 'http']) {
  describe(`WasmTaskStore over ${transport === 'http' ? 'Streamable HTTP' : 'InMemoryTransport'}`, () => {
    for (const name of SINGLE) {
      test(name, async () => {
        assert.deepEqual(await run(name, 'wasm', transport), EXPECTED[name]);
      });
    }
  });
}

describe('WasmTaskStore, several connections on one store', () => {
  for (const name of MULTI) {
    test(name, async () => {
      assert.deepEqual(await run(name, 'wasm', 'http'), EXPECTED[name]);
    });
  }
});

/** Runs `fn({ client, ctl, stores })` over both transports with a fresh store each time. */
async function overBoth(options, fn) {
  for (const transport of ['memory', 'http']) {
    const stores = makeStores('wasm', options);
    const ctl = new Control();
    const conn = transport === 'memory' ? await connectInMemory(stores, ctl) : await startHttp(stores, ctl);
    try {
      const client = transport === 'memory' ? conn.client : (await conn.connect()).client;
      await fn({ client, ctl, stores, transport });
    } finally {
      await conn.close();
      stores.close();
    }
  }
}

test('TTL expiry on an injected clock: counted from creation, then gone everywhere', async () => {
  await overBoth({}, async ({ client, ctl, stores }) => {
    const tasks = client.experimental.tasks;
    const t = await createTask(client, 'quick', {}, { ttl: 1000 });
    await ctl.done(t.taskId);
    await waitForTask(client, t.taskId, (x) => x.status === 'completed');
    stores.clock.advance(999);
    assert.equal((await tasks.getTask(t.taskId)).status, 'completed');
    assert.equal((await tasks.getTaskResult(t.taskId, CallToolResultSchema)).content[0].text, 'quick');
    assert.equal((await tasks.listTasks()).tasks.length, 1);
    stores.clock.advance(1);
    assert.equal((await outcome(tasks.getTask(t.taskId))).code, -32602);
    assert.equal((await outcome(tasks.getTaskResult(t.taskId, CallToolResultSchema))).code, -32602);
    assert.equal((await outcome(tasks.cancelTask(t.taskId))).code, -32602);
    assert.equal((await tasks.listTasks()).tasks.length, 0);
    assert.equal(stores.taskStore.size, 0, 'the expired task is deleted, not just hidden');

    // The TTL runs from creation, not from completion.
    const w = await createTask(client, 'work', { steps: 0 }, { ttl: 1000 });
    stores.clock.advance(600);
    ctl.openAll(w.taskId);
    await ctl.done(w.taskId);
    assert.equal((await tasks.getTask(w.taskId)).status, 'completed');
    stores.clock.advance(400);
    assert.equal((await outcome(tasks.getTask(w.taskId))).code, -32602);

    // ttl: 0 is a real TTL: the task is gone at once, and the work's result is refused.
    const z = await createTask(client, 'quick', {}, { ttl: 0 });
    assert.equal(z.ttl, 0);
    await ctl.done(z.taskId);
    assert.deepEqual(ctl.notesOf(z.taskId), ['store refused: -32602']);
    assert.equal((await outcome(tasks.getTask(z.taskId))).code, -32602);
  });
});

test('TTL policy: clamped to maxTtlMs, defaultTtlMs when none is asked', async () => {
  await overBoth({ maxTtlMs: 5000, defaultTtlMs: 2000 }, async ({ client, ctl }) => {
    const big = await createTask(client, 'quick', {}, { ttl: 10_000 });
    const none = await createTask(client, 'quick', {}, {});
    await Promise.all([ctl.done(big.taskId), ctl.done(none.taskId)]);
    assert.equal(big.ttl, 5000);
    assert.equal(none.ttl, 2000);
    assert.equal((await client.experimental.tasks.getTask(big.taskId)).ttl, 5000);
  });
});

test('a running task: tasks/result blocks until the end and then returns the result', async () => {
  await overBoth({}, async ({ client, ctl }) => {
    const t = await createTask(client, 'work', { steps: 1 });
    const pending = client.experimental.tasks.getTaskResult(t.taskId, CallToolResultSchema);
    let settled = false;
    pending.finally(() => (settled = true)).catch(() => {});
    ctl.open(t.taskId, 1);
    await waitForTask(client, t.taskId, (x) => x.statusMessage === 'step 1/1');
    assert.equal(settled, false, 'tasks/result must not answer while the task works');
    ctl.open(t.taskId, 2);
    const result = await pending;
    assert.equal(result.content[0].text, 'done after 1 steps');
    assert.deepEqual(result._meta['io.modelcontextprotocol/related-task'], { taskId: t.taskId });
  });
});

test('client-hosted tasks: a Client with WasmTaskStore answers an elicitation as a task', async () => {
  const taskStore = new ours.WasmTaskStore({ timer: false });
  const client = new Client(
    { name: 'client-hosting-tasks', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } } },
      taskStore,
      taskMessageQueue: new ours.WasmTaskMessageQueue({ taskStore }),
    },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const answer = { action: 'accept', content: { name: 'Ada' } };
    if (!request.params.task) return answer;
    const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl, pollInterval: 5 });
    setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, 'completed', answer), 5);
    return { task };
  });
  const server = new McpServer({ name: 'asks', version: '1.0.0' }, { capabilities: { tools: {} } });
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  await client.connect(ct);
  try {
    const seen = [];
    let result;
    const stream = server.server.experimental.tasks.elicitInputStream(
      { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      { task: { ttl: 30_000 } },
    );
    for await (const m of stream) {
      seen.push(m.type === 'taskStatus' ? m.task.status : m.type);
      if (m.type === 'result') result = m.result;
      if (m.type === 'error') throw m.error;
    }
    assert.equal(seen[0], 'taskCreated');
    assert.equal(seen.at(-2), 'completed');
    assert.equal(seen.at(-1), 'result');
    assert.deepEqual(result.content, { name: 'Ada' });
    const held = taskStore.getAllTasks();
    assert.equal(held.length, 1);
    assert.deepEqual([held[0].status, held[0].ttl], ['completed', 30_000]);
    const listed = await server.server.experimental.tasks.listTasks();
    assert.deepEqual(listed.tasks.map((t) => t.taskId), [held[0].taskId]);
  } finally {
    await client.close();
    await server.close();
    taskStore.cleanup();
  }
});
