// One hot path per run, for profile.sh (node --cpu-prof). node profile-driver.mjs SECTION
import { benchWire } from './p1-wire.mjs';
import { gc, importEngine, importOurSdk, liftedLimits, resultOf, T0 } from './lib.mjs';
import { requestOf, TTL } from './p2-store.mjs';
import { pass } from './p2e-sdk-e2e.mjs';

const section = process.argv[2];
const N = 200_000;

async function engine(opts = {}) {
  const { TextTaskEngine } = await importEngine();
  const clock = { now: T0 };
  const e = new TextTaskEngine({ now: () => clock.now, limits: liftedLimits(), statusNotifications: false, ...opts });
  return { e, clock };
}

if (section === 'p1') {
  await benchWire({ n: 2000, warmup: 1, runs: 8 });
} else if (section === 'p2') {
  // WasmTaskStore, every method, as p2-store.mjs drives it.
  const { WasmTaskStore } = await importOurSdk();
  for (let round = 0; round < 4; round++) {
    const store = new WasmTaskStore({ pageSize: 10, limits: liftedLimits() });
    const n = 20_000;
    const ids = [];
    for (let i = 0; i < n; i++) ids.push((await store.createTask({ ttl: TTL }, i, requestOf(i), undefined)).taskId);
    for (const id of ids) await store.getTask(id, undefined);
    for (const id of ids) await store.updateTaskStatus(id, 'input_required', 'waiting for input', undefined);
    for (let i = 0; i < n; i++) await store.storeTaskResult(ids[i], 'completed', resultOf(i, 1024), undefined);
    for (const id of ids) await store.getTaskResult(id, undefined);
    let cursor;
    for (let p = 0; p < 200; p++) cursor = (await store.listTasks(cursor, undefined)).nextCursor;
    store.cleanup();
  }
} else if (section === 'p2e' || section === 'p2e-sdk') {
  // P2e's mix through the SDK: ours (p2e) or the SDK's own store (p2e-sdk), for comparison.
  for (let round = 0; round < 8; round++) await pass(section === 'p2e' ? 'wasm' : 'sdk', 3000);
} else if (section === 'create') {
  const { e } = await engine();
  for (let i = 0; i < N; i++) e.createTask('c', 'tools/call', 60_000, null);
} else if (section === 'get') {
  const { e } = await engine();
  const ids = [];
  for (let i = 0; i < 100_000; i++) ids.push(JSON.parse(e.createTask('c', 'tools/call', 60_000, null)).taskId);
  gc();
  for (let i = 0; i < 1_000_000; i++) e.getTask(ids[i % ids.length], 'c');
} else if (section === 'sweep') {
  const { e, clock } = await engine();
  for (let r = 0; r < 3; r++) {
    for (let i = 0; i < N; i++) e.createTask('c', 'tools/call', i % 2 ? 60_000 : 120_000, null);
    clock.now += 60_001;
    e.handleTimeout();
    while (e.pollOutput()) {}
    clock.now += 60_000;
    e.handleTimeout();
    while (e.pollOutput()) {}
  }
} else if (section === 'list') {
  const { e } = await engine({ pageSize: 50 });
  for (let i = 0; i < 100_000; i++) e.createTask('c', 'tools/call', 60_000, null);
  let cursor = null;
  for (let i = 0; i < 20_000; i++) {
    const reply = e.handle(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tasks/list', params: cursor ? { cursor } : {} }), 'c');
    const c = reply.indexOf('"nextCursor":"');
    cursor = c < 0 ? null : reply.slice(c + 14, reply.indexOf('"', c + 14));
  }
} else if (section === 'wire') {
  // P1's engine side alone: tools/call (+ drain), complete (+ drain), tasks/get, tasks/result.
  for (let round = 0; round < 20; round++) {
    const { e } = await engine({ tools: { bench: 'required' }, statusNotifications: true });
    const ids = [];
    for (let i = 0; i < 5000; i++) {
      const reply = e.handle(`{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"bench","arguments":{},"task":{"ttl":60000}}}`, 'c');
      for (let out; (out = e.pollOutput()); ) if (out.kind === 'execute') ids.push(out.taskId);
      if (!reply) throw new Error('no reply');
    }
    for (let i = 0; i < ids.length; i++) {
      e.complete(ids[i], JSON.stringify(resultOf(i, 256)));
      while (e.pollOutput()) {}
    }
    for (const id of ids) e.handle(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"${id}"}}`, 'c');
    for (const id of ids) e.handle(`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"${id}"}}`, 'c');
    e.free();
  }
} else if (section === 'cold') {
  // The first answered request in a fresh process (run once; small profile).
  const { TextTaskEngine } = await importEngine();
  const e = new TextTaskEngine({ tools: { slow: 'required' } });
  e.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}', 's');
} else {
  console.error(`unknown section ${section}`);
  process.exit(2);
}
