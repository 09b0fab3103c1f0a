// After a cancel, every host call and every store call throws one code, `task_cancelled`
// (with rpcCode -32602), so the README's `report()` helper, which lets exactly
// `task_cancelled` and `unknown_task` pass, never rethrows for a cancelled task.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { installPackage } from './helpers/package.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
  await mod.init();
});
after(() => pkg?.cleanup());

/** `call()`'s error: its `code` and `rpcCode`. */
function refusal(call) {
  try {
    call();
  } catch (err) {
    return { code: err.code, rpcCode: err.rpcCode };
  }
  assert.fail('expected the call to throw');
}

/** The README's helper: swallows the refusals of a task that ended under the work. */
function report(call) {
  try {
    call();
  } catch (err) {
    if (err.code !== 'task_cancelled' && err.code !== 'unknown_task') throw err;
  }
}

/** Every host call and store call a host may make on a task, by name. */
const CALLS = {
  complete: (e, id) => e.complete(id, JSON.stringify({ content: [] })),
  fail: (e, id) => e.fail(id, JSON.stringify({ code: -32603, message: 'boom' })),
  requestInput: (e, id) => e.requestInput(id, 'elicitation/create', JSON.stringify({ message: '?', requestedSchema: { type: 'object', properties: {} } })),
  resume: (e, id) => e.resume(id),
  setStatusMessage: (e, id) => e.setStatusMessage(id, '3 of 10 done'),
  reportProgress: (e, id) => e.reportProgress(id, 3, 10, 'still going'),
  cancel: (e, id) => e.cancel(id, 'again'),
  cancelTask: (e, id) => e.cancelTask(id, 'alice', null),
  storeTaskResult: (e, id) => e.storeTaskResult(id, 'alice', 'completed', { kind: 'result', json: '{"content":[]}' }),
};

for (const how of ['cancel()', 'cancelTask()', 'tasks/cancel']) {
  test(`after ${how}, every host and store call is task_cancelled`, () => {
    const engine = new mod.TextTaskEngine({ statusNotifications: false });
    const methods = Object.getOwnPropertyNames(mod.TextTaskEngine.prototype);
    for (const name of Object.keys(CALLS)) assert.ok(methods.includes(name), `TextTaskEngine has ${name}`);
    for (const [name, call] of Object.entries(CALLS)) {
      // A task with a progress token, so reportProgress would have something to send.
      const task = JSON.parse(engine.createTask('alice', 'tools/call', 60_000, '"tok"'));
      if (how === 'cancel()') engine.cancel(task.taskId, null);
      else if (how === 'cancelTask()') engine.cancelTask(task.taskId, 'alice', null);
      else {
        const reply = JSON.parse(engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/cancel', params: { taskId: task.taskId } }), 'alice'));
        assert.equal(reply.result.status, 'cancelled');
      }
      assert.deepEqual(refusal(() => call(engine, task.taskId)), { code: 'task_cancelled', rpcCode: -32602 }, name);
      assert.doesNotThrow(() => report(() => call(engine, task.taskId)), `report(${name}) lets it pass`);
      assert.equal(JSON.parse(engine.getTask(task.taskId, 'alice')).status, 'cancelled', `${name} changed nothing`);
    }
  });
}

test('a completed task is already_terminal instead, which report() does not hide', () => {
  const engine = new mod.TextTaskEngine({ statusNotifications: false });
  for (const [name, call] of Object.entries(CALLS)) {
    const task = JSON.parse(engine.createTask('alice', 'tools/call', 60_000, '"tok"'));
    engine.complete(task.taskId, JSON.stringify({ content: [] }));
    assert.deepEqual(refusal(() => call(engine, task.taskId)), { code: 'already_terminal', rpcCode: -32602 }, name);
    assert.throws(() => report(() => call(engine, task.taskId)), { code: 'already_terminal' }, name);
  }
});
