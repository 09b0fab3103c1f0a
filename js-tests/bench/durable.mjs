// Durable storage numbers (a benchmark, never a test): WasmTaskStore in memory vs on Redis
// (mcp-task-core/redis, a local redis-server with AOF fsync always), per operation: time and
// Redis round trips; then MCP servers on Redis behind our proxy: throughput of one instance vs two.
//
//   scripts/bench.sh --durable        (or: node js-tests/bench/durable.mjs, after a build)
// Env: BENCH_PKG_DIR (default <repo>/pkg). Prints a table; writes js-tests/bench/durable-results.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Redis from 'ioredis';
import { createTask, rpc, startProxy, startRedis, startServer } from '../durable/lib.mjs';
import { BENCH_DIR, PKG_DIR, cpuModel } from './lib.mjs';

const { WasmTaskStore } = await import(pathToFileURL(path.join(PKG_DIR, 'adapters/sdk-v1.js')).href);
const { redisStorage } = await import(pathToFileURL(path.join(PKG_DIR, 'storage/redis.js')).href);

const N = Number(process.env.DURABLE_BENCH_N ?? 2000);
const text = { content: [{ type: 'text', text: 'x'.repeat(200) }] };
const req = { method: 'tools/call', params: { name: 'bench' } };

/** Runs each operation over N tasks, sequentially awaited; µs per op and round trips per op. */
async function perOperation(store, storage) {
  const rows = {};
  const ids = [];
  const measure = async (name, fn) => {
    const trips0 = storage?.roundTrips ?? 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) await fn(i);
    const us = Number(process.hrtime.bigint() - t0) / 1000 / N;
    rows[name] = { us: +us.toFixed(1), roundTrips: storage ? +((storage.roundTrips - trips0) / N).toFixed(2) : 0 };
  };
  await store.createTask({ ttl: 600_000 }, 0, req, 'warm'); // loads the scripts
  await store.listTasks(undefined, 'warm');
  await measure('createTask', async (i) => ids.push((await store.createTask({ ttl: 600_000 }, i, req, `s${i % 50}`)).taskId));
  await measure('getTask', (i) => store.getTask(ids[i], `s${i % 50}`));
  await measure('updateTaskStatus', (i) => store.updateTaskStatus(ids[i], 'input_required', 'waiting', `s${i % 50}`));
  await measure('storeTaskResult', (i) => store.storeTaskResult(ids[i], 'completed', text, `s${i % 50}`));
  await measure('getTaskResult', (i) => store.getTaskResult(ids[i], `s${i % 50}`));
  await measure('listTasks (40 tasks)', (i) => store.listTasks(undefined, `s${i % 50}`));
  return rows;
}

/** Operations per second with `width` callers in flight (the store serialises its own calls). */
async function concurrent(store, width = 64) {
  const total = N;
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) {
        const i = next++;
        const t = await store.createTask({ ttl: 600_000 }, i, req, `c${i % 20}`);
        await store.storeTaskResult(t.taskId, 'completed', text, `c${i % 20}`);
        await store.getTask(t.taskId, `c${i % 20}`);
      }
    }),
  );
  return Math.round((3 * total) / ((Date.now() - t0) / 1000));
}

/** Requests per second through the proxy: tools/call as a task, then two tasks/get of it. */
async function throughput(backends, cycles = Math.min(N, 1500), width = 64) {
  const proxy = await startProxy(backends);
  let next = 0;
  const t0 = Date.now();
  try {
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < cycles) {
          next++;
          const { task } = await createTask(proxy.url, 'work', { ms: 0 });
          for (let k = 0; k < 2; k++) {
            const r = await rpc(proxy.url, 'tasks/get', { taskId: task.taskId });
            if (!r.result) throw new Error(JSON.stringify(r));
          }
        }
      }),
    );
  } finally {
    await proxy.close();
  }
  return Math.round((3 * cycles) / ((Date.now() - t0) / 1000));
}

const redis = await startRedis();
const client = new Redis({ host: '127.0.0.1', port: redis.port });
const results = { date: new Date().toISOString(), cpu: cpuModel(), cores: os.cpus().length, node: process.version, n: N };
try {
  const memory = new WasmTaskStore({ timer: false });
  results.memory = await perOperation(memory, null);
  const storage = redisStorage(client, { prefix: 'bench:' });
  const onRedis = new WasmTaskStore({ storage, leaseMs: 30_000 });
  results.redis = await perOperation(onRedis, storage);
  results.concurrentOpsPerSec = { memory: await concurrent(new WasmTaskStore({ timer: false })), redis: await concurrent(new WasmTaskStore({ storage: redisStorage(client, { prefix: 'bench2:' }) })) };
  onRedis.cleanup();
  memory.cleanup();

  const a = await startServer({ redisPort: redis.port, name: 'a', pollMs: 1000, leaseMs: 30_000, storageTimeoutMs: 10_000 });
  const b = await startServer({ redisPort: redis.port, name: 'b', pollMs: 1000, leaseMs: 30_000, storageTimeoutMs: 10_000 });
  try {
    await throughput([a, b], 200); // warm-up
    const one = await throughput([a]);
    const two = await throughput([a, b]);
    const oneAgain = await throughput([a]);
    results.httpCyclesPerSec = { oneInstance: Math.round((one + oneAgain) / 2), twoInstances: two, ratio: +(two / ((one + oneAgain) / 2)).toFixed(2) };
  } finally {
    await a.kill('SIGTERM');
    await b.kill('SIGTERM');
  }
} finally {
  client.disconnect();
  await redis.stop();
}

console.log(`\nDurable storage: ${results.cpu}, ${results.cores} cores, Node ${results.node}, N=${N}`);
console.log('\n| operation | in memory (µs) | on Redis (µs) | Redis round trips per op |');
console.log('|---|---|---|---|');
for (const op of Object.keys(results.memory)) {
  console.log(`| ${op} | ${results.memory[op].us} | ${results.redis[op].us} | ${results.redis[op].roundTrips} |`);
}
console.log(`\nStore calls per second, 64 callers in flight (create + storeTaskResult + get): in memory ${results.concurrentOpsPerSec.memory}, on Redis ${results.concurrentOpsPerSec.redis}`);
const h = results.httpCyclesPerSec;
console.log(`MCP servers on Redis behind the proxy (tools/call task + 2 tasks/get, 64 in flight, requests/s): one instance ${h.oneInstance}/s, two instances ${h.twoInstances}/s (x${h.ratio})`);
fs.writeFileSync(path.join(BENCH_DIR, 'durable-results.json'), JSON.stringify(results, null, 2) + '\n');
