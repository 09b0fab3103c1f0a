// WasmTaskStore / WasmTaskMessageQueue called directly, the way the SDK calls them (see
// /tmp/sdk-research/NOTES.md §2): return values, nulls, throws, sessions, TTL policy, the single
// expiry timer, JSON-serialisability.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { manualClock, McpError, ours } from './harness.mjs';

const { WasmTaskStore, WasmTaskMessageQueue, JsonRpcError, TaskStoreError, jsonRpcErrorResult, JSONRPC_ERROR_META_KEY } = ours;
const REQ = { method: 'tools/call', params: { name: 'x', arguments: {} } };

function setup(options = {}) {
  const clock = manualClock();
  const store = new WasmTaskStore({ now: clock.now, ...options });
  // `create(params)` is session A; `create(params, undefined)` has no session.
  const create = (params = { ttl: 60_000 }, ...sid) => store.createTask(params, 1, REQ, sid.length ? sid[0] : 'A');
  return { clock, store, create };
}

async function rejects(promise, code, reason) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof TaskStoreError, `expected TaskStoreError, got ${err?.name}: ${err?.message}`);
    assert.equal(err.code, code);
    if (reason) assert.equal(err.reason, reason);
    return true;
  });
}

describe('TaskStore contract', () => {
  test('createTask: a working task with the granted ttl and the creator\u2019s pollInterval', async () => {
    const { store, create, clock } = setup();
    const t = await create({ ttl: 5000, pollInterval: 250 });
    assert.equal(t.status, 'working');
    assert.equal(t.ttl, 5000);
    assert.equal(t.pollInterval, 250);
    assert.equal(t.createdAt, new Date(clock.now()).toISOString());
    assert.equal(t.lastUpdatedAt, t.createdAt);
    assert.equal(t.statusMessage, undefined);
    assert.match(t.taskId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(await store.getTask(t.taskId, 'A'), t);
    assert.equal((await create({})).pollInterval, 1000, 'the store default');
    const quiet = setup({ pollIntervalMs: null });
    assert.equal('pollInterval' in (await quiet.create({})), false);
    assert.equal((await setup({ pollIntervalMs: 40 }).create({})).pollInterval, 40);
  });

  test('createTask refuses bad ttl / pollInterval values', async () => {
    const { create } = setup();
    await rejects(create({ ttl: -1 }), -32602, 'invalid_argument');
    await rejects(create({ ttl: 'soon' }), -32602);
    await rejects(create({ pollInterval: 0 }), -32602);
    assert.equal((await create({ ttl: 1500.7 })).ttl, 1500);
  });

  test('getTask: null for unknown IDs, non-strings and other sessions; returns copies', async () => {
    const { store, create } = setup();
    assert.equal(await store.getTask('nope', 'A'), null);
    assert.equal(await store.getTask(undefined, 'A'), null);
    const t = await create();
    assert.equal(await store.getTask(t.taskId, 'B'), null);
    assert.equal(await store.getTask(t.taskId, undefined), null);
    const copy = await store.getTask(t.taskId, 'A');
    copy.status = 'completed';
    assert.equal((await store.getTask(t.taskId, 'A')).status, 'working');
  });

  test('sessions: session-less tasks are seen only without a session', async () => {
    const { store, create } = setup();
    const none = await create({}, undefined);
    const a = await create({}, 'A');
    assert.equal(await store.getTask(none.taskId, 'A'), null);
    assert.notEqual(await store.getTask(none.taskId, undefined), null);
    assert.deepEqual((await store.listTasks(undefined, undefined)).tasks.map((t) => t.taskId), [none.taskId]);
    assert.deepEqual((await store.listTasks(undefined, 'A')).tasks.map((t) => t.taskId), [a.taskId]);
    assert.deepEqual((await store.listTasks(undefined, 'B')).tasks, []);
    // A session named like the session-less context is still a session.
    assert.equal(await store.getTask(none.taskId, '-'), null);
    await rejects(store.updateTaskStatus(a.taskId, 'cancelled', undefined, 'B'), -32602, 'unknown_task');
    await rejects(store.storeTaskResult(a.taskId, 'completed', { content: [] }, 'B'), -32602, 'unknown_task');
    await rejects(store.getTaskResult(a.taskId, 'B'), -32602, 'unknown_task');
  });

  test('updateTaskStatus: moves, message kept like the SDK\u2019s store, terminal moves refused', async () => {
    const { store, create, clock } = setup();
    const t = await create();
    clock.advance(10);
    await store.updateTaskStatus(t.taskId, 'working', 'step 1', 'A');
    let now = await store.getTask(t.taskId, 'A');
    assert.equal(now.statusMessage, 'step 1');
    assert.equal(now.lastUpdatedAt, new Date(clock.now()).toISOString());
    await store.updateTaskStatus(t.taskId, 'input_required', undefined, 'A');
    now = await store.getTask(t.taskId, 'A');
    assert.deepEqual([now.status, now.statusMessage], ['input_required', 'step 1']);
    await store.updateTaskStatus(t.taskId, 'input_required', undefined, 'A');
    await store.updateTaskStatus(t.taskId, 'working', 'answered', 'A');
    assert.equal((await store.getTask(t.taskId, 'A')).statusMessage, 'answered');
    await rejects(store.updateTaskStatus(t.taskId, 'paused', undefined, 'A'), -32602, 'invalid_argument');
    await rejects(store.updateTaskStatus('nope', 'working', undefined, 'A'), -32602, 'unknown_task');
    await store.updateTaskStatus(t.taskId, 'cancelled', 'Client cancelled task execution.', 'A');
    now = await store.getTask(t.taskId, 'A');
    assert.deepEqual([now.status, now.statusMessage], ['cancelled', 'Client cancelled task execution.']);
    for (const to of ['working', 'input_required', 'completed', 'failed', 'cancelled']) {
      await rejects(store.updateTaskStatus(t.taskId, to, undefined, 'A'), -32602, 'already_terminal');
    }
    await rejects(store.storeTaskResult(t.taskId, 'completed', { content: [] }, 'A'), -32602, 'task_cancelled');
    assert.equal((await store.getTask(t.taskId, 'A')).status, 'cancelled');
    await rejects(store.getTaskResult(t.taskId, 'A'), -32603, 'no_result');
  });

  test('storeTaskResult / getTaskResult: completed and failed results, stored once, as JSON', async () => {
    const { store, create } = setup();
    const t = await create();
    await rejects(store.getTaskResult(t.taskId, 'A'), -32603, 'no_result');
    const result = { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 } };
    await store.storeTaskResult(t.taskId, 'completed', result, 'A');
    result.content[0].text = 'changed later';
    const got = await store.getTaskResult(t.taskId, 'A');
    assert.deepEqual(got, { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 } });
    assert.equal((await store.getTask(t.taskId, 'A')).status, 'completed');
    await rejects(store.storeTaskResult(t.taskId, 'completed', { content: [] }, 'A'), -32602, 'already_terminal');
    await rejects(store.storeTaskResult(t.taskId, 'failed', { content: [] }, 'A'), -32602, 'already_terminal');

    const f = await create();
    await store.storeTaskResult(f.taskId, 'failed', { content: [{ type: 'text', text: 'disk full' }], isError: true }, 'A');
    assert.equal((await store.getTask(f.taskId, 'A')).status, 'failed');
    assert.equal((await store.getTaskResult(f.taskId, 'A')).isError, true);

    const bad = await create();
    await rejects(store.storeTaskResult(bad.taskId, 'working', { content: [] }, 'A'), -32602, 'invalid_argument');
    await rejects(store.storeTaskResult(bad.taskId, 'completed', [1, 2], 'A'), -32602, 'invalid_argument');
    await rejects(store.storeTaskResult(bad.taskId, 'completed', { n: 10n }, 'A'), -32602, 'invalid_argument');
    const cyclic = { content: [] };
    cyclic.self = cyclic;
    await rejects(store.storeTaskResult(bad.taskId, 'completed', cyclic, 'A'), -32602, 'invalid_argument');
    assert.equal((await store.getTask(bad.taskId, 'A')).status, 'working', 'refused calls change nothing');
    await rejects(store.storeTaskResult('nope', 'completed', { content: [] }, 'A'), -32602, 'unknown_task');
  });

  test('a JSON-RPC error (an Error, or jsonRpcErrorResult) is kept and thrown back by getTaskResult', async () => {
    const { store, create } = setup();
    const cases = [
      [new McpError(-32011, 'Quota exceeded', { retryAfterMs: 5 }), { code: -32011, message: 'MCP error -32011: Quota exceeded', data: { retryAfterMs: 5 } }],
      [new TypeError('boom'), { code: -32603, message: 'boom' }],
      [Object.assign(new Error('x'), { code: 'ENOENT' }), { code: -32603, message: 'x' }],
      [jsonRpcErrorResult({ code: -32602, message: 'bad city', data: ['Atlantis'] }), { code: -32602, message: 'bad city', data: ['Atlantis'] }],
    ];
    for (const [stored, expected] of cases) {
      const t = await create();
      await store.storeTaskResult(t.taskId, 'failed', stored, 'A');
      const task = await store.getTask(t.taskId, 'A');
      assert.equal(task.status, 'failed');
      assert.equal(task.statusMessage, expected.message);
      await assert.rejects(store.getTaskResult(t.taskId, 'A'), (err) => {
        assert.ok(err instanceof JsonRpcError);
        assert.deepEqual(err.toJSON(), expected);
        // What the SDK's Protocol puts on the wire for a thrown error:
        assert.equal(err.code, expected.code);
        assert.equal(err.message, expected.message);
        assert.deepEqual(err.data, expected.data);
        return true;
      });
    }
    const t = await create();
    await rejects(store.storeTaskResult(t.taskId, 'completed', new Error('x'), 'A'), -32602, 'invalid_argument');
    const marked = jsonRpcErrorResult(new McpError(-32001, 'gone'));
    assert.deepEqual(marked, {
      content: [{ type: 'text', text: 'MCP error -32001: gone' }],
      isError: true,
      _meta: { [JSONRPC_ERROR_META_KEY]: { code: -32001, message: 'MCP error -32001: gone' } },
    });
  });

  test('listTasks: creation order, pages, cursors checked per session', async () => {
    const { store, create } = setup({ pageSize: 3 });
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push((await create()).taskId);
    await create({}, 'B');
    const seen = [];
    const sizes = [];
    let cursor;
    do {
      const page = await store.listTasks(cursor, 'A');
      sizes.push(page.tasks.length);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(sizes, [3, 3, 2]);
    assert.deepEqual(seen, ids);
    const first = await store.listTasks(undefined, 'A');
    assert.equal('nextCursor' in (await store.listTasks(first.nextCursor, 'A')), true);
    await rejects(store.listTasks('bogus', 'A'), -32602, 'invalid_cursor');
    await rejects(store.listTasks(first.nextCursor, 'B'), -32602, 'invalid_cursor');
    await rejects(store.listTasks(42, 'A'), -32602);
  });

  test('limits: too many tasks for one session is refused', async () => {
    const { create } = setup({ limits: { maxRunningTasksPerKey: 2 } });
    await create();
    await create();
    await rejects(create(), -32603, 'limit_exceeded');
    await create({}, 'B');
  });

  test('drop-in limits: no cap on live tasks, results up to 64 MiB; null / Infinity mean no limit', async () => {
    const { store, create } = setup();
    for (let i = 0; i < 1001; i++) await create({ ttl: 60_000 }, 'A');
    for (let i = 0; i < 1001; i++) await create({ ttl: 60_000 }, undefined);
    assert.equal(store.size, 2002, 'InMemoryTaskStore has no limit: neither per session nor in total');
    const big = await create();
    const payload = 'x'.repeat(5 * 1024 * 1024);
    await store.storeTaskResult(big.taskId, 'completed', { content: [{ type: 'text', text: payload }] }, 'A');
    assert.equal((await store.getTaskResult(big.taskId, 'A')).content[0].text.length, payload.length);
    const over = await create();
    await rejects(
      store.storeTaskResult(over.taskId, 'completed', { content: [{ type: 'text', text: 'x'.repeat(64 * 1024 * 1024) }] }, 'A'),
      -32603,
      'limit_exceeded',
    );
    const unset = setup({ limits: { maxRunningTasksPerKey: undefined } });
    for (let i = 0; i < 1001; i++) await unset.create({ ttl: 60_000 }, 'A');
    const unlimited = setup({ limits: { maxRunningTasksPerKey: null, maxRunningTasksTotal: Infinity, maxResultBytes: null } });
    const u = await unlimited.create();
    await unlimited.store.storeTaskResult(u.taskId, 'completed', { content: [{ type: 'text', text: 'x'.repeat(64 * 1024 * 1024) }] }, 'A');
    const total = setup({ limits: { maxRunningTasksTotal: 3 } });
    await total.create({}, 'A');
    await total.create({}, 'B');
    await total.create({}, undefined);
    await rejects(total.create({}, 'C'), -32603, 'limit_exceeded');
  });

  test('options are checked', () => {
    assert.throws(() => new WasmTaskStore({ defaultTtlMs: -1 }), TypeError);
    assert.throws(() => new WasmTaskStore({ pageSize: 0 }), TypeError);
    assert.throws(() => new WasmTaskStore({ now: 5 }), TypeError);
    assert.throws(() => new WasmTaskStore(null), TypeError);
    assert.throws(() => new WasmTaskMessageQueue({ taskStore: {} }), TypeError);
    assert.throws(() => new WasmTaskStore({ limits: 5 }), TypeError);
    assert.throws(() => new WasmTaskStore({ limits: { maxRunningTasksPerKey: -1 } }), TypeError);
    assert.throws(() => new WasmTaskStore({ limits: { maxResultBytes: 'big' } }), TypeError);
  });

  test('allSessions(): every session\u2019s tasks, listed session by session; cursors checked', async () => {
    const { store, create, clock } = setup({ pageSize: 2 });
    const made = { A: [], B: [], C: [], none: [] };
    for (const [sid, n] of [['A', 3], ['B', 1], ['C', 2], [undefined, 2]]) {
      for (let i = 0; i < n; i++) made[sid ?? 'none'].push((await create({ ttl: sid === 'C' ? 1000 : 60_000 }, sid)).taskId);
    }
    const all = store.allSessions();
    const pages = [];
    let cursor;
    do {
      const page = await all.listTasks(cursor);
      pages.push(page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
      if (pages.length === 2) clock.advance(1000); // C's tasks expire between pages: skipped
    } while (cursor);
    const every = pages.flat();
    assert.equal(new Set(every).size, every.length, 'no task twice');
    assert.deepEqual(every.slice().sort(), [...made.A, ...made.B, ...made.none].sort());
    for (const page of pages) {
      assert.ok(page.length >= 1 && page.length <= 2, `page of ${page.length}`);
      const owners = new Set(page.map((id) => Object.keys(made).find((k) => made[k].includes(id))));
      assert.equal(owners.size, 1, 'a page never mixes sessions');
    }
    for (const ids of [made.A, made.none]) {
      assert.deepEqual(every.filter((id) => ids.includes(id)), ids, 'creation order within a session');
    }
    // Each listing's cursors are its own.
    const scoped = await store.listTasks(undefined, 'A');
    await rejects(all.listTasks(scoped.nextCursor), -32602, 'invalid_cursor');
    await rejects(all.listTasks('bogus'), -32602, 'invalid_cursor');
    await rejects(all.listTasks('all-sessions:["s:A","forged"]'), -32602, 'invalid_cursor');
    const first = await all.listTasks();
    await rejects(store.listTasks(first.nextCursor, 'A'), -32602, 'invalid_cursor');
    await rejects(store.listTasks(first.nextCursor, undefined), -32602, 'invalid_cursor');
    // getTask / the rest act on any session's task; the store's own methods stay scoped.
    assert.equal((await all.getTask(made.B[0])).taskId, made.B[0]);
    assert.equal(await store.getTask(made.B[0], undefined), null);
    assert.equal(await all.getTask(made.C[0]), null, 'expired');
    await all.storeTaskResult(made.B[0], 'failed', new McpError(-32011, 'Quota exceeded'));
    await assert.rejects(store.getTaskResult(made.B[0], 'B'), (err) => err instanceof JsonRpcError && err.code === -32011);
    assert.equal((await store.getTask(made.B[0], 'B')).status, 'failed');
    await rejects(all.updateTaskStatus(made.C[0], 'working'), -32602, 'unknown_task');
    await assert.rejects(all.getTaskResult(made.A[0], 'A'), TypeError);
    assert.throws(() => {
      all.getTask = null;
    }, TypeError, 'the view is frozen');
  });

  test('getAllTasks, size, cleanup', async () => {
    const { store, create } = setup();
    await create({}, 'A');
    await create({}, undefined);
    assert.equal(store.size, 2);
    assert.equal(store.getAllTasks().length, 2);
    store.cleanup();
    assert.equal(store.size, 0);
    assert.deepEqual(store.getAllTasks(), []);
    await create({}, 'A');
    assert.equal(store.size, 1);
  });
});

describe('TTL', () => {
  test('policy: default, clamp to max, null, 0', async () => {
    const { store, create, clock } = setup({ defaultTtlMs: 1000, maxTtlMs: 5000 });
    assert.equal((await create({})).ttl, 1000);
    assert.equal((await create({ ttl: undefined })).ttl, 1000);
    assert.equal((await create({ ttl: 9999 })).ttl, 5000);
    assert.equal((await create({ ttl: null })).ttl, 5000);
    assert.equal((await setup({ allowUnlimitedTtl: true }).create({ ttl: null })).ttl, null);
    const zero = await create({ ttl: 0 });
    assert.equal(zero.ttl, 0);
    assert.equal(await store.getTask(zero.taskId, 'A'), null, 'ttl 0 expires at once');
    await rejects(store.storeTaskResult(zero.taskId, 'completed', { content: [] }, 'A'), -32602, 'unknown_task');
    clock.advance(5000);
    assert.deepEqual((await store.listTasks(undefined, 'A')).tasks, []);
    assert.equal(store.size, 0);
  });

  test('expiry runs from creation, deletes, and tells listeners (the queue drops its messages)', async () => {
    const { store, create, clock } = setup();
    const queue = new WasmTaskMessageQueue({ taskStore: store });
    const expired = [];
    store.onTaskExpired((id, sid) => expired.push([id, sid]));
    const t = await create({ ttl: 1000 });
    await queue.enqueue(t.taskId, { type: 'request', message: { jsonrpc: '2.0', id: 0, method: 'ping' }, timestamp: 0 }, 'A');
    clock.advance(900);
    await store.storeTaskResult(t.taskId, 'completed', { content: [] }, 'A');
    clock.advance(100);
    assert.equal(await store.getTask(t.taskId, 'A'), null);
    assert.deepEqual(expired, [[t.taskId, 'A']]);
    assert.equal(queue.size(t.taskId), 0);
    assert.equal(store.size, 0);
  });

  test('one timer per store, at the next deadline, unref\u2019d; re-armed after it fires', async () => {
    const clock = manualClock();
    const timers = new Map();
    let nextId = 1;
    let unrefs = 0;
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    globalThis.setTimeout = (fn, ms) => {
      const handle = { id: nextId++, fn, at: clock.now() + ms, unref: () => unrefs++ };
      timers.set(handle.id, handle);
      return handle;
    };
    globalThis.clearTimeout = (h) => h && timers.delete(h.id);
    try {
      const store = new WasmTaskStore({ now: clock.now, timer: true });
      const expired = [];
      store.onTaskExpired((id) => expired.push(id));
      const ttls = [5000, 3000, 9000, 3000, 7000];
      const made = [];
      for (let i = 0; i < 50; i++) {
        made.push(await store.createTask({ ttl: ttls[i % ttls.length] }, i, REQ, `s${i % 7}`));
        const armed = [...timers.values()].map((t) => t.at - clock.now());
        if (i === 0) assert.deepEqual(armed, [5000]);
        if (i === 1) assert.deepEqual(armed, [3000], 'an earlier deadline re-arms the timer at once');
      }
      assert.equal(timers.size, 1, 'one timer for 50 tasks');
      const [first] = timers.values();
      assert.equal(first.at, clock.now() + 3000);
      assert.ok(unrefs >= 1);
      clock.advance(3000);
      timers.delete(first.id);
      first.fn(); // the timer fires: no call into the store needed to free the tasks
      assert.equal(expired.length, 20);
      assert.equal(store.size, 30);
      assert.equal(timers.size, 1);
      assert.equal([...timers.values()][0].at, clock.now() + 2000);
      store.cleanup();
      assert.equal(timers.size, 0, 'cleanup stops the timer');
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
  });

  test('with an injected clock the timer is off by default', async () => {
    const clock = manualClock();
    const store = new WasmTaskStore({ now: clock.now });
    const realSet = globalThis.setTimeout;
    let armed = 0;
    globalThis.setTimeout = (...a) => (armed++, realSet(...a));
    try {
      await store.createTask({ ttl: 10 }, 1, REQ, 'A');
    } finally {
      globalThis.setTimeout = realSet;
    }
    assert.equal(armed, 0);
  });
});

describe('TaskMessageQueue contract', () => {
  const msg = (n, type = 'notification') => ({ type, message: { jsonrpc: '2.0', method: 'notifications/message', params: { n } }, timestamp: n });

  test('FIFO per task, for the task\u2019s session only; dequeue of an empty queue is undefined; copies out', async () => {
    const q = new WasmTaskMessageQueue();
    assert.equal(await q.dequeue('t', 'A'), undefined);
    const m1 = msg(1);
    await q.enqueue('t', m1, 'A');
    await q.enqueue('t', msg(2), 'A');
    await rejects(q.enqueue('t', msg(3), 'B'), -32602, 'unknown_task');
    await q.enqueue('u', msg(4), 'B');
    m1.message.params.n = 99;
    assert.equal(await q.dequeue('t', 'B'), undefined, 'other sessions get nothing');
    assert.equal(await q.dequeue('t', undefined), undefined, 'nor do session-less callers');
    assert.deepEqual(await q.dequeueAll('t', 'B'), []);
    assert.deepEqual(await q.dequeue('t', 'A'), msg(1));
    assert.deepEqual(await q.dequeueAll('t', 'A'), [msg(2)]);
    assert.deepEqual(await q.dequeueAll('t', 'A'), []);
    assert.deepEqual(await q.dequeueAll('u', 'B'), [msg(4)]);
    assert.equal(q.size(), 0);
  });

  test('linked to a store: the task\u2019s session comes from the store (SDK < 1.32 enqueues without one)', async () => {
    const { store, create } = setup();
    const q = new WasmTaskMessageQueue({ taskStore: store });
    const t = await create({ ttl: 60_000 }, 'A');
    await q.enqueue(t.taskId, msg(1, 'request'), undefined);
    await rejects(q.enqueue(t.taskId, msg(2), 'B'), -32602, 'unknown_task');
    assert.equal(await q.dequeue(t.taskId, 'B'), undefined);
    assert.equal(await q.dequeue(t.taskId, undefined), undefined);
    assert.deepEqual(await q.dequeue(t.taskId, 'A'), msg(1, 'request'));
    const none = await create({ ttl: 60_000 }, undefined);
    await q.enqueue(none.taskId, msg(3), undefined);
    assert.equal(await q.dequeue(none.taskId, 'A'), undefined);
    assert.deepEqual(await q.dequeue(none.taskId, undefined), msg(3));
    // Without the store link, an enqueue without a session leaves the queue unbound.
    const loose = new WasmTaskMessageQueue();
    await loose.enqueue('x', msg(5), undefined);
    assert.deepEqual(await loose.dequeue('x', 'A'), msg(5));
  });

  test('no limit by default (as InMemoryTaskMessageQueue): only the SDK\u2019s maxSize', async () => {
    const q = new WasmTaskMessageQueue();
    for (let i = 1; i <= 1001; i++) await q.enqueue('t', msg(i), 'A');
    assert.equal(q.size('t'), 1001);
    await rejects(q.enqueue('t', msg(1002), 'A', 1001), -32603, 'limit_exceeded');
  });

  test('enqueue throws on overflow (the SDK\u2019s maxSize, or maxMessagesPerTask)', async () => {
    const q = new WasmTaskMessageQueue({ maxMessagesPerTask: 3 });
    await q.enqueue('t', msg(1), 'A', 2);
    await q.enqueue('t', msg(2), 'A', 2);
    await rejects(q.enqueue('t', msg(3), 'A', 2), -32603, 'limit_exceeded');
    await q.enqueue('t', msg(3), 'A');
    await rejects(q.enqueue('t', msg(4), 'A'), -32603, 'limit_exceeded');
    await rejects(q.enqueue('v', msg(1), 'A', 0), -32603, 'limit_exceeded');
    assert.equal(q.size('t'), 3);
  });

  test('messages must be queued-message objects and JSON-serialisable', async () => {
    const q = new WasmTaskMessageQueue();
    await rejects(q.enqueue('t', { type: 'other' }, 'A'), -32602);
    await rejects(q.enqueue('t', null, 'A'), -32602);
    await rejects(q.enqueue('t', { type: 'request', message: { id: 1n }, timestamp: 0 }, 'A'), -32602);
    assert.equal(q.size(), 0);
  });
});
