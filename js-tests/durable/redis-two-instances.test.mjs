// Two MCP server processes (SDK 1.x, WasmTaskStore) on one Redis behind our round-robin proxy:
// a task created on A is read, listed, awaited and cancelled on B; a cancel on B stops the work
// running on A (at A's next lease renewal); 1,000 concurrent complete-vs-cancel races end with
// exactly one outcome each, the one the store kept.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTask, rpc, startProxy, startRedis, startServer, until } from './lib.mjs';

const POLL_MS = 200;
const RACES = 1000;
const PAGE = 4;
const CURSOR_KEY = '0123456789abcdef0123456789abcdef'; // shared by both instances

let redis;
let a;
let b;
let proxy;
before(async () => {
  redis = await startRedis();
  [a, b] = await Promise.all([
    startServer({ redisPort: redis.port, name: 'a', pollMs: POLL_MS, cursorKey: CURSOR_KEY, pageSize: PAGE }),
    startServer({ redisPort: redis.port, name: 'b', pollMs: POLL_MS, cursorKey: CURSOR_KEY, pageSize: PAGE }),
  ]);
  proxy = await startProxy([a, b]);
});
after(async () => {
  await proxy?.close();
  await a?.kill();
  await b?.kill();
  await redis?.stop();
});

/** The proxy alternates: send pings until the next request goes to `name`. */
async function turnOf(name) {
  for (let i = 0; i < 2; i++) {
    const r = await rpc(proxy.url, 'ping', {});
    if (r.servedBy !== name) return;
  }
  throw new Error('the proxy does not alternate');
}

test('create on A; get, list, result and cancel on B; a cancel on B stops the work on A', async (t) => {
  await turnOf('a');
  const created = await createTask(proxy.url, 'work', { ms: 1200 });
  assert.equal(created.servedBy, 'a');
  const id = created.task.taskId;
  const got = await rpc(proxy.url, 'tasks/get', { taskId: id });
  assert.equal(got.servedBy, 'b');
  assert.equal(got.result.status, 'working');
  await turnOf('b');
  const listed = await rpc(proxy.url, 'tasks/list', {});
  assert.equal(listed.servedBy, 'b');
  assert.ok(listed.result.tasks.some((x) => x.taskId === id && x.status === 'working'));
  await turnOf('b');
  const result = await rpc(proxy.url, 'tasks/result', { taskId: id }); // waits on B for A's work
  assert.equal(result.servedBy, 'b');
  assert.deepEqual(result.result.content, [{ type: 'text', text: 'worked 1200 ms' }]);
  // A logs 'completed' once its store call has returned, which may be after B read the result.
  await until(() => a.eventsOf(id).some((e) => e.ev === 'completed'), "A's work to log its completion", 2000);
  assert.deepEqual(a.eventsOf(id).map((e) => e.ev), ['created', 'completed']);

  await turnOf('a');
  const long = await createTask(proxy.url, 'work', { ms: 600_000 });
  assert.equal(long.servedBy, 'a');
  const cancelled = await rpc(proxy.url, 'tasks/cancel', { taskId: long.task.taskId });
  const cancelAt = Date.now();
  assert.equal(cancelled.servedBy, 'b');
  assert.equal(cancelled.result.status, 'cancelled');
  const aborted = await until(() => a.eventsOf(long.task.taskId).find((e) => e.ev === 'aborted'), 'the work on A to be aborted', 5000);
  const latency = aborted.at - cancelAt;
  assert.ok(latency <= POLL_MS + 800, `the cancel reached A's work after ${latency} ms (renewal period ${POLL_MS} ms)`);
  await turnOf('a');
  const seen = await rpc(proxy.url, 'tasks/get', { taskId: long.task.taskId });
  assert.equal(seen.servedBy, 'a');
  assert.equal(seen.result.status, 'cancelled');
  t.diagnostic(`cancel on B reached the work on A after ${latency} ms`);
});

test('tasks/list pages through the proxy: each page from the other instance, every task once, in creation order', async () => {
  const made = [];
  for (let i = 0; i < 3 * PAGE + 1; i++) made.push((await createTask(proxy.url, 'work', { ms: 0 })).task.taskId);
  const seen = [];
  const servers = [];
  let cursor;
  do {
    const page = await rpc(proxy.url, 'tasks/list', cursor ? { cursor } : {});
    assert.ok(page.result, JSON.stringify(page));
    servers.push(page.servedBy);
    seen.push(...page.result.tasks);
    cursor = page.result.nextCursor;
  } while (cursor);
  assert.ok(servers.includes('a') && servers.includes('b'), `pages served by ${servers}`);
  const ids = seen.map((t) => t.taskId);
  assert.equal(new Set(ids).size, ids.length, 'no task twice');
  assert.deepEqual([...made].sort(), ids.filter((id) => made.includes(id)).sort(), 'every task once');
  // Creation-time order (tasks made in the same millisecond keep a fixed order among themselves).
  const times = seen.map((t) => Date.parse(t.createdAt));
  assert.ok(times.every((t, i) => i === 0 || times[i - 1] <= t), `creation order: ${times}`);
});

/** Runs `fn(i)` for i < n with at most `width` at a time. */
async function pool(n, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

test(`${RACES} concurrent complete-vs-cancel races across two instances: exactly one outcome each, no lost update`, { timeout: 120_000 }, async (t) => {
  const started = Date.now();
  const races = [];
  await pool(RACES, 40, async (i) => {
    const { task, servedBy } = await createTask(proxy.url, 'race', { delayMs: i % 7 }, 600_000);
    const cancel = await rpc(proxy.url, 'tasks/cancel', { taskId: task.taskId });
    races[i] = { id: task.taskId, createdOn: servedBy, cancel };
  });
  // Every worker has reported (its result stored or refused).
  const outcomeOf = (id) => [...a.eventsOf(id), ...b.eventsOf(id)].filter((e) => e.ev === 'completed' || e.ev === 'refused');
  await until(() => races.every((r) => outcomeOf(r.id).length > 0), 'every worker to report', 30_000, 100);
  let cancelsWon = 0;
  let completesWon = 0;
  let crossInstance = 0;
  let lateRefusals = 0;
  await pool(RACES, 40, async (i) => {
    const r = races[i];
    const outcomes = outcomeOf(r.id);
    assert.equal(outcomes.length, 1, `${r.id}: ${JSON.stringify(outcomes)}`);
    const completeWon = outcomes[0].ev === 'completed';
    const cancelWon = r.cancel.result?.status === 'cancelled';
    if (!cancelWon) {
      // -32602 when the SDK's own terminal check saw the result; -32600 "Failed to cancel task"
      // when the store refused the move (the completion landed between the SDK's check and it).
      assert.ok([-32602, -32600].includes(r.cancel.error?.code), `${r.id}: cancel neither won nor was refused: ${JSON.stringify(r.cancel)}`);
      assert.match(r.cancel.error.message, /terminal/);
      lateRefusals += r.cancel.error.code === -32600;
    } else assert.ok(['task_cancelled', 'already_terminal'].includes(outcomes[0].reason), `${r.id}: ${outcomes[0].reason}`);
    const final = await rpc(proxy.url, 'tasks/get', { taskId: r.id });
    assert.notEqual(completeWon, cancelWon, `${r.id}: both or neither won: ${JSON.stringify({ outcomes, cancel: r.cancel, final })}`);
    assert.equal(final.result.status, completeWon ? 'completed' : 'cancelled', `${r.id}: the store lost the winner's update`);
    if (completeWon) {
      const result = await rpc(proxy.url, 'tasks/result', { taskId: r.id });
      assert.equal(result.result?.content[0].text, `won by ${r.createdOn}`, JSON.stringify(result));
    }
    completesWon += completeWon;
    cancelsWon += cancelWon;
    crossInstance += r.cancel.servedBy !== r.createdOn;
  });
  assert.equal(completesWon + cancelsWon, RACES);
  assert.ok(completesWon > 0 && cancelsWon > 0, `no race was close: ${completesWon} completes, ${cancelsWon} cancels won`);
  assert.ok(crossInstance > RACES / 4, `only ${crossInstance} cancels ran on the other instance`);
  t.diagnostic(`${RACES} races in ${Date.now() - started} ms: ${completesWon} completed, ${cancelsWon} cancelled, ${crossInstance} cancels on the other instance, ${lateRefusals} cancels refused by the store itself`);
});
