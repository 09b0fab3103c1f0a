// Node, ES modules: TaskEngine, the engine with plain JS values in and out. The same scenario
// runs on a TaskEngine and on a TextTaskEngine (same clock and task IDs): every output of the
// one is the other's with its JSON fields parsed, and its `text` is the other's exact text.
// Every output kind is produced, and holds exactly the fields TextTaskEngine.outputShapes()
// (the Rust table src/js_names.rs also holds index.d.ts to) names.
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

const RESULT = { content: [{ type: 'text', text: 'done: é \u2028 "quoted"' }], structuredContent: { n: 1.5, big: 1e21 } };
const ELICIT = { message: 'Units?', requestedSchema: { type: 'object', properties: { u: { type: 'string' } } } };
const EXT_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/**
 * Host calls in both modes: object mode takes the values, text mode their JSON text. The
 * scenario sees parsed results either way (`read`).
 */
function host(engine, objectMode) {
  const json = (v) => (objectMode || v == null ? v : JSON.stringify(v));
  const read = (v) => (objectMode || v == null ? v : JSON.parse(v));
  return {
    engine,
    handle: (message, context, inbound) => read(engine.handle(objectMode ? message : JSON.stringify(message), context, inbound)),
    complete: (taskId, result) => read(engine.complete(taskId, json(result))),
    fail: (taskId, error) => read(engine.fail(taskId, json(error))),
    requestInput: (taskId, method, params) => read(engine.requestInput(taskId, method, json(params))),
    createTask: (context, method, ttl, token) => read(engine.createTask(context, method, ttl, json(token))),
    reportProgress: (...args) => engine.reportProgress(...args),
    startTask: (request, context) => read(engine.startTask(objectMode ? request : JSON.stringify(request), context)),
    unlistenTasks: (id, context) => engine.unlistenTasks(json(id), context),
    drain: () => {
      const outs = [];
      for (let o; (o = engine.pollOutput()) !== null; ) outs.push(o);
      return outs;
    },
  };
}

/** Produces every output kind; returns the outputs in order. */
function scenario(h, clock) {
  const outs = [];
  const drain = () => outs.push(...h.drain());
  // execute, send (status, progress, deferred result with inReplyTo), inputResponse, audit
  const created = h.handle(
    { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow', arguments: {}, task: { ttl: 60_000 }, _meta: { progressToken: 'tok' } } },
    's1',
  );
  const taskId = created.result.task.taskId;
  drain();
  assert.equal(h.reportProgress(taskId, 1, 2, 'half'), true);
  const inputId = h.requestInput(taskId, 'elicitation/create', ELICIT);
  assert.equal(h.handle({ jsonrpc: '2.0', id: 7, method: 'tasks/result', params: { taskId } }, 's1'), null);
  drain();
  h.handle({ jsonrpc: '2.0', id: inputId, result: { action: 'accept', content: { u: 'C' } } }, 's1');
  h.complete(taskId, RESULT);
  drain();
  // forward, cancelled
  h.handle({ jsonrpc: '2.0', id: 'p', method: 'ping' }, 's1');
  const other = h.handle({ jsonrpc: '2.0', id: 'c2', method: 'tools/call', params: { name: 'slow', task: {} } }, 's1').result.task.taskId;
  h.handle({ jsonrpc: '2.0', id: 'x', method: 'tasks/cancel', params: { taskId: other } }, 's1');
  drain();
  // expired
  h.createTask('s1', 'tools/call', 10, 42);
  clock.advance(11);
  h.engine.handleTimeout();
  drain();
  // tasks extension: a perCall tool turned into a task, and a listen stream closed by its id
  assert.equal(h.handle({ jsonrpc: '2.0', id: 'e1', method: 'tools/call', params: { name: 'decide', _meta: EXT_META } }, 's1'), null);
  const [forward] = h.drain();
  outs.push(forward);
  h.startTask(forward.kind === 'forward' && typeof forward.message === 'string' ? JSON.parse(forward.message) : forward.message, 's1');
  drain();
  return outs;
}

/** Storage mode and a tiny output queue: `persist` and `outputsDropped`. */
function storeScenario(h) {
  h.createTask('s1', 'tools/call', 60_000, null);
  for (let i = 0; i < 4; i++) h.engine.cancel(h.createTask('s1', 'tools/call', 60_000, null).taskId);
  return h.drain();
}

const options = (clock) => ({ now: clock.now, newTaskId: sequentialIds(), audit: true, tools: { slow: 'required', decide: 'perCall' } });
const storeOptions = (clock) => ({ now: clock.now, newTaskId: sequentialIds(), storage: { instanceId: 'i1', cursorKey: '0'.repeat(32) }, limits: { maxPendingOutputs: 4 } });

function runBoth(run, makeOptions) {
  const [c1, c2] = [manualClock(), manualClock()];
  const objects = run(host(new mod.TaskEngine(makeOptions(c1)), true), c1);
  const texts = run(host(new mod.TextTaskEngine(makeOptions(c2)), false), c2);
  return { objects, texts };
}

test('every output kind: JSON fields parsed, exact text kept, fields as outputShapes() names them', () => {
  const shapes = mod.TextTaskEngine.outputShapes();
  const a = runBoth(scenario, options);
  const b = runBoth(storeScenario, storeOptions);
  const objects = [...a.objects, ...b.objects];
  const texts = [...a.texts, ...b.texts];
  assert.equal(objects.length, texts.length);
  assert.deepEqual(new Set(objects.map((o) => o.kind)), new Set(Object.keys(shapes)), 'the scenarios produce every kind');

  for (const [i, object] of objects.entries()) {
    const text = texts[i];
    const shape = shapes[object.kind];
    assert.equal(text.kind, object.kind, `output ${i}`);
    // Exactly the table's fields (optional ones may be absent), plus `text` where the table keeps one.
    const required = shape.fields.filter((f) => !f.endsWith('?'));
    const allowed = new Set(['kind', ...shape.fields.map((f) => f.replace('?', ''))]);
    for (const [o, extra] of [[text, null], [object, shape.text && 'text']]) {
      for (const f of required) assert.ok(f in o, `${o.kind}.${f} emitted`);
      for (const f of Object.keys(o)) assert.ok(allowed.has(f) || f === extra, `${o.kind}.${f} is in the table`);
    }
    if (shape.text) assert.ok('text' in object, `${object.kind}.text`);
    for (const f of allowed) {
      if (!(f in text)) continue;
      if (shape.json.includes(f)) {
        assert.equal(typeof text[f] === 'string' || text[f] === null, true, `${object.kind}.${f} is JSON text in text mode`);
        assert.deepEqual(object[f], text[f] === null ? null : JSON.parse(text[f]), `${object.kind}.${f} parsed`);
        if (text[f] !== null) assert.notEqual(object[f], text[f], `${object.kind}.${f} is a value, not its text`);
      } else {
        assert.deepEqual(object[f], text[f], `${object.kind}.${f} unchanged`);
      }
    }
    if (shape.text) assert.equal(object.text, text[shape.text], `${object.kind}.text is the exact text`);
  }

  // The deferred tasks/result carries the result byte for byte, and travels with request 7.
  const result = a.objects.find((o) => o.kind === 'send' && o.inReplyTo === 7 && 'result' in o.message);
  assert.ok(result, 'the tasks/result answer');
  assert.deepEqual(result.message.result.structuredContent, RESULT.structuredContent);
  assert.ok(result.text.includes('"text":"done: é \u2028 \\"quoted\\""'), result.text);
});

test('ids and progress tokens are plain values', () => {
  const clock = manualClock();
  const e = new mod.TaskEngine({ now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required' } });
  // A numeric and a string request id come back as they went in.
  const created = e.handle({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'slow', task: {}, _meta: { progressToken: 9 } } }, 's');
  assert.equal(created.id, 41);
  const { taskId } = created.result.task;
  // Progress tokens: a number stays a number, a string a string.
  e.pollOutput();
  assert.equal(e.reportProgress(taskId, 1), true);
  assert.equal(e.pollOutput().message.params.progressToken, 9);
  const own = e.createTask('s', 'tools/call', undefined, 'tok');
  assert.equal(e.reportProgress(own.taskId, 3, null, null), true);
  const progress = e.pollOutput();
  assert.equal(progress.message.params.progressToken, 'tok');
  assert.match(progress.text, /"progressToken":"tok"/);
  assert.equal(e.reportProgress(e.createTask('s', 'tools/call').taskId, 1), false, 'no token, no progress');
  // requestInput returns the id value; the answer's inputResponse names it the same way.
  const requestId = e.requestInput(taskId, 'elicitation/create', ELICIT);
  assert.equal(typeof requestId, 'string');
  assert.equal(e.handle({ jsonrpc: '2.0', id: 'r-1', method: 'tasks/result', params: { taskId } }, 's'), null);
  const outs = [];
  for (let o; (o = e.pollOutput()) !== null; ) outs.push(o);
  const elicit = outs.find((o) => o.kind === 'send' && o.message.method === 'elicitation/create');
  assert.equal(elicit.inReplyTo, 'r-1');
  assert.equal(elicit.message.id, requestId);
  e.handle({ jsonrpc: '2.0', id: requestId, result: { action: 'decline' } }, 's');
  const answered = [];
  for (let o; (o = e.pollOutput()) !== null; ) answered.push(o);
  const input = answered.find((o) => o.kind === 'inputResponse');
  assert.equal(input.requestId, requestId);
  assert.deepEqual(input.response, { jsonrpc: '2.0', id: requestId, result: { action: 'decline' } });
  // A subscription id as a value: a number here.
  const listen = { jsonrpc: '2.0', id: 5, method: 'subscriptions/listen', params: { _meta: EXT_META, notifications: { taskIds: [taskId] } } };
  assert.deepEqual(e.listenTasks(listen, 's'), { taskIds: [taskId] });
  assert.equal(e.unlistenTasks(5, 's'), 1);
  assert.equal(e.unlistenTasks(5, 's'), 0);
  e.free();
});

test('every other method, with values in and out', () => {
  const clock = manualClock();
  const e = new mod.TaskEngine({ now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required' } });
  assert.deepEqual(mod.TaskEngine.extensionCapability(), { 'io.modelcontextprotocol/tasks': {} });
  assert.deepEqual(e.capabilities('s'), { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  e.registerTool('later', 'optional');
  const t = e.createTask('s', 'tools/call', 60_000);
  assert.equal(t.status, 'working');
  assert.equal(e.taskContext(t.taskId), 's');
  assert.equal(e.taskContext('none'), undefined);
  assert.equal(e.setStatusMessage(t.taskId, 'busy').statusMessage, 'busy');
  assert.deepEqual(e.getTask(t.taskId, 's'), e.setStatusMessage(t.taskId, 'busy'));
  assert.equal(e.getTask(t.taskId, 'other'), null);
  assert.deepEqual(e.updateTaskStatus(t.taskId, 's', 'input_required'), e.getTask(t.taskId, 's'));
  assert.equal(e.getTask(t.taskId, 's').status, 'input_required');
  assert.equal(e.resume(t.taskId).status, 'working');
  assert.deepEqual(e.storeTaskResult(t.taskId, 's', 'completed', { kind: 'result', result: RESULT }), e.getTask(t.taskId, 's'));
  assert.equal(e.getTask(t.taskId, 's').status, 'completed');
  const outcome = e.getTaskResult(t.taskId, 's');
  assert.deepEqual(outcome, { kind: 'result', result: RESULT, text: JSON.stringify(RESULT) });
  const f = e.createTask('s', 'tools/call');
  assert.equal(e.fail(f.taskId, { code: -32000, message: 'boom' }).status, 'failed');
  assert.deepEqual(e.getTaskResult(f.taskId, 's'), { kind: 'error', error: { code: -32000, message: 'boom' }, text: '{"code":-32000,"message":"boom"}' });
  const c = e.createTask('s', 'tools/call');
  assert.equal(e.cancelTask(c.taskId, 's', 'stop').status, 'cancelled');
  assert.equal(e.cancel(e.createTask('s', 'tools/call').taskId, 'host').statusMessage, 'host');
  const page = e.listTasks('s');
  assert.equal(page.tasks.length, 4);
  assert.equal(page.tasks[0].taskId, t.taskId);
  assert.equal(e.complete(e.createTask('s', 'tools/call').taskId, RESULT).status, 'completed');
  assert.equal(e.taskCount, 5);
  assert.ok(e.pendingOutputs > 0);
  assert.equal(typeof e.nextDeadline(), 'number');
  e.handleTimeout();
  // Records stay opaque text: a snapshot restores into another engine.
  const record = e.exportTask(t.taskId);
  assert.equal(typeof record, 'string');
  const snapshot = e.snapshot();
  const twin = new mod.TaskEngine({ now: clock.now });
  assert.equal(twin.restoreSnapshot(snapshot), 5);
  twin.restore(record);
  assert.equal(twin.forgetTask(t.taskId), true);
  assert.equal(twin.forgetTask(t.taskId), false);
  // JSON text as received: malformed text gets the spec's parse error, as a value.
  assert.deepEqual(e.handle('{"jsonrpc":', 's').error.code, -32700);
  // The text engine underneath shares the tasks.
  assert.equal(JSON.parse(e.textEngine.getTask(t.taskId, 's')).taskId, t.taskId);
  twin.free();
  e.free();
});

test('values JSON cannot hold, bad arguments and a freed engine throw coded errors', () => {
  const e = new mod.TaskEngine({ tools: { slow: 'required' } });
  const { taskId } = e.createTask('s', 'tools/call');
  assertEngineError(() => e.complete(taskId, { n: 1n }), 'invalid_argument', { type: TypeError });
  assertEngineError(() => e.complete(taskId, undefined), 'invalid_argument', { type: TypeError });
  assertEngineError(() => e.complete(taskId, 'not an object'), 'invalid_argument');
  assertEngineError(() => e.createTask('s', 'tools/call', undefined, () => 1), 'invalid_argument', { type: TypeError });
  assertEngineError(() => e.complete('nope', RESULT), 'unknown_task');
  assertEngineError(() => new mod.TaskEngine({ pageSize: 0 }), 'invalid_options', { type: TypeError });
  // registerTool refuses a policy it does not know, like the constructor's `tools`.
  for (const engine of [e, new mod.TextTaskEngine()]) {
    const err = assertEngineError(() => engine.registerTool('y', 'sometimes'), 'invalid_argument', { type: TypeError });
    assert.match(err.message, /"sometimes"/);
  }
  assertEngineError(() => new mod.TaskEngine({ tools: { y: 'sometimes' } }), 'invalid_options', { type: TypeError });
  e.free();
  e.free(); // harmless twice
  for (const call of [() => e.handle({ jsonrpc: '2.0', id: 1, method: 'ping' }), () => e.pollOutput(), () => e.taskCount, () => e.textEngine]) {
    const err = assertEngineError(call, 'freed');
    assert.match(err.message, /This TaskEngine was freed/);
  }
});
