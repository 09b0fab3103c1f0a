// Child of P5 (scale): node --expose-gc p5-scale-child.mjs N
// One TextTaskEngine on a fake clock with N live tasks (bulk-created through the store-level
// createTask, one context, UUID v4 IDs as in production), then:
//   get     store-level getTask of random live tasks, each timed alone (p50/p99)
//   wire    the same through handle(tasks/get)
//   create  store-level createTask, each timed alone (the table grows by CREATES)
//   list    handle(tasks/list) pages (page size 50), chained by cursor from the start
//   sweep   advance the clock past the TTL of exactly 10% of the tasks, time handleTimeout()
//           (the expiry itself) and, apart, draining the `expired` outputs
// Per-op figures leave out samples during which the process was preempted (see timeEach).
// Prints one JSON line.
import { gc, importEngine, liftedLimits, quantile, T0, wasmMemoryBytes } from './lib.mjs';

const n = Number(process.argv[2]);
const GETS = 20_000;
const CREATES = 5_000;
const PAGES = 300;
const SHORT = 3_600_000; // 1 h: the 10% that expire
const LONG = 20 * 3_600_000; // 20 h: the rest
const CONTEXT = 'session-1';

const { TextTaskEngine } = await importEngine();
const idOf = (json) => {
  const i = json.indexOf('"taskId":"') + 10;
  return json.slice(i, json.indexOf('"', i));
};
let now = T0;
const engine = new TextTaskEngine({ now: () => now, pageSize: 50, ttl: { maxMs: 86_400_000 }, limits: liftedLimits(), statusNotifications: false });

// Warm-up on a separate engine: every code path once (creates, gets, lists, a sweep), so the
// measured engine runs optimised code.
{
  let wnow = T0;
  const w = new TextTaskEngine({ now: () => wnow, pageSize: 50, limits: liftedLimits(), statusNotifications: false });
  const wids = [];
  for (let i = 0; i < 5000; i++) wids.push(idOf(w.createTask(CONTEXT, 'tools/call', i % 2 ? SHORT : LONG, null)));
  for (const id of wids) w.getTask(id, CONTEXT);
  for (let i = 0; i < 100; i++) w.handle(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tasks/get', params: { taskId: wids[i] } }), CONTEXT);
  for (let i = 0; i < 50; i++) w.handle(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tasks/list', params: {} }), CONTEXT);
  wnow += SHORT + 1;
  w.handleTimeout();
  while (w.pollOutput()) {}
  w.free();
}

const wasm0 = wasmMemoryBytes();
let t = performance.now();
const ids = new Array(n);
for (let i = 0; i < n; i++) ids[i] = idOf(engine.createTask(CONTEXT, 'tools/call', i % 10 === 0 ? SHORT : LONG, null));
const setupMs = performance.now() - t;
if (engine.taskCount !== n) throw new Error(`taskCount ${engine.taskCount}`);
const wasmBytesPerTask = (wasmMemoryBytes() - wasm0) / n;

// Deterministic pseudo-random picks (xorshift32).
let seed = 2463534242;
const rand = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) / 4294967296);
const picks = Array.from({ length: GETS }, () => ids[Math.floor(rand() * n)]);
const wireGets = picks.map((taskId, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tasks/get', params: { taskId } }));

/**
 * Per-op samples. On a shared machine the scheduler's 4 ms slices land in some samples; those
 * during which the process was preempted (an involuntary context switch, from getrusage) are
 * left out of p50/p99 and counted (`preempted`); `p99raw` keeps them.
 */
function timeEach(count, fn) {
  // warm-up on the same path, then per-op samples
  for (let i = 0; i < Math.min(count, 2000); i++) fn(i);
  gc();
  const s = new Float64Array(count);
  const clean = [];
  for (let i = 0; i < count; i++) {
    const cs = process.resourceUsage().involuntaryContextSwitches;
    const a = performance.now();
    fn(i);
    s[i] = (performance.now() - a) * 1e6;
    if (process.resourceUsage().involuntaryContextSwitches === cs) clean.push(s[i]);
  }
  return {
    p50: quantile(clean, 0.5),
    p99: quantile(clean, 0.99),
    p99raw: quantile(s, 0.99),
    mean: s.reduce((x, y) => x + y, 0) / count,
    preempted: count - clean.length,
    samples: count,
  };
}

const get = timeEach(GETS, (i) => {
  if (engine.getTask(picks[i], CONTEXT) === null) throw new Error('lost task');
});
const wire = timeEach(GETS, (i) => {
  engine.handle(wireGets[i], CONTEXT);
});
// The warm-up of timeEach creates too: count them out of the growth.
const create = timeEach(CREATES, () => engine.createTask(CONTEXT, 'tools/call', LONG, null));

let cursor = null;
const list = timeEach(PAGES, (i) => {
  const params = cursor === null ? {} : { cursor };
  const reply = engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 900_000 + i, method: 'tasks/list', params }), CONTEXT);
  const c = reply.indexOf('"nextCursor":"');
  cursor = c < 0 ? null : reply.slice(c + 14, reply.indexOf('"', c + 14));
});

gc();
const live = engine.taskCount;
now = T0 + SHORT + 1;
t = performance.now();
engine.handleTimeout();
const sweepNs = (performance.now() - t) * 1e6;
t = performance.now();
let expired = 0;
for (let out; (out = engine.pollOutput()); ) if (out.kind === 'expired') expired++;
const drainNs = (performance.now() - t) * 1e6;
if (expired !== Math.ceil(n / 10)) throw new Error(`expired ${expired}, expected ${Math.ceil(n / 10)}`);
if (engine.taskCount !== live - expired) throw new Error('taskCount after sweep');

console.log(
  JSON.stringify({
    n,
    setupMs,
    setupNsPerTask: (setupMs / n) * 1e6,
    wasmBytesPerTask,
    get,
    wireGet: wire,
    create,
    list,
    sweep: { live, expired, sweepNs, nsPerExpired: sweepNs / expired, drainNsPerExpired: drainNs / expired },
  }),
);
