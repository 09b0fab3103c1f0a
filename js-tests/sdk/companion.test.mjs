// withCompanionTools(mcpServer): an official SDK 1.x client that does not speak tasks calls a
// task tool, gets the task named at once, and follows it with the status and cancel tools, which
// find a task exactly where tasks/get does (another session's is not found). A client that speaks
// tasks never sees them; without withCompanionTools nothing changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertValid } from '../helpers/schema.mjs';
import { Control, makeStores, ours, startHttp, textOf } from './harness.mjs';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const allText = (result) => result.content.map((c) => c.text).join('\n');

async function until(predicate, what, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function serve(onServer) {
  const stores = makeStores('wasm');
  const ctl = new Control();
  const http = await startHttp({ ...stores, onServer }, ctl);
  return { ctl, http, close: async () => (await http.close(), stores.close()) };
}

test('a client without the tasks capability follows a task with the companion tools; another session cannot', { timeout: 15_000 }, async () => {
  const { ctl, http, close } = await serve((server) => ours.withCompanionTools(server));
  try {
    const { client: alice } = await http.connect('alice');
    const { client: bob } = await http.connect('bob');
    const listed = (await alice.listTools()).tools;
    assert.ok(listed.some((t) => t.name === 'task_status') && listed.some((t) => t.name === 'task_cancel'));

    const started = await alice.callTool({ name: 'work', arguments: { steps: 1 } });
    assert.notEqual(started.isError, true, allText(started));
    assertValid('CallToolResult', started);
    const taskId = started._meta?.[RELATED_TASK]?.taskId;
    assert.equal(typeof taskId, 'string', JSON.stringify(started));
    assert.match(allText(started), new RegExp(`task_status.*${taskId}`));
    assert.match(allText(await alice.callTool({ name: 'task_status', arguments: { taskId } })), /is working/);

    const peek = await bob.callTool({ name: 'task_status', arguments: { taskId } });
    assert.equal(peek.isError, true, allText(peek));
    assert.match(allText(peek), /not found/i);
    const theft = await bob.callTool({ name: 'task_cancel', arguments: { taskId } });
    assert.equal(theft.isError, true, allText(theft));

    ctl.openAll(taskId);
    const done = await until(async () => {
      const status = await alice.callTool({ name: 'task_status', arguments: { taskId } });
      return /is completed/.test(allText(status)) && status;
    }, 'the outcome');
    assertValid('CallToolResult', done);
    assert.match(allText(done), /done after 1 steps/);

    const other = await alice.callTool({ name: 'work', arguments: { steps: 1 } });
    const otherId = other._meta[RELATED_TASK].taskId;
    const cancelled = await alice.callTool({ name: 'task_cancel', arguments: { taskId: otherId } });
    assert.notEqual(cancelled.isError, true, allText(cancelled));
    assert.match(textOf(cancelled), /is cancelled/);
    assert.match(allText(await alice.callTool({ name: 'task_status', arguments: { taskId: otherId } })), /is cancelled/);
    ctl.openAll(otherId);
  } finally {
    await close();
  }
});

test("a task's input request is refused to a client without task support (-32021, nothing sent), as in SDK 2.x", { timeout: 15_000 }, async () => {
  // Work that asks for input through the request's extra, as SDK 1.x task tools do: the client
  // declared elicitation but no tasks, so it never calls tasks/result and could never answer.
  const asks = (server) => {
    ours.withCompanionTools(server);
    server.experimental.tasks.registerToolTask('asks', { inputSchema: {} }, {
      createTask: async (_args, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        const request = { method: 'elicitation/create', params: { mode: 'form', message: 'Which?', requestedSchema: { type: 'object', properties: {} } } };
        Promise.resolve()
          .then(() => extra.sendRequest(request, ElicitResultSchema, { relatedTask: { taskId: task.taskId } }))
          .then(
            () => 'answered',
            (err) => `not asked: ${err.code}`,
          )
          .then((text) => extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text }] }));
        return { task };
      },
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    });
  };
  const { http, close } = await serve(asks);
  try {
    const { client } = await http.connect('plain');
    const started = await client.callTool({ name: 'asks', arguments: {} });
    const taskId = started._meta[RELATED_TASK].taskId;
    const done = await until(async () => {
      const status = await client.callTool({ name: 'task_status', arguments: { taskId } });
      return /is completed/.test(allText(status)) && status;
    }, 'the asking task to finish');
    assert.match(allText(done), /not asked: -32021/);
    assert.deepEqual(client.elicitations, [], 'nothing was sent to the client');
  } finally {
    await close();
  }
});

test('a client that speaks tasks never sees the companion tools', { timeout: 15_000 }, async () => {
  const { http, close } = await serve((server) => ours.withCompanionTools(server, { status: 'job_status', cancel: 'job_cancel' }));
  try {
    const speaking = new Client({ name: 'speaking', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await speaking.connect(new StreamableHTTPClientTransport(http.url));
    const names = (await speaking.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('work'));
    assert.ok(!names.includes('job_status') && !names.includes('job_cancel'), names.join());
    const { client: plain } = await http.connect('plain');
    const plainNames = (await plain.listTools()).tools.map((t) => t.name);
    assert.ok(plainNames.includes('job_status') && plainNames.includes('job_cancel'), plainNames.join());
    await speaking.close();
    assert.throws(() => ours.withCompanionTools({}), /McpServer/);
  } finally {
    await close();
  }
});

test('off by default: a required task tool refuses a client without task support, no companion tools', { timeout: 15_000 }, async () => {
  const { http, close } = await serve(undefined);
  try {
    const { client } = await http.connect('plain');
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('task_status'));
    await assert.rejects(client.callTool({ name: 'work', arguments: { steps: 1 } }), /requires task-based execution/);
    assert.equal(typeof ours.withCompanionTools, 'function');
  } finally {
    await close();
  }
});
