// Redis faults under an MCP server (SDK 1.x, WasmTaskStore on Redis):
// - Redis killed (SIGKILL) and restarted from its AOF in the middle of a stream of task
//   creations and completions: no acknowledged task is lost, work goes on after it;
// - Redis paused (CLIENT PAUSE) and Redis down: the requestor gets a clear JSON-RPC error
//   within the storage timeout, and every record is intact and usable when Redis is back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { createTask, rpc, sleep, startRedis, startServer, until } from './lib.mjs';

const STORAGE_TIMEOUT_MS = 1000;

let redis;
let server;
let admin;
before(async () => {
  redis = await startRedis();
  server = await startServer({ redisPort: redis.port, name: 'a', leaseMs: 10_000, pollMs: 200, storageTimeoutMs: STORAGE_TIMEOUT_MS });
  admin = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 50 });
  admin.on('error', () => {});
});
after(async () => {
  admin?.disconnect();
  await server?.kill();
  await redis?.stop();
});

const get = (taskId, opts) => rpc(server.url, 'tasks/get', { taskId }, opts);

/** Every record Redis holds parses, and its task reads back through the server the same. */
async function assertIntact(ids) {
  for (const id of ids) {
    const record = await admin.hget(`mcp-task:t:${id}`, 'r');
    assert.ok(record, `record of ${id} in Redis`);
    const parsed = JSON.parse(record);
    assert.equal(parsed.id, id);
    assert.equal(String(parsed.v), await admin.hget(`mcp-task:t:${id}`, 'v'), `${id}: version field and record agree`);
    const task = await get(id);
    assert.equal(task.result?.status, parsed.status, `${id}: ${JSON.stringify(task)}`);
  }
}

test('Redis SIGKILLed and restarted from its AOF mid-run: no acknowledged task is lost', { timeout: 60_000 }, async (t) => {
  const acknowledged = [];
  const refused = [];
  let stop = false;
  const creators = Array.from({ length: 6 }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const r = await rpc(server.url, 'tools/call', { name: 'work', arguments: { ms: (i * 7 + w) % 50 }, task: { ttl: 600_000 } });
      if (r.result?.task) acknowledged.push(r.result.task.taskId);
      else {
        assert.equal(r.error?.code, -32603, `neither a task nor a storage error: ${JSON.stringify(r)}`);
        assert.match(r.error.message, /Task storage unavailable/);
        refused.push(r.error.message);
      }
    }
  });
  await until(() => acknowledged.length >= 100, '100 tasks before the kill');
  const beforeKill = acknowledged.length;
  await redis.kill('SIGKILL');
  await sleep(1500); // creations and completions meet a dead Redis for longer than the storage timeout
  await redis.restart();
  await until(() => acknowledged.length >= beforeKill + 100, '100 more tasks after the restart', 15_000);
  stop = true;
  await Promise.all(creators);
  // Every acknowledged task is there; the work finishes (its completions were retried or are new).
  const pending = new Set(acknowledged);
  const done = await until(
    async () => {
      for (const id of [...pending]) {
        const r = await get(id);
        if (r.result?.status === 'completed') pending.delete(id);
        else if (r.result?.status !== 'working') {
          // Only "storage busy" is a reason to look again; "not found" would be a lost task.
          assert.equal(r.error?.code, -32603, `${id} lost or odd: ${JSON.stringify(r)}`);
          assert.match(r.error.message, /Task storage unavailable/);
        }
      }
      return pending.size === 0 && acknowledged.length;
    },
    'every acknowledged task to complete',
    20_000,
    200,
  );
  // A creation whose caller got the storage error may still have been written when Redis came
  // back (its outcome was unknown at the timeout): such tasks exist without having been acknowledged.
  const stored = (await admin.keys('mcp-task:t:*')).length;
  assert.ok(stored >= acknowledged.length && stored <= acknowledged.length + refused.length, `${stored} records for ${acknowledged.length} acknowledged + ${refused.length} refused creations`);
  const lostWork = server.events.filter((e) => e.ev === 'error');
  assert.deepEqual(lostWork, [], 'work that could not store its result');
  const retried = new Set(server.events.filter((e) => e.ev === 'retry').map((e) => e.taskId)).size;
  t.diagnostic(
    `Redis killed after ${beforeKill} acknowledged creations, restarted from AOF; ${acknowledged.length} acknowledged in all, ${done} found completed, 0 lost; ${stored - acknowledged.length} unacknowledged creations written late; ${refused.length} creations answered with a storage error (-32603); ${retried} results stored after retries by their work`,
  );
  await assertIntact(acknowledged.slice(0, 50));
});

test('Redis paused (CLIENT PAUSE) and Redis down: a clear JSON-RPC error within the timeout; intact afterwards', { timeout: 60_000 }, async (t) => {
  const { task: held } = await createTask(server.url, 'hold', { status: 'input_required' });
  const { task: done } = await createTask(server.url, 'work', { ms: 0 });
  await until(async () => (await get(held.taskId)).result?.status === 'input_required', 'input_required');
  await until(async () => (await get(done.taskId)).result?.status === 'completed', 'completed');

  // Paused: reads and writes wait on Redis; the requestor gets -32603 after the storage timeout.
  await admin.call('CLIENT', 'PAUSE', '2500', 'ALL');
  const pausedAt = Date.now();
  const [read, cancel, create] = await Promise.all([
    get(held.taskId),
    rpc(server.url, 'tasks/cancel', { taskId: done.taskId }),
    rpc(server.url, 'tools/call', { name: 'work', arguments: { ms: 0 }, task: { ttl: 600_000 } }),
  ]);
  const waited = Date.now() - pausedAt;
  // (The SDK's tasks/cancel handler re-codes a store error as -32600 "Failed to cancel task: ...".)
  for (const [r, code] of [[read, -32603], [cancel, -32600], [create, -32603]]) {
    assert.equal(r.error?.code, code, JSON.stringify(r));
    assert.match(r.error.message, /Task storage unavailable: no answer within 1000 ms/);
  }
  assert.ok(waited < STORAGE_TIMEOUT_MS + 800, `answered after ${waited} ms`);
  await until(async () => (await get(held.taskId, { timeoutMs: 5000 })).result?.status === 'input_required', 'Redis back from the pause', 10_000, 100);
  // A completed task stays completed (the cancel was refused or never ran), the other as it was.
  assert.equal((await get(done.taskId)).result.status, 'completed');
  await assertIntact([held.taskId, done.taskId]);

  // Down: the client sees the error as fast, and the server recovers when Redis is back.
  await redis.kill('SIGKILL');
  const downAt = Date.now();
  const [down1, down2] = await Promise.all([get(held.taskId), rpc(server.url, 'tasks/list', {})]);
  const downWaited = Date.now() - downAt;
  // (The SDK's tasks/list handler re-codes a store error as -32602 "Failed to list tasks: ...".)
  for (const [r, code] of [[down1, -32603], [down2, -32602]]) {
    assert.equal(r.error?.code, code, JSON.stringify(r));
    assert.match(r.error.message, /Task storage unavailable/);
  }
  assert.ok(downWaited < STORAGE_TIMEOUT_MS + 800, `answered after ${downWaited} ms`);
  await redis.start();
  await until(async () => (await get(held.taskId)).result?.status === 'input_required', 'the server to use Redis again', 10_000, 100);
  const cancelled = await rpc(server.url, 'tasks/cancel', { taskId: held.taskId });
  assert.equal(cancelled.result?.status, 'cancelled', JSON.stringify(cancelled));
  await until(() => server.eventsOf(held.taskId).some((e) => e.ev === 'aborted'), 'the held work to stop');
  await assertIntact([held.taskId, done.taskId]);
  t.diagnostic(`paused: errors after ${waited} ms; down: errors after ${downWaited} ms; records intact after both`);
});
