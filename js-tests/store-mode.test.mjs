// Node: the engine in storage mode through the wasm package: persist before reply, restore on
// another engine, a dead instance's lease fails its task, a compare-and-set conflict is retried.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertEngineError, manualClock, sequentialIds } from './helpers/checked.mjs';
import { installPackage } from './helpers/package.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
});
after(() => pkg?.cleanup());

/** A store with compare-and-set on versions, as every adapter keeps it. */
class MapStore {
  records = new Map();
  apply(p) {
    const current = this.records.get(p.taskId);
    if ((current?.version ?? null) !== p.expectedVersion) return { conflict: current?.record ?? null };
    if (p.record === null) this.records.delete(p.taskId);
    else this.records.set(p.taskId, { version: p.version, record: p.record });
    return null;
  }
}

function engine(clock, instanceId, prefix) {
  return new mod.TextTaskEngine({ now: clock.now, newTaskId: sequentialIds(prefix), tools: { slow: 'required' }, storage: { instanceId, leaseMs: 3000 } });
}

/** Drains outputs, persisting each Persist first; `{ conflict }` when a compare-and-set failed. */
function drain(e, store) {
  const rest = [];
  for (let o; (o = e.pollOutput()) !== null; ) {
    if (o.kind === 'persist') {
      assert.equal(rest.length, 0, 'a persist came after an output it must precede');
      const failed = store.apply(o);
      if (failed) {
        while (e.pollOutput() !== null);
        return failed;
      }
    } else rest.push(o);
  }
  return { outs: rest };
}

test('storage mode: persist before reply, restart elsewhere, lease, conflict', () => {
  const clock = manualClock();
  const store = new MapStore();
  const a = engine(clock, 'boot-a', 'a-');
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', task: { ttl: 60000 } } });
  assert.equal(a.handle(call, 's'), null, 'the reply is queued behind the persist');
  const first = a.pollOutput();
  assert.equal(first.kind, 'persist');
  assert.equal(first.expectedVersion, null);
  assert.equal(first.version, 1);
  assert.equal(store.apply(first), null);
  const { outs } = drain(a, store);
  const reply = outs.find((o) => o.kind === 'send' && o.inReplyTo === '1');
  assert.equal(JSON.parse(reply.message).result.task.taskId, 'a-1');
  // Another engine (a restart) restores the record; the dead instance's lease fails the task.
  const b = engine(clock, 'boot-b', 'b-');
  b.restore(store.records.get('a-1').record);
  assert.equal(JSON.parse(b.getTask('a-1', 's')).status, 'working');
  clock.advance(3000);
  b.handleTimeout();
  drain(b, store);
  const failed = JSON.parse(b.getTask('a-1', 's'));
  assert.equal(failed.status, 'failed');
  assert.match(failed.statusMessage, /lease ran out/);
  assert.equal(JSON.parse(store.records.get('a-1').record).status, 'failed');
  // A decides on the stale copy: its write conflicts, and after restore it knows better.
  a.complete('a-1', '{"content":[]}');
  const { conflict } = drain(a, store);
  a.restore(conflict);
  assertEngineError(() => a.complete('a-1', '{"content":[]}'), 'already_terminal');
  const snap = b.snapshot();
  const c = engine(clock, 'boot-c', 'c-');
  assert.equal(c.restoreSnapshot(snap), 1);
  assert.equal(c.exportTask('a-1'), b.exportTask('a-1'));
  assert.equal(c.forgetTask('a-1'), true);
  assert.equal(c.taskCount, 0);
  assertEngineError(() => c.restore('{"not":"a record"}'), 'invalid_argument');
});
