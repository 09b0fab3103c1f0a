// WasmTaskStore's read cache: getTask answers from parsed tasks while the engine says the answer
// holds (until the task's expiry deadline), every change made through the store drops the entry,
// and with a shared storage nothing is reused (other instances write the same tasks).
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { manualClock, ours, PKG_DIR, T0 } from './harness.mjs';

const { WasmTaskStore, WasmTaskMessageQueue } = ours;
const { TextTaskEngine } = await import(pathToFileURL(path.join(PKG_DIR, 'entries/index.node.mjs')).href);
const REQ = { method: 'tools/call', params: { name: 'x', arguments: {} } };

function setup(options = {}) {
  const clock = manualClock();
  const store = new WasmTaskStore({ now: clock.now, ...options });
  const create = (params = { ttl: 60_000 }) => store.createTask(params, 1, REQ, 'A');
  return { clock, store, create };
}

/** A TaskStorage in memory: records with versions and a compare-and-set, shared by stores. */
function sharedStorage() {
  /** @type {Map<string, { version: number, record: string, context: string | null }>} */
  const rows = new Map();
  return {
    async load(taskId) {
      return rows.get(taskId)?.record ?? null;
    },
    async loadContext(context) {
      return [...rows].filter(([, row]) => row.context === context).map(([taskId, row]) => ({ taskId, record: row.record }));
    },
    async write(persists) {
      return persists.map((p) => {
        const row = rows.get(p.taskId);
        if ((row?.version ?? null) !== p.expectedVersion) return { conflict: row?.record ?? null };
        if (p.record === null) rows.delete(p.taskId);
        else rows.set(p.taskId, { version: p.version, record: p.record, context: p.context ?? null });
        return null;
      });
    },
  };
}

describe('read cache', () => {
  test('a change made after a read is seen by the next read (update, store, cancel, allSessions)', async () => {
    const { store, create } = setup();
    const t = await create();
    assert.equal((await store.getTask(t.taskId, 'A')).status, 'working');
    assert.equal((await store.getTask(t.taskId, 'A')).status, 'working');
    await store.updateTaskStatus(t.taskId, 'input_required', 'need a city', 'A');
    const waiting = await store.getTask(t.taskId, 'A');
    assert.equal(waiting.status, 'input_required');
    assert.equal(waiting.statusMessage, 'need a city');
    await store.allSessions().updateTaskStatus(t.taskId, 'working');
    assert.equal((await store.getTask(t.taskId, 'A')).status, 'working');
    await store.storeTaskResult(t.taskId, 'completed', { content: [{ type: 'text', text: 'done' }] }, 'A');
    const done = await store.getTask(t.taskId, 'A');
    assert.equal(done.status, 'completed');
    assert.deepEqual(await store.getTaskResult(t.taskId, 'A'), { content: [{ type: 'text', text: 'done' }] });

    const c = await create();
    await store.getTask(c.taskId, 'A');
    await store.updateTaskStatus(c.taskId, 'cancelled', 'stop', 'A');
    assert.equal((await store.getTask(c.taskId, 'A')).status, 'cancelled');
    const f = await create();
    await store.getTask(f.taskId, 'A');
    await store.allSessions().storeTaskResult(f.taskId, 'failed', { content: [], isError: true });
    assert.equal((await store.getTask(f.taskId, 'A')).status, 'failed');
  });

  test('a read task expires at its deadline (fake clock, no timer), and stays gone if the clock goes back', async () => {
    const { store, create, clock } = setup();
    const expired = [];
    store.onTaskExpired((id) => expired.push(id));
    const t = await create({ ttl: 1000 });
    assert.ok(await store.getTask(t.taskId, 'A'));
    clock.advance(999);
    assert.equal((await store.getTask(t.taskId, 'A'))?.taskId, t.taskId);
    clock.advance(1);
    assert.equal(await store.getTask(t.taskId, 'A'), null);
    assert.deepEqual(expired, [t.taskId]);
    clock.advance(-500);
    assert.equal(await store.getTask(t.taskId, 'A'), null);

    // Expired by another call (here listTasks) before any getTask: the entry goes with the task.
    const u = await create({ ttl: 1000 });
    await store.getTask(u.taskId, 'A');
    clock.advance(1500);
    assert.deepEqual((await store.listTasks(undefined, 'A')).tasks, []);
    clock.advance(-1000);
    assert.equal(await store.getTask(u.taskId, 'A'), null);
  });

  test('the timer’s expiry drops the entry too', async () => {
    const { store, create, clock } = setup({ timer: true });
    const realSet = globalThis.setTimeout;
    /** @type {Function[]} */
    const fired = [];
    globalThis.setTimeout = (fn) => (fired.push(fn), { unref() {} });
    try {
      const t = await create({ ttl: 1000 });
      await store.getTask(t.taskId, 'A');
      clock.advance(1000);
      fired.at(-1)();
      assert.equal(store.size, 0);
      clock.advance(-1);
      assert.equal(await store.getTask(t.taskId, 'A'), null);
    } finally {
      globalThis.setTimeout = realSet;
      store.cleanup();
    }
  });

  test('callers get copies: changing one changes nothing the store answers', async () => {
    const { store, create } = setup();
    const created = await create();
    created.status = 'completed';
    const first = await store.getTask(created.taskId, 'A');
    assert.equal(first.status, 'working');
    first.status = 'failed';
    first.statusMessage = 'tampered';
    const second = await store.getTask(created.taskId, 'A');
    assert.equal(second.status, 'working');
    assert.equal(second.statusMessage, undefined);
    assert.notEqual(first, second);
  });

  test('sessions: a cached task is still invisible to other sessions and to calls without one', async () => {
    const { store, create } = setup();
    const t = await create();
    await store.getTask(t.taskId, 'A');
    assert.equal(await store.getTask(t.taskId, 'B'), null);
    assert.equal(await store.getTask(t.taskId, undefined), null);
    assert.equal((await store.getTask(t.taskId, 'A')).taskId, t.taskId);
  });

  test('cleanup() forgets cached tasks with the rest', async () => {
    const { store, create } = setup();
    const t = await create();
    await store.getTask(t.taskId, 'A');
    store.cleanup();
    assert.equal(await store.getTask(t.taskId, 'A'), null);
  });

  test('readCacheSize: small or 0, answers stay right; bad values are refused', async () => {
    for (const readCacheSize of [0, 1, 2]) {
      const { store, create } = setup({ readCacheSize });
      const tasks = [];
      for (let i = 0; i < 4; i++) tasks.push(await create({ ttl: 1000 + i }));
      for (let round = 0; round < 2; round++) {
        for (const [i, t] of tasks.entries()) {
          const got = await store.getTask(t.taskId, 'A');
          assert.equal(got.ttl, 1000 + i);
          assert.equal(got.status, round === 0 ? 'working' : 'completed');
        }
        for (const t of tasks) if (round === 0) await store.storeTaskResult(t.taskId, 'completed', { content: [] }, 'A');
      }
    }
    assert.throws(() => new WasmTaskStore({ readCacheSize: -1 }), TypeError);
    assert.throws(() => new WasmTaskStore({ readCacheSize: /** @type {any} */ ('big') }), TypeError);
  });

  test('cached tasks equal the engine’s task whatever the status message holds (NUL, emoji, empty)', async () => {
    const { store, create } = setup({ allowUnlimitedTtl: true });
    const view = store.allSessions(); // the engine's task, no cache
    for (const message of ['plain', 'a\0b\0', '🙂 ünï\u2028', '\0', '']) {
      for (const params of [{ ttl: 60_000 }, { ttl: null }, { ttl: 5000, pollInterval: 250 }]) {
        const t = await create(params);
        assert.deepEqual(t, await view.getTask(t.taskId));
        await store.updateTaskStatus(t.taskId, 'input_required', message, 'A');
        const read = await store.getTask(t.taskId, 'A');
        assert.deepEqual(read, await view.getTask(t.taskId));
        assert.equal(read.statusMessage, message === '' ? undefined : message);
        await store.storeTaskResult(t.taskId, 'failed', { content: [], isError: true }, 'A');
        assert.deepEqual(await store.getTask(t.taskId, 'A'), await view.getTask(t.taskId), 'after storeTaskResult');
        assert.deepEqual(await store.getTask(t.taskId, 'A'), await view.getTask(t.taskId), 'the cached task');
      }
    }
  });

  test('the task storeTaskResult answered is served only to its session, only until its deadline, never after cleanup()', async () => {
    const { clock, store, create } = setup();
    const a = await create({ ttl: 1000 });
    await store.storeTaskResult(a.taskId, 'completed', { content: [] }, 'A');
    assert.equal(await store.getTask(a.taskId, 'B'), null, 'another session');
    assert.equal(await store.getTask(a.taskId, undefined), null, 'no session');
    assert.equal((await store.getTask(a.taskId, 'A')).status, 'completed');
    const b = await create({ ttl: 1000 });
    await store.storeTaskResult(b.taskId, 'completed', { content: [] }, 'A');
    clock.advance(1000);
    assert.equal(await store.getTask(b.taskId, 'A'), null, 'expired before it was read');
    const c = await create({ ttl: 60_000 });
    await store.storeTaskResult(c.taskId, 'completed', { content: [] }, 'A');
    store.cleanup();
    assert.equal(await store.getTask(c.taskId, 'A'), null, 'cleanup() drops it');
    const d = await create({ ttl: 60_000 });
    const e = await create({ ttl: 60_000 });
    await store.storeTaskResult(d.taskId, 'completed', { content: [] }, 'A');
    await store.storeTaskResult(e.taskId, 'failed', { content: [], isError: true }, 'A');
    assert.equal((await store.getTask(d.taskId, 'A')).status, 'completed', 'an older answer is read from the engine');
    assert.equal((await store.getTask(e.taskId, 'A')).status, 'failed');
  });

  test('shared storage: a second instance’s writes are seen by the first instance’s next read', async () => {
    const storage = sharedStorage();
    const clock = manualClock();
    const a = new WasmTaskStore({ storage, instanceId: 'a', now: clock.now, timer: false });
    const b = new WasmTaskStore({ storage, instanceId: 'b', now: clock.now, timer: false });
    const t = await a.createTask({ ttl: 60_000 }, 1, REQ, 'S');
    assert.equal((await a.getTask(t.taskId, 'S')).status, 'working');
    assert.equal((await a.getTask(t.taskId, 'S')).status, 'working');
    await b.updateTaskStatus(t.taskId, 'input_required', 'from b', 'S');
    const seen = await a.getTask(t.taskId, 'S');
    assert.equal(seen.status, 'input_required');
    assert.equal(seen.statusMessage, 'from b');
    await b.storeTaskResult(t.taskId, 'completed', { content: [{ type: 'text', text: 'b' }] }, 'S');
    assert.equal((await a.getTask(t.taskId, 'S')).status, 'completed');
    assert.deepEqual(await a.getTaskResult(t.taskId, 'S'), { content: [{ type: 'text', text: 'b' }] });
    a.cleanup();
    b.cleanup();
  });
});

describe('results as UTF-8', () => {
  test('results round-trip whatever their characters and size (the reused encoding buffer and past it)', async () => {
    const { store, create } = setup();
    const texts = ['plain', 'é ü ß — 東京 🚀', '\u2028\u2029 "quoted" \\ back', 'ü'.repeat(21_845), '🚀'.repeat(11_000), 'x'.repeat(200_000)];
    const ids = [];
    for (const text of texts) {
      const t = await create();
      await store.storeTaskResult(t.taskId, 'completed', { content: [{ type: 'text', text }] }, 'A');
      ids.push(t.taskId);
    }
    for (const [i, id] of ids.entries()) assert.equal((await store.getTaskResult(id, 'A')).content[0].text, texts[i]);
    const failed = await create();
    await store.storeTaskResult(failed.taskId, 'failed', Object.assign(new Error('nope — ✗'), { code: -32001, data: { why: 'ü' } }), 'A');
    await assert.rejects(store.getTaskResult(failed.taskId, 'A'), { code: -32001, message: 'nope — ✗', data: { why: 'ü' } });
  });
});

describe('empty queues', () => {
  const msg = (n) => ({ type: 'notification', message: { jsonrpc: '2.0', method: 'notifications/message', params: { n } }, timestamp: n });

  test('an empty queue answers at once; a message queued for one task is still found', async () => {
    const { store, create } = setup();
    const queue = new WasmTaskMessageQueue({ taskStore: store });
    const [t, u] = [await create(), await create()];
    assert.equal(await queue.dequeue(t.taskId, 'A'), undefined);
    assert.deepEqual(await queue.dequeueAll(t.taskId, 'A'), []);
    await queue.enqueue(u.taskId, msg(1), 'A');
    assert.equal(await queue.dequeue(t.taskId, 'A'), undefined);
    assert.deepEqual(await queue.dequeue(u.taskId, 'A'), msg(1));
    assert.equal(await queue.dequeue(u.taskId, 'A'), undefined);
    await queue.enqueue(u.taskId, msg(2), 'A');
    await queue.enqueue(u.taskId, msg(3), 'A');
    assert.deepEqual(await queue.dequeueAll(u.taskId, 'A'), [msg(2), msg(3)]);
    assert.deepEqual(await queue.dequeueAll(u.taskId, 'A'), []);
    const own = new WasmTaskMessageQueue();
    assert.equal(await own.dequeue('x', 'A'), undefined);
    await own.enqueue('x', msg(4), 'A');
    assert.deepEqual(await own.dequeueAll('x', 'A'), [msg(4)]);
  });
});
