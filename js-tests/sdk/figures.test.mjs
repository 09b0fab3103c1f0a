// The figures a dashboard shows, from WasmTaskStore (and its allSessions() view): tasks by
// status as the engine counts them, the work running here and how much of it waits for input,
// and the counters since start (expirations, lease failures, storage errors).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { switchableStorage } from '../helpers/switchable-storage.mjs';
import { manualClock, ours } from './harness.mjs';

const { WasmTaskStore } = ours;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const REQ = { method: 'tools/call', params: { name: 't', arguments: {} } };
const ZERO = { tasks: { working: 0, input_required: 0, completed: 0, failed: 0, cancelled: 0 }, running: 0, inputWaiting: 0, expirations: 0, leaseFailures: 0, storageErrors: 0 };

test('figures(): tasks by status, running work, work waiting for input, expirations; the same from allSessions()', async () => {
  const clock = manualClock();
  const store = new WasmTaskStore({ now: clock.now });
  assert.deepEqual(store.figures(), ZERO);
  const make = async (ttl = 60_000) => (await store.createTask({ ttl }, 1, REQ, 'session-a')).taskId;
  const done = await make();
  const failed = await make();
  const toolError = await make();
  const waiting = await make();
  const cancelled = await make();
  await make(); // stays working
  const expiring = await make(100);
  await store.storeTaskResult(done, 'completed', { content: [] }, 'session-a');
  await store.storeTaskResult(failed, 'failed', Object.assign(new Error('bad'), { code: -32602 }), 'session-a');
  await store.storeTaskResult(toolError, 'failed', { content: [], isError: true }, 'session-a');
  await store.updateTaskStatus(waiting, 'input_required', undefined, 'session-a');
  await store.updateTaskStatus(cancelled, 'cancelled', undefined, 'session-a');
  assert.deepEqual(store.figures(), {
    tasks: { working: 2, input_required: 1, completed: 1, failed: 2, cancelled: 1 },
    running: 3,
    inputWaiting: 1,
    expirations: 0,
    leaseFailures: 0,
    storageErrors: 0,
  });
  // The input answered: the work runs on, waiting for nothing.
  await store.updateTaskStatus(waiting, 'working', undefined, 'session-a');
  clock.advance(101);
  assert.equal(await store.getTask(expiring, 'session-a'), null);
  const figures = store.figures();
  assert.deepEqual(figures, {
    tasks: { working: 2, input_required: 0, completed: 1, failed: 2, cancelled: 1 },
    running: 2,
    inputWaiting: 0,
    expirations: 1,
    leaseFailures: 0,
    storageErrors: 0,
  });
  assert.deepEqual(store.allSessions().figures(), figures);
  store.cleanup();
  assert.deepEqual(store.figures(), ZERO);
});

test('figures() with storage: storage errors counted as calls meet them; lease failures of a dead instance counted where they are found', { timeout: 15_000 }, async () => {
  const storage = switchableStorage();
  const dead = new WasmTaskStore({ storage, leaseMs: 150, timer: false });
  const { taskId } = await dead.createTask({ ttl: 60_000 }, 1, REQ, 'session-a');
  assert.equal(dead.figures().running, 1);
  // The instance dies (no heartbeat): another finds the lease run out.
  const alive = new WasmTaskStore({ storage, leaseMs: 150, storageTimeoutMs: 200 });
  await sleep(300);
  const task = await alive.getTask(taskId, 'session-a');
  assert.equal(task.status, 'failed');
  assert.equal(alive.figures().leaseFailures, 1);
  assert.equal(alive.figures().tasks.failed, 1);
  assert.equal(alive.figures().storageErrors, 0);
  storage.state.down = true;
  await assert.rejects(alive.getTask(taskId, 'session-a'), /Task storage unavailable/);
  await assert.rejects(alive.createTask({ ttl: 1000 }, 2, REQ, 'session-a'), /Task storage unavailable/);
  assert.equal(alive.figures().storageErrors, 2);
  storage.state.down = false;
  dead.cleanup();
  alive.cleanup();
});
