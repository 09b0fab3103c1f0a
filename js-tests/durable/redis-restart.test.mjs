// Restart: an MCP server (SDK 1.x, WasmTaskStore on Redis) is killed with SIGKILL while tasks
// are working, completed and input_required. A new process on the same Redis finds every
// acknowledged task with its status and result; the tasks whose worker died are failed with the
// lease error once their lease ran out (bound: leaseMs after the kill), not before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTask, rpc, sleep, startRedis, startServer, until, untilFailedByLease } from './lib.mjs';

const LEASE_MS = 3000;
const POLL_MS = 200;
const N = 6; // tasks of each kind

let redis;
const servers = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const s of servers) await s.kill();
  await redis?.stop();
});

const get = async (url, taskId) => {
  const r = await rpc(url, 'tasks/get', { taskId });
  assert.ok(r.result, `tasks/get ${taskId}: ${JSON.stringify(r)}`);
  return r.result;
};

test('SIGKILL with tasks working, completed and input_required: every acknowledged task survives; dead work fails by its lease', async (t) => {
  const first = await startServer({ redisPort: redis.port, name: 'first', leaseMs: LEASE_MS, pollMs: POLL_MS });
  servers.push(first);
  const working = [];
  const completed = [];
  const waiting = [];
  for (let i = 0; i < N; i++) {
    working.push((await createTask(first.url, 'work', { ms: 600_000 })).task.taskId);
    completed.push((await createTask(first.url, 'work', { ms: i })).task.taskId);
    waiting.push((await createTask(first.url, 'hold', { status: 'input_required' })).task.taskId);
  }
  await until(async () => (await Promise.all(completed.map((id) => get(first.url, id)))).every((t) => t.status === 'completed'), 'completed tasks');
  await until(async () => (await Promise.all(waiting.map((id) => get(first.url, id)))).every((t) => t.status === 'input_required'), 'input_required tasks');
  const before = new Map();
  for (const id of [...working, ...completed, ...waiting]) before.set(id, await get(first.url, id));

  await first.kill('SIGKILL');
  const killedAt = Date.now();

  const second = await startServer({ redisPort: redis.port, name: 'second', leaseMs: LEASE_MS, pollMs: POLL_MS });
  servers.push(second);
  // Every acknowledged task is there, as it was (the leases have not run out yet).
  const early = Date.now() - killedAt;
  assert.ok(early < LEASE_MS - POLL_MS, `restart took ${early} ms: too slow to see the leases still running`);
  for (const [id, was] of before) {
    const now = await get(second.url, id);
    assert.equal(now.status, was.status, `${id} after the restart`);
    assert.equal(now.createdAt, was.createdAt);
    assert.equal(now.statusMessage, was.statusMessage);
  }
  for (const id of completed) {
    const r = await rpc(second.url, 'tasks/result', { taskId: id });
    assert.match(r.result.content[0].text, /^worked \d ms$/, `result of ${id}`);
  }
  const list = await rpc(second.url, 'tasks/list', {});
  const listed = new Set(list.result.tasks.map((t) => t.taskId));
  for (const id of before.keys()) assert.ok(listed.has(id), `${id} listed after the restart`);

  // The dead worker's tasks fail when their lease runs out: not before, and within the bound.
  const { min, max } = await untilFailedByLease({
    ids: [...working, ...waiting],
    read: (id) => get(second.url, id),
    wasStatus: (id) => before.get(id).status,
    killedAt,
    leaseMs: LEASE_MS,
    pollMs: POLL_MS,
  });
  // tasks/result of a failed task is the lease error; completed ones keep their result.
  const r = await rpc(second.url, 'tasks/result', { taskId: working[0] });
  assert.equal(r.error?.code, -32603);
  assert.match(r.error.message, /lease ran out/);
  for (const id of completed) assert.equal((await get(second.url, id)).status, 'completed');
  t.diagnostic(`killed with ${N} working, ${N} completed, ${N} input_required; all ${3 * N} there after restart; ${2 * N} failed by lease ${min}..${max} ms after the kill (lease ${LEASE_MS} ms)`);
  await sleep(0);
});
