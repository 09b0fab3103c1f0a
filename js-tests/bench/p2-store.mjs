// P2 — TaskStore drop-in: mcp-task-core/sdk's WasmTaskStore against the SDK's InMemoryTaskStore,
// called directly the way the SDK's Protocol calls a TaskStore (every method awaited, no
// session: InMemoryTransport / stdio pass sessionId undefined).
//
// Both stores get TTL 60 s tasks (the SDK's store then runs one setTimeout per task, as it does
// in production) and a fresh request object per task (the SDK's store keeps it). Ours runs with
// its own clock and expiry timer (defaults), page size 10 (the SDK's fixed page size), and
// lifted limits.
import path from 'node:path';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { BENCH_DIR, gc, importOurSdk, liftedLimits, median, phaseClock, resultOf, runNode } from './lib.mjs';

export const TTL = 60_000;
export const METHODS = ['createTask', 'getTask', 'updateTaskStatus', 'storeTaskResult', 'getTaskResult', 'listTasks'];

export async function makeStore(kind) {
  if (kind === 'sdk') return new InMemoryTaskStore();
  const { WasmTaskStore } = await importOurSdk();
  return new WasmTaskStore({ pageSize: 10, limits: liftedLimits() });
}

export const requestOf = (i) => ({ method: 'tools/call', params: { name: 'bench', arguments: { i } } });

/**
 * One pass over every method with `n` tasks; returns ns per op per method. `results` are built
 * once by the caller (and promoted to the old generation by a full GC before each timed loop),
 * so building them is not timed and their promotion does not land in either store's figures.
 */
async function methodPass(kind, n, listPages, results) {
  const store = await makeStore(kind);
  const ids = new Array(n);
  const requests = Array.from({ length: n }, (_, i) => requestOf(i));
  const out = {};
  const timed = async (name, count, body) => {
    gc();
    const t = phaseClock();
    await body();
    out[name] = ((phaseClock() - t) / count) * 1e6;
  };
  await timed('createTask', n, async () => {
    for (let i = 0; i < n; i++) ids[i] = (await store.createTask({ ttl: TTL }, i, requests[i], undefined)).taskId;
  });
  await timed('getTask', n, async () => {
    for (let i = 0; i < n; i++) if ((await store.getTask(ids[i], undefined)) === null) throw new Error('lost task');
  });
  await timed('updateTaskStatus', n, async () => {
    for (let i = 0; i < n; i++) await store.updateTaskStatus(ids[i], 'input_required', 'waiting for input', undefined);
  });
  await timed('storeTaskResult', n, async () => {
    for (let i = 0; i < n; i++) await store.storeTaskResult(ids[i], 'completed', results[i], undefined);
  });
  await timed('getTaskResult', n, async () => {
    for (let i = 0; i < n; i++) await store.getTaskResult(ids[i], undefined);
  });
  await timed('listTasks', listPages, async () => {
    let cursor;
    for (let p = 0; p < listPages; p++) cursor = (await store.listTasks(cursor, undefined)).nextCursor;
  });
  store.cleanup();
  return out;
}

/** Per-method ns/op, medians of `runs` passes after `warmup` passes, the two stores interleaved. */
export async function benchStoreOps({ n = 20_000, listPages = 200, warmup = 1, runs = 3 } = {}) {
  const samples = { ours: [], sdk: [] };
  const results = Array.from({ length: n }, (_, i) => resultOf(i, 1024));
  for (let r = 0; r < warmup + runs; r++) {
    for (const kind of ['wasm', 'sdk']) {
      const s = await methodPass(kind, n, listPages, results);
      if (r >= warmup) samples[kind === 'wasm' ? 'ours' : 'sdk'].push(s);
    }
  }
  const med = (xs) => Object.fromEntries(METHODS.map((m) => [m, median(xs.map((x) => x[m]))]));
  return { n, listPages, runs, warmup, oursNsPerOp: med(samples.ours), sdkNsPerOp: med(samples.sdk) };
}

/** listTasks per page with `n` live tasks: pages from the start and from the middle. */
export async function benchListAtScale({ n = 100_000, pages = 30 } = {}) {
  const out = {};
  for (const kind of ['wasm', 'sdk']) {
    gc();
    const store = await makeStore(kind);
    let mid;
    for (let i = 0; i < n; i++) {
      const task = await store.createTask({ ttl: TTL }, i, requestOf(i), undefined);
      if (kind === 'sdk' && i === n / 2) mid = task.taskId;
    }
    if (kind === 'wasm') {
      // Our cursors are opaque: walk to the middle.
      let cursor;
      for (let seen = 0; seen < n / 2; seen += 10) cursor = (await store.listTasks(cursor)).nextCursor;
      mid = cursor;
    }
    const times = [];
    for (const start of [undefined, mid]) {
      let cursor = start;
      for (let p = 0; p < pages + 3; p++) {
        const t = performance.now();
        const page = await store.listTasks(cursor, undefined);
        const dt = performance.now() - t;
        if (page.tasks.length !== 10) throw new Error(`${kind}: page of ${page.tasks.length}`);
        cursor = page.nextCursor;
        if (p >= 3) times.push(dt * 1e6); // 3 warm-up pages at each position
      }
    }
    out[kind === 'wasm' ? 'oursNsPerPage' : 'sdkNsPerPage'] = median(times);
    store.cleanup();
  }
  return { n, pages: pages * 2, ...out };
}

/** Retained memory per completed task with a 1 KB result: one fresh child process per store. */
export async function benchStoreMemory({ n = 20_000, runs = 3 } = {}) {
  const child = path.join(BENCH_DIR, 'p2-mem-child.mjs');
  const samples = { ours: [], sdk: [] };
  for (let r = 0; r < runs; r++) {
    for (const kind of ['wasm', 'sdk']) samples[kind === 'wasm' ? 'ours' : 'sdk'].push(await runNode(child, [kind, String(n)]));
  }
  const med = (xs) => {
    const o = {};
    for (const k of Object.keys(xs[0])) o[k] = typeof xs[0][k] === 'number' ? median(xs.map((x) => x[k])) : xs[0][k];
    return o;
  };
  return { n, runs, resultJsonBytes: 1024, ours: med(samples.ours), sdk: med(samples.sdk) };
}
