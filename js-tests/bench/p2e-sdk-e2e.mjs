// P2e — the TaskStore drop-in end to end: the official SDK 1.x Client → InMemoryTransport →
// McpServer → task store → back, with mcp-task-core/sdk's WasmTaskStore + WasmTaskMessageQueue
// against the SDK's InMemoryTaskStore + InMemoryTaskMessageQueue. Everything else is the same
// code on both sides (the SDK's zod checks on both ends, its task handlers, its notifications).
//
// The tool completes at once: createTask stores its result before answering. Mix over N tasks,
// each request awaited in turn:
//   create  N × task-augmented tools/call (client.request)    get     N × tasks/get
//   result  N × tasks/result                                   list    every page of the N tasks
// Ours runs with page size 10 (the SDK's fixed page size) and lifted limits; TTL 60 s on both.
// One warm-up round, then `rounds` rounds with the two stores interleaved; medians.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PKG_DIR, gc, importOurSdk, liftedLimits, median, phaseClock, resultOf } from './lib.mjs';

export const E2E_PHASES = ['create', 'get', 'result', 'list'];
const TTL = 60_000;
const RESULT = resultOf(0, 256);

async function storesOf(kind) {
  if (kind === 'sdk') {
    const taskStore = new InMemoryTaskStore();
    const queue = new InMemoryTaskMessageQueue();
    return { taskStore, queue, close: () => taskStore.cleanup() };
  }
  if (kind === 'sdk+engine' || kind === 'sdk+crossings') return sdkStoreWithEngineCalls(kind === 'sdk+crossings');
  const { WasmTaskMessageQueue, WasmTaskStore, propagateTaskCreationErrors } = await importOurSdk();
  const taskStore = new WasmTaskStore({ pageSize: 10, limits: liftedLimits() });
  const queue = new WasmTaskMessageQueue({ taskStore });
  // Installed beside the SDK, the package does this to every server holding its store at the
  // first request; loaded from pkg/ here it finds no SDK beside it, so the bench does it.
  const onServer = propagateTaskCreationErrors;
  return { taskStore, queue, onServer, close: () => (taskStore.cleanup(), queue.cleanup()) };
}

/** The receiver build's TextTaskEngine with the options WasmTaskStore gives it here. */
async function storeEngine() {
  const { TextTaskEngine } = await import(pathToFileURL(path.join(PKG_DIR, 'entries/receiver.node.mjs')).href);
  return new TextTaskEngine({ statusNotifications: false, contextBinding: true, capabilities: { list: true, cancel: true }, pageSize: 10, limits: liftedLimits() });
}

/** The engine's calls per task, as WasmTaskStore makes them; `time(name, fn)` times each. */
function engineCalls(engine, time) {
  return {
    create: (ttl) => JSON.parse(time('createTask', () => engine.createTask('-', 'tools/call', ttl, undefined, undefined))).taskId,
    store: (id, status, result) => JSON.parse(time('storeTaskResult', () => engine.storeTaskResult(id, '-', status, { kind: 'result', json: JSON.stringify(result) }))),
    result: (id) => JSON.parse(time('getTaskResult', () => engine.getTaskResult(id, '-')).json),
  };
}

/** Three calls per task that cross into the engine with a task ID and a context and find nothing: the crossings alone. */
function engineCrossings(engine) {
  const unknown = '00000000000000000000000000000000';
  return {
    create: () => engine.getTask(unknown, '-') ?? unknown,
    store: (id) => engine.getTask(id, '-'),
    result: (id) => engine.getTask(id, '-'),
  };
}

/** us per call of each engine call, summed over the passes of `sdk+engine` (the calls inside SDK requests). */
const inFlow = { createTask: 0, storeTaskResult: 0, getTaskResult: 0, calls: 0 };
const timeInto = (into) => (name, fn) => {
  const t = performance.now();
  const out = fn();
  into[name] += performance.now() - t;
  return out;
};

/**
 * The SDK's own store, each task also created, ended and read in the engine with the calls
 * and options WasmTaskStore uses (TextTaskEngine of the receiver build), with none of its glue:
 * what the engine's calls alone cost inside SDK requests (`crossings`: three calls that find
 * nothing instead, what crossing into the engine costs there). The wrappers add no promise hop:
 * each calls the engine, then returns the SDK store's own promise.
 * @param {boolean} crossings
 */
async function sdkStoreWithEngineCalls(crossings) {
  const engine = await storeEngine();
  const calls = crossings ? engineCrossings(engine) : engineCalls(engine, timeInto(inFlow));
  const taskStore = new InMemoryTaskStore();
  const queue = new InMemoryTaskMessageQueue();
  const ids = new Map();
  const { createTask, storeTaskResult, getTaskResult, generateTaskId } = taskStore;
  let lastId = '';
  taskStore.generateTaskId = function () {
    lastId = generateTaskId.call(this);
    return lastId;
  };
  taskStore.createTask = function (params, ...rest) {
    const engineId = calls.create(params.ttl);
    // The SDK's createTask takes its ID before its first await.
    const task = createTask.call(this, params, ...rest);
    ids.set(lastId, engineId);
    if (!crossings) inFlow.calls++;
    return task;
  };
  taskStore.storeTaskResult = function (taskId, status, result, ...rest) {
    calls.store(ids.get(taskId), status, result);
    return storeTaskResult.call(this, taskId, status, result, ...rest);
  };
  taskStore.getTaskResult = function (taskId, ...rest) {
    calls.result(ids.get(taskId));
    return getTaskResult.call(this, taskId, ...rest);
  };
  return { taskStore, queue, close: () => (taskStore.cleanup(), engine.free()) };
}

/** us per call of the same engine calls made back to back, `n` tasks a round, median of `rounds`. */
async function engineCallsBackToBack(n, rounds) {
  const per = { createTask: [], storeTaskResult: [], getTaskResult: [] };
  for (let r = 0; r < rounds + 1; r++) {
    const engine = await storeEngine();
    const into = { createTask: 0, storeTaskResult: 0, getTaskResult: 0 };
    const calls = engineCalls(engine, timeInto(into));
    const ids = Array.from({ length: n }, () => calls.create(TTL));
    for (const id of ids) calls.store(id, 'completed', RESULT);
    for (const id of ids) calls.result(id);
    engine.free();
    if (r > 0) for (const k of Object.keys(per)) per[k].push((into[k] / n) * 1000);
  }
  return Object.fromEntries(Object.entries(per).map(([k, xs]) => [k, median(xs)]));
}

async function connect(kind) {
  const { taskStore, queue, onServer, close } = await storesOf(kind);
  const server = new McpServer(
    { name: 'bench', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue: queue },
  );
  server.experimental.tasks.registerToolTask(
    'bench',
    { description: 'completes at once', execution: { taskSupport: 'required' } },
    {
      createTask: async (extra) => {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? TTL });
        await extra.taskStore.storeTaskResult(task.taskId, 'completed', RESULT);
        return { task };
      },
      getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  onServer?.(server);
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { capabilities: {} });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      close();
    },
  };
}

/** One pass of the mix on a fresh server and store (`kind`: 'wasm' or 'sdk'); ns per op per phase. */
export async function pass(kind, n) {
  const { client, close } = await connect(kind);
  const tasks = client.experimental.tasks;
  const ids = new Array(n);
  const got = new Array(n);
  const results = new Array(n);
  const time = {};
  const ops = {};
  const timed = async (name, count, body) => {
    gc();
    const t = phaseClock();
    await body();
    time[name] = phaseClock() - t;
    ops[name] = count;
  };
  await timed('create', n, async () => {
    for (let i = 0; i < n; i++) {
      ids[i] = (await client.request({ method: 'tools/call', params: { name: 'bench', arguments: {}, task: { ttl: TTL } } }, CreateTaskResultSchema)).task.taskId;
    }
  });
  await timed('get', n, async () => {
    for (let i = 0; i < n; i++) got[i] = await tasks.getTask(ids[i]);
  });
  await timed('result', n, async () => {
    for (let i = 0; i < n; i++) results[i] = await tasks.getTaskResult(ids[i], CallToolResultSchema);
  });
  let listed = 0;
  let pages = 0;
  await timed('list', Math.ceil(n / 10), async () => {
    let cursor;
    do {
      const page = await tasks.listTasks(cursor);
      listed += page.tasks.length;
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
  });
  ops.list = pages;
  // Checked after the clock stopped: every task was seen completed, with its result, and listed.
  if (listed !== n) throw new Error(`${kind}: listed ${listed} of ${n} tasks`);
  got.forEach((t, i) => {
    if (t.status !== 'completed') throw new Error(`${kind}: task ${i} is ${t.status}`);
    if (results[i].content[0].text !== RESULT.content[0].text) throw new Error(`${kind}: task ${i} has another result`);
  });
  await close();
  const totalMs = E2E_PHASES.reduce((s, p) => s + time[p], 0);
  const totalOps = E2E_PHASES.reduce((s, p) => s + ops[p], 0);
  const out = { totalOps, opsPerSec: (totalOps / totalMs) * 1000 };
  for (const p of E2E_PHASES) out[`${p}NsPerOp`] = (time[p] / ops[p]) * 1e6;
  return out;
}

export async function benchSdkEndToEnd({ n = 2000, warmup = 1, rounds = 5 } = {}) {
  const kinds = { wasm: 'ours', sdk: 'sdk', 'sdk+engine': 'sdkWithEngine', 'sdk+crossings': 'sdkWithCrossings' };
  const samples = { ours: [], sdk: [], sdkWithEngine: [], sdkWithCrossings: [] };
  for (let r = 0; r < warmup + rounds; r++) {
    for (const [kind, name] of Object.entries(kinds)) {
      const s = await pass(kind, n);
      if (r >= warmup) samples[name].push(s);
    }
  }
  const med = (xs) => Object.fromEntries(Object.keys(xs[0]).map((k) => [k, median(xs.map((x) => x[k]))]));
  const engineUs = {
    inFlow: Object.fromEntries(['createTask', 'storeTaskResult', 'getTaskResult'].map((k) => [k, (inFlow[k] / inFlow.calls) * 1000])),
    backToBack: await engineCallsBackToBack(n, rounds),
  };
  return { n, warmup, rounds, phases: E2E_PHASES, ours: med(samples.ours), sdk: med(samples.sdk), sdkWithEngine: med(samples.sdkWithEngine), sdkWithCrossings: med(samples.sdkWithCrossings), engineUs };
}
