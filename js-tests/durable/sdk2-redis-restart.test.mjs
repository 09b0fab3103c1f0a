// Restart of the SDK 2.x runtime: a server (SDK 2.x McpServer, TasksExtension on Redis, the
// tasks extension of 2026-07-28) is killed with SIGKILL while tasks are working, completed and
// input_required. A new process on the same Redis finds every acknowledged task with its status,
// result and input requests, byte for byte; the tasks whose work died are failed with the lease
// error once their lease ran out (bound: leaseMs after the kill), not before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { SDK2_FIXTURE, rpc, startRedis, startServer, until, untilFailedByLease } from './lib.mjs';

const LEASE_MS = 2000;
const POLL_MS = 200;
const N = 4; // tasks of each kind

let redis;
const servers = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const s of servers) await s.kill();
  await redis?.stop();
});

const start = (name) => startServer({ fixture: SDK2_FIXTURE, redisPort: redis.port, name, leaseMs: LEASE_MS, pollMs: POLL_MS });

const call = async (url, method, params) => {
  const r = await rpc(url, method, params, { modern: true });
  assert.ok(r.result, `${method} ${JSON.stringify(params)}: ${JSON.stringify(r)}`);
  const { _meta, ...result } = r.result; // _meta names the server instance
  return result;
};
const create = async (url, name, args) => (await call(url, 'tools/call', { name, arguments: args })).taskId;
const get = (url, taskId) => call(url, 'tasks/get', { taskId });

test('SIGKILL with tasks working, completed and input_required: every acknowledged task back byte for byte; dead work fails by its lease', async (t) => {
  const first = await start('first');
  servers.push(first);
  const working = [];
  const completed = [];
  const waiting = [];
  for (let i = 0; i < N; i++) {
    working.push(await create(first.url, 'work', { ms: 600_000 }));
    completed.push(await create(first.url, 'work', { ms: i }));
    waiting.push(await create(first.url, 'ask', {}));
  }
  await until(async () => (await Promise.all(completed.map((id) => get(first.url, id)))).every((task) => task.status === 'completed'), 'completed tasks');
  await until(async () => (await Promise.all(waiting.map((id) => get(first.url, id)))).every((task) => task.status === 'input_required'), 'input_required tasks');
  const seen = new Map();
  for (const id of [...working, ...completed, ...waiting]) seen.set(id, JSON.stringify(await get(first.url, id)));

  await first.kill('SIGKILL');
  const killedAt = Date.now();

  const second = await start('second');
  servers.push(second);
  // Every acknowledged task is there, exactly as it was (the leases have not run out yet).
  const early = Date.now() - killedAt;
  assert.ok(early < LEASE_MS - POLL_MS, `restart took ${early} ms: too slow to see the leases still running`);
  for (const [id, was] of seen) assert.equal(JSON.stringify(await get(second.url, id)), was, `${id} after the restart`);
  for (const id of completed) assert.match((await get(second.url, id)).result.content[0].text, /^worked \d ms$/);
  for (const id of waiting) assert.match(JSON.stringify((await get(second.url, id)).inputRequests), /Which colour\?/);

  // The dead work's tasks fail when their lease runs out: not before, and within the bound.
  const { min, max } = await untilFailedByLease({
    ids: [...working, ...waiting],
    read: (id) => get(second.url, id),
    wasStatus: (id) => JSON.parse(seen.get(id)).status,
    killedAt,
    leaseMs: LEASE_MS,
    pollMs: POLL_MS,
    check: (task) => assert.equal(task.error?.code, -32603, JSON.stringify(task)),
  });
  for (const id of completed) assert.equal(JSON.stringify(await get(second.url, id)), seen.get(id), `${id} still completed, unchanged`);
  assert.deepEqual(second.events.filter((e) => e.ev === 'error'), [], 'errors reported by the restarted server');
  // A record damaged in Redis, of a task this instance holds: the engine fails the task and
  // writes that over the damage; the operator gets the finding (stderr), the client -32603.
  const admin = new Redis({ host: '127.0.0.1', port: redis.port });
  await admin.hset(`mcp-task:t:${completed[0]}`, 'r', '{"not":"a task"');
  const damaged = await get(second.url, completed[0]);
  assert.equal(damaged.status, 'failed');
  assert.equal(damaged.error.code, -32603);
  assert.match(damaged.error.message, /stored state of this task was damaged/);
  assert.equal(JSON.parse(await admin.hget(`mcp-task:t:${completed[0]}`, 'r')).status, 'failed', 'written over the damage');
  admin.disconnect();
  await until(() => second.stderr().includes(`the record under the key of task '${completed[0]}' cannot be used`), 'the finding on stderr', 2000);
  t.diagnostic(`killed with ${N} working, ${N} completed, ${N} input_required; all ${3 * N} back unchanged; ${2 * N} failed by lease ${min}..${max} ms after the kill (lease ${LEASE_MS} ms)`);
});
