// mcp-task-core/redis on a real Redis Cluster (three primaries, one replica each, started here):
// every key of a storage shares a slot (the scripts touch several keys), a graceful failover of
// the primary serving that slot loses nothing, and with `replicas: 1` nothing acknowledged is
// lost when that primary is SIGKILLed and its replica promoted (nor acknowledged on a retry
// before a replica has it); without it, a write the replica never got is acknowledged and then
// lost (the case the README warns about). The tests run in order on one cluster (each finds
// the slot's primary and replica anew); about 25 s, most of it starting the cluster and
// waiting for failovers (cluster-node-timeout 1 s).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { installPackage } from '../helpers/package.mjs';
import { startCluster } from './cluster.mjs';
import { sleep, until } from './lib.mjs';

const PREFIX = '{mcp-task}:';
const req = { method: 'tools/call', params: { name: 'x' } };
const text = (t) => ({ content: [{ type: 'text', text: t }] });

let pkg;
let mod;
let cluster;
const clients = [];
const stores = [];
before(async () => {
  pkg = installPackage({ prefix: 'mcp-task-core-cluster-' });
  fs.writeFileSync(path.join(pkg.dir, 'probe.mjs'), "export * from 'mcp-task-core/sdk';\nexport * from 'mcp-task-core/redis';\n");
  mod = await import(pathToFileURL(path.join(pkg.dir, 'probe.mjs')).href);
  cluster = await startCluster({ primaries: 3, replicas: 1, nodeTimeoutMs: 1000 });
});
after(async () => {
  for (const s of stores) s.cleanup();
  for (const c of clients) c.disconnect();
  await cluster?.stop();
  pkg?.cleanup();
});

/** A cluster client (closed in `after`). */
function clusterClient() {
  const client = new Redis.Cluster(cluster.seeds(), { slotsRefreshTimeout: 2000 });
  client.on('error', () => {});
  clients.push(client);
  return client;
}

/** A WasmTaskStore on the cluster (cleaned up in `after`). */
function store(client, options = {}) {
  const s = new mod.WasmTaskStore({ storage: mod.redisStorage(client, options), leaseMs: 60_000, storageTimeoutMs: 3000 });
  stores.push(s);
  return s;
}

/** Each task as a store that never saw it reads it: status and result. */
async function readBack(client, ids) {
  const fresh = store(client);
  const out = {};
  for (const [id, session] of ids) {
    const task = await fresh.getTask(id, session);
    out[id] = task && { status: task.status, result: ['completed', 'failed'].includes(task.status) ? await fresh.getTaskResult(id, session) : undefined };
  }
  return out;
}

test('every key of a storage shares one slot: create, update, list and read across instances; an untagged prefix is refused', { timeout: 30_000 }, async () => {
  const client = clusterClient();
  assert.throws(() => mod.redisStorage(client, { prefix: 'mcp-task:' }), /hash tag.*e\.g\. "\{mcp-task\}:"/);
  assert.throws(() => mod.redisStorage(client, { prefix: '{}x:' }), /hash tag/);
  assert.throws(() => mod.redisStorage(client, { replicas: -1 }), /options\.replicas must be a non-negative integer/);
  assert.throws(() => mod.redisStorage(client, { replicaTimeoutMs: 0 }), /options\.replicaTimeoutMs must be a positive integer/);
  assert.throws(() => mod.redisStorage(client, { wait: 1 }), /wait/);
  const a = store(client);
  const b = store(client);
  const made = new Map();
  for (const session of ['S1', 'S2', 'S3']) {
    for (let i = 0; i < 4; i++) {
      const task = await a.createTask({ ttl: 600_000 }, i, req, session);
      made.set(task.taskId, session);
    }
  }
  const ids = [...made.keys()];
  await b.updateTaskStatus(ids[0], 'input_required', 'waiting', 'S1');
  await a.storeTaskResult(ids[1], 'completed', text('one'), 'S1');
  await b.updateTaskStatus(ids[4], 'cancelled', undefined, 'S2');
  for (const session of ['S1', 'S2', 'S3']) {
    // (Creation order, within a millisecond by ID: compare as sets.)
    const listed = (await b.listTasks(undefined, session)).tasks.map((t) => t.taskId);
    assert.deepEqual(listed.sort(), ids.filter((id) => made.get(id) === session).sort(), `tasks/list of ${session}`);
  }
  const back = await readBack(client, made);
  assert.equal(back[ids[0]].status, 'input_required');
  assert.deepEqual(back[ids[1]], { status: 'completed', result: text('one') });
  assert.equal(back[ids[4]].status, 'cancelled');
  assert.equal(back[ids[5]].status, 'working');
  // All on one slot of one primary: 12 task hashes and 3 context sets.
  const { slot, primary } = await cluster.holders(PREFIX);
  assert.equal(await cluster.admin(primary).call('CLUSTER', 'COUNTKEYSINSLOT', slot), 15);
  let total = 0;
  for (const n of (await cluster.topology()).filter((v) => v.role === 'primary')) total += Number(await cluster.admin(n.port).call('DBSIZE'));
  assert.equal(total, 15, 'no key outside that slot');
});

test('a graceful failover of the primary serving the slot: every task is there, the same stores go on', { timeout: 30_000 }, async () => {
  const client = clusterClient();
  const s = store(client);
  // A store waiting for a replica, on its own client: its slot map goes stale in the failover.
  const w = store(clusterClient(), { replicas: 1 });
  const made = new Map();
  for (let i = 0; i < 10; i++) made.set((await s.createTask({ ttl: 600_000 }, i, req, 'F')).taskId, 'F');
  const held = await w.createTask({ ttl: 600_000 }, 10, req, 'F');
  made.set(held.taskId, 'F');
  const ids = [...made.keys()];
  await s.storeTaskResult(ids[0], 'completed', text('before'), 'F');
  const { primary, replicas } = await cluster.holders(PREFIX);
  assert.equal(replicas.length, 1, 'the slot has a replica');
  assert.equal(await cluster.admin(replicas[0]).call('CLUSTER', 'FAILOVER'), 'OK');
  await cluster.promoted(replicas[0]);
  assert.equal((await cluster.holders(PREFIX)).primary, replicas[0], `:${replicas[0]} serves the slot now, not :${primary}`);
  await cluster.synced();
  // Both clients still have the old slot map: they follow the redirection (the waiting store's
  // write goes straight to its compare-and-set, a pipeline with the WAIT, and meets MOVED).
  await s.storeTaskResult(ids[1], 'completed', text('after'), 'F');
  await w.storeTaskResult(held.taskId, 'failed', text('waited'), 'F');
  assert.deepEqual((await s.listTasks(undefined, 'F')).tasks.map((t) => t.taskId).sort(), [...ids].sort());
  const back = await readBack(clusterClient(), made);
  assert.deepEqual(back[ids[0]], { status: 'completed', result: text('before') });
  assert.deepEqual(back[ids[1]], { status: 'completed', result: text('after') });
  assert.deepEqual(back[held.taskId], { status: 'failed', result: text('waited') });
  for (const id of ids.slice(2, 10)) assert.equal(back[id].status, 'working');
});

test('replicas: 1: writes acknowledged right up to a SIGKILL of the primary are all on the promoted replica', { timeout: 40_000 }, async () => {
  const client = clusterClient();
  const s = store(client, { replicas: 1, replicaTimeoutMs: 500 });
  await cluster.synced();
  const { primary, replicas } = await cluster.holders(PREFIX);
  assert.equal(replicas.length, 1, 'the slot has a replica');
  const acked = new Map(); // taskId -> what the store acknowledged
  const refused = [];
  let stop = false;
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      try {
        const task = await s.createTask({ ttl: 600_000 }, i, req, `K${w}`);
        const entry = { session: `K${w}`, status: 'working' };
        acked.set(task.taskId, entry);
        if (i % 2 === 0) {
          // A refused write may still have reached the primary: either outcome may be stored.
          entry.maybe = 'completed';
          await s.storeTaskResult(task.taskId, 'completed', text(`${w}-${i}`), `K${w}`);
          Object.assign(entry, { status: 'completed', result: text(`${w}-${i}`), maybe: undefined });
        }
      } catch (err) {
        assert.match(String(err.message), /Task storage/, String(err));
        refused.push(err.message);
        await sleep(50);
      }
    }
  });
  try {
    await until(() => acked.size >= 60, '60 acknowledged tasks', 15_000, 5);
    await cluster.kill(primary);
    await cluster.promoted(replicas[0]);
    // The promoted replica has no replica of its own: nothing is acknowledged meanwhile.
    const ackedAlone = acked.size;
    const refusedAlone = refused.length;
    // A writer may sit in a call to the killed node for a while (the client's reconnects): wait
    // for the first refusal rather than a fixed time, then a little longer.
    await until(() => refused.length > refusedAlone, 'writes refused while the promoted primary has no replica', 15_000, 20);
    await sleep(500);
    assert.equal(acked.size, ackedAlone, 'no write acknowledged while the primary has no replica');
    // The killed primary comes back as the replica of the promoted one; the same store goes on.
    await cluster.restart(primary);
    await until(async () => (await cluster.holders(PREFIX)).replicas.includes(primary), `:${primary} back as a replica`, 15_000, 50);
    const resumedAt = acked.size;
    await until(() => acked.size >= resumedAt + 10, '10 more acknowledged tasks', 15_000, 20);
  } finally {
    stop = true;
    await Promise.all(writers);
  }
  const back = await readBack(clusterClient(), [...acked].map(([id, a]) => [id, a.session]));
  const missing = [...acked].filter(([id, a]) => {
    const got = back[id];
    if (!got || (got.status !== a.status && got.status !== a.maybe)) return true;
    return a.result !== undefined && JSON.stringify(got.result) !== JSON.stringify(a.result);
  });
  assert.deepEqual(missing, [], `acknowledged but not on the promoted replica (of ${acked.size}; ${refused.length} refused meanwhile)`);
  await cluster.synced();
});

test('replicas: 1: a write retried on a new connection after its WAIT failed is not acknowledged before a replica has it', { timeout: 30_000 }, async () => {
  const { replicas } = await cluster.holders(PREFIX);
  assert.equal(replicas.length, 1, 'the slot has a replica');
  const persist = [{ taskId: 'retried', expectedVersion: null, version: '1', record: '{"retried":1}', expiresAt: null, context: 'R' }];
  const first = mod.redisStorage(clusterClient(), { replicas: 1, replicaTimeoutMs: 300 });
  assert.deepEqual(await first.write([{ ...persist[0], taskId: 'warm-up' }]), [null]);
  // The replica stops acknowledging (still connected: WAIT counts it once it has the offset).
  cluster.signal(replicas[0], 'SIGSTOP');
  try {
    await assert.rejects(first.write(persist), /0 of 1 replica\(s\) confirmed/);
    // The storage loop writes an unknown outcome again; after a reconnect, on a new connection
    // that made no write: the compare-and-set finds the write landed (nothing to replicate),
    // and the WAIT after it must still wait for the replica to have it.
    const second = mod.redisStorage(clusterClient(), { replicas: 1, replicaTimeoutMs: 300 });
    await assert.rejects(second.write(persist), /0 of 1 replica\(s\) confirmed/);
  } finally {
    cluster.signal(replicas[0], 'SIGCONT');
  }
  await cluster.synced();
  const third = mod.redisStorage(clusterClient(), { replicas: 1 });
  assert.deepEqual(await third.write(persist), [{ conflict: '{"retried":1}', version: '1' }], 'the first write landed on the primary');
});

test('without replicas a write the replica never got is acknowledged, then lost in the failover; with replicas: 1 it is refused', { timeout: 40_000 }, async () => {
  const client = clusterClient();
  const waiting = store(client, { replicas: 1, replicaTimeoutMs: 300 });
  const plain = store(client);
  const { primary, replicas } = await cluster.holders(PREFIX);
  assert.equal(replicas.length, 1, 'the slot has a replica');
  const storage = mod.redisStorage(client, { replicas: 1 });
  const probe = new mod.WasmTaskStore({ storage, leaseMs: 60_000 });
  stores.push(probe);
  await probe.createTask({ ttl: 600_000 }, 0, req, 'warm-up');
  const trips = storage.roundTrips;
  const kept = await waiting.createTask({ ttl: 600_000 }, 1, req, 'L');
  const probed = await probe.createTask({ ttl: 600_000 }, 2, req, 'L');
  assert.equal(storage.roundTrips - trips, 1, 'a create with the replica wait: one round trip');
  // The replica goes down: the primary still takes writes.
  await cluster.kill(replicas[0]);
  const unsafe = await plain.createTask({ ttl: 600_000 }, 3, req, 'L');
  const refusedWrite = [{ taskId: 'refused', expectedVersion: null, version: '1', record: '{}', expiresAt: null, context: 'L' }];
  await assert.rejects(mod.redisStorage(client, { replicas: 1, replicaTimeoutMs: 300 }).write(refusedWrite), /^Error: Redis: 0 of 1 replica\(s\) confirmed the write within 300 ms, so it is not acknowledged/);
  // The primary dies; the replica comes back with what it had and is promoted.
  await cluster.kill(primary);
  await cluster.restart(replicas[0]);
  await cluster.promoted(replicas[0]);
  const back = await readBack(clusterClient(), [
    [kept.taskId, 'L'],
    [probed.taskId, 'L'],
    [unsafe.taskId, 'L'],
  ]);
  assert.equal(back[kept.taskId]?.status, 'working', 'acknowledged with replicas: 1, kept');
  assert.equal(back[probed.taskId]?.status, 'working', 'acknowledged with replicas: 1, kept');
  assert.equal(back[unsafe.taskId], null, 'acknowledged without a replica, lost with its primary');
});
