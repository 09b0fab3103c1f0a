// Two SDK 2.x server processes (TasksExtension) on one Redis, the client sending each request to
// the instance it names: a task created on A is read, cancelled and answered on B. A cancel on B
// fires the AbortSignal of the work running on A, and an answer given to B (tasks/update) reaches
// the work waiting for it on A; both at A's next lease renewal.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SDK2_FIXTURE, rpc, startRedis, startServer, until } from './lib.mjs';

const POLL_MS = 200;

let redis;
let a;
let b;
before(async () => {
  redis = await startRedis();
  [a, b] = await Promise.all(['a', 'b'].map((name) => startServer({ fixture: SDK2_FIXTURE, redisPort: redis.port, name, pollMs: POLL_MS })));
});
after(async () => {
  await a?.kill();
  await b?.kill();
  await redis?.stop();
});

const call = async (server, method, params) => {
  const r = await rpc(server.url, method, params, { modern: true });
  assert.ok(r.result, `${method} on ${server.name}: ${JSON.stringify(r)}`);
  return r.result;
};

test('create on A; tasks/get and tasks/cancel on B; the cancel fires the AbortSignal of the work on A', async (t) => {
  const { taskId } = await call(a, 'tools/call', { name: 'work', arguments: { ms: 600_000 } });
  await until(() => a.eventsOf(taskId).some((e) => e.ev === 'started'), 'the work to start on A');
  assert.equal((await call(b, 'tasks/get', { taskId })).status, 'working');
  const cancelledAt = Date.now();
  await call(b, 'tasks/cancel', { taskId });
  const aborted = await until(() => a.eventsOf(taskId).find((e) => e.ev === 'aborted'), "the work on A to see its signal fire", 3000);
  const after = aborted.at - cancelledAt;
  assert.equal(aborted.reason, 'cancelled');
  assert.ok(after <= POLL_MS + 500, `the signal fired ${after} ms after the cancel on B (lease renewal every ${POLL_MS} ms)`);
  for (const server of [a, b]) assert.equal((await call(server, 'tasks/get', { taskId })).status, 'cancelled', server.name);
  assert.deepEqual(b.events, [], 'B ran no work');
  t.diagnostic(`cancel on B reached the work on A after ${after} ms`);
});

test('create on A; the input request read and answered (tasks/update) on B; the answer reaches the work on A', async (t) => {
  const { taskId } = await call(a, 'tools/call', { name: 'ask', arguments: {} });
  const waiting = await until(async () => {
    const task = await call(b, 'tasks/get', { taskId });
    return task.status === 'input_required' && task;
  }, 'the task to wait for input, seen on B');
  const [key] = Object.keys(waiting.inputRequests);
  assert.equal(waiting.inputRequests[key].params.message, 'Which colour?');
  const answeredAt = Date.now();
  await call(b, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { colour: 'teal' } } } });
  const answered = await until(() => a.eventsOf(taskId).find((e) => e.ev === 'answered'), 'the answer to reach the work on A', 3000);
  assert.deepEqual(answered.answer, { action: 'accept', content: { colour: 'teal' } });
  const done = await until(async () => {
    const task = await call(b, 'tasks/get', { taskId });
    return task.status === 'completed' && task;
  }, 'the task to complete, seen on B');
  assert.deepEqual(done.result.content, [{ type: 'text', text: 'colour: teal' }]);
  assert.deepEqual(b.events, [], 'B ran no work');
  t.diagnostic(`answer given to B reached the work on A after ${answered.at - answeredAt} ms`);
});
