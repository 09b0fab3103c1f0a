import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { importOurSdk, liftedLimits, resultOf, gc } from './lib.mjs';
const RESULT = resultOf(0, 256); let n = 0; globalThis.__RESULT = RESULT;
export const acc = {};
function timedOf(obj, kind) { return new Proxy(obj, { get(t, k) { const v = t[k]; if (typeof v !== 'function') return v; return async (...a) => { const s = performance.now(); try { return await v.apply(t, a); } finally { const key = kind + '.' + String(k); const e = acc[key] ??= [0, 0]; e[0] += performance.now() - s; e[1]++; } }; } }); }

async function connect(kind) {
  let taskStore, queue;
  if (kind === 'sdk') { taskStore = new InMemoryTaskStore(); queue = new InMemoryTaskMessageQueue(); }
  else { const { WasmTaskMessageQueue, WasmTaskStore } = await importOurSdk(); taskStore = new WasmTaskStore({ pageSize: 10, limits: liftedLimits() }); queue = new WasmTaskMessageQueue({ taskStore }); }
  const server = new McpServer({ name: 'b', version: '1' }, { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: timedOf(taskStore, kind), taskMessageQueue: timedOf(queue, kind) });
  server.experimental.tasks.registerToolTask('bench', { description: 'x', execution: { taskSupport: 'required' } }, {
    createTask: async (extra) => { const task = await extra.taskStore.createTask({ ttl: 60000 }); await extra.taskStore.storeTaskResult(task.taskId, 'completed', process.env.FRESH ? resultOf(n++, 256) : RESULT); return { task }; },
    getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st); await client.connect(ct);
  const ids = [];
  for (let i = 0; i < 3000; i++) ids.push((await client.request({ method: 'tools/call', params: { name: 'bench', arguments: {}, task: { ttl: 60000 } } }, CreateTaskResultSchema)).task.taskId);
  return { client, ids, taskStore };
}
const only = process.env.ONLY;
const sides = {};
for (const k of ['wasm', 'sdk']) if (!only || only === k) sides[k] = await connect(k);
const PH = process.env.PH || 'get';
const t = { wasm: [], sdk: [] };
for (const k of Object.keys(acc)) delete acc[k];
for (let r = 0; r < 12; r++) for (const k of Object.keys(sides)) {
  const { client, ids } = sides[k];
  const s = performance.now();
  if (PH === 'get') for (const id of ids) await client.experimental.tasks.getTask(id);
  else if (PH === 'store') for (const id of ids) await sides[k].taskStore.getTask(id);
  else for (const id of ids) await client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
  t[k].push((performance.now() - s) / ids.length * 1000);
}
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
for (const k of Object.keys(acc).sort()) console.log(k, (acc[k][0] / acc[k][1] * 1000).toFixed(2), 'µs', acc[k][1]);
console.log(PH, 'wasm', med(t.wasm)?.toFixed(2), 'sdk', med(t.sdk)?.toFixed(2), 'µs/op');
