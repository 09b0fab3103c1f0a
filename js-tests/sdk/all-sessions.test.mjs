// Server code acting on the store directly, outside any request, through the official SDK 1.x
// (McpServer + Client over Streamable HTTP with sessions, no mocks). The store's own methods
// stay session-scoped: without a session ID they see only session-less tasks, so code written
// for InMemoryTaskStore (`taskStore.getTask(id)`, `taskStore.listTasks()`, as the SDK's own
// integration tests do) finds nothing. `taskStore.allSessions()` is the explicit way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallToolResultSchema, Control, connectInMemory, createTask, makeStores, outcome, startHttp, textOf, waitForTask } from './harness.mjs';

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** Polls `read()` until `pred(value)` (5 ms steps, bounded), as server code waiting on a task would. */
async function until(read, pred, what, timeoutMs = 3000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (pred(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every task of a listing, following nextCursor. */
async function listAll(list) {
  const tasks = [];
  let cursor;
  do {
    const page = await list(cursor);
    tasks.push(...page.tasks);
    cursor = page.nextCursor;
  } while (cursor);
  return tasks;
}

test('server code reads, lists, moves and completes any session\u2019s task with allSessions()', async () => {
  const stores = makeStores('wasm', { pageSize: 2 });
  const ctl = new Control();
  const http = await startHttp(stores, ctl);
  const { taskStore } = stores;
  try {
    const a = (await http.connect('a')).client;
    const b = (await http.connect('b')).client;
    const ta = await createTask(a, 'work', { steps: 1 });
    const tb = await createTask(b, 'work', { steps: 1 });
    const tb2 = await createTask(b, 'work', { steps: 0 });

    // The scoping stays: no session ID, no session's task.
    assert.equal(await taskStore.getTask(ta.taskId), null);
    assert.deepEqual((await taskStore.listTasks()).tasks, []);

    const all = taskStore.allSessions();
    assert.equal(taskStore.allSessions(), all, 'one view per store');
    ctl.open(ta.taskId, 1);
    const seen = await until(() => all.getTask(ta.taskId), (t) => t?.statusMessage === 'step 1/1', 'the tool\u2019s first step');
    assert.deepEqual([seen.taskId, seen.status, seen.ttl], [ta.taskId, 'working', 60_000]);
    assert.equal(await all.getTask('no-such-task'), null);

    // Every session's tasks, in pages of 2 (a page never mixes sessions).
    const listed = await listAll((cursor) => all.listTasks(cursor));
    assert.deepEqual(listed.map((t) => t.taskId).sort(), [ta.taskId, tb.taskId, tb2.taskId].sort());

    // Acting on them: the session's client sees the server's moves.
    await all.updateTaskStatus(tb.taskId, 'input_required', 'waiting for the operator');
    const moved = await b.experimental.tasks.getTask(tb.taskId);
    assert.deepEqual([moved.status, moved.statusMessage], ['input_required', 'waiting for the operator']);
    await all.updateTaskStatus(tb.taskId, 'cancelled', 'stopped by the operator');
    const stopped = await b.experimental.tasks.getTask(tb.taskId);
    assert.deepEqual([stopped.status, stopped.statusMessage], ['cancelled', 'stopped by the operator']);

    await all.storeTaskResult(ta.taskId, 'completed', text('finished by the server'));
    assert.equal((await all.getTaskResult(ta.taskId)).content[0].text, 'finished by the server');
    const done = await waitForTask(a, ta.taskId, (t) => t.status === 'completed');
    assert.equal(done.status, 'completed');
    assert.equal(textOf(await a.experimental.tasks.getTaskResult(ta.taskId, CallToolResultSchema)), 'finished by the server');
    // The tool's own late result is refused: the same rules as the session-scoped methods.
    ctl.open(ta.taskId, 2);
    await ctl.done(ta.taskId);
    assert.deepEqual(ctl.notesOf(ta.taskId), ['refused', 'late result refused']);
    await assert.rejects(all.storeTaskResult(tb.taskId, 'completed', text('late')), { code: -32602, reason: 'task_cancelled' });
    await assert.rejects(all.updateTaskStatus(ta.taskId, 'working'), { code: -32602, reason: 'already_terminal' });
    await assert.rejects(all.getTaskResult('no-such-task'), { code: -32602, reason: 'unknown_task' });

    // ...and still only to that session.
    assert.equal((await outcome(b.experimental.tasks.getTask(ta.taskId))).code, -32602);
    assert.equal((await outcome(a.experimental.tasks.getTaskResult(tb2.taskId, CallToolResultSchema))).code, -32602);

    // The view takes no session ID (the SDK always passes one, so it cannot serve requests).
    await assert.rejects(all.getTask(ta.taskId, undefined), TypeError);
    await assert.rejects(all.listTasks(undefined, 'a-session'), TypeError);
  } finally {
    await http.close();
    stores.close();
  }
});

test('the view cannot be the store of a server: every tasks/* request through it fails', async () => {
  const real = makeStores('wasm');
  const { taskStore } = real;
  const stores = { ...real, taskStore: taskStore.allSessions() };
  const conn = await connectInMemory(stores, new Control());
  try {
    const t = await taskStore.createTask({ ttl: 60_000 }, 1, { method: 'tools/call', params: {} }, undefined);
    const tasks = conn.client.experimental.tasks;
    // (The SDK's tasks/list handler reports any store error as -32602 "Failed to list tasks".)
    const requests = [
      [() => tasks.getTask(t.taskId), -32603],
      [() => tasks.listTasks(), -32602],
      [() => tasks.getTaskResult(t.taskId, CallToolResultSchema), -32603],
    ];
    for (const [request, code] of requests) {
      const failed = await outcome(request());
      assert.equal(failed.code, code);
      assert.match(failed.message, /takes no session ID/);
    }
    assert.equal((await outcome(createTask(conn.client, 'quick'))).code, -32602, 'and no task can be created through it');
  } finally {
    await conn.close();
    real.close();
  }
});
