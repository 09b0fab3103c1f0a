// Redis killed under the SDK 2.x runtime (TasksExtension on Redis, the tasks extension of
// 2026-07-28): in the middle of a stream of task creations and completions Redis is SIGKILLed
// and, after longer than the storage timeout, restarted from its AOF. No acknowledged task is
// lost and every one completes (the runtime stores each outcome once Redis is back); meanwhile
// requests get a clear -32603 within the storage timeout, never a hang; the same server process
// goes on once Redis is back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SDK2_FIXTURE, rpc, sleep, startRedis, startServer, until } from './lib.mjs';

const STORAGE_TIMEOUT_MS = 1000;

let redis;
let server;
before(async () => {
  redis = await startRedis();
  server = await startServer({ fixture: SDK2_FIXTURE, redisPort: redis.port, name: 'a', leaseMs: 10_000, storageTimeoutMs: STORAGE_TIMEOUT_MS });
});
after(async () => {
  await server?.kill();
  await redis?.stop();
});

const send = (method, params) => rpc(server.url, method, params, { modern: true });

/** A storage error as the client sees it: -32603 naming the storage. */
function assertStorageError(r, what) {
  assert.equal(r.error?.code, -32603, `${what}: neither an answer nor a storage error: ${JSON.stringify(r)}`);
  assert.match(r.error.message, /Task storage unavailable/, what);
}

test('Redis SIGKILLed and restarted mid-load: nothing acknowledged lost, -32603 meanwhile, recovery without a restart', { timeout: 60_000 }, async (t) => {
  const acknowledged = [];
  let refused = 0;
  let stop = false;
  const creators = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const r = await send('tools/call', { name: 'work', arguments: { ms: (i * 7 + w) % 40 } });
      if (r.result?.resultType === 'task') acknowledged.push(r.result.taskId);
      else {
        assertStorageError(r, 'tools/call');
        refused++;
      }
    }
  });
  await until(() => acknowledged.length >= 60, '60 tasks before the kill');
  const beforeKill = acknowledged.length;
  await redis.kill('SIGKILL');
  // Redis down: a read is answered with the storage error within the timeout.
  const downAt = Date.now();
  const down = await send('tasks/get', { taskId: acknowledged[0] });
  const waited = Date.now() - downAt;
  assertStorageError(down, 'tasks/get with Redis down');
  assert.ok(waited < STORAGE_TIMEOUT_MS + 800, `answered after ${waited} ms`);
  await sleep(Math.max(0, 1500 - waited)); // creations and completions meet a dead Redis for longer than the storage timeout
  await redis.restart();
  await until(() => acknowledged.length >= beforeKill + 60, '60 more tasks after the restart', 15_000);
  stop = true;
  await Promise.all(creators);
  // Every acknowledged task is there and completes: outcomes that met the dead Redis were
  // stored once it was back.
  const pending = new Set(acknowledged);
  await until(
    async () => {
      for (const id of [...pending]) {
        const r = await send('tasks/get', { taskId: id });
        if (r.result?.status === 'completed') pending.delete(id);
        else if (r.result?.status !== 'working') assertStorageError(r, `${id} lost or odd`);
      }
      return pending.size === 0;
    },
    () => `every acknowledged task to complete (${pending.size} left)`,
    20_000,
    200,
  );
  assert.deepEqual(server.events.filter((e) => e.ev === 'error'), [], 'errors the runtime reported');
  t.diagnostic(
    `Redis killed after ${beforeKill} acknowledged creations, restarted from AOF; ${acknowledged.length} acknowledged in all, every one completed; ${refused} creations answered -32603 meanwhile; tasks/get answered -32603 after ${waited} ms with Redis down`,
  );
});
