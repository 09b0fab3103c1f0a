import { importOurSdk, liftedLimits, resultOf } from './lib.mjs';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
const { WasmTaskStore } = await importOurSdk();
const RESULT = resultOf(0, 256);
const w = new WasmTaskStore({ pageSize: 10, limits: liftedLimits() });
const s = new InMemoryTaskStore();
const ids = { w: [], s: [] };
for (let i = 0; i < 3000; i++) { const t = await w.createTask({ ttl: 60000 }); await w.storeTaskResult(t.taskId, 'completed', RESULT); ids.w.push(t.taskId); const u = await s.createTask({ ttl: 60000 }); await s.storeTaskResult(u.taskId, 'completed', RESULT); ids.s.push(u.taskId); }
const text = JSON.stringify({ result: RESULT });
for (let r = 0; r < 5; r++) {
  let a = performance.now(); for (let k = 0; k < 10; k++) for (const id of ids.w) await w.getTaskResult(id); const tw = (performance.now() - a) / 30;
  a = performance.now(); for (let k = 0; k < 10; k++) for (const id of ids.s) await s.getTaskResult(id); const ts = (performance.now() - a) / 30;
  a = performance.now(); for (let k = 0; k < 30000; k++) JSON.parse(text); const tp = (performance.now() - a) / 30;
  console.log('ours', tw.toFixed(2), 'sdk', ts.toFixed(2), 'JSON.parse', tp.toFixed(2), 'µs', text.length);
}
s.cleanup(); w.cleanup();
