// The task console over the SDK 2.x runtime: tasksExtensionOperatorView(TasksExtension), served
// by the console's fetch handler, against a real createMcpHandler server and 2026-07-28
// clients. Its event stream reports new tasks, status messages and outcomes; its cancel
// reaches the running work's signal; without authorization it refuses.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { startRedis } from '../durable/lib.mjs';
import { installWithSdk2, modernClient, waitFor } from './harness.mjs';

const COOKIE = 'ops=1';
let pkg;
let server;
let consoleMod;
let sdk;
let z;
before(async () => {
  pkg = installWithSdk2('mcp-task-core-console-');
  server = await pkg.importServer();
  consoleMod = await import(pathToFileURL(path.join(pkg.installed, 'console/console.js')).href);
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => pkg?.cleanup());

const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** Reads server-sent events from a Response: `next(predicate)` resolves to the first event that matches. */
function eventsOf(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const seen = [];
  return {
    seen,
    async next(predicate, ms = 5_000) {
      const end = Date.now() + ms;
      for (;;) {
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === undefined) continue;
          const e = { event, data: JSON.parse(data) };
          seen.push(e);
          if (predicate(e)) return e;
        }
        const left = end - Date.now();
        if (left <= 0) assert.fail(`no matching event within ${ms} ms; seen: ${JSON.stringify(seen.map((e) => e.event + ' ' + JSON.stringify(e.data).slice(0, 120)))}`);
        const chunk = await Promise.race([reader.read(), new Promise((resolve) => setTimeout(() => resolve(null), left))]);
        if (chunk === null) continue;
        if (chunk.done) assert.fail('the event stream ended');
        buffer += chunk.value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

test('SDK 2.x: the console lists the runtime’s tasks live, shows outcomes, and its cancel aborts the work', { timeout: 30_000 }, async () => {
  const tasks = new server.TasksExtension({ engineOptions: { pollIntervalMs: 50 } });
  const aborted = new Set();
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const handler = sdk.createMcpHandler(() => {
    const mcp = new sdk.McpServer({ name: 'console-sdk2', version: '1.0.0' });
    tasks.install(mcp);
    tasks.registerTool(mcp, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      task.setStatus('holding until cancelled');
      await new Promise((resolve) => task.signal.addEventListener('abort', resolve, { once: true }));
      aborted.add(task.taskId);
      return text('never stored');
    });
    tasks.registerTool(mcp, 'export', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      task.setStatus('exporting');
      await released;
      return text('exported 4 pages');
    });
    return mcp;
  });
  const client = modernClient(handler);
  const view = consoleMod.tasksExtensionOperatorView(tasks);
  const con = consoleMod.taskConsole(view, { authorize: (request) => request.headers.get('cookie') === COOKIE, pollMs: 100 });
  const request = (route, init = {}) => new Request(`http://127.0.0.1/console${route}`, { ...init, headers: { cookie: COOKIE, ...init.headers } });
  try {
    // Closed to a request without the cookie; a console without authorize refuses all.
    assert.equal((await con.fetch(new Request('http://127.0.0.1/console/events'))).status, 403);
    assert.equal((await consoleMod.taskConsole(view).fetch(request('/tasks'))).status, 403);

    const stream = await con.fetch(request('/events'));
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type'), /^text\/event-stream/);
    const events = eventsOf(stream);
    assert.deepEqual((await events.next((e) => e.event === 'snapshot')).data, { tasks: [] });

    const held = (await client.result('tools/call', { name: 'hold', arguments: {} })).taskId;
    const exporting = (await client.result('tools/call', { name: 'export', arguments: {} })).taskId;
    const first = await events.next((e) => e.event === 'task' && e.data.taskId === held && e.data.statusMessage === 'holding until cancelled');
    assert.equal(first.data.status, 'working');
    assert.equal(first.data.context, tasks.engine.taskContext(held));
    assert.ok(Date.parse(first.data.createdAt) + first.data.ttl > Date.now(), 'a TTL to count down');
    await events.next((e) => e.event === 'task' && e.data.taskId === exporting && e.data.statusMessage === 'exporting');

    // A status change reaches the stream; the outcome is in the task's JSON.
    release();
    const done = await events.next((e) => e.event === 'task' && e.data.taskId === exporting && e.data.status === 'completed');
    assert.equal(done.data.timeline.at(-1).status, 'completed');
    assert.ok(done.data.timeline.some((s) => s.status === 'working' && s.statusMessage === 'exporting'), JSON.stringify(done.data.timeline));
    const detail = await (await con.fetch(request(`/tasks/${exporting}`))).json();
    assert.deepEqual(detail.result.content, [{ type: 'text', text: 'exported 4 pages' }]);
    const listed = await (await con.fetch(request('/tasks?status=working'))).json();
    assert.deepEqual(listed.tasks.map((t) => t.taskId), [held]);

    // Cancel from the console: the work's signal fires, the client sees cancelled.
    const cancel = await con.fetch(request(`/tasks/${held}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'stopped by ops' }) }));
    assert.equal(cancel.status, 200, await cancel.clone().text());
    assert.equal((await cancel.json()).status, 'cancelled');
    await events.next((e) => e.event === 'task' && e.data.taskId === held && e.data.status === 'cancelled');
    await waitFor(client, held, (t) => t.status === 'cancelled');
    for (let i = 0; i < 50 && !aborted.has(held); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(aborted.has(held), 'the work of the cancelled task saw its signal');
    // Cancelling again: the task already ended.
    const again = await con.fetch(request(`/tasks/${held}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    assert.equal(again.status, 409);

    // close() ends the open streams.
    con.close();
    await assert.rejects(events.next(() => false, 2_000), /the event stream ended/);
  } finally {
    con.close();
    tasks.close();
  }
});

test('SDK 2.x on Redis: the view reads a task’s pending input and its answer reaches the work through the storage', { timeout: 30_000 }, async () => {
  const redis = await startRedis();
  const client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 2 });
  const { redisStorage } = await import(pathToFileURL(path.join(pkg.installed, 'storage/redis.js')).href);
  const tasks = new server.TasksExtension({ storage: redisStorage(client), engineOptions: { pollIntervalMs: 50 } });
  try {
    const handler = sdk.createMcpHandler(() => {
      const mcp = new sdk.McpServer({ name: 'console-sdk2-redis', version: '1.0.0' });
      tasks.install(mcp);
      tasks.registerTool(mcp, 'ask', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
        const answer = await task.elicit({ mode: 'form', message: 'Which color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } } } });
        return text(`${answer.action}: ${answer.content?.color}`);
      });
      return mcp;
    });
    const mcpClient = modernClient(handler);
    const view = consoleMod.tasksExtensionOperatorView(tasks);
    const { taskId } = await mcpClient.result('tools/call', { name: 'ask', arguments: {} }, { capabilities: { elicitation: { form: {} } } });
    await waitFor(mcpClient, taskId, (t) => t.status === 'input_required');
    const pending = await view.input(taskId);
    assert.equal(pending.length, 1, JSON.stringify(pending));
    assert.equal(pending[0].method, 'elicitation/create');
    assert.equal(pending[0].params.message, 'Which color?');
    await assert.rejects(view.answer(taskId, '"not-asked"', { action: 'decline' }), (err) => err.code === -32602);
    await view.answer(taskId, pending[0].requestId, { action: 'accept', content: { color: 'teal' } });
    await waitFor(mcpClient, taskId, (t) => t.status === 'completed');
    assert.deepEqual((await view.get(taskId)).result.content, [{ type: 'text', text: 'accept: teal' }]);
    assert.deepEqual(await view.input(taskId), [], 'nothing pending once answered');
    assert.equal(await view.input('no-such-task'), null);
  } finally {
    tasks.close();
    client.disconnect();
    await redis.stop();
  }
});
