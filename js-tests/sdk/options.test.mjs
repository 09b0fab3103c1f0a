// Adapter options are checked as the engine's are: an unknown key (a typo) is a TypeError that
// names it and lists the known ones, an option that would be ignored is refused, and an error
// names the option as the caller wrote it (`cursorKey`, not the engine's `storage.cursorKey`).
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import Redis from 'ioredis';
import { PKG_DIR, ours } from './harness.mjs';

const { WasmTaskStore, WasmTaskMessageQueue } = ours;
const { redisStorage } = await import(pathToFileURL(path.join(PKG_DIR, 'storage/redis.js')).href);
const { StorageLoop } = await import(pathToFileURL(path.join(PKG_DIR, 'storage/storage.js')).href);

// A real client that never connects: the options are checked before any command.
const client = new Redis({ lazyConnect: true });
after(() => client.disconnect());
const storage = redisStorage(client);

/** `fn` throws a TypeError whose message matches every pattern. */
function refuses(fn, ...patterns) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof TypeError, `a TypeError, got ${err}`);
  for (const p of patterns) assert.match(err.message, p);
  return err.message;
}

describe('WasmTaskStore', () => {
  test('an unknown key is refused, named, with the known keys', () => {
    const message = refuses(() => new WasmTaskStore({ leaseMS: 5000 }), /^options\.leaseMS is not an option \(known here: /);
    for (const key of ['defaultTtlMs', 'maxTtlMs', 'pollIntervalMs', 'limits', 'now', 'timer', 'readCacheSize', 'storage', 'leaseMs', 'cursorKey']) {
      assert.match(message, new RegExp(`\\b${key}\\b`), `lists ${key}`);
    }
    refuses(() => new WasmTaskStore({ storage, leaseMS: 5000 }), /^options\.leaseMS is not an option/);
    // Inside `limits`, the engine's own check, under the same name.
    refuses(() => new WasmTaskStore({ limits: { maxRunningTaskPerKey: 1 } }), /^options\.limits\.maxRunningTaskPerKey is not an option \(known here: .*maxRunningTasksPerKey/);
  });

  test('a storage option without storage is refused (it would be ignored)', () => {
    for (const key of ['instanceId', 'leaseMs', 'cursorKey', 'storageTimeoutMs']) {
      const value = key === 'instanceId' || key === 'cursorKey' ? '00112233445566778899aabbccddeeff' : 5000;
      refuses(() => new WasmTaskStore({ [key]: value }), new RegExp(`^options\\.${key} .*needs options\\.storage`));
    }
  });

  test('an error names the option as the caller wrote it', () => {
    const key = refuses(() => new WasmTaskStore({ storage, cursorKey: 'abc' }), /^options\.cursorKey must be 32 hexadecimal digits/);
    assert.doesNotMatch(key, /store\./);
    refuses(() => new WasmTaskStore({ storage, instanceId: '' }), /options\.instanceId must not be empty/);
    refuses(() => new WasmTaskStore({ defaultTtlMs: 1e16 }), /^options\.defaultTtlMs must be a non-negative integer$/);
  });

  test('every documented option is accepted', () => {
    const store = new WasmTaskStore({
      defaultTtlMs: 1000,
      maxTtlMs: 2000,
      allowUnlimitedTtl: false,
      pollIntervalMs: null,
      pageSize: 10,
      limits: { maxRunningTasksPerKey: 10, maxRunningTasksTotal: null, maxResultBytes: Infinity },
      now: Date.now,
      timer: false,
      readCacheSize: 0,
      storage,
      instanceId: 'a',
      leaseMs: 3000,
      cursorKey: '00112233445566778899aabbccddeeff',
      storageTimeoutMs: 100,
    });
    store.cleanup();
    new WasmTaskStore({ storage: null, pollIntervalMs: undefined }).cleanup();
  });
});

test('WasmTaskMessageQueue: an unknown key is refused', () => {
  refuses(() => new WasmTaskMessageQueue({ maxMessages: 3 }), /^options\.maxMessages is not an option \(known here: maxMessagesPerTask, taskStore\)$/);
  new WasmTaskMessageQueue({ maxMessagesPerTask: 3, taskStore: new WasmTaskStore() }).cleanup();
});

test('redisStorage: an unknown key is refused', () => {
  refuses(() => redisStorage(client, { prefx: 'x:' }), /^redisStorage options\.prefx is not an option \(known here: prefix, replicas, replicaTimeoutMs\)$/);
  refuses(() => redisStorage(client, null), /^redisStorage options must be an object$/);
  assert.equal(typeof redisStorage(client, { prefix: 'x:' }).load, 'function');
});

test('StorageLoop: an unknown key is refused', () => {
  refuses(() => new StorageLoop(storage, { timeout: 5 }), /^StorageLoop options\.timeout is not an option \(known here: timeoutMs, onOutput, engineError, storageError, conflictError, onDamaged\)$/);
  refuses(() => new StorageLoop(storage, { timeoutMs: '5s' }), /^StorageLoop options\.timeoutMs must be a non-negative number/);
  refuses(() => new StorageLoop(storage, { onOutput: 'log' }), /^StorageLoop options\.onOutput must be a function$/);
  assert.ok(new StorageLoop(storage, { timeoutMs: 5, onOutput() {} }));
});
