// P1 — wire path: JSON-RPC text in, response text out, for one mix of task requests.
//
// Ours: TextTaskEngine.handle(message, context) for every message, pollOutput() drained after every
// call (execute events, status notifications), tasks finished with engine.complete().
//
// SDK: the official @modelcontextprotocol/sdk 1.x McpServer with InMemoryTaskStore and
// InMemoryTaskMessageQueue, connected to InMemoryTransport. The client side is the raw
// transport: the harness JSON.parse()s each message text and hands it to the server's
// transport, and JSON.stringify()s every message the server sends. (A real transport, e.g.
// stdio, would also validate each message with zod; that is left out, which favours the SDK.)
// The tool finishes its tasks the way SDK tools do: extra.taskStore.storeTaskResult().
//
// Mix over N tasks (same message texts for both):
//   create  N × tools/call {task:{ttl}}           get1    N × tasks/get (working)
//   complete 3N/4 tasks (host/tool call)           cancel  N/4 × tasks/cancel
//   get2    N × tasks/get (terminal)               result  3N/4 × tasks/result
//   list    every page of the N tasks (page size 10 on both; the SDK's is fixed at 10)
// The same engine in the 2026-07-28 dialect (p1-ext.mjs) runs in the same rounds, interleaved.
// BENCH_CPU_TIME=1 times every phase by the process's CPU time instead of wall time (lib.mjs phaseClock).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { gc, importEngine, liftedLimits, phaseClock, repeat, resultOf, wireDriver } from './lib.mjs';
import { PHASES_2026, runOurs2026 } from './p1-ext.mjs';

const CONTEXT = 'session-1';
const TTL = 600_000;
const PHASES = ['create', 'get1', 'complete', 'cancel', 'get2', 'result', 'list'];

const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** The message texts of one run (task IDs are known only after `create`, so built lazily). */
function createMessages(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(rpc(i + 10, 'tools/call', { name: 'bench', arguments: {}, task: { ttl: TTL } }));
  return out;
}
const perTask = (ids, base, method, pick = () => true) =>
  ids.flatMap((taskId, i) => (pick(i) ? [rpc(base + i, method, { taskId })] : []));
const completes = (i) => i % 4 !== 3;
const cancels = (i) => i % 4 === 3;

function taskIdsFrom(responses) {
  return responses.map((text) => JSON.parse(text).result.task.taskId);
}

// ---------------------------------------------------------------------------------------------
export async function runOurs(n, TextTaskEngine) {
  const engine = new TextTaskEngine({
    tools: { bench: 'required' },
    pageSize: 10,
    ttl: { maxMs: TTL },
    limits: liftedLimits(),
  });
  engine.handle(rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } }), CONTEXT);
  while (engine.pollOutput()) {}
  const { sent, time, ops, send, phase, completeEach } = wireDriver(engine, CONTEXT);

  const ids = taskIdsFrom(phase('create', createMessages(n)));
  phase('get1', perTask(ids, 100_000, 'tasks/get'));
  completeEach(
    ids,
    ids.map((_, i) => resultOf(i, 256)),
    completes,
  );
  phase('cancel', perTask(ids, 200_000, 'tasks/cancel', cancels));
  phase('get2', perTask(ids, 300_000, 'tasks/get'));
  phase('result', perTask(ids, 400_000, 'tasks/result', completes));

  const t = phaseClock();
  let cursor;
  let pages = 0;
  let listed = 0;
  do {
    const reply = send(rpc(500_000 + pages, 'tasks/list', cursor === undefined ? {} : { cursor }));
    const page = JSON.parse(reply).result;
    listed += page.tasks.length;
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  time.list = phaseClock() - t;
  ops.list = pages;
  if (listed !== n) throw new Error(`ours listed ${listed} of ${n} tasks`);
  const errors = sent.filter((text) => text.includes('"error":'));
  if (errors.length) throw new Error(`ours answered ${errors.length} errors, e.g. ${errors[0]}`);
  engine.free();
  return { time, ops, sent: sent.length };
}

// ---------------------------------------------------------------------------------------------
async function runSdk(n) {
  const taskStore = new InMemoryTaskStore();
  const server = new McpServer(
    { name: 'bench', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  const handles = new Map();
  server.experimental.tasks.registerToolTask(
    'bench',
    { description: 'benchmark tool', execution: { taskSupport: 'required' } },
    {
      createTask: async (extra) => {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? TTL });
        handles.set(task.taskId, extra.taskStore);
        return { task };
      },
      getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  const [client, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent = [];
  const replies = new Map();
  let waiting = 0;
  let wake = null;
  client.onmessage = (message) => {
    const text = JSON.stringify(message);
    sent.push(text);
    if (message.id !== undefined && (message.result !== undefined || message.error !== undefined)) {
      replies.set(message.id, text);
      if (--waiting === 0 && wake) wake();
    }
  };
  await server.connect(serverTransport);
  await client.start();
  const sendAll = async (messages) => {
    waiting += messages.length;
    const done = new Promise((r) => (wake = r));
    for (const m of messages) client.send(JSON.parse(m));
    if (waiting > 0) await done;
    wake = null;
  };
  await sendAll([rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } })]);
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

  const time = {};
  const ops = {};
  const phase = async (name, messages) => {
    const t = phaseClock();
    await sendAll(messages);
    time[name] = phaseClock() - t;
    ops[name] = messages.length;
  };
  await phase('create', createMessages(n));
  const ids = taskIdsFrom(createMessages(n).map((_, i) => replies.get(i + 10)));

  await phase('get1', perTask(ids, 100_000, 'tasks/get'));

  const results = ids.map((_, i) => resultOf(i, 256));
  let t = phaseClock();
  let done = 0;
  for (let i = 0; i < ids.length; i++) {
    if (!completes(i)) continue;
    await handles.get(ids[i]).storeTaskResult(ids[i], 'completed', results[i]);
    done++;
  }
  time.complete = phaseClock() - t;
  ops.complete = done;

  await phase('cancel', perTask(ids, 200_000, 'tasks/cancel', cancels));
  await phase('get2', perTask(ids, 300_000, 'tasks/get'));
  await phase('result', perTask(ids, 400_000, 'tasks/result', completes));

  t = phaseClock();
  let cursor;
  let pages = 0;
  let listed = 0;
  do {
    const id = 500_000 + pages;
    await sendAll([rpc(id, 'tasks/list', cursor === undefined ? {} : { cursor })]);
    const page = JSON.parse(replies.get(id)).result;
    listed += page.tasks.length;
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  time.list = phaseClock() - t;
  ops.list = pages;
  if (listed !== n) throw new Error(`sdk listed ${listed} of ${n} tasks`);
  for (const text of [...replies.values()].slice(0, 3)) if (JSON.parse(text).error) throw new Error(`sdk error: ${text}`);
  const errors = [...replies.values()].filter((text) => text.includes('"error":'));
  if (errors.length) throw new Error(`sdk answered ${errors.length} errors, e.g. ${errors[0]}`);
  taskStore.cleanup();
  await server.close();
  return { time, ops, sent: sent.length };
}

function summarise(r, phases = PHASES) {
  const totalMs = phases.reduce((s, p) => s + r.time[p], 0);
  const totalOps = phases.reduce((s, p) => s + r.ops[p], 0);
  const out = { totalMs, totalOps, opsPerSec: (totalOps / totalMs) * 1000 };
  for (const p of phases) out[`${p}NsPerOp`] = (r.time[p] / r.ops[p]) * 1e6;
  return out;
}

export async function benchWire({ n = 2000, warmup = 2, runs = 5 } = {}) {
  const { TextTaskEngine } = await importEngine();
  // Interleave ours (2025-11-25, then 2026-07-28) and the SDK's runs so drift (thermal, GC
  // state) hits all alike.
  const oursSamples = [];
  const ours2026Samples = [];
  const sdkSamples = [];
  await repeat(
    async (warm) => {
      // A full GC before each run, so neither side pays for the other's garbage.
      gc();
      const o = summarise(await runOurs(n, TextTaskEngine));
      gc();
      const e = summarise(runOurs2026(n, TextTaskEngine), PHASES_2026);
      gc();
      const s = summarise(await runSdk(n));
      if (!warm) {
        oursSamples.push(o);
        ours2026Samples.push(e);
        sdkSamples.push(s);
      }
      return { x: 0 };
    },
    { warmup, runs },
  );
  const med = (samples) => {
    const out = {};
    for (const k of Object.keys(samples[0])) out[k] = samples.map((s) => s[k]).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    return out;
  };
  return {
    n,
    runs,
    warmup,
    phases: PHASES,
    phases2026: PHASES_2026,
    driver:
      'SDK: McpServer + InMemoryTaskStore/Queue over InMemoryTransport, raw transport as client (JSON.parse in, JSON.stringify out, no zod transport check); ours: TextTaskEngine.handle + pollOutput + complete; ours 2026: the same engine, extension requests (_meta protocolVersion 2026-07-28, tasks extension declared), no tasks/result or tasks/list (tasks/get inlines the outcome)',
    ours: med(oursSamples),
    ours2026: med(ours2026Samples),
    sdk: med(sdkSamples),
  };
}
