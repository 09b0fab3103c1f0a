// Child of P9 (run with --expose-gc): node p9-burst-child.mjs wasm|sdk BURSTS N GAP_MS
// Prints one JSON line: RSS and wasm linear memory at the peak and after every task expired.
//
// BURSTS bursts of N tasks, each completed with a 1 KB result and a 3 s TTL, GAP_MS apart (so
// the live set rises and falls); then a wait until the last burst's tasks expired, full GCs, and
// the figures. RSS is what the process holds from the OS: a wasm memory that grew for a peak
// stays at its size for the life of its instance.
import { gc, wasmMemoryBytes, resultOf } from './lib.mjs';
import { makeStore, requestOf } from './p2-store.mjs';

const [kind, burstsArg, nArg, gapArg] = process.argv.slice(2);
const bursts = Number(burstsArg);
const n = Number(nArg);
const gapMs = Number(gapArg);
const BURST_TTL = 3000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const store = await makeStore(kind);
const result = resultOf(0, 1024);

let peakRss = 0;
let peakWasm = 0;
const sample = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  peakWasm = Math.max(peakWasm, wasmMemoryBytes());
};
for (let b = 0; b < bursts; b++) {
  for (let i = 0; i < n; i++) {
    const { taskId } = await store.createTask({ ttl: BURST_TTL }, i, requestOf(i), undefined);
    await store.storeTaskResult(taskId, 'completed', result, undefined);
  }
  sample();
  await sleep(gapMs);
}
// Every task expired (the stores' timers ran), then the process settles.
await sleep(BURST_TTL + 1000);
gc();
await sleep(200);
gc();
const left = (await store.listTasks(undefined, undefined)).tasks.length;
if (left !== 0) throw new Error(`${left} tasks outlived their TTL`);
const after = process.memoryUsage();
console.log(JSON.stringify({ kind, bursts, n, peakRss, peakWasm, rssAfter: after.rss, wasmAfter: wasmMemoryBytes(), heapAfter: after.heapUsed }));
store.cleanup();
