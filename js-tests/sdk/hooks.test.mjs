// The hooks of WasmTaskStore that the receiver runtime (runtime.js) feeds: the storage errors
// no call sees (the timer's rounds) reach onStorageError, and the store goes on once the
// storage answers again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { switchableStorage } from '../helpers/switchable-storage.mjs';
import { ours } from './harness.mjs';

const { WasmTaskStore } = ours;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const REQ = { method: 'tools/call', params: { name: 't', arguments: {} } };

test('with storage, a failed timer round reaches onStorageError (reason storage_unavailable); expiry happens once the storage is back', { timeout: 15_000 }, async () => {
  const storage = switchableStorage();
  const storageErrors = [];
  const expired = [];
  const store = new WasmTaskStore({ storage, storageTimeoutMs: 200, onStorageError: (e) => storageErrors.push(e) });
  store.onTaskExpired((taskId) => expired.push(taskId));
  const task = await store.createTask({ ttl: 100 }, 1, REQ, 'A');
  storage.state.down = true;
  for (let i = 0; i < 300 && storageErrors.length === 0; i++) await sleep(10);
  assert.ok(storageErrors.length >= 1, 'the failed expiry round is reported');
  assert.equal(storageErrors[0].reason, 'storage_unavailable');
  assert.equal(storageErrors[0].code, -32603);
  assert.match(storageErrors[0].message, /^Task storage unavailable: /);
  assert.deepEqual(expired, [], 'nothing expires while the storage is down');
  storage.state.down = false;
  for (let i = 0; i < 300 && expired.length === 0; i++) await sleep(10);
  assert.deepEqual(expired, [task.taskId]);
  store.cleanup();
});

test('onStorageError is an option of the storage mode, and a function', () => {
  assert.throws(() => new WasmTaskStore({ onStorageError: () => {} }), /^TypeError: options\.onStorageError is an option of the storage mode: it needs options\.storage$/);
  assert.throws(() => new WasmTaskStore({ storage: switchableStorage(), onStorageError: 'log' }), /^TypeError: options\.onStorageError must be a function$/);
});
