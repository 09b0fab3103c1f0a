// WasmTaskStore gives the wasm memory of a burst back: once the burst has expired, its tasks move
// into an engine of a fresh wasm instance (a smaller linear memory) with every task, result,
// status message, TTL and list cursor as it was, seen through the store's API and through an
// SDK 1.x client; never while a message waits in the queue (a snapshot does not carry it).
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { Control, connectInMemory, createTask, makeStores, manualClock, ours, PKG_DIR, waitForTask, CallToolResultSchema } from './harness.mjs';

// Every wasm memory instantiated from here on (the package's glue calls `new WebAssembly.Instance`
// for each fresh instance), to read each one's size.
const memories = [];
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    if (instance.exports.memory instanceof WebAssembly.Memory) memories.push(instance.exports.memory);
    return instance;
  },
});

const { WasmTaskStore, WasmTaskMessageQueue } = ours;
const MIB = 1024 * 1024;
const REQ = { method: 'tools/call', params: { name: 'x', arguments: {} } };
/** About 8 KiB of result per burst task: 2,000 of them grow the memory well past 8 MiB. */
const BIG = { content: [{ type: 'text', text: 'x'.repeat(8 * 1024) }] };

/** A burst of `n` completed tasks with a short TTL in their own session. */
async function burst(store, n, ttl = 1000) {
  for (let i = 0; i < n; i++) {
    const { taskId } = await store.createTask({ ttl }, i, REQ, 'burst');
    await store.storeTaskResult(taskId, 'completed', BIG, 'burst');
  }
}

/** What a call answers, as text: its value, or its error's code and message. */
async function answer(call) {
  try {
    return JSON.stringify(await call());
  } catch (err) {
    return JSON.stringify({ thrown: err.code, message: err.message });
  }
}

/** Every page of `list(cursor)`, with the cursor that asked for it. */
async function pages(list) {
  const out = [];
  let cursor;
  do {
    const page = await list(cursor);
    out.push({ cursor, page: JSON.stringify(page) });
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

test('WasmTaskStore: after a burst expires the tasks move to a fresh wasm memory, every answer and cursor as before', async () => {
  const clock = manualClock();
  const store = new WasmTaskStore({ now: clock.now, pageSize: 2, recycle: { minBytes: 8 * MIB } });
  const queue = new WasmTaskMessageQueue({ taskStore: store });
  // Kept tasks of every shape, in two sessions and none.
  const kept = [];
  const make = async (params, session) => {
    const task = await store.createTask(params, kept.length, REQ, session);
    kept.push({ taskId: task.taskId, session });
    return task.taskId;
  };
  const done = await make({ ttl: 600_000 }, 'A');
  await store.storeTaskResult(done, 'completed', { content: [{ type: 'text', text: 'kept ✓' }], structuredContent: { n: 1 } }, 'A');
  const failed = await make({ ttl: 300_000, pollInterval: 250 }, 'A');
  await store.storeTaskResult(failed, 'failed', { code: -32000, message: 'tool failed', data: { why: 'test' } }, 'A');
  const waiting = await make({ ttl: 120_000 }, 'A');
  await store.updateTaskStatus(waiting, 'input_required', 'waiting for you', 'A');
  const working = await make({}, 'B');
  await store.updateTaskStatus(working, 'working', 'halfway', 'B');
  const cancelled = await make({ ttl: 90_000 }, 'B');
  await store.updateTaskStatus(cancelled, 'cancelled', 'stopped', 'B');
  await make({ ttl: 60_000 }, undefined);
  await make({ ttl: 60_000 }, 'A');
  const first = memories.at(-1);
  await burst(store, 2_000);
  const peak = first.buffer.byteLength;
  assert.ok(peak >= 16 * MIB, `the burst grew the memory (${peak} bytes)`);

  // A message waits for a kept task: the burst expires, and nothing moves.
  await queue.enqueue(waiting, { type: 'request', message: { jsonrpc: '2.0', id: 7, method: 'ping' }, timestamp: 1 }, 'A');
  const count = memories.length;
  clock.advance(1_500);
  await store.listTasks(undefined, 'A');
  assert.equal(store.size, kept.length, 'the burst expired');
  assert.equal(memories.length, count, 'no fresh instance while a message is queued');

  const views = async () => ({
    tasks: await Promise.all(kept.map(({ taskId, session }) => answer(() => store.getTask(taskId, session)))),
    results: await Promise.all(kept.map(({ taskId, session }) => answer(() => store.getTaskResult(taskId, session)))),
    lists: await Promise.all(sessions.map((session) => pages((cursor) => store.listTasks(cursor, session)))),
    all: await pages((cursor) => store.allSessions().listTasks(cursor)),
  });
  const sessions = ['A', 'B', undefined];
  const before = await views();
  assert.equal(before.lists[0].length, 2, 'session A lists in pages of 2, with a cursor');

  // The message is read; the next expiry (a task made for it) moves the tasks, into an instance
  // that takes the package's random source (set here to tell its task IDs).
  assert.equal((await queue.dequeue(waiting, 'A')).message.id, 7);
  const { setRandomSource } = await import(pathToFileURL(path.join(PKG_DIR, 'entries/receiver.node.mjs')).href);
  const { fillRandom } = await import(pathToFileURL(path.join(PKG_DIR, 'core/node-random.js')).href);
  setRandomSource((bytes) => bytes.forEach((_, i) => (bytes[i] = i & 0xff)));
  const { taskId: tick } = await store.createTask({ ttl: 10 }, 99, REQ, 'tick');
  clock.advance(20);
  assert.equal(await store.getTask(tick, 'tick'), null);
  assert.equal(memories.length, count + 1, 'one fresh instance');
  const fresh = memories.at(-1);
  assert.ok(fresh.buffer.byteLength * 4 <= peak, `the fresh memory (${fresh.buffer.byteLength} bytes) is a fraction of the old one (${peak})`);

  const after = await views();
  assert.deepEqual(after, before);
  const marked = await store.createTask({ ttl: 60_000 }, 101, REQ, 'B');
  setRandomSource(fillRandom);
  assert.equal(marked.taskId, '00010203-0405-4607-8809-0a0b0c0d0e0f');
  kept.push({ taskId: marked.taskId, session: 'B' });
  // Cursors issued before the move page on after it, to the same pages.
  for (const [i, list] of before.lists.entries()) {
    for (const { cursor, page } of list) {
      if (cursor !== undefined) assert.equal(JSON.stringify(await store.listTasks(cursor, sessions[i])), page);
    }
  }
  // TTLs run on: each kept task expires at its own deadline, not before.
  clock.advance(60_000 - 1_520 - 1);
  await store.listTasks(undefined, 'A');
  assert.equal(store.size, kept.length);
  clock.advance(1);
  await store.listTasks(undefined, 'A');
  assert.equal(store.size, kept.length - 2, 'the two 60 s tasks expired on time');
  assert.equal((await store.getTask(marked.taskId, 'B')).taskId, marked.taskId);
  // New tasks go on, listed after the kept ones.
  const later = await store.createTask({ ttl: 60_000 }, 100, REQ, 'A');
  const listed = (await pages((cursor) => store.listTasks(cursor, 'A'))).flatMap(({ page }) => JSON.parse(page).tasks.map((t) => t.taskId));
  assert.deepEqual(listed, [done, failed, waiting, later.taskId]);
  queue.cleanup();
  store.cleanup();
});

test('WasmTaskStore: recycle: false keeps the shared instance; a bad recycle option is refused', async () => {
  const clock = manualClock();
  const count = memories.length;
  const store = new WasmTaskStore({ now: clock.now, recycle: false });
  await burst(store, 1_000);
  clock.advance(1_500);
  await store.listTasks(undefined, 'burst');
  assert.equal(store.size, 0);
  assert.equal(memories.length, count, 'no instance of its own, none made');
  store.cleanup();
  assert.throws(() => new WasmTaskStore({ recycle: { ratio: 0.5 } }), /options\.recycle\.ratio must be a finite number of at least 1/);
  assert.throws(() => new WasmTaskStore({ recycle: { maxBytes: 1 } }), /options\.recycle\.maxBytes is not an option/);
  assert.throws(() => new WasmTaskStore({ recycle: 'yes' }), /options\.recycle must be false, true or \{ minBytes, ratio \}/);
  const storage = { load: async () => null, loadContext: async () => [], write: async (persists) => persists.map(() => null) };
  assert.throws(() => new WasmTaskStore({ storage, recycle: true }), /options\.recycle is an option of the memory mode/);
});

test('SDK 1.x client: tasks/get, tasks/result and tasks/list answer alike across the move, old cursors included', async () => {
  const stores = makeStores('wasm', { pageSize: 2, recycle: { minBytes: 8 * MIB } });
  const ctl = new Control();
  const conn = await connectInMemory(stores, ctl);
  try {
    const tasks = conn.client.experimental.tasks;
    const ids = [];
    for (let n = 0; n < 5; n++) {
      const task = await createTask(conn.client, 'quick', { n }, { ttl: 600_000 });
      await waitForTask(conn.client, task.taskId, (t) => t.status === 'completed');
      ids.push(task.taskId);
    }
    const gated = await createTask(conn.client, 'work', { steps: 1 }, { ttl: 600_000 });
    ctl.open(gated.taskId, 1);
    await waitForTask(conn.client, gated.taskId, (t) => t.statusMessage === 'step 1/1');
    ids.push(gated.taskId);
    const views = async () => ({
      tasks: await Promise.all(ids.map((id) => answer(() => tasks.getTask(id)))),
      results: await Promise.all(ids.slice(0, 5).map((id) => answer(() => tasks.getTaskResult(id, CallToolResultSchema)))),
      lists: await pages((cursor) => tasks.listTasks(cursor)),
    });
    const before = await views();
    assert.equal(before.lists.length, 3);

    const count = memories.length;
    const peakOf = memories.at(-1);
    await burst(stores.taskStore, 2_000);
    const peak = peakOf.buffer.byteLength;
    stores.clock.advance(1_500);
    await tasks.listTasks();
    assert.equal(stores.taskStore.size, ids.length, 'the burst expired');
    assert.equal(memories.length, count + 1, 'moved to a fresh instance');
    assert.ok(memories.at(-1).buffer.byteLength * 4 <= peak);

    assert.deepEqual(await views(), before);
    for (const { cursor, page } of before.lists) {
      if (cursor !== undefined) assert.equal(JSON.stringify(await tasks.listTasks(cursor)), page);
    }
    // The gated work finishes on the new engine.
    ctl.open(gated.taskId, 2);
    const last = await waitForTask(conn.client, gated.taskId, (t) => t.status === 'completed');
    assert.equal(last.status, 'completed');
    assert.deepEqual((await tasks.getTaskResult(gated.taskId, CallToolResultSchema)).content, [{ type: 'text', text: 'done after 1 steps' }]);
  } finally {
    await conn.close();
    stores.close();
  }
});

test('freshInstance: a random source set later reaches the engines of instances made before', async () => {
  const { freshInstance, setRandomSource } = await import(pathToFileURL(path.join(PKG_DIR, 'entries/receiver.node.mjs')).href);
  const { fillRandom } = await import(pathToFileURL(path.join(PKG_DIR, 'core/node-random.js')).href);
  const { TextTaskEngine } = freshInstance();
  const engine = new TextTaskEngine({});
  setRandomSource((bytes) => bytes.forEach((_, i) => (bytes[i] = i & 0xff)));
  try {
    // (A new engine: its ID pool is drawn from the source at its first task.)
    assert.equal(JSON.parse(engine.createTask('c', 'tools/call', 1000)).taskId, '00010203-0405-4607-8809-0a0b0c0d0e0f');
  } finally {
    setRandomSource(fillRandom);
    engine.free();
  }
});
