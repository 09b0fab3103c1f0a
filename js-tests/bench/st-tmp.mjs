import { liftedLimits, resultOf } from './lib.mjs';
const { WasmTaskStore } = await import(process.env.BENCH_PKG_DIR + '/sdk.js');
const N = 20000;
const results = Array.from({ length: N }, (_, i) => resultOf(i, 1024));
let tot = 0;
for (let r = 0; r < 8; r++) {
  const w = new WasmTaskStore({ pageSize: 10, limits: liftedLimits() });
  const ids = [];
  for (let i = 0; i < N; i++) ids.push((await w.createTask({ ttl: 60000 })).taskId);
  for (const id of ids) await w.updateTaskStatus(id, 'input_required', 'waiting for input');
  const t = performance.now();
  for (let i = 0; i < N; i++) await w.storeTaskResult(ids[i], 'completed', results[i]);
  const us = (performance.now() - t) / N * 1000;
  if (r > 1) tot += us;
  w.cleanup();
}
console.log('storeTaskResult µs', (tot / 6).toFixed(2));
