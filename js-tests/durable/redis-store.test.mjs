// mcp-task-core/redis and WasmTaskStore({ storage }) as a user gets them (the packed package,
// ESM and CommonJS, types), on a real redis-server: round trips per operation, TTL expiry in
// Redis at the engine's deadline, listing, a stale instance's write caught by the
// compare-and-set, and a bad storage reported clearly.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { installPackage, JS_TESTS_DIR } from '../helpers/package.mjs';
import { sleep, startRedis, until } from './lib.mjs';

let pkg;
let redis;
let client;
let sdk;
let redisMod;
before(async () => {
  pkg = installPackage({ prefix: 'mcp-task-core-redis-' });
  fs.writeFileSync(
    path.join(pkg.dir, 'probe-redis.mjs'),
    "export * from 'mcp-task-core/sdk';\nexport * from 'mcp-task-core/redis';\nexport * from 'mcp-task-core/storage';\nexport { TextTaskEngine } from 'mcp-task-core';\n",
  );
  const mod = await import(pathToFileURL(path.join(pkg.dir, 'probe-redis.mjs')).href);
  sdk = mod;
  redisMod = mod;
  redis = await startRedis();
  client = new Redis({ host: '127.0.0.1', port: redis.port });
});
after(async () => {
  client?.disconnect();
  await redis?.stop();
  pkg?.cleanup();
});

const text = (t) => ({ content: [{ type: 'text', text: t }] });

test('exports: ./redis for import and require, ./durable-object for workerd; files in the tarball', () => {
  for (const f of ['storage/redis.js', 'storage/redis.cjs', 'types/redis.d.ts', 'types/redis.d.cts', 'storage/storage.js', 'storage/storage.cjs', 'types/storage.d.ts', 'types/storage.d.cts', 'adapters/durable-object.js', 'types/durable-object.d.ts']) {
    assert.ok(pkg.files.includes(f), `${f} in the tarball`);
  }
  const cjs = createRequire(path.join(pkg.dir, 'x.cjs'))('mcp-task-core/redis');
  assert.equal(typeof cjs.redisStorage, 'function');
  assert.equal(typeof createRequire(path.join(pkg.dir, 'x.cjs'))('mcp-task-core/storage').StorageLoop, 'function');
  assert.equal(typeof redisMod.redisStorage, 'function');
  assert.equal(pkg.packageJson.exports['./durable-object'].workerd, './adapters/durable-object.js');
  assert.throws(() => redisMod.redisStorage({}), /ioredis .* node-redis/);
  assert.throws(() => new sdk.WasmTaskStore({ storage: { load() {} } }), /options\.storage\.loadContext must be a function/);
  const storage = redisMod.redisStorage(client);
  assert.throws(() => new sdk.WasmTaskStore({ storage, cursorKey: 'not hex' }), /cursorKey must be 32 hexadecimal digits/);
});

test('one round trip per operation; expiry in Redis at the TTL deadline; a stale write is caught', async () => {
  const storage = redisMod.redisStorage(client, { prefix: 'rt:' });
  const a = new sdk.WasmTaskStore({ storage, leaseMs: 10_000, pollIntervalMs: 1000 });
  const b = new sdk.WasmTaskStore({ storage: redisMod.redisStorage(client, { prefix: 'rt:' }), leaseMs: 10_000 });
  const trips = async (fn) => {
    const before = storage.roundTrips;
    const value = await fn();
    return [storage.roundTrips - before, value];
  };
  const req = { method: 'tools/call', params: { name: 'x' } };
  // The first call of each script on a fresh Redis costs one more (NOSCRIPT, then EVAL loads it).
  const [warmTrips] = await trips(() => a.createTask({ ttl: 60_000 }, 0, req, 'warm-up'));
  assert.equal(warmTrips, 2);
  await a.listTasks(undefined, 'warm-up');
  const [createTrips, task] = await trips(() => a.createTask({ ttl: 60_000 }, 1, req, 'S'));
  assert.equal(createTrips, 1, 'createTask: one script call');
  const [getTrips, got] = await trips(() => a.getTask(task.taskId, 'S'));
  assert.equal(getTrips, 1, 'getTask: one load');
  assert.equal(got.status, 'working');
  const [updateTrips] = await trips(() => a.updateTaskStatus(task.taskId, 'input_required', 'waiting', 'S'));
  assert.equal(updateTrips, 1, 'a write on a task held here: one compare-and-set');
  const [listTrips, page] = await trips(() => a.listTasks(undefined, 'S'));
  assert.equal(listTrips, 1, 'listTasks: one script call');
  assert.deepEqual(page.tasks.map((t) => t.taskId), [task.taskId]);
  // B cancels; A's copy is stale: its write conflicts, is decided again on the record, refused.
  await b.updateTaskStatus(task.taskId, 'cancelled', undefined, 'S');
  const [staleTrips, refusal] = await trips(() => a.storeTaskResult(task.taskId, 'completed', text('late'), 'S').catch((e) => e));
  assert.equal(refusal.reason, 'task_cancelled', String(refusal));
  assert.equal(staleTrips, 1, 'the conflict answer carries the stored record: no extra load');
  assert.equal((await a.getTask(task.taskId, 'S')).status, 'cancelled');
  // Another session sees nothing, through either instance.
  assert.equal(await b.getTask(task.taskId, 'T'), null);
  // Expiry: the record carries the TTL deadline to Redis (PEXPIREAT), and the engine agrees.
  const short = await a.createTask({ ttl: 300 }, 2, req, 'S');
  const pttl = await client.pttl(`rt:t:${short.taskId}`);
  assert.ok(pttl > 0 && pttl <= 300, `PTTL ${pttl}`);
  await sleep(350);
  assert.equal(await client.exists(`rt:t:${short.taskId}`), 0, 'Redis dropped the expired record');
  assert.equal(await b.getTask(short.taskId, 'S'), null);
  assert.equal(await a.getTask(short.taskId, 'S'), null);
  assert.deepEqual((await b.listTasks(undefined, 'S')).tasks.map((t) => t.taskId), [task.taskId]);
  assert.deepEqual(await client.zrange('rt:c:s:S', 0, -1), [task.taskId], 'the listing forgot the expired task');
  a.cleanup();
  b.cleanup();
});

test('mcp-task-core/storage: any host (here a bare TextTaskEngine) runs the same loop over Redis', async () => {
  const { StorageLoop, TextTaskEngine } = sdk;
  const engine = (id) => new TextTaskEngine({ storage: { instanceId: id, leaseMs: 5000 }, tools: { slow: 'required' } });
  const outputs = [];
  const loopA = new StorageLoop(redisMod.redisStorage(client, { prefix: 'raw:' }), { onOutput: (o) => outputs.push(o) });
  const a = engine('raw-a');
  const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', task: { ttl: 60_000 } } });
  assert.equal(await loopA.run(a, { write: true }, (e) => e.handle(call, 'ctx')), null, 'the reply is an output, behind the write');
  const reply = outputs.find((o) => o.kind === 'send' && o.inReplyTo === '7');
  const taskId = JSON.parse(reply.message).result.task.taskId;
  assert.ok(outputs.some((o) => o.kind === 'execute' && o.taskId === taskId));
  await loopA.run(a, { taskId, write: true }, (e) => e.complete(taskId, '{"content":[]}'));
  const b = engine('raw-b');
  const loopB = new StorageLoop(redisMod.redisStorage(client, { prefix: 'raw:' }));
  const seen = await loopB.run(b, { taskId }, (e) => JSON.parse(e.getTask(taskId, 'ctx')));
  assert.equal(seen.status, 'completed');
  await assert.rejects(loopB.run(b, { taskId, write: true }, (e) => e.cancelTask(taskId, 'ctx', null)), (err) => err.code === 'already_terminal');
  a.free();
  b.free();
});

test('the message queue’s synchronous look-ups leave the engine’s writes to the storage loop', async () => {
  let now = Date.now();
  const store = new sdk.WasmTaskStore({ storage: redisMod.redisStorage(client, { prefix: 'mq:' }), now: () => now, leaseMs: 3000, pollIntervalMs: 1000 });
  const queue = new sdk.WasmTaskMessageQueue({ taskStore: store });
  const task = await store.createTask({ ttl: 60_000 }, 1, { method: 'tools/call' }, 'S');
  now += 1500; // a lease renewal is due: the queue's look-up below ticks the engine
  await queue.enqueue(task.taskId, { type: 'notification', message: { jsonrpc: '2.0', method: 'x' }, timestamp: 1 }, 'S');
  await store.storeTaskResult(task.taskId, 'completed', text('done'), 'S');
  const record = JSON.parse(await client.hget(`mq:t:${task.taskId}`, 'r'));
  assert.equal(record.status, 'completed');
  // The renewal the look-up made waited in the engine and went out with the result (one write),
  // instead of being drained and lost (then the result's write conflicted with a version never written).
  assert.equal(record.v, 2);
  store.cleanup();
  queue.cleanup();
});

test('a cancel on another instance reaches onTaskCancelled at the next renewal', async () => {
  const mk = () => new sdk.WasmTaskStore({ storage: redisMod.redisStorage(client, { prefix: 'cx:' }), leaseMs: 3000, pollIntervalMs: 100 });
  const a = mk();
  const b = mk();
  const stopped = [];
  a.onTaskCancelled((id, session) => stopped.push([id, session, Date.now()]));
  const task = await a.createTask({ ttl: 60_000 }, 1, { method: 'tools/call' }, 'S');
  await b.updateTaskStatus(task.taskId, 'cancelled', 'stop', 'S');
  const at = Date.now();
  await until(() => stopped.length === 1, 'onTaskCancelled on A', 2000, 10);
  assert.deepEqual(stopped[0].slice(0, 2), [task.taskId, 'S']);
  assert.ok(stopped[0][2] - at <= 1000, `after ${stopped[0][2] - at} ms`);
  a.cleanup();
  b.cleanup();
});

test('types: storage options, redisStorage, onTaskCancelled (tsc, ESM and CJS)', { timeout: 60_000 }, () => {
  const dir = pkg.dir;
  fs.writeFileSync(
    path.join(dir, 'storage-check.mts'),
    `import { WasmTaskStore, type TaskStorage } from 'mcp-task-core/sdk';
import { redisStorage, type RedisTaskStorage } from 'mcp-task-core/redis';
import { StorageLoop } from 'mcp-task-core/storage';
import type { TextTaskEngine, TextTaskEngineOutput } from 'mcp-task-core';
declare const ioredisLike: { call(command: string, ...args: (string | number)[]): Promise<unknown> };
const storage: RedisTaskStorage = redisStorage(ioredisLike, { prefix: '{tasks}:' });
declare const clusterLike: { call(command: string, ...args: (string | number)[]): Promise<unknown>; isCluster: boolean };
const replicated: RedisTaskStorage = redisStorage(clusterLike, { replicas: 1, replicaTimeoutMs: 500 });
// @ts-expect-error replicas is a count
redisStorage(clusterLike, { replicas: '1' });
const asStorage: TaskStorage = storage;
const store = new WasmTaskStore({ storage: asStorage, instanceId: 'boot-1', leaseMs: 30_000, storageTimeoutMs: 2000 });
const stop: () => void = store.onTaskCancelled((taskId: string, sessionId: string | undefined) => void [taskId, sessionId]);
const trips: number = storage.roundTrips;
const loop = new StorageLoop(storage, { timeoutMs: 1000, onOutput: (o: TextTaskEngineOutput) => void o.kind });
declare const engine: TextTaskEngine;
const count: Promise<number> = loop.run(engine, { taskId: 't', write: false }, (e) => e.taskCount);
void [stop, trips, count, replicated, loop.tick(engine)];
// @ts-expect-error a storage needs load, loadContext and write
new WasmTaskStore({ storage: { load: async () => null } });
`,
  );
  fs.writeFileSync(
    path.join(dir, 'storage-check.cts'),
    `import { redisStorage } from 'mcp-task-core/redis';
import { WasmTaskStore } from 'mcp-task-core/sdk';
declare const nodeRedisLike: { sendCommand(args: string[]): Promise<unknown> };
export = new WasmTaskStore({ storage: redisStorage(nodeRedisLike) });
`,
  );
  fs.copyFileSync(path.join(pkg.installed, 'types/redis.d.ts'), path.join(dir, 'redis-decl.mts'));
  fs.copyFileSync(path.join(pkg.installed, 'types/redis.d.cts'), path.join(dir, 'redis-decl.cts'));
  fs.copyFileSync(path.join(pkg.installed, 'types/storage.d.ts'), path.join(dir, 'storage-decl.mts'));
  // The SDK's types resolve from js-tests/node_modules.
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', '@modelcontextprotocol'), path.join(dir, 'node_modules', '@modelcontextprotocol'));
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', 'zod'), path.join(dir, 'node_modules', 'zod'));
  const tsc = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
  try {
    execFileSync(process.execPath, [tsc, ...args, 'storage-check.mts', 'storage-check.cts', 'redis-decl.mts', 'redis-decl.cts', 'storage-decl.mts'], { cwd: dir, encoding: 'utf8' });
  } catch (err) {
    assert.fail(`tsc failed:\n${err.stdout}${err.stderr}`);
  }
});
