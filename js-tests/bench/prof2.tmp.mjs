import { importEngine, liftedLimits, T0 } from './lib.mjs';
const { TaskEngine } = await importEngine();
let now = T0;
const e = new TaskEngine({ now: () => now, limits: liftedLimits(), statusNotifications: false });
const what = process.argv[2];
const t = performance.now();
const N = 200000;
if (what === 'create') {
  for (let i = 0; i < N; i++) e.createTask('c', 'tools/call', 60000, null);
} else if (what === 'sweep') {
  for (let i = 0; i < N; i++) e.createTask('c', 'tools/call', i % 2 ? 60000 : 120000, null);
  now += 60001;
  const t2 = performance.now();
  e.handleTimeout();
  console.log('sweep ns/expired', (performance.now() - t2) * 1e6 / (N / 2));
  let k = 0; while (e.pollOutput()) k++;
}
console.log(what, ((performance.now() - t) / N) * 1e6, 'ns/op');
