// One clock: fake timers installed AFTER the store was built (as a test suite does with
// `vi.useFakeTimers()` in a beforeEach that runs after the store's) rule WasmTaskStore as they
// rule the SDK's InMemoryTaskStore. The engine reads Date.now() at each use, and so must the
// read cache and the expiry timer: a store that kept the Date.now it was built with answered a
// task 1 ms past its TTL, `working`, from its read cache.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { InMemoryTaskStore, ours } from './harness.mjs';

const { WasmTaskStore } = ours;
const REQUEST = { method: 'tools/call', params: { name: 'slow', arguments: {} } };

for (const [name, makeStore] of [
  ['InMemoryTaskStore', () => new InMemoryTaskStore()],
  ['WasmTaskStore', () => new WasmTaskStore()],
]) {
  describe(`${name}: ttl cleanup under fake timers installed after the store`, () => {
    /** @type {any} */
    let store;
    beforeEach((t) => {
      store = makeStore();
      // Like vitest's useFakeTimers(): the fake clock starts at the real time.
      t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.now() });
    });
    afterEach((t) => {
      store.cleanup();
      t.mock.timers.reset();
    });

    test('a 1 s task is there at 999 ms and gone at 1001 ms', async (t) => {
      const task = await store.createTask({ ttl: 1000 }, 1, REQUEST, 's1');
      assert.equal((await store.getTask(task.taskId, 's1'))?.status, 'working');
      t.mock.timers.tick(999);
      assert.equal((await store.getTask(task.taskId, 's1'))?.status, 'working');
      t.mock.timers.tick(2);
      assert.equal(await store.getTask(task.taskId, 's1'), null);
    });

    test('a task never read again is gone past its TTL (the timer, not a read, frees it)', async (t) => {
      await store.createTask({ ttl: 1000 }, 1, REQUEST, 's1');
      t.mock.timers.tick(1001);
      // Runs the store's own timer; nothing read the task since it was created.
      assert.deepEqual(store.getAllTasks(), []);
    });

    test('a completed task read just before its TTL is gone just after', async (t) => {
      const task = await store.createTask({ ttl: 1000 }, 1, REQUEST, 's1');
      t.mock.timers.tick(500);
      await store.storeTaskResult(task.taskId, 'completed', { content: [] }, 's1');
      t.mock.timers.tick(499);
      // The SDK's store restarts the TTL at completion; ours counts it from creation (the
      // spec's rule, see compare.test.mjs), so only ours is gone here.
      const read = await store.getTask(task.taskId, 's1');
      assert.equal(read?.status, 'completed');
      t.mock.timers.tick(name === 'WasmTaskStore' ? 2 : 502);
      assert.equal(await store.getTask(task.taskId, 's1'), null);
    });

    test('listTasks drops an expired task', async (t) => {
      const keep = await store.createTask({ ttl: 5000 }, 1, REQUEST, 's1');
      const gone = await store.createTask({ ttl: 1000 }, 2, REQUEST, 's1');
      assert.equal((await store.getTask(gone.taskId, 's1'))?.status, 'working');
      t.mock.timers.tick(1001);
      const { tasks } = await store.listTasks(undefined, 's1');
      assert.deepEqual(
        tasks.map((task) => task.taskId),
        [keep.taskId],
      );
    });
  });
}

test('WasmTaskStore with its own clock (`now`): that clock, not fake timers, decides', async (t) => {
  let now = Date.parse('2025-11-25T00:00:00.000Z');
  const store = new WasmTaskStore({ now: () => now });
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.now() });
  try {
    const task = await store.createTask({ ttl: 1000 }, 1, REQUEST, 's1');
    assert.equal((await store.getTask(task.taskId, 's1'))?.status, 'working');
    t.mock.timers.tick(5000);
    assert.equal((await store.getTask(task.taskId, 's1'))?.status, 'working', 'the fake Date is not the store\u2019s clock');
    now += 1000;
    assert.equal(await store.getTask(task.taskId, 's1'), null);
  } finally {
    store.cleanup();
    t.mock.timers.reset();
  }
});
