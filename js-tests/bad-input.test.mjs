// Node, ES modules: hostile and mistaken input. Garbage text, huge and deeply nested JSON
// get JSON-RPC errors (validated against the schema); wrong argument types get a TypeError
// with code "invalid_argument", never a wasm trap (RuntimeError); the engine stays usable.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CheckedEngine, assertEngineError, manualClock, sequentialIds } from './helpers/checked.mjs';
import { installPackage } from './helpers/package.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
});
after(() => pkg?.cleanup());

function engine(options = {}) {
  const clock = manualClock();
  return new CheckedEngine(mod, { now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required' }, ...options });
}

/** A short lifecycle proving the engine still works. */
function stillWorks(e, context = 'alice') {
  const created = e.result('tools/call', { name: 'slow', task: {} }, context);
  const taskId = created.task.taskId;
  assert.deepEqual(e.drain().map((o) => o.kind), ['execute']);
  e.engine.complete(taskId, JSON.stringify({ content: [{ type: 'text', text: 'ok' }] }));
  e.drain();
  assert.equal(e.result('tasks/result', { taskId }, context).content[0].text, 'ok');
  assert.ok(e.result('tasks/list', {}, context).tasks.some((t) => t.taskId === taskId));
}

const GARBAGE = [
  '', ' ', '\n', 'null', 'true', '42', '"text"', '[]', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
  '{', '}', '{"jsonrpc":"2.0"', '{"jsonrpc":"1.0","id":1,"method":"ping"}', '{"id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{},"method":"ping"}', '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":7}', '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{}}', '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":42}}',
  '{"jsonrpc":"2.0","id":1,"method":"tasks/get"}', '{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{"cursor":5}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":-1}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":"soon"}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":7}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"task":{}}}',
  '{"jsonrpc":"2.0","id":"a","method":"tasks/result","params":{"taskId":"\\ud800"}}',
  '\u0000\u0001\u0002', '\ud800', '💥'.repeat(1000), '{"jsonrpc":"2.0","id":1,"method":"ping"}garbage',
  '{"jsonrpc":"2.0","id":1,"method":"ping",}', '{"jsonrpc":"2.0","id":1,"method":"ping","method":"tasks/list"}',
  '{"jsonrpc":"2.0","id":99999999999999999999999,"method":"ping"}', '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
];

test('garbage text gets JSON-RPC errors (or is forwarded), never a throw', () => {
  const e = engine();
  let errors = 0;
  for (const text of GARBAGE) {
    let reply;
    assert.doesNotThrow(() => {
      reply = e.handleText(text, 'alice');
    }, `handle(${JSON.stringify(text).slice(0, 80)})`);
    if (reply !== null) {
      assert.ok('error' in reply, `expected an error for ${JSON.stringify(text).slice(0, 80)}: ${JSON.stringify(reply)}`);
      assert.ok([-32700, -32600, -32601, -32602].includes(reply.error.code), `code ${reply.error.code}`);
      errors += 1;
    }
    for (const o of e.drain()) assert.ok(o.kind === 'forward' || o.kind === 'send', o.kind);
  }
  assert.ok(errors >= GARBAGE.length - 3, `${errors} errors`);
  assert.equal(e.engine.taskCount, 0, 'nothing was created');
  stillWorks(e);
});

test('random bytes and random JSON-ish text', () => {
  const e = engine();
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = '{}[]":,\\ 0123456789.-+eEtrufalsn\u00e9\ud83d\ude00abcjsonrpcidmethodparams';
  for (let i = 0; i < 500; i++) {
    let text = '';
    const len = rand(200);
    for (let j = 0; j < len; j++) text += alphabet[rand(alphabet.length)];
    if (i % 3 === 0) text = `{"jsonrpc":"2.0","id":${i},"method":"tasks/get","params":${text}}`;
    const reply = e.handleText(text, 'alice');
    if (reply) assert.ok('error' in reply || 'result' in reply);
    e.drain();
  }
  stillWorks(e);
});

test('wrong argument types throw TypeError (code "invalid_argument"), never a wasm RuntimeError', () => {
  const e = engine();
  const created = e.result('tools/call', { name: 'slow', task: {} }, 'alice');
  const id = created.task.taskId;
  e.drain();
  const wrongStrings = [42, 0, -1.5, NaN, true, false, {}, { length: 3 }, [], ['a'], () => 'x', Symbol('s'), 10n, new String('boxed')];
  const calls = {
    'handle(message)': (v) => e.engine.handle(v, 'alice'),
    'handle(context)': (v) => e.engine.handle('{"jsonrpc":"2.0","id":1,"method":"ping"}', v),
    'registerTool(name)': (v) => e.engine.registerTool(v, 'required'),
    'registerTool(taskSupport)': (v) => e.engine.registerTool('x', v),
    'complete(taskId)': (v) => e.engine.complete(v, '{}'),
    'complete(resultJson)': (v) => e.engine.complete(id, v),
    'fail(taskId)': (v) => e.engine.fail(v, '{"code":1,"message":"m"}'),
    'fail(errorJson)': (v) => e.engine.fail(id, v),
    'requestInput(taskId)': (v) => e.engine.requestInput(v, 'elicitation/create', '{}'),
    'requestInput(method)': (v) => e.engine.requestInput(id, v, '{}'),
    'requestInput(paramsJson)': (v) => e.engine.requestInput(id, 'elicitation/create', v),
    'resume(taskId)': (v) => e.engine.resume(v),
    'setStatusMessage(taskId)': (v) => e.engine.setStatusMessage(v, 'm'),
    'setStatusMessage(message)': (v) => e.engine.setStatusMessage(id, v),
    'reportProgress(taskId)': (v) => e.engine.reportProgress(v, 1),
    'reportProgress(message)': (v) => e.engine.reportProgress(id, 1, 2, v),
    'cancel(taskId)': (v) => e.engine.cancel(v),
    'cancel(message)': (v) => e.engine.cancel(id, v),
    'createTask(context)': (v) => e.engine.createTask(v, 'tools/call'),
    'createTask(method)': (v) => e.engine.createTask('alice', v),
    'createTask(progressTokenJson)': (v) => e.engine.createTask('alice', 'tools/call', undefined, v),
    'getTask(taskId)': (v) => e.engine.getTask(v, 'alice'),
    'getTask(context)': (v) => e.engine.getTask(id, v),
    'getTaskResult(context)': (v) => e.engine.getTaskResult(id, v),
    'listTasks(context)': (v) => e.engine.listTasks(v),
    'listTasks(cursor)': (v) => e.engine.listTasks('alice', v),
    'cancelTask(taskId)': (v) => e.engine.cancelTask(v, 'alice'),
    'cancelTask(context)': (v) => e.engine.cancelTask(id, v),
    'cancelTask(message)': (v) => e.engine.cancelTask(id, 'alice', v),
    'updateTaskStatus(context)': (v) => e.engine.updateTaskStatus(id, v, 'working'),
    'updateTaskStatus(status)': (v) => e.engine.updateTaskStatus(id, 'alice', v),
    'updateTaskStatus(message)': (v) => e.engine.updateTaskStatus(id, 'alice', 'input_required', v),
    'storeTaskResult(context)': (v) => e.engine.storeTaskResult(id, v, 'completed', { kind: 'result', json: '{}' }),
    'storeTaskResult(status)': (v) => e.engine.storeTaskResult(id, 'alice', v, { kind: 'result', json: '{}' }),
    'storeTaskResult(outcome.json)': (v) => e.engine.storeTaskResult(id, 'alice', 'completed', { kind: 'result', json: v }),
  };
  let checked = 0;
  for (const [name, call] of Object.entries(calls)) {
    for (const value of wrongStrings) {
      const err = assertEngineError(() => call(value), 'invalid_argument', { type: TypeError });
      assert.match(err.message, /must be a string/, `${name} with ${typeof value}`);
      checked += 1;
    }
  }
  // Required strings also refuse null and undefined.
  for (const call of [(v) => e.engine.handle(v), (v) => e.engine.complete(v, '{}'), (v) => e.engine.createTask('a', v), (v) => e.engine.storeTaskResult(id, 'alice', 'completed', { kind: 'result', json: v })]) {
    for (const value of [null, undefined]) assertEngineError(() => call(value), 'invalid_argument', { type: TypeError });
  }
  // The SDK store's calls read a task ID that is not a string as naming no task, as the SDK's own store does.
  for (const value of wrongStrings) {
    assertEngineError(() => e.engine.updateTaskStatus(value, 'alice', 'working'), 'unknown_task');
    assertEngineError(() => e.engine.storeTaskResult(value, 'alice', 'completed', { kind: 'result', json: '{}' }), 'unknown_task');
    assertEngineError(() => e.engine.getTaskResult(value, 'alice'), 'unknown_task');
  }
  // Numbers: coerced like any JS number parameter; BigInt and Symbol are TypeErrors from the glue.
  assert.throws(() => e.engine.reportProgress(id, 10n), TypeError);
  assert.throws(() => e.engine.reportProgress(id, Symbol('p')), TypeError);
  assertEngineError(() => e.engine.reportProgress(id, 'lots'), 'invalid_argument');
  assertEngineError(() => e.engine.createTask('alice', 'tools/call', {}), 'invalid_argument');
  assert.ok(checked > 400);
  // Nothing changed: the task is still working, and the engine works.
  assert.equal(e.result('tasks/get', { taskId: id }, 'alice').status, 'working');
  assert.equal(e.engine.taskCount, 1);
  stillWorks(e);
});

test('string arguments of every length and script cross exactly (handle, complete)', () => {
  const e = engine();
  // Short and long, ASCII and not, and a context of 2 MiB (past what one answer of the argument copy can carry).
  const contexts = ['a', 'ü-session', '会话-1', 'x'.repeat(100), `ctx-${'é'.repeat(40)}`, '🙂'.repeat(3), 'c'.repeat((2 << 20) + 5)];
  for (const [i, context] of contexts.entries()) {
    const taskId = e.result('tools/call', { name: 'slow', arguments: { note: `✓ ${i}` }, task: {} }, context).task.taskId;
    const [execute] = e.drain();
    assert.equal(execute.context, context);
    assert.equal(JSON.parse(execute.request).params.arguments.note, `✓ ${i}`);
    // Grows the reused copy past what it keeps between calls, then a short one again.
    const text = `résultat ${i} 🙂 ${'x'.repeat(i % 2 ? 70_000 : 10)}`;
    e.engine.complete(taskId, JSON.stringify({ content: [{ type: 'text', text }] }));
    e.drain();
    assert.equal(e.result('tasks/result', { taskId }, context).content[0].text, text);
    assert.equal(e.request('tasks/get', { taskId }, `${context}!`).error.code, -32602);
  }
  assertEngineError(() => e.engine.complete('t', null), 'invalid_argument', { type: TypeError });
  assertEngineError(() => e.engine.complete('t', undefined), 'invalid_argument', { type: TypeError });
  stillWorks(e);
});

test('outputs drained late carry the texts of their own call', () => {
  const e = engine();
  const call = (id, note, context) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { note }, task: {} } });
  // Three requests in two sessions, then a complete, before anything is drained.
  const sent = [call(1, 'first', 'alice'), call(2, 'second', 'bob'), call(3, 'third ✓', 'alice')];
  const contexts = ['alice', 'bob', 'alice'];
  const ids = sent.map((text, i) => JSON.parse(e.engine.handle(text, contexts[i])).result.task.taskId);
  e.engine.complete(ids[1], JSON.stringify({ content: [] }));
  const outputs = e.drain();
  const executes = outputs.filter((o) => o.kind === 'execute');
  assert.deepEqual(executes.map((o) => [o.taskId, o.context, o.method, o.request]), sent.map((text, i) => [ids[i], contexts[i], 'tools/call', text]));
  const status = outputs.find((o) => o.kind === 'send');
  assert.equal(status.context, 'bob');
  assert.equal(JSON.parse(status.message).params.taskId, ids[1]);
});

test('an 8 MB message is refused with -32600; a large result is refused with limit_exceeded', () => {
  const e = engine();
  const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { blob: 'x'.repeat(8 << 20) }, task: {} } });
  assert.ok(huge.length > 8 << 20);
  const reply = e.handleText(huge, 'alice');
  assert.equal(reply.error.code, -32600);
  assert.match(reply.error.message, /too large/);
  const hugeGarbage = '['.repeat(8 << 20);
  assert.equal(e.handleText(hugeGarbage, 'alice').error.code, -32600);
  assert.equal(e.engine.taskCount, 0);
  // Under the limit a 3 MB message is fine.
  const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { blob: 'y'.repeat(3 << 20) }, task: {} } });
  const created = e.handleText(big, 'alice');
  assert.equal(created.result.task.status, 'working');
  const [execute] = e.drain();
  assert.equal(execute.request.length, big.length, 'the whole request reaches the host');
  assertEngineError(() => e.engine.complete(created.result.task.taskId, JSON.stringify({ content: [{ type: 'text', text: 'z'.repeat(8 << 20) }] })), 'limit_exceeded');
  // The limit is an option.
  const small = engine({ limits: { maxMessageBytes: 64 } });
  assert.equal(small.request('tasks/list', { cursor: 'c'.repeat(100) }, 'alice').error.code, -32600);
  stillWorks(e);
});

test('100 000 levels of nesting are refused with -32600, without a stack overflow', () => {
  const e = engine();
  const depth = 100_000;
  for (const text of [
    '['.repeat(depth) + ']'.repeat(depth),
    '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{},"arguments":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"x","deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`,
    '['.repeat(depth),
  ]) {
    const reply = e.handleText(text, 'alice');
    assert.equal(reply.error.code, -32600, text.slice(0, 60));
    assert.match(reply.error.message, /nested too deeply/);
  }
  // Just past the default limit of 64, and just under it.
  const nested = (n) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","task":{},"arguments":{"x":${'['.repeat(n)}${']'.repeat(n)}}}}`;
  assert.equal(e.handleText(nested(62), 'alice').error.code, -32600);
  assert.equal(e.handleText(nested(60), 'alice').result.task.status, 'working');
  e.drain();
  // Even with the depth limit raised past serde_json's own recursion limit, no crash.
  const lax = engine({ limits: { maxJsonDepth: 1_000_000 } });
  const deepParams = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{},"arguments":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
  const laxReply = lax.handleText(deepParams, 'alice');
  assert.ok(laxReply === null || 'error' in laxReply || 'result' in laxReply);
  lax.drain();
  stillWorks(lax);
  stillWorks(e);
});

test('use after free() throws an Error, not a trap', () => {
  const e = new mod.TextTaskEngine();
  e.free();
  for (const call of [() => e.handle('{}'), () => e.pollOutput(), () => e.taskCount, () => e.free()]) {
    let err;
    try {
      call();
    } catch (caught) {
      err = caught;
    }
    assert.ok(err instanceof Error, 'throws');
    assert.notEqual(err.constructor.name, 'RuntimeError');
  }
  // The guard passes every argument through (createTask takes five).
  const live = new mod.TextTaskEngine({ pollIntervalMs: 1000 });
  assert.equal(JSON.parse(live.createTask('a', 'tools/call', undefined, undefined, 5)).pollInterval, 5);
  live.free();
  // Methods and getters say what happened, with a code.
  assertEngineError(() => e.handle('{}'), 'freed');
  assertEngineError(() => e.taskCount, 'freed');
  const r = new mod.TextTaskRequestor();
  r.free();
  const err = assertEngineError(() => r.call('tools/call'), 'freed');
  assert.match(err.message, /TextTaskRequestor was freed/);
  // Freed through Symbol.dispose (`using`), the same; a live engine beside it is untouched.
  const other = new mod.TextTaskEngine({ tools: { slow: 'required' } });
  if (Symbol.dispose) {
    const disposed = new mod.TextTaskEngine();
    disposed[Symbol.dispose]();
    assertEngineError(() => disposed.pollOutput(), 'freed');
    assertEngineError(() => disposed.nextDeadline(), 'freed');
  }
  assert.match(other.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{}}}', 'c'), /"working"/);
  assert.equal(other.taskCount, 1);
  // Freeing twice says so too.
  other.free();
  assertEngineError(() => other.free(), 'freed');
  assertEngineError(() => other.taskCount, 'freed');
});

test('a clock or ID source that misbehaves does not break the engine', () => {
  let engineRef;
  let reenter = false;
  // Re-entering the engine from inside its own clock is refused by wasm-bindgen: the clock
  // throws, so the call fails with clock_failed and changes nothing; the next call goes on.
  const reentrant = new mod.TextTaskEngine({ now: () => (reenter ? engineRef.taskCount : 1_000), tools: { slow: 'required' } });
  engineRef = reentrant;
  reenter = true;
  assertEngineError(() => reentrant.createTask('a', 'tools/call'), 'clock_failed');
  assert.equal(reentrant.taskCount, 0);
  reenter = false;
  assert.equal(JSON.parse(reentrant.createTask('a', 'tools/call')).status, 'working');
  // An ID source that throws: the creation fails as an internal error and makes no task.
  const e = new CheckedEngine(mod, { newTaskId: () => { throw new Error('no ids'); }, tools: { slow: 'required' } });
  assert.equal(e.request('tools/call', { name: 'slow', task: {} }, 'a').error.code, -32603);
  assert.equal(e.engine.taskCount, 0);
  // A clock that gives no number is refused at once.
  assertEngineError(() => new mod.TextTaskEngine({ now: () => 'noon' }), 'clock_failed');
});

test('TextTaskRequestor and shouldAugment: wrong argument types are TypeErrors too', () => {
  const r = new mod.TextTaskRequestor();
  const calls = {
    'handle(message)': (v) => r.handle(v),
    'call(method)': (v) => r.call(v),
    'call(paramsJson)': (v) => r.call('tools/call', v),
    'call(progressTokenJson)': (v) => r.call('tools/call', '{}', true, v),
    'respond(requestId)': (v) => r.respond(v, '{}'),
    'respond(resultJson)': (v) => r.respond('x', v),
    'respondError(requestId)': (v) => r.respondError(v, '{}'),
    'respondError(errorJson)': (v) => r.respondError('x', v),
    'cancel(taskId)': (v) => r.cancel(v),
    'task(taskId)': (v) => r.task(v),
    'forget(taskId)': (v) => r.forget(v),
    'importState(state)': (v) => r.importState(v),
    'shouldAugment(capabilitiesJson)': (v) => mod.shouldAugment(v, 'tools/call', null, true),
    'shouldAugment(method)': (v) => mod.shouldAugment('{}', v, null, true),
    'shouldAugment(taskSupport)': (v) => mod.shouldAugment('{}', 'tools/call', v, true),
  };
  for (const [name, call] of Object.entries(calls)) {
    for (const value of [42, {}, true, Symbol('s'), 10n]) {
      const err = assertEngineError(() => call(value), 'invalid_argument', { type: TypeError });
      assert.match(err.message, /must be a string/, name);
    }
  }
  // Garbage from the receiver is ignored or forwarded, never a throw.
  for (const text of ['', '{', '[]', 'null', '{"jsonrpc":"2.0","id":"mcp-task-core:1","result":7}', '['.repeat(100_000)]) {
    assert.doesNotThrow(() => r.handle(text));
  }
  for (let o = r.pollOutput(); o !== null; o = r.pollOutput()) assert.equal(o.kind, 'forward');
  assertEngineError(() => r.importState('{not json'), 'invalid_argument');
  assertEngineError(() => new mod.TextTaskRequestor({ pollFloorMs: -1 }), 'invalid_options');
  // A typo is refused by name, not read as "default".
  const typo = assertEngineError(() => new mod.TextTaskRequestor({ pollFloorMS: 5 }), 'invalid_options', { type: TypeError });
  assert.match(typo.message, /options\.pollFloorMS is not an option/);
  assertEngineError(() => new mod.TextTaskRequestor({ dialect: '2024-01-01' }), 'invalid_options');
  r.free();
});

// The progress token is spliced raw into notifications/progress: anything but the JSON
// text of a string or an integer must be refused.
test('createTask refuses a progress token that is not a JSON string or integer', () => {
  const e = engine();
  for (const bad of ['{not json', '"tok", "x": 1', '[1]', '{}', 'null', '1.5', '']) {
    assertEngineError(() => e.engine.createTask('alice', 'tools/call', undefined, bad), 'invalid_argument');
  }
});

test('responses are never answered; over-limit requests are answered under their id', () => {
  const e = engine({ limits: { maxMessageBytes: 256 } });
  const bigResponse = JSON.stringify({ jsonrpc: '2.0', id: 'host-1', result: { image: 'A'.repeat(1000) } });
  for (const response of [bigResponse, '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}']) {
    assert.equal(e.engine.handle(response, 'alice'), null);
    const outs = e.drain();
    assert.deepEqual(outs.map((o) => [o.kind, o.message]), [['forward', response]]);
  }
  const bigRequest = JSON.stringify({ jsonrpc: '2.0', id: 'call-7', method: 'tools/call', params: { name: 'x'.repeat(400) } });
  const reply = JSON.parse(e.engine.handle(bigRequest, 'alice'));
  assert.equal(reply.id, 'call-7');
  assert.equal(reply.error.code, -32600);
  stillWorks(e);
});

test('capabilities declare tasks.list exactly to sessions that tasks/list answers', () => {
  const e = engine();
  assert.ok('list' in JSON.parse(e.engine.capabilitiesJson('alice')));
  assert.ok(!('list' in JSON.parse(e.engine.capabilitiesJson())));
  assert.equal(e.error('tasks/list', {}, null).code, -32601);
  assert.ok(Array.isArray(e.result('tasks/list', {}, 'alice').tasks));
});

test('a full output queue refuses requests and reports what it dropped', () => {
  const e = engine({ limits: { maxPendingOutputs: 3, rateLimit: null } });
  for (let i = 0; i < 50; i++) {
    assert.equal(e.engine.handle(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } }), 'alice'), null);
  }
  const refused = JSON.parse(e.engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tasks/list' }), 'alice'));
  assert.equal(refused.id, 5);
  assert.equal(refused.error.code, -32000);
  assert.match(refused.error.message, /overloaded/);
  const first = e.engine.pollOutput();
  assert.deepEqual(first, { kind: 'outputsDropped', count: 47 });
  e.drain();
  stillWorks(e);
});

test('numbers of any size in a result come back byte for byte', () => {
  const e = engine();
  const created = e.result('tools/call', { name: 'slow', task: {} }, 'alice');
  e.drain();
  const result = '{"content":[],"_meta":{"n":123456789012345678901234567890,"x":1.50}}';
  e.engine.complete(created.task.taskId, result);
  e.drain();
  const text = e.engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tasks/result', params: { taskId: created.task.taskId } }), 'alice');
  assert.ok(text.includes('"n":123456789012345678901234567890,"x":1.50'), text);
});
