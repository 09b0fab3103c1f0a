// Damaged records on Redis under MCP servers (SDK 1.x, WasmTaskStore on Redis), two instances:
// - an unparseable record, a key of the wrong Redis type and another task's record under a
//   key never fail a `tasks/list` page: the instance that holds no copy leaves them out and
//   reports them; a read of one answers -32603 (a server-side data problem) without storage
//   internals; the instance that holds a copy fails the task and writes that over the damage,
//   after which every instance lists and reads the same;
// - a running task whose stored version is garbage: a cancel, or the next lease renewal, meets
//   the damage at its compare-and-set: the task fails everywhere (Redis included), its work is
//   aborted, and the operator's report names what was found.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PKG_DIR } from '../helpers/package.mjs';
import { createTask, rpc, startRedis, startServer, until } from './lib.mjs';

let redis;
let a;
let b;
let admin;
before(async () => {
  redis = await startRedis();
  [a, b] = await Promise.all([
    startServer({ redisPort: redis.port, name: 'a', leaseMs: 3000, pollMs: 200 }),
    startServer({ redisPort: redis.port, name: 'b', leaseMs: 3000, pollMs: 200 }),
  ]);
  admin = new Redis({ host: '127.0.0.1', port: redis.port });
});
after(async () => {
  admin?.disconnect();
  await a?.kill();
  await b?.kill();
  await redis?.stop();
});

const key = (id) => `mcp-task:t:${id}`;
const get = (server, taskId) => rpc(server.url, 'tasks/get', { taskId });
/** Storage internals a client must never see: key names, Lua script hashes, Redis errors. */
const INTERNALS = /mcp-task:|script|[0-9a-f]{40}|WRONGTYPE|@user_script|Not a task record/i;

async function completedTask(server) {
  const { task } = await createTask(server.url, 'work', { ms: 0 });
  await until(async () => (await get(server, task.taskId)).result?.status === 'completed', `${task.taskId} completed`);
  return task.taskId;
}

/** A -32603 answer that names the damage and no storage internals. */
function assertDamaged(r, what) {
  assert.equal(r.error?.code, -32603, `${what}: ${JSON.stringify(r)}`);
  assert.match(r.error.message, /damaged/, what);
  assert.doesNotMatch(r.error.message, INTERNALS, what);
}

/** Every page of `tasks/list` on `server` (none may fail). */
async function listAll(server) {
  const tasks = [];
  let cursor;
  do {
    const r = await rpc(server.url, 'tasks/list', cursor ? { cursor } : {});
    assert.ok(r.result, `tasks/list failed: ${JSON.stringify(r)}`);
    tasks.push(...r.result.tasks);
    cursor = r.result.nextCursor;
  } while (cursor);
  return tasks;
}

/** The stored record of a task, checked to be its own and to agree with the version field. */
async function storedRecord(id) {
  const [v, r] = await admin.hmget(key(id), 'v', 'r');
  const record = JSON.parse(r);
  assert.equal(record.id, id);
  assert.equal(String(record.v), v, `${id}: version field and record agree`);
  return record;
}

test('damaged records are left out of list pages and reported; reads answer -32603; the holder repairs them', async () => {
  const sound = await completedTask(a);
  const unparseable = await completedTask(a);
  const wrongType = await completedTask(a);
  const copiedOver = await completedTask(a);
  const source = await completedTask(a);
  await admin.hset(key(unparseable), 'r', '{"v": 1, "id": "half a rec');
  await admin.del(key(wrongType));
  await admin.set(key(wrongType), 'not a hash');
  const [sv, sr] = await admin.hmget(key(source), 'v', 'r');
  await admin.hset(key(copiedOver), 'v', sv, 'r', sr);
  const damaged = [unparseable, wrongType, copiedOver];

  // B holds no copy of any of them: the page leaves the damage out and lists the rest.
  const onB = await listAll(b);
  const listed = new Map(onB.map((t) => [t.taskId, t.status]));
  assert.equal(listed.get(sound), 'completed');
  assert.equal(listed.get(source), 'completed');
  for (const id of damaged) assert.ok(!listed.has(id), `${id} listed as ${listed.get(id)}`);
  for (const id of damaged) {
    assertDamaged(await get(b, id), `tasks/get ${id} on B`);
    assertDamaged(await rpc(b.url, 'tasks/result', { taskId: id }), `tasks/result ${id} on B`);
  }
  // The operator hears of each, with what was found.
  await until(() => damaged.every((id) => b.stderr().includes(`task '${id}'`)), 'B to report every damaged record');
  assert.match(b.stderr(), new RegExp(`holds the record of task '${source}'`));
  assert.match(b.stderr(), /type:string/);
  // Once each, however often pages and reads meet the same damage.
  await listAll(b);
  for (const id of damaged) assert.equal(b.stderr().split(`key of task '${id}'`).length - 1, 1, b.stderr());

  // A holds a copy of each: it fails them and writes that over the damage.
  const onA = new Map((await listAll(a)).map((t) => [t.taskId, t.status]));
  for (const id of damaged) assert.equal(onA.get(id), 'failed', `${id} on A`);
  for (const id of damaged) {
    const record = await storedRecord(id);
    assert.equal(record.status, 'failed');
    assert.equal(record.error.code, -32603);
  }
  // Every instance now reads the same.
  const again = new Map((await listAll(b)).map((t) => [t.taskId, t.status]));
  for (const id of damaged) {
    assert.equal(again.get(id), 'failed', `${id} on B after the repair`);
    const result = await rpc(b.url, 'tasks/result', { taskId: id });
    assertDamaged(result, `tasks/result ${id} on B after the repair`);
  }
  assert.equal(again.get(source), 'completed', 'the copied task is untouched');
  assert.equal((await storedRecord(source)).status, 'completed');
});

test('another task\'s record copied under a key: the holder stops answering from its copy; a fresh instance answers -32603, then the same', async () => {
  const victim = await completedTask(a);
  const other = await completedTask(a);
  const [ov, or] = await admin.hmget(key(other), 'v', 'r');
  await admin.hset(key(victim), 'v', ov, 'r', or);

  assertDamaged(await get(b, victim), 'tasks/get on the instance without a copy');
  const onA = await get(a, victim);
  assert.equal(onA.result?.status, 'failed', `the holder: ${JSON.stringify(onA)}`);
  assert.match(onA.result.statusMessage, /damaged/);
  assert.equal((await storedRecord(victim)).status, 'failed');
  assert.equal((await get(b, victim)).result?.status, 'failed', 'the other instance reads the same');
  assert.equal((await get(b, other)).result?.status, 'completed');
  assert.equal((await get(a, other)).result?.status, 'completed');
});

test('a garbage version under a running task: the cancel fails it everywhere and aborts the work', async () => {
  const { task } = await createTask(a.url, 'work', { ms: 60_000 });
  const id = task.taskId;
  await until(() => a.eventsOf(id).some((e) => e.ev === 'created'), 'the work to start');
  await admin.hset(key(id), 'v', 'garbage');

  const cancel = await rpc(a.url, 'tasks/cancel', { taskId: id });
  // Not "cancelled" here while Redis says "working": the task failed, so nothing is left to cancel.
  assert.notEqual(cancel.result?.status, 'cancelled', JSON.stringify(cancel));
  await until(() => a.eventsOf(id).some((e) => e.ev === 'aborted'), 'the work to be aborted', 3000);
  const record = await storedRecord(id);
  assert.equal(record.status, 'failed');
  for (const server of [a, b]) {
    const got = await get(server, id);
    assert.equal(got.result?.status, 'failed', `${server.name}: ${JSON.stringify(got)}`);
    assert.doesNotMatch(got.result.statusMessage, INTERNALS);
    assertDamaged(await rpc(server.url, 'tasks/result', { taskId: id }), `tasks/result on ${server.name}`);
  }
  assert.match(a.stderr(), new RegExp(`task '${id}'.*"garbage"`));
});

test('a garbage version under a running task nobody touches: the next lease renewal fails it and aborts the work', async () => {
  const { task } = await createTask(a.url, 'work', { ms: 60_000 });
  const id = task.taskId;
  await until(() => a.eventsOf(id).some((e) => e.ev === 'created'), 'the work to start');
  await admin.hset(key(id), 'v', '12abc');
  // Renewals come every 200 ms (the poll interval): well before the 3 s lease would run out.
  await until(() => a.eventsOf(id).some((e) => e.ev === 'aborted'), 'the work to be aborted', 2500);
  assert.equal((await storedRecord(id)).status, 'failed');
  assert.equal((await get(b, id)).result?.status, 'failed');
  assert.match(a.stderr(), new RegExp(`task '${id}'.*"12abc"`));
});

test('a Redis error inside a script reaches the client without the script hash (the operator keeps it as the cause)', async () => {
  // The context's index itself of the wrong type: listing cannot work, and says so plainly.
  const index = 'mcp-task:c:-';
  await completedTask(a);
  await admin.rename(index, `${index}:saved`);
  await admin.set(index, 'not a sorted set');
  try {
    const r = await rpc(b.url, 'tasks/list', {});
    assert.ok(r.error, JSON.stringify(r));
    assert.match(r.error.message, /Task storage unavailable: WRONGTYPE/);
    assert.doesNotMatch(r.error.message, /script|[0-9a-f]{40}|@user_script/, r.error.message);
  } finally {
    await admin.rename(`${index}:saved`, index);
  }
  assert.ok((await listAll(b)).length > 0, 'listing works again');
});

test("WasmTaskStore's onDamaged option takes the operator's report in place of stderr", async () => {
  const { WasmTaskStore } = await import(pathToFileURL(path.join(PKG_DIR, 'adapters/sdk-v1.js')).href);
  const { redisStorage } = await import(pathToFileURL(path.join(PKG_DIR, 'storage/redis.js')).href);
  const client = new Redis({ host: '127.0.0.1', port: redis.port });
  const reports = [];
  const store = new WasmTaskStore({ storage: redisStorage(client), onDamaged: (detail, taskId) => reports.push({ detail, taskId }) });
  try {
    const task = await store.createTask({ ttl: 60_000 }, 1, { method: 'tools/call', params: { name: 'x' } }, 'sess-damage');
    // Another process (no copy of the task) meets the damage: the hook hears it, the caller gets -32603.
    const reader = new WasmTaskStore({ storage: redisStorage(client), onDamaged: (detail, taskId) => reports.push({ detail, taskId, reader: true }) });
    await admin.hset(key(task.taskId), 'r', '{not json');
    await assert.rejects(reader.getTask(task.taskId, 'sess-damage'), (err) => err.code === -32603 && /damaged/.test(err.message));
    assert.equal(reports.filter((r) => r.reader && r.taskId === task.taskId).length, 1, JSON.stringify(reports));
    assert.match(reports.find((r) => r.reader).detail, /cannot be used: the record is not a task record/);
    reader.cleanup();
  } finally {
    store.cleanup();
    client.disconnect();
  }
});
