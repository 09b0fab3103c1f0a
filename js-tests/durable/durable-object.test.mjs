// Cloudflare Durable Object (mcp-task-core/durable-object) in workerd through Miniflare, with
// its SQLite storage on disk: the Miniflare instance is disposed and created again over the
// same storage. Tasks and results survive; a TTL that passed while it was down has expired; the
// task whose work was in flight is failed by its lease. One object per tenant.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { installPackage } from '../helpers/package.mjs';
import { startWorker } from './fixtures/do-miniflare.mjs';
import { sleep, until } from './lib.mjs';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'do-worker.mjs');
let pkg;
let persistDir;
before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-do-' });
  persistDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-do-'));
});
after(() => {
  pkg?.cleanup();
  if (persistDir) fs.rmSync(persistDir, { recursive: true, force: true });
});

async function startMiniflare() {
  const { mf, url } = await startWorker({ pkg, source: fs.readFileSync(FIXTURE, 'utf8'), bindings: { TASKS: 'Tasks' }, persist: persistDir });
  let nextId = 1;
  const rpc = async (tenant, method, params) => {
    const res = await fetch(new URL('/mcp', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': tenant },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    assert.equal(res.status, 200, `${method}: HTTP ${res.status} ${await res.clone().text()}`);
    return res.json();
  };
  const rows = async (tenant) => (await fetch(new URL('/rows', url), { headers: { 'x-tenant': tenant } })).json();
  /** One JSON-RPC request with the given id, as principal `user` of `tenant`: the fetch Response. */
  const post = (tenant, user, id, method, params) =>
    fetch(new URL('/mcp', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': tenant, 'x-user': user },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  const release = (tenant, taskId) =>
    fetch(new URL('/release', url), { method: 'POST', headers: { 'x-tenant': tenant }, body: JSON.stringify({ taskId }) });
  const damage = (tenant, change) => fetch(new URL('/damage', url), { method: 'POST', headers: { 'x-tenant': tenant }, body: JSON.stringify(change) });
  const damaged = async (tenant) => (await fetch(new URL('/damaged', url), { headers: { 'x-tenant': tenant } })).json();
  return { mf, rpc, rows, post, release, damage, damaged };
}

test('Durable Object: dispose and recreate over the same storage', { timeout: 60_000 }, async (t) => {
  let { mf, rpc, rows } = await startMiniflare();
  let keptId;
  let shortId;
  let slowId;
  let otherId;
  try {
    const kept = await rpc('t1', 'tools/call', { name: 'quick', arguments: {}, task: { ttl: 600_000 } });
    keptId = kept.result.task.taskId;
    const short = await rpc('t1', 'tools/call', { name: 'quick', arguments: {}, task: { ttl: 2000 } });
    shortId = short.result.task.taskId;
    const slow = await rpc('t1', 'tools/call', { name: 'slow', arguments: {}, task: { ttl: 600_000 } });
    slowId = slow.result.task.taskId;
    const other = await rpc('t2', 'tools/call', { name: 'quick', arguments: {}, task: { ttl: 600_000 } });
    otherId = other.result.task.taskId;
    const result = await rpc('t1', 'tasks/result', { taskId: keptId });
    assert.deepEqual(result.result.content, [{ type: 'text', text: 'quick done in t1' }]);
    assert.equal((await rpc('t1', 'tasks/get', { taskId: slowId })).result.status, 'working');
    // One object per tenant: t2's task is not in t1's object.
    assert.equal((await rpc('t1', 'tasks/get', { taskId: otherId })).error?.code, -32602);
    assert.deepEqual((await rows('t2')).map((r) => r.id), [otherId]);
    // Lease renewals go through the alarm while the slow work runs here.
    const v0 = (await rows('t1')).find((r) => r.id === slowId).version;
    await until(async () => (await rows('t1')).find((r) => r.id === slowId).version > v0, 'a lease renewal by the alarm', 3000);
  } finally {
    await mf.dispose();
  }
  const downAt = Date.now();
  await sleep(2200); // past the short TTL (2 s from creation) and the lease (1.5 s)

  ({ mf, rpc, rows } = await startMiniflare());
  try {
    // Tasks and results survive.
    const kept = await rpc('t1', 'tasks/get', { taskId: keptId });
    assert.equal(kept.result.status, 'completed');
    const result = await rpc('t1', 'tasks/result', { taskId: keptId });
    assert.deepEqual(result.result.content, [{ type: 'text', text: 'quick done in t1' }]);
    assert.equal((await rpc('t2', 'tasks/get', { taskId: otherId })).result.status, 'completed');
    // The in-flight task: its lease ran out while the object was gone, so it failed.
    const slow = await rpc('t1', 'tasks/get', { taskId: slowId });
    assert.equal(slow.result.status, 'failed');
    assert.match(slow.result.statusMessage, /lease ran out/);
    // The TTL that passed while down: expired, and its record deleted from storage.
    assert.equal((await rpc('t1', 'tasks/get', { taskId: shortId })).error?.code, -32602);
    await until(async () => !(await rows('t1')).some((r) => r.id === shortId), 'the expired record to be deleted', 3000);
    assert.deepEqual((await rows('t1')).map((r) => r.id).sort(), [keptId, slowId].sort());
    t.diagnostic(`down ${Date.now() - downAt} ms: 2 completed tasks and their results survived, the expired one was deleted, the in-flight one failed by its lease`);
  } finally {
    await mf.dispose();
  }
});

test("Durable Object: a waiting tasks/result gets its own principal's answer when two clients use the same request id", { timeout: 60_000 }, async () => {
  const { mf, post, release } = await startMiniflare();
  try {
    // Two users of one object (same tenant), each numbering requests from 1 as official clients do.
    const create = async (user) => (await (await post('t3', user, 1, 'tools/call', { name: 'gated', arguments: {}, task: { ttl: 60_000 } })).json()).result.task.taskId;
    const aliceTask = await create('alice');
    const bobTask = await create('bob');
    const aliceWait = post('t3', 'alice', 2, 'tasks/result', { taskId: aliceTask }).then((r) => r.json());
    await sleep(200);
    const bobWait = post('t3', 'bob', 2, 'tasks/result', { taskId: bobTask }).then((r) => r.json());
    await sleep(200);
    const settled = new Set();
    aliceWait.then(() => settled.add('alice'));
    bobWait.then(() => settled.add('bob'));

    await release('t3', aliceTask);
    const alice = await Promise.race([aliceWait, sleep(5000).then(() => null)]);
    assert.ok(alice, "alice's tasks/result was never answered");
    assert.equal(alice.id, 2, 'the client gets its own request id back');
    assert.deepEqual(alice.result.content, [{ type: 'text', text: 'gated done for alice' }]);
    await sleep(300);
    assert.equal(settled.has('bob'), false, "bob's request is not answered with alice's result");

    await release('t3', bobTask);
    const bob = await Promise.race([bobWait, sleep(5000).then(() => null)]);
    assert.ok(bob, "bob's tasks/result was never answered");
    assert.equal(bob.id, 2);
    assert.deepEqual(bob.result.content, [{ type: 'text', text: 'gated done for bob' }]);
  } finally {
    await mf.dispose();
  }
});

test('Durable Object: a damaged row fails its task (written back) instead of wedging it, and never keeps the object from starting', { timeout: 60_000 }, async () => {
  let { mf, rpc, rows, release, damage, damaged } = await startMiniflare();
  let broken;
  let kept;
  try {
    // A running task whose stored version is garbage: its outcome meets the damage at the
    // compare-and-set; the engine fails it and writes that over the damage.
    const running = (await rpc('t5', 'tools/call', { name: 'gated', arguments: {}, task: { ttl: 60_000 } })).result.task.taskId;
    await damage('t5', { taskId: running, version: 'garbage' });
    await release('t5', running);
    const task = (await until(async () => {
      const t = (await rpc('t5', 'tasks/get', { taskId: running })).result;
      return t?.status === 'working' ? null : t;
    }, 'the damaged task to end', 5000));
    assert.equal(task.status, 'failed', JSON.stringify(task));
    assert.match(task.statusMessage, /damaged/);
    const row = (await rows('t5')).find((r) => r.id === running);
    assert.match(String(row.version), /^\d+$/, 'a valid version written over the damage');
    assert.ok((await damaged('t5')).some((d) => d.taskId === running && /garbage/.test(d.detail)), 'reported to the operator');

    // An unreadable row: the object still starts, with every other task.
    broken = (await rpc('t6', 'tools/call', { name: 'quick', arguments: {}, task: { ttl: 600_000 } })).result.task.taskId;
    kept = (await rpc('t6', 'tools/call', { name: 'quick', arguments: {}, task: { ttl: 600_000 } })).result.task.taskId;
    await damage('t6', { taskId: broken, record: '{not json' });
  } finally {
    await mf.dispose();
  }
  ({ mf, rpc, damaged } = await startMiniflare());
  try {
    assert.equal((await rpc('t6', 'tasks/get', { taskId: kept })).result?.status, 'completed');
    assert.ok((await rpc('t6', 'tasks/get', { taskId: broken })).error, 'the damaged task is left out');
    assert.ok((await damaged('t6')).some((d) => d.taskId === broken), 'reported at start');
  } finally {
    await mf.dispose();
  }
});
