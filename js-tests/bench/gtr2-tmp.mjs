import { liftedLimits, resultOf } from './lib.mjs';
const { TaskEngine } = await import(process.env.BENCH_PKG_DIR + '/receiver-only.node.mjs');
const RESULT = resultOf(0, 256);
const e = new TaskEngine({ limits: liftedLimits(), statusNotifications: false });
const ids = [];
const rj = JSON.stringify(RESULT);
for (let i = 0; i < 3000; i++) { const rec = e.createTaskEntry('c', 'tools/call', 60000, undefined); const id = rec.split('\0').pop(); ids.push(rec.slice(rec.lastIndexOf('\0')+1)); }
// find ids via listing is complex; use taskEntry record format: last field id after length
console.log(ids[0]);
