// workerd (Miniflare): a Worker module (fixtures/task-worker.mjs) imports the package's
// workerd build, keeps one TextTaskEngine per isolate and answers JSON-RPC POSTed over HTTP on
// 127.0.0.1. The test drives create → get → deferred result → complete (host endpoint) →
// result, and validates every message the engine emitted against the schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { RELATED_TASK } from './helpers/checked.mjs';
import { JS_TESTS_DIR, installPackage } from './helpers/package.mjs';
import { ExchangeValidator } from './helpers/schema.mjs';
import { resolveWorkerdEntry, withWorkerd } from './helpers/workerd.mjs';

let pkg;
before(() => {
  pkg = installPackage();
});
after(() => pkg?.cleanup());

test('workerd: a Worker answers JSON-RPC with the engine', { timeout: 120_000 }, async () => {
  assert.equal(path.basename(resolveWorkerdEntry(pkg.installed).entry), 'index.workerd.js');
  const script = fs.readFileSync(path.join(JS_TESTS_DIR, 'fixtures', 'task-worker.mjs'), 'utf8');
  const v = new ExchangeValidator();

  await withWorkerd({ script, pkgDir: pkg.installed }, async (url) => {
    assert.equal(url.hostname, '127.0.0.1');
    let nextId = 1;
    // One JSON-RPC message over HTTP; validates the reply and the 'send' outputs.
    const rpc = async (message, context, { raw } = {}) => {
      const body = raw ?? JSON.stringify({ jsonrpc: '2.0', id: nextId++, ...message });
      v.incoming(body);
      const res = await fetch(new URL('/mcp', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(context ? { 'x-context': context } : {}) },
        body,
      });
      const envelope = await res.json();
      assert.equal(res.status, envelope.reply === null ? 202 : 200);
      const reply = envelope.reply === null ? null : v.outgoing(envelope.reply);
      for (const o of envelope.outputs) if (o.kind === 'send') o.json = v.outgoing(o.message, { inReplyTo: o.inReplyTo });
      return { reply, outputs: envelope.outputs, nextDeadline: envelope.nextDeadline };
    };
    const host = async (action, body) => {
      const res = await fetch(new URL(`/host/${action}`, url), { method: 'POST', body: JSON.stringify(body ?? {}) });
      const json = await res.json();
      for (const o of json.outputs ?? []) if (o.kind === 'send') o.json = v.outgoing(o.message, { inReplyTo: o.inReplyTo });
      return { status: res.status, ...json };
    };

    // create
    const created = await rpc({ method: 'tools/call', params: { name: 'slow_echo', arguments: { text: 'hi' }, task: { ttl: 120_000 } } }, 'alice');
    const task = created.reply.result.task;
    assert.equal(task.status, 'working');
    assert.equal(task.ttl, 120_000);
    assert.deepEqual(created.outputs.map((o) => o.kind), ['execute']);
    assert.equal(created.outputs[0].taskId, task.taskId);
    assert.equal(created.outputs[0].context, 'alice');
    assert.equal(created.nextDeadline, Date.parse(task.createdAt) + 120_000);
    assert.deepEqual((await host('running')).running, [task.taskId]);

    // get (same isolate, same engine)
    assert.equal((await rpc({ method: 'tasks/get', params: { taskId: task.taskId } }, 'alice')).reply.result.status, 'working');
    const foreign = await rpc({ method: 'tasks/get', params: { taskId: task.taskId } }, 'bob');
    assert.equal(foreign.reply.error.code, -32602, 'another context does not see the task');

    // result while running: deferred (202)
    const waiting = await rpc({ method: 'tasks/result', params: { taskId: task.taskId } }, 'alice');
    assert.equal(waiting.reply, null);
    const waitingId = String(nextId - 1);

    // complete through the host endpoint: the deferred response comes out with related-task _meta
    const done = await host('complete', { taskId: task.taskId, result: { content: [{ type: 'text', text: 'echo: hi' }] } });
    assert.equal(done.status, 200);
    assert.equal(done.task.status, 'completed');
    assert.deepEqual(done.outputs.map((o) => o.kind), ['send', 'send']);
    assert.equal(done.outputs[0].json.params.status, 'completed');
    const deferred = done.outputs[1];
    assert.equal(deferred.inReplyTo, waitingId);
    assert.equal(deferred.context, 'alice');
    assert.deepEqual(deferred.json.result._meta[RELATED_TASK], { taskId: task.taskId });
    assert.equal(deferred.json.result.content[0].text, 'echo: hi');

    // result again: at once
    const result = await rpc({ method: 'tasks/result', params: { taskId: task.taskId } }, 'alice');
    assert.deepEqual(result.reply.result.content, [{ type: 'text', text: 'echo: hi' }]);
    const list = await rpc({ method: 'tasks/list', params: {} }, 'alice');
    assert.deepEqual(list.reply.result.tasks.map((t) => [t.taskId, t.status]), [[task.taskId, 'completed']]);

    // a failure, replayed
    const second = (await rpc({ method: 'tools/call', params: { name: 'slow_echo', task: {} } }, 'alice')).reply.result.task;
    const error = { code: -32001, message: 'echo service down', data: { retryAfter: 5 } };
    assert.equal((await host('fail', { taskId: second.taskId, error })).task.status, 'failed');
    assert.deepEqual((await rpc({ method: 'tasks/result', params: { taskId: second.taskId } }, 'alice')).reply.error, error);

    // bad input and host misuse: JSON-RPC errors and coded errors, and the engine goes on
    assert.equal((await rpc(null, 'alice', { raw: '{"jsonrpc":' })).reply.error.code, -32700);
    assert.equal((await rpc(null, 'alice', { raw: '[' .repeat(100_000) })).reply.error.code, -32600);
    const misuse = await host('complete', { taskId: 42, result: {} });
    assert.equal(misuse.status, 400);
    assert.deepEqual([misuse.error.name, misuse.error.code], ['TypeError', 'invalid_argument']);
    const twice = await host('complete', { taskId: task.taskId, result: {} });
    assert.equal(twice.error.code, 'already_terminal');
    // The object-mode class of the workerd build.
    const object = await host('../object');
    assert.equal(object.reply.result.task.status, 'working');
    assert.deepEqual(object.execute.request.params, { name: 'slow_echo', task: {} });
    assert.equal(object.execute.text, JSON.stringify(object.execute.request));
    assert.equal(object.task.status, 'completed');
    assert.equal(object.freed, 'freed');
    const state = await host('running');
    assert.deepEqual(state.running, []);
    assert.equal(state.taskCount, 2);
  });

  for (const def of ['CreateTaskResult', 'GetTaskResult', 'GetTaskPayloadResult', 'CallToolResult', 'TaskStatusNotification', 'ListTasksResult', 'JSONRPCErrorResponse']) {
    assert.ok(v.counts[def] > 0, `no ${def} validated`);
  }
});
