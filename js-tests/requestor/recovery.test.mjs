// TaskRequestor through the wasm binding against a scripted receiver (the test answers each
// request by hand, or drops it): the outcome is only what a terminal task's tasks/result
// returns, lost requests are recovered, long pollIntervals are honoured, list() ends.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { manualClock } from '../helpers/checked.mjs';
import { installPackage } from '../helpers/package.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
  await mod.init();
});
after(() => pkg?.cleanup());

const task = (status, pollInterval) => ({
  taskId: 't1',
  status,
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:30:00Z',
  ttl: 600_000,
  ...(pollInterval === undefined ? {} : { pollInterval }),
});
const toolResult = (text) => ({ content: [{ type: 'text', text }], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't1' } } });

/** A requestor and the hand-played receiver. */
function scripted(options = {}) {
  const clock = manualClock();
  const r = new mod.TextTaskRequestor({ now: clock.now, ...options });
  const s = {
    clock,
    r,
    events: [],
    ticks: 0,
    sends: 0,
    /** The requests sent since the last drain (`{ id, requestId, method, params }`); events are kept. */
    drain() {
      const sent = [];
      for (let o = r.pollOutput(); o !== null; o = r.pollOutput()) {
        if (o.kind === 'send') {
          // A busy loop fails the test instead of hanging it.
          assert.ok(++s.sends < 10_000, 'livelock: 10 000 requests sent');
          const msg = JSON.parse(o.message);
          sent.push({ ...msg, requestId: o.requestId });
        } else s.events.push(o);
      }
      return sent;
    },
    answer: (req, result) => r.handle(JSON.stringify({ jsonrpc: '2.0', id: req.id, result })),
    answerError: (req, error) => r.handle(JSON.stringify({ jsonrpc: '2.0', id: req.id, error })),
    notify: (t) => r.handle(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: t })),
    /** Fires the next deadline if it is not past `until`. */
    tick(until) {
      const due = r.nextDeadline();
      if (due === null || due > until) return false;
      assert.ok(++s.ticks < 10_000, 'livelock: 10 000 deadlines fired');
      if (due > clock.ms) clock.set(due);
      r.handleTimeout();
      return true;
    },
    create(pollInterval) {
      r.call('tools/call', JSON.stringify({ name: 'slow' }), true);
      const [req] = s.drain();
      s.answer(req, { task: task('working', pollInterval) });
      assert.deepEqual(s.drain(), []);
    },
    of: (kind) => s.events.filter((e) => e.kind === kind),
  };
  return s;
}

test('item 1: a rate-limit error to an early tasks/result is retried with backoff, never the outcome', () => {
  const s = scripted();
  const t0 = s.clock.ms;
  s.create(1000);
  s.notify(task('input_required', 1000));
  let [req] = s.drain();
  assert.equal(req.method, 'tasks/result');
  const rateLimited = { code: -32000, message: 'Rate limit exceeded' };
  s.answerError(req, rateLimited);
  assert.deepEqual(s.drain(), [], 'nothing sent at once: no busy polling');
  const [retry] = s.of('retrying');
  assert.equal(retry.method, 'tasks/result');
  assert.equal(JSON.parse(retry.response).error.code, -32000);
  let results = 1;
  while (s.tick(t0 + 10_000)) {
    for (const r of s.drain()) {
      if (r.method === 'tasks/get') s.answer(r, task('input_required', 1000));
      else {
        results += 1;
        s.answerError(r, rateLimited);
      }
    }
  }
  assert.ok(results >= 2 && results <= 8, `tasks/result retried with backoff: ${results}`);
  assert.deepEqual(s.of('finished'), []);
  s.notify(task('completed', 1000));
  for (let i = 0; i < 100; i++) {
    const sent = s.drain();
    if (sent.length === 0 && !s.tick(t0 + 100_000)) break;
    for (const r of sent) {
      if (r.method === 'tasks/result') s.answer(r, toolResult('the real result'));
      else s.answer(r, task('completed', 1000));
    }
  }
  const finished = s.of('finished');
  assert.equal(finished.length, 1);
  assert.equal(finished[0].status, 'completed');
  assert.equal(JSON.parse(finished[0].response).result.content[0].text, 'the real result');
  s.r.free();
});

test('item 1: a task that expires while tasks/result waits is lost, not finished', () => {
  const s = scripted();
  s.create(1000);
  s.notify(task('input_required', 1000));
  const expired = { code: -32602, message: 'Failed to retrieve task: Task has expired' };
  s.answerError(s.drain()[0], expired);
  while (s.tick(s.clock.ms + 30_000)) for (const r of s.drain()) s.answerError(r, expired);
  s.drain();
  assert.deepEqual(s.of('finished'), []);
  assert.equal(s.of('lost').length, 1);
  assert.deepEqual(s.r.tracked(), []);
  s.r.free();
});

test('item 2: a dropped tasks/result is sent again; requestFailed recovers at once', () => {
  const s = scripted({ requestTimeoutMs: 5000 });
  const t0 = s.clock.ms;
  s.create(1000);
  s.notify(task('completed', 1000));
  const [lost] = s.drain();
  assert.equal(lost.method, 'tasks/result');
  assert.equal(lost.requestId, JSON.stringify(lost.id), 'send outputs carry the raw JSON id');
  assert.equal(s.r.nextDeadline(), t0 + 5000, 'the request timeout');
  assert.ok(s.tick(t0 + 5000));
  s.drain();
  assert.equal(JSON.parse(s.of('retrying')[0].response).error.data.requestor, 'timeout');
  assert.ok(s.tick(t0 + 60_000));
  const [again] = s.drain();
  assert.equal(again.method, 'tasks/result');
  // This time the host sees its stream drop.
  assert.equal(s.r.requestFailed(again.requestId), true);
  assert.equal(s.r.requestFailed(again.requestId), false, 'no longer awaited');
  assert.equal(s.r.requestFailed('"not-ours"'), false);
  s.drain();
  assert.equal(JSON.parse(s.of('retrying')[1].response).error.data.requestor, 'transport');
  assert.ok(s.tick(t0 + 120_000));
  const [third] = s.drain();
  s.answer(third, toolResult('third time'));
  s.drain();
  assert.equal(JSON.parse(s.of('finished')[0].response).result.content[0].text, 'third time');
  assert.equal(s.r.nextDeadline(), null);
  assert.throws(() => s.r.requestFailed(42), TypeError);
  s.r.free();
});

test('item 2: calls, cancels and list pages without an answer are reported failed', () => {
  const s = scripted({ requestTimeoutMs: 1000, resultTimeoutMs: 2000 });
  const t0 = s.clock.ms;
  const callId = s.r.call('tools/call', JSON.stringify({ name: 'slow' }), 60_000);
  s.r.list();
  assert.equal(s.drain().length, 2);
  assert.ok(s.tick(t0 + 1000));
  s.drain();
  const [refused] = s.of('callRefused');
  assert.equal(refused.callId, callId);
  assert.equal(JSON.parse(refused.response).error.code, -32001);
  assert.equal(JSON.parse(s.of('listed')[0].error).error.data.requestor, 'timeout');
  assert.equal(s.r.nextDeadline(), null);
  s.r.free();
});

test('item 3: a receiver pollInterval above pollCeilingMs is honoured', () => {
  for (const interval of [60_000, 300_000]) {
    const s = scripted({ pollCeilingMs: 30_000 });
    const t0 = s.clock.ms;
    s.create(interval);
    assert.equal(s.r.nextDeadline(), t0 + interval);
    let gets = 0;
    while (s.tick(t0 + 600_000)) {
      for (const r of s.drain()) {
        gets += 1;
        s.answer(r, task('working', interval));
      }
    }
    assert.equal(gets, 600_000 / interval);
    s.r.free();
  }
});

test('item 4: list() stops on a repeated cursor and at maxListPages', () => {
  const s = scripted({ maxListPages: 4 });
  s.r.list();
  let pages = 0;
  for (let sent = s.drain(); sent.length > 0; sent = s.drain()) {
    assert.equal(sent.length, 1, 'one page at a time');
    pages += 1;
    s.answer(sent[0], { tasks: [], nextCursor: 'x' });
  }
  assert.equal(pages, 2);
  const repeated = JSON.parse(s.of('listed')[0].error);
  assert.equal(repeated.error.data.requestor, 'repeatedCursor');
  assert.match(repeated.error.message, /repeated the cursor "x"/);
  s.r.list();
  pages = 0;
  for (let sent = s.drain(); sent.length > 0; sent = s.drain()) {
    pages += 1;
    s.answer(sent[0], { tasks: [task('working')], nextCursor: `c${pages}` });
  }
  assert.equal(pages, 4);
  const limited = s.of('listed')[1];
  assert.equal(JSON.parse(limited.tasks).length, 4, 'the tasks read so far');
  assert.equal(JSON.parse(limited.error).error.data.requestor, 'pageLimit');
  assert.throws(() => new mod.TextTaskRequestor({ maxListPages: -1 }), /maxListPages/);
  assert.throws(() => new mod.TextTaskRequestor({ requestTimeoutMs: 1.5 }), /requestTimeoutMs/);
  s.r.free();
});
