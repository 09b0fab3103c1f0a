import { importEngine, liftedLimits } from './lib.mjs';
const { TaskEngine } = await importEngine();
const e = new TaskEngine({ tools: { bench: 'required' }, limits: liftedLimits(), pageSize: 10 });
const ids = [];
for (let i = 0; i < 2000; i++) ids.push(JSON.parse(e.createTask('c', 'tools/call', 60000, null)).taskId);
function bench(name, fn, n = 200000) {
  for (let i = 0; i < 20000; i++) fn(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  console.log(name, ((performance.now() - t) / n * 1e6).toFixed(0), 'ns');
}
bench('getTask', (i) => e.getTask(ids[i % 2000], 'c'));
const msgs = ids.map((id, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tasks/get', params: { taskId: id } }));
bench('handle tasks/get', (i) => e.handle(msgs[i % 2000], 'c'));
bench('handle ping', (i) => { e.handle('{"jsonrpc":"2.0","id":1,"method":"ping"}', 'c'); e.pollOutput(); });
bench('pollOutput empty', (i) => e.pollOutput());
bench('taskCount', (i) => e.taskCount);
bench('nextDeadline', (i) => e.nextDeadline());
bench('handleTimeout', (i) => e.handleTimeout());
