// A/B of WasmTaskStore methods between two package builds, in one process, interleaved; min of rounds.
import { liftedLimits, resultOf } from './lib.mjs';
const A = await import(process.env.A + '/sdk.js');
const B = await import(process.env.B + '/sdk.js');
const RESULT = resultOf(0, 256);
const N = 3000;
async function setup(m) {
  const w = new m.WasmTaskStore({ pageSize: 10, limits: liftedLimits(), readCacheSize: Number(process.env.CACHE ?? 32768) });
  const ids = [];
  for (let i = 0; i < N; i++) { const t = await w.createTask({ ttl: 60000 }); await w.storeTaskResult(t.taskId, 'completed', RESULT); ids.push(t.taskId); }
  return { w, ids };
}
const sides = { A: await setup(A), B: await setup(B) };
const ops = {
  getTaskResult: async ({ w, ids }) => { for (const id of ids) await w.getTaskResult(id); },
  getTask: async ({ w, ids }) => { for (const id of ids) await w.getTask(id); },
};
const best = {};
for (let r = 0; r < 40; r++) for (const [name, op] of Object.entries(ops)) for (const k of ['A', 'B']) {
  const t = performance.now(); await op(sides[k]); const us = (performance.now() - t) / N * 1000;
  const key = name + ' ' + k; if (r > 2) best[key] = Math.min(best[key] ?? Infinity, us);
}
for (const name of Object.keys(ops)) console.log(name.padEnd(14), 'A', best[name + ' A'].toFixed(3), 'B', best[name + ' B'].toFixed(3), 'B/A', (best[name + ' B'] / best[name + ' A']).toFixed(3));
