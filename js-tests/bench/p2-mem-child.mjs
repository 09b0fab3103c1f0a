// Child of P2's memory measurement (run with --expose-gc): node p2-mem-child.mjs wasm|sdk N
// Prints one JSON line: bytes retained per completed task holding a 1 KB result.
//
// Counted: V8 heapUsed + arrayBuffers + the wasm linear memory's size, each as the difference
// between two points after full GCs: after WARM tasks (warm-up, fixed costs, code) and after
// WARM + N tasks. `external` is left out: Node adds a wasm memory's growth to it (it would count
// wasm twice) and it also moves with unrelated native allocations. rss is reported for
// reference only. The wasm memory never shrinks, so its growth includes allocator slack and
// the peak of transient copies (what the process really holds).
import { gc, wasmMemoryBytes } from './lib.mjs';
import { makeStore, requestOf, TTL } from './p2-store.mjs';
import { resultOf } from './lib.mjs';

const [kind, nArg] = process.argv.slice(2);
const n = Number(nArg);
const WARM = 1000;
const store = await makeStore(kind);

async function add(from, to) {
  for (let i = from; i < to; i++) {
    const { taskId } = await store.createTask({ ttl: TTL }, i, requestOf(i), undefined);
    await store.storeTaskResult(taskId, 'completed', resultOf(i, 1024), undefined);
  }
}
const snap = () => {
  gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, external: m.external, rss: m.rss, wasm: wasmMemoryBytes() };
};
await add(0, WARM);
const a = snap();
await add(WARM, WARM + n);
const b = snap();
const per = (k) => (b[k] - a[k]) / n;
const counted = per('heapUsed') + per('arrayBuffers') + per('wasm');
const check = await store.getTaskResult((await store.listTasks(undefined, undefined)).tasks[0].taskId, undefined);
if (JSON.stringify(check).length !== 1024) throw new Error('result size');
console.log(
  JSON.stringify({
    kind,
    bytesPerTask: counted,
    overheadPerTask: counted - 1024,
    heapUsedPerTask: per('heapUsed'),
    arrayBuffersPerTask: per('arrayBuffers'),
    wasmPerTask: per('wasm'),
    externalPerTask: per('external'),
    rssPerTask: per('rss'),
  }),
);
store.cleanup();
