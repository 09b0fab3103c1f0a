// TaskRequestor in object mode: plain JS values in and out (ids, progress tokens, tasks,
// messages), `callId` on every output about a call, the exact text where bytes matter, and the
// `{ task, progressToken }` options of call(). The receiver is an in-memory TaskEngine (text API).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { manualClock, sequentialIds } from '../helpers/checked.mjs';
import { installPackage } from '../helpers/package.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
});
after(() => pkg?.cleanup());

const ELICIT = JSON.stringify({ mode: 'form', message: 'Units?', requestedSchema: { type: 'object', properties: {} } });

/** Every output has exactly the fields of its kind in the Rust outputs table (plus `text` where it keeps one). */
function assertShape(output) {
  const shape = mod.TextTaskRequestor.outputShapes()[output.kind];
  assert.ok(shape, `a kind of the table: ${output.kind}`);
  const expected = ['kind', ...shape.fields.map((f) => f.replace(/\?$/, '')), ...(shape.text === null ? [] : ['text'])];
  assert.deepEqual(Object.keys(output).sort(), expected.sort(), `${output.kind} fields`);
  // Parsed: objects, or ids as the values they are (a string id loses its JSON quotes).
  for (const field of shape.json) {
    const value = output[field];
    assert.ok(typeof value !== 'string' || !value.startsWith('"'), `${output.kind}.${field} is parsed: ${value}`);
  }
}

/** An object-mode requestor wired to a text-mode engine in memory. */
function pair() {
  const clock = manualClock();
  const Engine = mod.TextTaskEngine ?? mod.TaskEngine;
  const engine = new Engine({ now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required' }, pollIntervalMs: 1000 });
  const requestor = new mod.TaskRequestor({ now: clock.now });
  const sent = [];
  const events = [];
  const pump = () => {
    for (let moved = true; moved; ) {
      moved = false;
      for (let o; (o = requestor.pollOutput()) !== null; ) {
        moved = true;
        assertShape(o);
        if (o.kind === 'send') {
          sent.push(o);
          const reply = engine.handle(o.text, 'me');
          if (reply !== null) requestor.handle(reply);
        } else events.push(o);
      }
      for (let o; (o = engine.pollOutput()) !== null; ) {
        moved = true;
        if (o.kind === 'send') requestor.handle(o.message);
        // The engine's host runs plain calls: answered here at once.
        if (o.kind === 'forward') requestor.handle({ jsonrpc: '2.0', id: JSON.parse(o.message).id, result: { content: [{ type: 'text', text: 'plain' }] } });
      }
    }
  };
  const tick = (ms) => {
    clock.advance(ms);
    requestor.handleTimeout();
    pump();
  };
  return { clock, engine, requestor, sent, events, pump, tick };
}

test('object mode: a task from call to outcome with plain ids, tokens, tasks and messages', () => {
  const p = pair();
  const callId = p.requestor.call('tools/call', { name: 'slow', arguments: { n: 1 } }, { task: { ttl: 60_000 }, progressToken: 'tok' });
  assert.equal(callId, 'mcp-task-core:1', 'the id as the JS value it is, not JSON text');
  p.pump();
  const call = p.sent[0];
  assert.equal(call.message.params._meta.progressToken, 'tok');
  assert.deepEqual(call.message.params.task, { ttl: 60_000 });
  assert.deepEqual(JSON.parse(call.text), call.message, 'the exact text travels with the message');
  assert.equal(call.requestId, callId);

  const created = p.events.find((e) => e.kind === 'created');
  assert.equal(created.callId, callId);
  assert.equal(created.task.status, 'working');
  assert.equal(created.task.pollInterval, 1000);
  const taskId = created.taskId;

  p.engine.reportProgress(taskId, 1, 2, null);
  p.engine.requestInput(taskId, 'elicitation/create', ELICIT);
  p.tick(1000);
  const progress = p.events.find((e) => e.kind === 'progress');
  assert.equal(progress.notification.params.progressToken, 'tok');
  const input = p.events.find((e) => e.kind === 'inputRequest');
  assert.equal(input.request.method, 'elicitation/create');
  assert.equal(input.request.params.message, 'Units?');
  assert.equal(input.request.id, input.requestId, 'the request id as a JS value, ready to answer with');
  p.requestor.respond(input.requestId, { action: 'accept', content: { units: 'C' } });
  p.pump();

  // A result with a number JSON cannot hold exactly: `text` keeps the receiver's bytes.
  p.engine.complete(taskId, '{"content":[{"type":"text","text":"21 C"}],"big":12345678901234567890}');
  p.tick(1000);
  p.tick(1000);
  const finished = p.events.find((e) => e.kind === 'finished');
  assert.equal(finished.status, 'completed');
  assert.equal(finished.response.result.content[0].text, '21 C');
  assert.match(finished.text, /"big":12345678901234567890/);
  assert.deepEqual(JSON.parse(finished.text).result.content, finished.response.result.content);

  const aboutTheCall = p.events.filter((e) => e.kind !== 'forward');
  assert.ok(aboutTheCall.length >= 5, p.events.map((e) => e.kind).join());
  for (const e of aboutTheCall) assert.equal(e.callId, callId, `${e.kind} names its call`);
  assert.deepEqual(p.requestor.tracked(), []);
  p.requestor.free();
});

test('object mode: call() options, numeric tokens, plain calls, cancel, state and forwards', () => {
  const p = pair();
  const numeric = p.requestor.call('tools/call', { name: 'slow' }, { task: true, progressToken: 7 });
  p.pump();
  assert.equal(p.sent.at(-1).message.params._meta.progressToken, 7);
  assert.deepEqual(p.sent.at(-1).message.params.task, {}, 'task: true asks for a task without a ttl');
  const plain = p.requestor.call('tools/call', { name: 'quick' });
  p.pump();
  assert.equal(p.sent.at(-1).message.params.task, undefined, 'no task option: a plain request');
  const answer = p.events.find((e) => e.callId === plain);
  assert.equal(answer.kind, 'plainResponse');
  assert.equal(answer.response.id, plain);
  assert.equal(answer.response.result.content[0].text, 'plain');
  assert.equal(JSON.parse(answer.text).id, plain);

  for (const bad of [60_000, 'yes', null]) {
    assert.throws(() => p.requestor.call('tools/call', { name: 'slow' }, { task: bad }), (e) => e instanceof TypeError && e.code === 'invalid_argument' && /options\.task/.test(e.message));
  }
  assert.throws(() => p.requestor.call('tools/call', {}, { ttl: 5 }), /options\.ttl is not an option/);
  assert.throws(() => p.requestor.call('tools/call', {}, { task: true, progressToken: { no: 1 } }), /progressToken/);
  assert.throws(() => p.requestor.call('tools/call', 'not an object'), /params must be a JSON object/);

  // The state round-trips as an object and keeps each task's call.
  const created = p.events.find((e) => e.kind === 'created' && e.callId === numeric);
  const state = p.requestor.exportState();
  assert.equal(state.tasks[0].taskId, created.taskId);
  assert.equal(JSON.parse(state.tasks[0].callId), numeric);
  const again = new mod.TaskRequestor({ now: p.clock.now });
  assert.equal(again.importState(state), 1);
  assert.equal(again.task(created.taskId).status, 'working');

  // Cancel: the answer and the end name the call.
  const cancelId = p.requestor.cancel(created.taskId);
  assert.equal(typeof cancelId, 'string');
  p.pump();
  p.tick(1000);
  const answered = p.events.find((e) => e.kind === 'cancelAnswered');
  assert.equal(answered.callId, numeric);
  assert.equal(answered.response.result.status, 'cancelled');
  assert.equal(p.events.find((e) => e.kind === 'finished').callId, numeric);

  // What is none of the requestor's business is forwarded, parsed when it is JSON.
  p.requestor.handle('{not json');
  p.requestor.handle({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
  const [broken, note] = [p.requestor.pollOutput(), p.requestor.pollOutput()];
  assert.deepEqual(broken, { kind: 'forward', message: null, text: '{not json' });
  assert.equal(note.message.params.data, 'hi');
  assert.equal(p.requestor.requestFailed('nobody'), false);
  again.free();
  p.requestor.free();
});

test('object mode: clientCapabilities and clientInfo go on every 2026-07-28 request; ill-typed ones are refused', () => {
  const clientInfo = { name: 'object-mode', version: '1.2.3' };
  const requestor = new mod.TaskRequestor({ dialect: '2026-07-28', clientCapabilities: { sampling: {} }, clientInfo });
  requestor.call('tools/call', { name: 'slow' }, { task: true });
  requestor.call('tools/call', { name: 'echo' });
  const [task, plain] = [requestor.pollOutput(), requestor.pollOutput()].map((o) => o.message.params._meta);
  assert.deepEqual(task['io.modelcontextprotocol/clientCapabilities'], { sampling: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } });
  assert.deepEqual(plain['io.modelcontextprotocol/clientCapabilities'], { sampling: {} });
  for (const meta of [task, plain]) assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], clientInfo);
  for (const [key, value] of [['clientCapabilities', 'elicitation'], ['clientCapabilities', []], ['clientInfo', 7]]) {
    assert.throws(() => new mod.TaskRequestor({ [key]: value }), (e) => e.code === 'invalid_options' && e.message.startsWith(`options.${key} must be`), key);
  }
});

test('object mode: listen asks a 2026-07-28 receiver for the task\'s pushed status, and ends the stream with the task; an ill-typed listen is refused', () => {
  const requestor = new mod.TaskRequestor({ dialect: '2026-07-28', listen: true, clientInfo: { name: 'c', version: '1' } });
  const callId = requestor.call('tools/call', { name: 'slow' }, { task: true });
  assert.equal(requestor.pollOutput().message.method, 'tools/call');
  const task = { taskId: 't1', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null, pollIntervalMs: 5000 };
  requestor.handle({ jsonrpc: '2.0', id: callId, result: { resultType: 'task', ...task } });
  const outputs = [];
  for (let out; (out = requestor.pollOutput()) !== null; ) outputs.push(out);
  assert.deepEqual(outputs.map((o) => o.kind), ['created', 'send']);
  const listen = outputs[1];
  assertShape(listen);
  assert.equal(listen.message.method, 'subscriptions/listen');
  assert.deepEqual(listen.message.params.notifications, { taskIds: ['t1'] });
  assert.equal(listen.message.params._meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
  assert.deepEqual(listen.requestId, listen.message.id);
  // Pushed: the status, then the outcome; the stream is closed for the task that ended.
  requestor.handle({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, statusMessage: 'half', _meta: { 'io.modelcontextprotocol/subscriptionId': listen.requestId } } });
  assert.equal(requestor.pollOutput().task.statusMessage, 'half');
  requestor.handle({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, status: 'completed', result: { content: [] } } });
  const end = [];
  for (let out; (out = requestor.pollOutput()) !== null; ) end.push(out);
  const cancelled = end.find((o) => o.kind === 'send');
  assert.equal(cancelled.message.method, 'notifications/cancelled');
  assert.deepEqual(cancelled.message.params.requestId, listen.requestId);
  assert.equal(end.at(-1).kind, 'finished');
  assert.deepEqual(end.at(-1).response.result, { content: [] });
  requestor.free();

  for (const listenOption of ['yes', 1, {}]) {
    assert.throws(() => new mod.TaskRequestor({ listen: listenOption }), (e) => e.code === 'invalid_options' && /options\.listen must be a boolean/.test(e.message));
  }
});
