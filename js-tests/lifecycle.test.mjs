// Node, ES modules: the package imported as `import ... from 'mcp-task-core'` from a scratch
// project (npm pack of pkg/). The protocol flows of MCP 2025-11-25 tasks, with every message
// the engine emits validated against the official schema (helpers/schema.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CheckedEngine, RELATED_TASK, assertEngineError, checkLifecycle, manualClock, sequentialIds } from './helpers/checked.mjs';
import { installPackage } from './helpers/package.mjs';
import { ExchangeValidator, assertValid } from './helpers/schema.mjs';
import { runLifecycle } from './helpers/scenario.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
  await mod.init();
});
after(() => pkg?.cleanup());

const TOOL_RESULT = { content: [{ type: 'text', text: 'done' }] };

function engine(options = {}) {
  const clock = options.clock ?? manualClock();
  delete options.clock;
  const e = new CheckedEngine(mod, { now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required', maybe: 'optional', never: 'forbidden' }, ...options });
  e.clock = clock;
  return e;
}

test('the ESM entry exports the whole surface', () => {
  assert.equal(typeof mod.TextTaskEngine, 'function');
  assert.equal(typeof mod.init, 'function');
  assert.equal(typeof mod.handleObject, 'function');
  assert.equal(typeof mod.drainOutputs, 'function');
  assert.equal(typeof mod.TaskRequestor, 'function');
  assert.equal(typeof mod.shouldAugment, 'function');
  const proto = mod.TextTaskEngine.prototype;
  for (const name of [
    'handle', 'pollOutput', 'nextDeadline', 'handleTimeout', 'capabilitiesJson', 'registerTool',
    'complete', 'fail', 'requestInput', 'resume', 'setStatusMessage', 'reportProgress', 'cancel',
    'createTask', 'getTask', 'getTaskResult', 'listTasks', 'cancelTask', 'updateTaskStatus', 'storeTaskResult', 'free',
  ]) {
    assert.equal(typeof proto[name], 'function', `TextTaskEngine.prototype.${name}`);
  }
  for (const getter of ['pendingOutputs', 'taskCount']) {
    assert.equal(typeof Object.getOwnPropertyDescriptor(proto, getter)?.get, 'function', `getter ${getter}`);
  }
});

test('full lifecycle: create, get, elicitation on a deferred tasks/result, complete, result, list, expiry', async () => {
  const validator = await checkLifecycle(runLifecycle(mod));
  assert.ok(validator.total >= 25, `validated ${validator.total} messages`);
});

describe('failure', () => {
  test('tasks/result replays exactly the stored JSON-RPC error, deferred and again', () => {
    const e = engine();
    const { task } = e.startTool('slow', 'alice');
    assert.equal(e.request('tasks/result', { taskId: task.taskId }, 'alice', 'wait-1'), null);
    assert.deepEqual(e.drain(), []);
    const error = { code: -32002, message: 'Unknown city: Atlantis', data: { city: 'Atlantis', tries: [1, 2] } };
    const failed = JSON.parse(e.engine.fail(task.taskId, JSON.stringify(error)));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.statusMessage, error.message);
    const outs = e.drain();
    assert.deepEqual(outs.map((o) => o.kind), ['send', 'send']);
    assert.equal(outs[0].json.method, 'notifications/tasks/status');
    assert.equal(outs[0].json.params.status, 'failed');
    assert.equal(outs[1].inReplyTo, '"wait-1"');
    assert.deepEqual(outs[1].json, { jsonrpc: '2.0', id: 'wait-1', error });
    // And again, at once: the same error, the new id.
    const again = e.request('tasks/result', { taskId: task.taskId }, 'alice', 77);
    assert.deepEqual(again, { jsonrpc: '2.0', id: 77, error });
    assert.deepEqual(e.engine.getTaskResult(task.taskId, 'alice'), { kind: 'error', json: JSON.stringify(error) });
    assert.equal(e.result('tasks/get', { taskId: task.taskId }, 'alice').status, 'failed');
    // Terminal means terminal.
    assertEngineError(() => e.engine.complete(task.taskId, JSON.stringify(TOOL_RESULT)), 'already_terminal');
    assertEngineError(() => e.engine.fail(task.taskId, JSON.stringify(error)), 'already_terminal');
    assert.equal(e.error('tasks/cancel', { taskId: task.taskId }, 'alice').code, -32602);
  });

  test('a tool result with isError: true makes the task failed, and tasks/result returns that result', () => {
    const e = engine();
    const { task } = e.startTool('slow', 'alice');
    const result = { content: [{ type: 'text', text: 'city not found' }], isError: true };
    assert.equal(JSON.parse(e.engine.complete(task.taskId, JSON.stringify(result))).status, 'failed');
    e.drain();
    const reply = e.result('tasks/result', { taskId: task.taskId }, 'alice');
    assert.equal(reply.isError, true);
    assert.deepEqual(reply._meta[RELATED_TASK], { taskId: task.taskId });
  });

  test('fail() wants a JSON-RPC error object', () => {
    const e = engine();
    const { task } = e.startTool('slow', 'alice');
    for (const bad of ['', 'null', '{"code":"x","message":"m"}', '{"code":1}', '[1]', '{"code":1.5,"message":"m"}', '{bad']) {
      assertEngineError(() => e.engine.fail(task.taskId, bad), 'invalid_argument');
    }
    assert.equal(e.result('tasks/get', { taskId: task.taskId }, 'alice').status, 'working');
    assertEngineError(() => e.engine.fail('nope', '{"code":1,"message":"m"}'), 'unknown_task');
  });
});

describe('cancel', () => {
  test('tasks/cancel: cancelled before the response, the host is told, the late outcome is dropped', () => {
    const e = engine();
    const { task } = e.startTool('slow', 'alice');
    assert.equal(e.request('tasks/result', { taskId: task.taskId }, 'alice', 'w'), null);
    const cancelled = e.result('tasks/cancel', { taskId: task.taskId }, 'alice');
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(typeof cancelled.statusMessage, 'string');
    const outs = e.drain();
    assert.deepEqual(outs.map((o) => o.kind), ['send', 'send', 'cancelled']);
    assert.equal(outs[0].json.params.status, 'cancelled');
    assert.equal(outs[1].inReplyTo, '"w"');
    assert.equal(outs[1].json.error.code, -32602, 'the waiting tasks/result hears the task was cancelled');
    assert.deepEqual(outs[2], { kind: 'cancelled', taskId: task.taskId, context: 'alice' });
    // The work ends anyway: refused, and the task stays cancelled.
    assertEngineError(() => e.engine.complete(task.taskId, JSON.stringify(TOOL_RESULT)), 'task_cancelled');
    assertEngineError(() => e.engine.requestInput(task.taskId, 'elicitation/create', '{}'), 'task_cancelled');
    // Every host call gives the same answer for a cancelled task.
    for (const call of [
      () => e.engine.reportProgress(task.taskId, 1),
      () => e.engine.setStatusMessage(task.taskId, 'still going'),
      () => e.engine.fail(task.taskId, JSON.stringify({ code: -1, message: 'x' })),
      () => e.engine.resume(task.taskId),
    ]) {
      assertEngineError(call, 'task_cancelled');
    }
    assert.equal(e.result('tasks/get', { taskId: task.taskId }, 'alice').status, 'cancelled');
    assert.equal(e.error('tasks/result', { taskId: task.taskId }, 'alice').code, -32602);
    // Cancelling a terminal task is -32602.
    const again = e.error('tasks/cancel', { taskId: task.taskId }, 'alice');
    assert.equal(again.code, -32602);
    assert.match(again.message, /terminal/);
    assertEngineError(() => e.engine.getTaskResult(task.taskId, 'alice'), 'no_result');
    assert.deepEqual(e.drain(), []);
  });

  test('host cancel() and store cancelTask()/updateTaskStatus("cancelled")', () => {
    const e = engine();
    const a = e.startTool('slow', 'alice').task;
    const b = e.startTool('slow', 'alice').task;
    const c = e.startTool('slow', 'alice').task;
    assert.equal(JSON.parse(e.engine.cancel(a.taskId, 'shutting down')).statusMessage, 'shutting down');
    assert.deepEqual(e.drain().map((o) => o.kind), ['send', 'cancelled']);
    assertEngineError(() => e.engine.cancelTask(b.taskId, 'mallory'), 'unknown_task');
    assert.equal(JSON.parse(e.engine.cancelTask(b.taskId, 'alice')).status, 'cancelled');
    assertEngineError(() => e.engine.cancelTask(b.taskId, 'alice'), 'task_cancelled');
    e.engine.updateTaskStatus(c.taskId, 'alice', 'cancelled', 'no longer needed');
    assert.equal(JSON.parse(e.engine.getTask(c.taskId, 'alice')).status, 'cancelled');
    const kinds = e.drain().map((o) => o.kind);
    assert.deepEqual(kinds, ['send', 'cancelled', 'send', 'cancelled']);
    assert.equal(e.engine.taskCount, 3);
  });

  test('without the cancel capability tasks/cancel is -32601', () => {
    const e = engine({ capabilities: { toolsCall: true, list: true } });
    assert.deepEqual(JSON.parse(e.engine.capabilitiesJson('alice')), { list: {}, requests: { tools: { call: {} } } });
    const { task } = e.startTool('slow', 'alice');
    assert.equal(e.error('tasks/cancel', { taskId: task.taskId }, 'alice').code, -32601);
  });
});

describe('TTL with an injected clock', () => {
  test('ttl 0 is a real TTL: the task is gone at once', () => {
    const e = engine();
    const created = e.result('tools/call', { name: 'slow', task: { ttl: 0 } }, 'alice');
    assert.equal(created.task.ttl, 0);
    const taskId = created.task.taskId;
    assert.equal(e.engine.nextDeadline(), e.clock.ms);
    assert.deepEqual(e.drain().map((o) => o.kind), ['execute']);
    const error = e.error('tasks/get', { taskId }, 'alice');
    assert.equal(error.code, -32602);
    assert.match(error.message, /expired/);
    assert.deepEqual(e.drain(), [{ kind: 'expired', taskId, context: 'alice', wasTerminal: false }]);
    assertEngineError(() => e.engine.complete(taskId, JSON.stringify(TOOL_RESULT)), 'unknown_task');
    assert.equal(e.engine.taskCount, 0);
    assert.equal(e.engine.nextDeadline(), null);
    // The store API too.
    const stored = JSON.parse(e.engine.createTask('alice', 'tools/call', 0));
    assert.equal(stored.ttl, 0);
    assert.equal(e.engine.getTask(stored.taskId, 'alice'), null);
  });

  test('deadlines follow the clock; handleTimeout is harmless early and twice', () => {
    const e = engine();
    const t1 = e.startTool('slow', 'alice', { ttl: 5000 }).task;
    e.clock.advance(1000);
    const t2 = e.startTool('slow', 'alice', { ttl: 2000 }).task;
    assert.equal(e.engine.nextDeadline(), Date.parse(t2.createdAt) + 2000);
    assert.equal(e.request('tasks/result', { taskId: t2.taskId }, 'alice', 'w2'), null);
    e.clock.advance(1999);
    e.engine.handleTimeout();
    e.engine.handleTimeout();
    assert.deepEqual(e.drain(), []);
    e.clock.advance(1);
    e.engine.handleTimeout();
    const outs = e.drain();
    assert.deepEqual(outs.map((o) => o.kind), ['send', 'expired']);
    assert.equal(outs[0].inReplyTo, '"w2"');
    assert.match(outs[0].json.error.message, /expired/);
    assert.equal(e.engine.nextDeadline(), Date.parse(t1.createdAt) + 5000);
    e.engine.handleTimeout();
    assert.deepEqual(e.drain(), []);
    // A finished task expires too, reporting it was terminal.
    e.engine.complete(t1.taskId, JSON.stringify(TOOL_RESULT));
    e.drain();
    e.clock.set(e.engine.nextDeadline() + 10);
    e.engine.handleTimeout();
    assert.deepEqual(e.drain(), [{ kind: 'expired', taskId: t1.taskId, context: 'alice', wasTerminal: true }]);
    assert.equal(e.error('tasks/result', { taskId: t1.taskId }, 'alice').code, -32602);
  });

  test('policy: default, clamp to maxMs, null without and with allowUnlimited', () => {
    const e = engine({ ttl: { defaultMs: 1000, maxMs: 10_000 } });
    assert.equal(e.startTool('slow', 'a', {}).task.ttl, 1000);
    assert.equal(e.startTool('slow', 'a', { ttl: 1e9 }).task.ttl, 10_000);
    assert.equal(e.startTool('slow', 'a', { ttl: null }).task.ttl, 10_000);
    const u = engine({ ttl: { allowUnlimited: true } });
    assert.equal(u.startTool('slow', 'a', {}).task.ttl, 3_600_000, 'default TTL');
    const forever = u.startTool('slow', 'a', { ttl: null }).task;
    assert.equal(forever.ttl, null);
    u.clock.advance(3_600_000);
    u.engine.handleTimeout();
    assert.deepEqual(u.drain().map((o) => o.kind), ['expired']);
    assert.equal(u.engine.nextDeadline(), null);
    assert.equal(u.result('tasks/get', { taskId: forever.taskId }, 'a').ttl, null);
  });

  test('time never goes backwards', () => {
    const e = engine();
    const t = e.startTool('slow', 'a').task;
    e.clock.advance(-60_000);
    const updated = JSON.parse(e.engine.setStatusMessage(t.taskId, 'step 2'));
    assert.equal(updated.lastUpdatedAt, t.createdAt);
    // A clock that throws is an error, not a time (js-tests/clock.test.mjs has the rest).
    assert.throws(() => engine({ now: () => { throw new Error('clock down'); } }), { code: 'clock_failed' });
  });
});

describe('contexts', () => {
  test('tasks are invisible to other contexts, on the wire and in the store API', () => {
    const e = engine();
    const mine = e.startTool('slow', 'alice').task;
    const theirs = e.startTool('slow', 'bob').task;
    const anonymous = e.startTool('slow', undefined).task;
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const error = e.error(method, { taskId: mine.taskId }, 'bob');
      assert.equal(error.code, -32602, method);
      assert.match(error.message, /not found/, method);
      assert.equal(e.error(method, { taskId: mine.taskId }, undefined).code, -32602, `${method} without context`);
      assert.equal(e.error(method, { taskId: anonymous.taskId }, 'alice').code, -32602, `${method} of a context-less task`);
    }
    assert.equal(e.result('tasks/get', { taskId: anonymous.taskId }, null).status, 'working');
    assert.deepEqual(e.result('tasks/list', {}, 'alice').tasks.map((t) => t.taskId), [mine.taskId]);
    assert.deepEqual(e.result('tasks/list', {}, 'bob').tasks.map((t) => t.taskId), [theirs.taskId]);
    assert.equal(e.error('tasks/list', {}, undefined).code, -32601, 'no listing without a context');
    assert.equal(e.engine.getTask(mine.taskId, 'bob'), null);
    assert.equal(JSON.parse(e.engine.getTask(mine.taskId, 'alice')).taskId, mine.taskId);
    assertEngineError(() => e.engine.listTasks(null), 'list_unavailable');
    assert.equal(JSON.parse(e.engine.listTasks('bob')).tasks.length, 1);
    e.engine.complete(mine.taskId, JSON.stringify(TOOL_RESULT));
    e.drain();
    assertEngineError(() => e.engine.getTaskResult(mine.taskId, 'bob'), 'unknown_task');
    assert.equal(e.engine.getTaskResult(mine.taskId, 'alice').kind, 'result');
    assert.equal(e.result('tasks/get', { taskId: theirs.taskId }, 'bob').status, 'working', 'untouched');
  });

  test('an answer to a task\'s request from another context is not taken as the answer', () => {
    const e = engine();
    const { task } = e.startTool('slow', 'alice');
    const requestId = e.engine.requestInput(task.taskId, 'elicitation/create', JSON.stringify({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }));
    e.drain();
    const answer = { jsonrpc: '2.0', id: JSON.parse(requestId), result: { action: 'accept', content: { name: 'x' } } };
    assert.equal(e.handle(answer, 'bob'), null);
    const outs = e.drain();
    assert.deepEqual(outs.map((o) => o.kind), ['forward']);
    assert.equal(outs[0].context, 'bob');
    assert.equal(e.result('tasks/get', { taskId: task.taskId }, 'alice').status, 'input_required');
    assert.equal(e.handle(answer, 'alice'), null);
    assert.deepEqual(e.drain().map((o) => o.kind), ['inputResponse', 'send']);
    assert.equal(e.result('tasks/get', { taskId: task.taskId }, 'alice').status, 'working');
  });

  test('without context binding tasks/list is refused and not advertised', () => {
    const e = engine({ contextBinding: false });
    assert.deepEqual(JSON.parse(e.engine.capabilitiesJson('alice')), { cancel: {}, requests: { tools: { call: {} } } });
    e.startTool('slow', 'alice');
    assert.equal(e.error('tasks/list', {}, 'alice').code, -32601);
  });
});

describe('host calls', () => {
  test('input queued before any tasks/result is delivered when one arrives; resume; status messages', () => {
    const e = engine();
    const { task } = e.startTool('slow', 'alice');
    const params = JSON.stringify({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    const id1 = e.engine.requestInput(task.taskId, 'elicitation/create', params);
    const id2 = e.engine.requestInput(task.taskId, 'elicitation/create', params);
    assert.notEqual(id1, id2);
    assert.deepEqual(e.drain().map((o) => o.json?.params?.status), ['input_required'], 'one status change');
    assert.equal(e.request('tasks/result', { taskId: task.taskId }, 'alice', 'w'), null);
    const delivered = e.drain();
    assert.deepEqual(delivered.map((o) => [o.kind, o.inReplyTo, JSON.stringify(o.json.id)]), [['send', '"w"', id1], ['send', '"w"', id2]]);
    // A later request goes straight to the waiting tasks/result.
    const id3 = e.engine.requestInput(task.taskId, 'elicitation/create', params);
    assert.deepEqual(e.drain().map((o) => [o.kind, o.inReplyTo, JSON.stringify(o.json.id)]), [['send', '"w"', id3]]);
    // The host may resume early; the status message shows in tasks/get and a notification.
    assert.equal(JSON.parse(e.engine.resume(task.taskId)).status, 'working');
    assertEngineError(() => e.engine.resume(task.taskId), 'illegal_transition');
    assert.equal(JSON.parse(e.engine.setStatusMessage(task.taskId, '2 of 3 done')).statusMessage, '2 of 3 done');
    assert.equal(JSON.parse(e.engine.setStatusMessage(task.taskId, null)).statusMessage, undefined);
    assert.deepEqual(e.drain().map((o) => o.json.params.status), ['working', 'working', 'working']);
    assert.equal(e.result('tasks/get', { taskId: task.taskId }, 'alice').status, 'working');
    for (const bad of ['[]', '"x"', '{"_meta":1}', '{oops']) assertEngineError(() => e.engine.requestInput(task.taskId, 'elicitation/create', bad), 'invalid_argument');
    assertEngineError(() => e.engine.requestInput(task.taskId, '', '{}'), 'invalid_argument');
  });

  test('progress goes out with the request\'s progressToken, for the task\'s whole life', () => {
    const e = engine();
    const withToken = e.startTool('slow', 'alice', {}, { _meta: { progressToken: 'p-1' } }).task;
    assert.equal(e.engine.reportProgress(withToken.taskId, 1, 4, 'one'), true);
    assert.equal(e.engine.reportProgress(withToken.taskId, 2.5), true);
    const outs = e.drain();
    assert.deepEqual(outs.map((o) => o.json.params), [
      { progressToken: 'p-1', progress: 1, total: 4, message: 'one', _meta: { [RELATED_TASK]: { taskId: withToken.taskId } } },
      { progressToken: 'p-1', progress: 2.5, _meta: { [RELATED_TASK]: { taskId: withToken.taskId } } },
    ]);
    assert.equal(e.validator.counts.ProgressNotification, 2);
    const numeric = JSON.parse(e.engine.createTask('alice', 'tools/call', undefined, '7'));
    assert.equal(e.engine.reportProgress(numeric.taskId, 1), true);
    assert.equal(e.drain()[0].json.params.progressToken, 7);
    const without = e.startTool('slow', 'alice').task;
    assert.equal(e.engine.reportProgress(without.taskId, 1), false);
    assertEngineError(() => e.engine.reportProgress(without.taskId, NaN), 'invalid_argument');
    assertEngineError(() => e.engine.reportProgress(without.taskId, 1, Infinity), 'invalid_argument');
    e.engine.complete(withToken.taskId, JSON.stringify(TOOL_RESULT));
    assertEngineError(() => e.engine.reportProgress(withToken.taskId, 3), 'already_terminal');
  });

  test('result limits and shapes', () => {
    const e = engine({ limits: { maxResultBytes: 1024 } });
    const { task } = e.startTool('slow', 'alice');
    assertEngineError(() => e.engine.complete(task.taskId, JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(2000) }] })), 'limit_exceeded');
    for (const bad of ['', '[]', '"text"', '{"_meta":[]}', '{broken']) assertEngineError(() => e.engine.complete(task.taskId, bad), 'invalid_argument');
    assert.equal(JSON.parse(e.engine.complete(task.taskId, JSON.stringify(TOOL_RESULT))).status, 'completed');
    assertEngineError(() => e.engine.complete('nope', '{}'), 'unknown_task');
  });
});

describe('store API', () => {
  test('createTask / updateTaskStatus / storeTaskResult / getTaskResult / listTasks paging', () => {
    const e = engine({ pageSize: 2 });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(JSON.parse(e.engine.createTask('alice', 'tools/call', 60_000)).taskId);
    JSON.parse(e.engine.createTask('bob', 'tools/call'));
    assert.deepEqual(e.drain(), [], 'createTask emits no execute');
    const seen = [];
    let cursor = null;
    do {
      const page = JSON.parse(e.engine.listTasks('alice', cursor));
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor ?? null;
    } while (cursor);
    assert.deepEqual(seen, ids);
    // The same pages on the wire, validated.
    const first = e.result('tasks/list', {}, 'alice');
    assert.equal(first.tasks.length, 2);
    const second = e.result('tasks/list', { cursor: first.nextCursor }, 'alice');
    assert.deepEqual(second.tasks.map((t) => t.taskId), ids.slice(2, 4));
    assert.equal(e.error('tasks/list', { cursor: first.nextCursor }, 'bob').code, -32602, 'cursors are per context');
    assert.equal(e.error('tasks/list', { cursor: 'garbage' }, 'alice').code, -32602);
    assertEngineError(() => e.engine.listTasks('alice', 'garbage'), 'invalid_cursor');
    assertEngineError(() => e.engine.listTasks('bob', first.nextCursor), 'invalid_cursor');

    const status = (id) => JSON.parse(e.engine.getTask(id, 'alice')).status;
    e.engine.updateTaskStatus(ids[0], 'alice', 'input_required', 'waiting');
    assert.equal(status(ids[0]), 'input_required');
    e.engine.updateTaskStatus(ids[0], 'alice', 'working');
    assert.equal(status(ids[0]), 'working');
    e.engine.updateTaskStatus(ids[1], 'alice', 'completed');
    assert.equal(status(ids[1]), 'completed');
    // updateTaskStatus stores no outcome.
    assertEngineError(() => e.engine.getTaskResult(ids[1], 'alice'), 'no_result');
    assertEngineError(() => e.engine.updateTaskStatus(ids[1], 'alice', 'working'), 'already_terminal');
    assertEngineError(() => e.engine.updateTaskStatus(ids[0], 'alice', 'paused'), 'invalid_argument');
    e.engine.storeTaskResult(ids[2], 'alice', 'failed', { kind: 'result', json: JSON.stringify(TOOL_RESULT) });
    assert.equal(status(ids[2]), 'failed');
    assert.deepEqual(e.engine.getTaskResult(ids[2], 'alice'), { kind: 'result', json: JSON.stringify(TOOL_RESULT) });
    assertEngineError(() => e.engine.storeTaskResult(ids[3], 'alice', 'working', { kind: 'result', json: '{}' }), 'invalid_argument');
    e.engine.storeTaskResult(ids[3], 'alice', 'completed', { kind: 'result', json: '{}' });
    assert.equal(status(ids[3]), 'completed');
    const statuses = e.drain().filter((o) => o.kind === 'send').map((o) => o.json.params.status);
    assert.deepEqual(statuses, ['input_required', 'working', 'completed', 'failed', 'completed']);
    // A change answers with the task JSON as it now is, the one getTask gives next.
    const moved = e.engine.updateTaskStatus(ids[4], 'alice', 'input_required', 'a city?');
    assert.equal(moved, e.engine.getTask(ids[4], 'alice'));
    assert.equal(JSON.parse(moved).statusMessage, 'a city?');
    const stored = e.engine.storeTaskResult(ids[4], 'alice', 'completed', { kind: 'result', json: '{}' });
    assert.equal(stored, e.engine.getTask(ids[4], 'alice'));
    assert.equal(JSON.parse(stored).status, 'completed');
    assertEngineError(() => e.engine.createTask('alice', 'tools/call', -1), 'invalid_argument');
    assertEngineError(() => e.engine.createTask('alice', 'tools/call', 1.5), 'invalid_argument');
    assertEngineError(() => e.engine.createTask('alice', 'tools/call', '100'), 'invalid_argument');
  });

  test('duplicate and empty IDs from newTaskId are refused', () => {
    const e = engine({ newTaskId: () => 'same' });
    e.engine.createTask('a', 'tools/call');
    assertEngineError(() => e.engine.createTask('a', 'tools/call'), 'duplicate_id');
    const reply = e.request('tools/call', { name: 'slow', task: {} }, 'a');
    assert.equal(reply.error.code, -32603);
    const empty = engine({ newTaskId: () => '' });
    assertEngineError(() => empty.engine.createTask('a', 'tools/call'), 'duplicate_id');
    const notString = engine({ newTaskId: () => 42 });
    assertEngineError(() => notString.engine.createTask('a', 'tools/call'), 'duplicate_id');
    assert.equal(e.engine.taskCount, 1);
  });

  test('limits on running tasks', () => {
    const e = engine({ limits: { maxRunningTasksPerKey: 2, maxRunningTasksTotal: 3 } });
    e.startTool('slow', 'a');
    e.startTool('slow', 'a');
    const full = e.error('tools/call', { name: 'slow', task: {} }, 'a');
    assert.equal(full.code, -32000);
    assertEngineError(() => e.engine.createTask('a', 'tools/call'), 'limit_exceeded');
    e.startTool('slow', 'b');
    assert.equal(e.error('tools/call', { name: 'slow', task: {} }, 'c').code, -32000);
    assert.equal(e.engine.taskCount, 3);
  });
});

describe('routing and options', () => {
  test('execution.taskSupport and undeclared requests', () => {
    const e = engine();
    assert.equal(e.error('tools/call', { name: 'slow' }, 'a').code, -32601, 'required without task');
    assert.equal(e.error('tools/call', { name: 'never', task: {} }, 'a').code, -32601, 'forbidden with task');
    assert.equal(e.error('tools/call', { name: 'unknown', task: {} }, 'a').code, -32601, 'undeclared with task');
    e.engine.registerTool('unknown', 'optional');
    assert.equal(e.result('tools/call', { name: 'unknown', task: {} }, 'a').task.status, 'working');
    e.engine.registerTool('unknown', null);
    assert.equal(e.error('tools/call', { name: 'unknown', task: {} }, 'a').code, -32601, 'registerTool(name, null) is absent');
    e.drain();
    // Not the engine's business: forwarded untouched.
    for (const msg of [
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
      { jsonrpc: '2.0', id: 'q', method: 'tools/call', params: { name: 'maybe', arguments: {} } },
      { jsonrpc: '2.0', id: 's', method: 'sampling/createMessage', params: { task: {}, messages: [], maxTokens: 1 } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 99, result: {} },
    ]) {
      assert.equal(e.handle(msg, 'a'), null);
      const outs = e.drain();
      assert.deepEqual(outs.map((o) => o.kind), ['forward'], JSON.stringify(msg));
      assert.deepEqual(JSON.parse(outs[0].message), msg);
      assert.equal(outs[0].context, 'a');
    }
  });

  test('a client engine runs sampling and elicitation as tasks', () => {
    const e = engine({ capabilities: { list: true, cancel: true, samplingCreateMessage: true, elicitationCreate: true } });
    assert.deepEqual(JSON.parse(e.engine.capabilitiesJson('server')), {
      list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
    const created = e.result('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10, task: { ttl: 1000 } }, 'server');
    const [execute] = e.drain();
    assert.equal(execute.method, 'sampling/createMessage');
    e.engine.complete(created.task.taskId, JSON.stringify({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' }));
    e.drain();
    const payload = e.result('tasks/result', { taskId: created.task.taskId }, 'server');
    assert.equal(payload.model, 'm');
    assert.equal(e.validator.counts.CreateMessageResult, 1);
    const elicit = e.result('elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } }, task: {} }, 'server');
    assert.equal(e.drain()[0].method, 'elicitation/create');
    e.engine.complete(elicit.task.taskId, JSON.stringify({ action: 'decline' }));
    e.drain();
    assert.equal(e.result('tasks/result', { taskId: elicit.task.taskId }, 'server').action, 'decline');
    assert.equal(e.validator.counts.ElicitResult, 1);
    // tools/call is not declared for tasks here: processed normally, its task field ignored.
    assert.equal(e.request('tools/call', { name: 'slow', task: {} }, 'server'), null);
    assert.deepEqual(e.drain().map((o) => o.kind), ['forward']);
  });

  test('options: defaults, pollIntervalMs, modelImmediateResponse, statusNotifications', () => {
    const plain = new mod.TextTaskEngine();
    assert.deepEqual(JSON.parse(plain.capabilitiesJson('s')), { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    // No context: the receiver cannot tell requestors apart, so no tasks.list (and tasks/list is refused).
    assert.deepEqual(JSON.parse(plain.capabilitiesJson()), { cancel: {}, requests: { tools: { call: {} } } });
    const t = JSON.parse(plain.createTask('a', 'tools/call'));
    assert.equal(t.ttl, 3_600_000);
    assert.equal(t.pollInterval, 1000);
    assert.match(t.taskId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'UUID v4 by default');
    assert.ok(Math.abs(Date.parse(t.createdAt) - Date.now()) < 60_000, 'Date.now by default');
    plain.free();

    const e = engine({ pollIntervalMs: null, modelImmediateResponse: 'Working on it.', statusNotifications: false });
    const created = e.result('tools/call', { name: 'slow', task: {} }, 'a');
    assert.equal('pollInterval' in created.task, false);
    assert.equal(created._meta['io.modelcontextprotocol/model-immediate-response'], 'Working on it.');
    e.engine.complete(created.task.taskId, JSON.stringify(TOOL_RESULT));
    assert.deepEqual(e.drain().map((o) => o.kind), ['execute'], 'no status notifications');
  });

  test('invalid options throw code "invalid_options"', () => {
    for (const options of [
      'x', 42, true,
      { now: 5 }, { newTaskId: 'id' }, { pageSize: 0 }, { pageSize: -1 }, { pageSize: 1.5 },
      { ttl: { defaultMs: '5' } }, { tools: { a: 'maybe' } }, { limits: { maxJsonDepth: -3 } },
      { capabilities: { list: 'yes' } }, { pollIntervalMs: 'often' },
    ]) {
      assertEngineError(() => new mod.TextTaskEngine(options), 'invalid_options');
    }
    // Unknown keys are refused by name (a typo must not silently mean "defaults"), at every level.
    for (const [options, named] of [
      [{ pollIntervalMS: 5 }, 'options.pollIntervalMS'],
      [{ limits: { maxTasksPerSession: 5 } }, 'options.limits.maxTasksPerSession'],
      [{ ttl: { default: 5 } }, 'options.ttl.default'],
      [{ capabilities: { lists: true } }, 'options.capabilities.lists'],
      [{ storage: { instance: 'x' } }, 'options.storage.instance'],
    ]) {
      const err = assertEngineError(() => new mod.TextTaskEngine(options), 'invalid_options', { type: TypeError });
      assert.ok(err.message.includes(named), err.message);
    }
    // null and undefined mean defaults.
    new mod.TextTaskEngine(null).free();
    new mod.TextTaskEngine(undefined).free();
  });
});

test('handleObject and drainOutputs', () => {
  const e = new mod.TextTaskEngine({ tools: { slow: 'required' } });
  const v = new ExchangeValidator();
  // handleObject, with what goes in and comes out validated like everything else.
  const send = (message) => {
    v.incoming(typeof message === 'string' ? message : JSON.stringify(message));
    const reply = mod.handleObject(e, message, 'a');
    if (reply !== null) assert.deepEqual(v.outgoing(JSON.stringify(reply)), reply);
    return reply;
  };
  const reply = send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', task: {} } });
  assert.equal(reply.result.task.status, 'working');
  const outs = mod.drainOutputs(e);
  assert.deepEqual(outs.map((o) => o.kind), ['execute']);
  assert.deepEqual(mod.drainOutputs(e), []);
  assert.equal(send('{"jsonrpc":"2.0","method":"notifications/initialized"}'), null);
  assert.equal(send({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId: reply.result.task.taskId } }), null);
  assert.equal(send('{oops').error.code, -32700);
  e.complete(reply.result.task.taskId, JSON.stringify(TOOL_RESULT));
  const sends = mod.drainOutputs(e).filter((o) => o.kind === 'send');
  for (const o of sends) v.outgoing(o.message, { inReplyTo: o.inReplyTo });
  assert.equal(v.counts.GetTaskPayloadResult, 1);
  assert.throws(() => mod.handleObject(e, undefined, 'a'), TypeError);
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => mod.handleObject(e, cyclic, 'a'), TypeError);
  e.free();
});

test('audit outputs, when asked for', () => {
  const e = engine({ audit: true });
  const { task, outputs } = e.startTool('slow', 'alice');
  assert.deepEqual(outputs.map((o) => o.kind), ['audit', 'execute']);
  assert.deepEqual(outputs[0], { kind: 'audit', action: 'created', taskId: task.taskId, context: 'alice', detail: 'tools/call' });
  e.error('tasks/get', { taskId: task.taskId }, 'mallory');
  const [refused] = e.drain();
  assert.equal(refused.action, 'access_refused');
  assert.equal(refused.context, 'mallory');
  e.engine.complete(task.taskId, JSON.stringify(TOOL_RESULT));
  const done = e.drain().filter((o) => o.kind === 'audit');
  assert.deepEqual(done.map((o) => [o.action, o.from, o.to]), [['transitioned', 'working', 'completed']]);
  e.result('tasks/result', { taskId: task.taskId }, 'alice');
  assert.deepEqual(e.drain().map((o) => o.action), ['result_fetched']);
  // Off by default.
  const quiet = engine();
  assert.deepEqual(quiet.startTool('slow', 'alice').outputs.map((o) => o.kind), ['execute']);
});

test('tasks/* requests are rate limited per context, on the injected clock', () => {
  const e = engine({ limits: { rateLimit: { burst: 3, perSecond: 1 } } });
  const { task } = e.startTool('slow', 'alice');
  const replies = [];
  for (let i = 0; i < 5; i++) replies.push(e.request('tasks/get', { taskId: task.taskId }, 'alice'));
  const refused = replies.filter((r) => 'error' in r);
  assert.ok(refused.length >= 1, 'some polls refused');
  assert.ok(replies.slice(0, 2).every((r) => 'result' in r), 'the burst goes through');
  assert.equal(refused[0].error.code, -32000);
  assert.equal(e.request('tasks/get', { taskId: task.taskId }, 'bob').error.code, -32602, 'bob has his own bucket: not found, not rate limited');
  e.clock.advance(5000);
  assert.ok('result' in e.request('tasks/get', { taskId: task.taskId }, 'alice'), 'refilled');
  const unlimited = engine({ limits: { rateLimit: null } });
  const t = unlimited.startTool('slow', 'alice').task;
  for (let i = 0; i < 500; i++) assert.ok('result' in unlimited.request('tasks/get', { taskId: t.taskId }, 'alice'));
});

test('TextTaskRequestor drives a TextTaskEngine in memory: create, poll on pollInterval, result', () => {
  const clock = manualClock();
  const server = new CheckedEngine(mod, { now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required' } });
  const client = new mod.TextTaskRequestor({ now: clock.now });
  const capabilities = JSON.stringify({ tasks: JSON.parse(server.engine.capabilitiesJson('client')) });
  assert.deepEqual(mod.shouldAugment(capabilities, 'tools/call', 'required', false), { augment: true, reason: 'the tool requires task-augmented execution' });
  assert.equal(mod.shouldAugment(capabilities, 'tools/call', 'forbidden', true).augment, false);
  assert.equal(mod.shouldAugment('{}', 'tools/call', 'required', true).augment, false);
  const REQUEST_DEFS = { 'tools/call': 'CallToolRequest', 'tasks/get': 'GetTaskRequest', 'tasks/result': 'GetTaskPayloadRequest', 'tasks/list': 'ListTasksRequest', 'tasks/cancel': 'CancelTaskRequest' };
  const events = [];
  const pump = () => {
    for (let moved = true; moved; ) {
      moved = false;
      for (let o = client.pollOutput(); o !== null; o = client.pollOutput()) {
        moved = true;
        if (o.kind !== 'send') {
          events.push(o);
          continue;
        }
        const msg = JSON.parse(o.message);
        assertValid(REQUEST_DEFS[msg.method] ?? 'JSONRPCRequest', msg, `requestor sent ${o.message}`);
        const reply = server.handleText(o.message, 'me');
        if (reply !== null) client.handle(JSON.stringify(reply));
      }
      for (const o of server.drain()) {
        moved = true;
        if (o.kind === 'send') client.handle(o.message);
        else events.push({ server: o.kind, taskId: o.taskId });
      }
    }
  };
  const callId = client.call('tools/call', JSON.stringify({ name: 'slow', arguments: { n: 1 } }), 60_000);
  pump();
  const created = events.find((e) => e.kind === 'created');
  assert.equal(created.callId, callId);
  assert.deepEqual(client.tracked(), [created.taskId]);
  assert.ok(events.some((e) => e.server === 'execute' && e.taskId === created.taskId));
  assert.equal(client.nextDeadline(), clock.ms + 1000, 'polls on the receiver\'s pollInterval');
  clock.advance(1000);
  client.handleTimeout();
  pump();
  server.engine.complete(created.taskId, JSON.stringify(TOOL_RESULT));
  pump();
  const finished = events.find((e) => e.kind === 'finished');
  assert.equal(finished.status, 'completed');
  assert.deepEqual(JSON.parse(finished.response).result.content, TOOL_RESULT.content);
  assert.deepEqual(client.tracked(), []);
  assert.ok(server.validator.counts.GetTaskResult >= 1 && server.validator.counts.CallToolResult === 1);
  client.free();
});
