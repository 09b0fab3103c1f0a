import { importEngine, liftedLimits } from './lib.mjs';
const { TaskEngine } = await importEngine();
const e = new TaskEngine({ tools: { bench: 'required' }, limits: liftedLimits(), pageSize: 10 });
const ids = [];
for (let i = 0; i < 2000; i++) ids.push(JSON.parse(e.createTask('c', 'tools/call', 60000, null)).taskId);
const t = performance.now();
for (let i = 0; i < 1000000; i++) e.getTask(ids[i % 2000], 'c');
console.log((performance.now() - t) / 1e6 * 1e6, 'ns/get');
