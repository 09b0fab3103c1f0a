// The host's clock (`options.now`) is read once per call, before the engine or requestor runs.
// A clock that throws, or gives no finite non-negative number, fails that call with
// `clock_failed` (the thrown value as `cause`) and leaves every task as it was; the next call
// with a working clock goes on from there.
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

/** A clock the test can break: `state.value` is returned, or thrown when `state.fail` is set. */
function breakableClock(start) {
  const state = { value: start, fail: null };
  const now = () => {
    if (state.fail) throw state.fail;
    return state.value;
  };
  return { state, now };
}

function clockFailure(call) {
  try {
    call();
  } catch (err) {
    return err;
  }
  assert.fail('expected the call to throw clock_failed');
}

const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {}, task: { ttl: 60_000 } } };

for (const className of ['TaskEngine', 'TextTaskEngine']) {
  test(`${className}: a clock that throws fails the call with clock_failed and changes nothing`, () => {
    const clock = breakableClock(1_000);
    const engine = new mod[className]({ now: clock.now, tools: { slow: 'required' } });
    const message = className === 'TaskEngine' ? CALL : JSON.stringify(CALL);
    const created = engine.handle(message, 'ctx');
    const reply = typeof created === 'string' ? JSON.parse(created) : created;
    const taskId = reply.result.task.taskId;
    while (engine.pollOutput()) {
      /* drain */
    }

    const broken = new Error('clock unplugged');
    clock.state.fail = broken;
    for (const call of [
      () => engine.handle(className === 'TaskEngine' ? { ...CALL, id: 2 } : JSON.stringify({ ...CALL, id: 2 }), 'ctx'),
      () => engine.complete(taskId, className === 'TaskEngine' ? { content: [] } : '{"content":[]}'),
      () => engine.cancel(taskId),
      () => engine.handleTimeout(),
    ]) {
      const err = clockFailure(call);
      assert.equal(err.code, 'clock_failed');
      assert.equal(err.cause, broken, 'the thrown value is the cause');
      assert.match(err.message, /options\.now\(\) threw/);
    }
    assert.equal(engine.taskCount, 1, 'no task was created by the failed handle');
    assert.equal(engine.pollOutput(), null, 'no output came from the failed calls');

    clock.state.value = 'soon';
    clock.state.fail = null;
    const err = clockFailure(() => engine.getTask(taskId, 'ctx'));
    assert.equal(err.code, 'clock_failed');
    assert.match(err.message, /returned string, not a number of epoch milliseconds/);
    for (const bad of [NaN, -1, Infinity]) {
      clock.state.value = bad;
      assert.equal(clockFailure(() => engine.taskContext(taskId)).code, 'clock_failed', String(bad));
    }

    clock.state.value = 2_000;
    const task = engine.getTask(taskId, 'ctx');
    assert.equal((typeof task === 'string' ? JSON.parse(task) : task).status, 'working', 'the task is as it was');
    engine.complete(taskId, className === 'TaskEngine' ? { content: [] } : '{"content":[]}');
    const done = engine.getTask(taskId, 'ctx');
    assert.equal((typeof done === 'string' ? JSON.parse(done) : done).lastUpdatedAt, new Date(2_000).toISOString());
    engine.free();
  });
}

test('a clock that fails on construction refuses the engine and the requestor', () => {
  const broken = new Error('no time');
  for (const Class of [mod.TaskEngine, mod.TextTaskEngine, mod.TaskRequestor, mod.TextTaskRequestor]) {
    const err = clockFailure(
      () =>
        new Class({
          now: () => {
            throw broken;
          },
        }),
    );
    assert.equal(err.code, 'clock_failed', Class.name);
    assert.equal(err.cause, broken, Class.name);
  }
});

for (const className of ['TaskRequestor', 'TextTaskRequestor']) {
  test(`${className}: a clock that throws fails the call with clock_failed and sends nothing`, () => {
    const clock = breakableClock(1_000);
    const requestor = new mod[className]({ now: clock.now });
    const broken = new Error('clock unplugged');
    clock.state.fail = broken;
    const call =
      className === 'TaskRequestor'
        ? () => requestor.call('tools/call', { name: 'slow', arguments: {} }, { task: true })
        : () => requestor.call('tools/call', '{"name":"slow","arguments":{}}', true);
    for (const attempt of [call, () => requestor.handleTimeout()]) {
      const err = clockFailure(attempt);
      assert.equal(err.code, 'clock_failed');
      assert.equal(err.cause, broken);
    }
    assert.equal(requestor.pollOutput(), null, 'nothing was sent');
    assert.equal(requestor.nextDeadline(), null, 'nothing is awaited');

    clock.state.fail = null;
    call();
    const sent = requestor.pollOutput();
    assert.equal(sent.kind, 'send');
    assert.equal(requestor.nextDeadline(), 1_000 + 30_000, 'the request timeout counts from the working clock');
    requestor.free();
  });
}

test('every TextTaskEngine call that may need the time reads the clock exactly once', () => {
  let reads = 0;
  const engine = new mod.TextTaskEngine({ now: () => (reads++, 1_000), tools: { slow: 'required' } });
  const created = JSON.parse(engine.createTask('ctx', 'tools/call', 60_000));
  const other = JSON.parse(engine.createTask('ctx', 'tools/call', 60_000));
  const calls = {
    handle: () => engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { taskId: created.taskId } }), 'ctx'),
    createTask: () => engine.createTask('ctx', 'tools/call', 1_000, undefined, 5),
    createTaskDefaultInterval: () => engine.createTask('ctx', 'tools/call', 1_000),
    getTask: () => engine.getTask(created.taskId, 'ctx'),
    getTaskResult: () => assert.throws(() => engine.getTaskResult(created.taskId, 'ctx'), { code: 'no_result' }),
    listTasks: () => engine.listTasks('ctx'),
    taskContext: () => engine.taskContext(created.taskId),
    setStatusMessage: () => engine.setStatusMessage(created.taskId, 'half way'),
    reportProgress: () => engine.reportProgress(created.taskId, 1),
    requestInput: () => engine.requestInput(created.taskId, 'elicitation/create', '{"message":"?","requestedSchema":{"type":"object","properties":{}}}'),
    updateTaskStatus: () => engine.updateTaskStatus(created.taskId, 'ctx', 'working'),
    complete: () => engine.complete(created.taskId, '{"content":[]}'),
    cancelTask: () => engine.cancelTask(other.taskId, 'ctx'),
    handleTimeout: () => engine.handleTimeout(),
  };
  for (const [name, call] of Object.entries(calls)) {
    const before = reads;
    call();
    assert.equal(reads - before, 1, `${name} reads the clock once`);
  }
  engine.free();
});
