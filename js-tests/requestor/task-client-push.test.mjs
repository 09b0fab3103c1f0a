// TaskClient hears a task's status as it changes, not at the next poll. 2026-07-28: a
// TasksExtension server on the official SDK 2.x (createMcpHandler wrapped by withTaskListen, in
// process) advertising pollIntervalMs 5000: the client asks for the task's notifications/tasks
// with subscriptions/listen, sees every statusMessage through onStatus and the outcome well
// before the first poll, and closes the stream at the end; a notification lost in the transport
// still ends the call by polling. 2025-11-25: the SDK 1.x server with WasmTaskStore pushes
// notifications/tasks/status unasked; the same onStatus carries them. stdio: the runtime's listen
// support on serveStdio's transport (withTaskListen(new StdioServerTransport())), closed by the
// client's notifications/cancelled.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import fs from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { installWithSdk2 } from '../sdk2/harness.mjs';

let pkg;
let mod;
let server;
let sdk;
let ours;
let z;

before(async () => {
  pkg = installWithSdk2('mcp-task-core-push-');
  mod = await pkg.importEsm();
  server = await pkg.importServer();
  ours = await import(pathToFileURL(path.join(pkg.installed, 'adapters/sdk-v1.js')).href);
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => pkg?.cleanup());

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const STEPS = ['exported 1/4', 'exported 2/4', 'exported 3/4'];
const STEP_MS = 12;

/** A 2026-07-28 server in process: tool `export` reports STEPS, one every STEP_MS, then completes. */
function modernServer(pollIntervalMs) {
  const tasks = new server.TasksExtension({ engineOptions: { pollIntervalMs } });
  const marks = { done: [] };
  const factory = () => {
    const s = new sdk.McpServer({ name: 'push-test', version: '1.0.0' });
    tasks.install(s);
    tasks.registerTool(s, 'export', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      // A change made before the client's listen stream is open can reach it only by a poll:
      // the steps start once the stream is there, so every one of them is pushed.
      for (let waited = 0; tasks.runtime.streamCount === 0 && waited < 2_000; waited += 2) await sleep(2);
      for (const step of STEPS) {
        await sleep(STEP_MS);
        await task.setStatus(step);
      }
      await sleep(STEP_MS);
      marks.done.push(performance.now());
      return { content: [{ type: 'text', text: 'exported 4/4' }] };
    });
    return s;
  };
  const handler = tasks.withTaskListen(sdk.createMcpHandler(factory, { legacy: 'reject' }));
  return { tasks, handler, marks };
}

/** A StreamableHTTPClientTransport into `handler` (no sockets), recorded (see `recorded`). */
function transportTo(handler, drop) {
  return recorded(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }), drop);
}

/**
 * `inner` wrapped so a test sees what is sent (`sent`: { message, options }) and can drop what
 * arrives (`drop(message)` true: never delivered, kept in `dropped`).
 */
function recorded(inner, drop = () => false) {
  const sent = [];
  const dropped = [];
  const wrapper = {
    sent,
    dropped,
    hasPerRequestStream: inner.hasPerRequestStream,
    start: () => inner.start(),
    send: (message, options) => (sent.push({ message, options }), inner.send(message, options)),
    close: () => inner.close(),
    setProtocolVersion: (v) => inner.setProtocolVersion?.(v),
  };
  inner.onmessage = (message, extra) => (drop(message) ? dropped.push(message) : wrapper.onmessage?.(message, extra));
  inner.onclose = () => wrapper.onclose?.();
  inner.onerror = (error) => wrapper.onerror?.(error);
  return wrapper;
}

test('2026-07-28, pollIntervalMs 5000: every statusMessage through onStatus, the outcome pushed well before the first poll', { timeout: 30_000 }, async () => {
  const { tasks, handler, marks } = modernServer(5_000);
  const transport = transportTo(handler);
  const errors = [];
  const client = new mod.TaskClient(transport, { onError: (e) => errors.push(e) });
  try {
    assert.equal(await client.connect(), '2026-07-28');
    const seen = [];
    const started = performance.now();
    const { result, status, taskId } = await client.callTool('export', {}, { task: true, onStatus: (task, about) => seen.push({ ...task, about }) });
    const ended = performance.now();
    assert.equal(status, 'completed');
    assert.equal(result.content[0].text, 'exported 4/4');
    assert.ok(ended - marks.done[0] < 1_000, `outcome ${Math.round(ended - marks.done[0])} ms after the work ended (the poll interval is 5000 ms)`);
    assert.ok(ended - started < 2_500, `the call took ${Math.round(ended - started)} ms`);
    const messages = seen.map((t) => t.statusMessage).filter((m) => m !== undefined);
    for (const step of STEPS) assert.ok(messages.includes(step), `onStatus saw ${step}: ${JSON.stringify(messages)}`);
    assert.deepEqual(messages.filter((m) => STEPS.includes(m)), STEPS, 'in order, each once');
    assert.equal(seen.at(-1).status, 'completed');
    assert.ok(seen.every((t) => t.about.taskId === taskId && t.taskId === taskId));
    assert.equal(transport.sent.filter((s) => s.message.method === 'tasks/get').length, 0, 'no poll was due');

    const listen = transport.sent.find((s) => s.message.method === 'subscriptions/listen');
    assert.deepEqual(listen.message.params.notifications, { taskIds: [taskId] });
    assert.equal(listen.options.requestSignal.aborted, true, 'the listen stream is closed once the task ended');
    assert.ok(!transport.sent.some((s) => s.message.method === 'notifications/cancelled'), 'Streamable HTTP: closing the stream is the cancellation');

    // A stream's events carry the same changes.
    const streamed = [];
    for await (const event of client.callToolStream('export', {}, { task: true })) if (event.kind === 'status') streamed.push(event.task.statusMessage);
    assert.deepEqual(streamed.filter((m) => STEPS.includes(m)), STEPS);
    // A throw in onStatus rejects the call with it, as in onEvent and onProgress.
    const thrown = new Error('the status display failed');
    await assert.rejects(client.callTool('export', {}, { task: true, onStatus: () => { throw thrown; } }), (e) => e === thrown);
    assert.deepEqual(errors, []);
  } finally {
    await client.close();
    tasks.close();
  }
});

test('2026-07-28: a pushed notification lost in the transport, and the call still ends by polling', { timeout: 30_000 }, async () => {
  const { tasks, handler } = modernServer(300);
  const lost = (m) => m.method === 'notifications/tasks' && m.params?.status === 'completed';
  const transport = transportTo(handler, lost);
  const client = new mod.TaskClient(transport, { requestor: { pollFloorMs: 10 } });
  try {
    await client.connect();
    const seen = [];
    const { result, status } = await client.callTool('export', {}, { task: true, onStatus: (task) => seen.push(task.status) });
    assert.equal(status, 'completed');
    assert.equal(result.content[0].text, 'exported 4/4');
    assert.equal(transport.dropped.length, 1, 'the terminal notification was pushed, and dropped');
    const gets = transport.sent.filter((s) => s.message.method === 'tasks/get');
    assert.ok(gets.length >= 1, 'a poll found the outcome');
    assert.equal(seen.at(-1), 'completed');
  } finally {
    await client.close();
    tasks.close();
  }
});

test('2025-11-25, SDK 1.x server with WasmTaskStore, pollInterval 5000: notifications/tasks/status reach onStatus, the outcome follows at once', { timeout: 30_000 }, async () => {
  const taskStore = new ours.WasmTaskStore({ pollIntervalMs: 5_000 });
  const taskMessageQueue = new ours.WasmTaskMessageQueue({ taskStore });
  const s = new McpServer1(
    { name: 'push-test', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue, defaultTaskPollInterval: 5_000 },
  );
  let done;
  s.experimental.tasks.registerToolTask('export', { inputSchema: {}, execution: { taskSupport: 'required' } }, {
    createTask: async (args, extra = args) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 5_000 });
      (async () => {
        for (const step of STEPS) {
          await sleep(STEP_MS);
          await extra.taskStore.updateTaskStatus(task.taskId, 'working', step);
        }
        await sleep(STEP_MS);
        done = performance.now();
        await extra.taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: 'exported 4/4' }] });
      })();
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await s.connect(serverTransport);
  const client = new mod.TaskClient(clientTransport);
  try {
    assert.equal(await client.connect(), '2025-11-25');
    const seen = [];
    const { result, status } = await client.callTool('export', {}, { task: true, onStatus: (task) => seen.push(task.statusMessage ?? task.status) });
    assert.ok(performance.now() - done < 1_000, 'the pushed terminal status fetched the outcome at once');
    assert.equal(status, 'completed');
    assert.equal(result.content[0].text, 'exported 4/4');
    assert.deepEqual(seen.filter((m) => STEPS.includes(m)), STEPS);
  } finally {
    await client.close();
    await s.close();
    taskMessageQueue.cleanup();
    taskStore.cleanup();
  }
});

/** A stdio server on the SDK 2.x entry, whose transport withTaskListen wraps (pollIntervalMs 5000). */
const STDIO_SERVER = `
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { TasksExtension } from 'mcp-task-core/server';
import * as z from 'zod';
const tasks = new TasksExtension({ engineOptions: { pollIntervalMs: 5000 }, onerror: (err) => console.error('runtime error:', err) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
serveStdio(() => {
  const server = new McpServer({ name: 'stdio-push', version: '1.0.0' });
  tasks.install(server);
  tasks.registerTool(server, 'export', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
    // Steps start once the client's listen stream is open (a change before it reaches the client only by a poll).
    for (let waited = 0; tasks.runtime.streamCount === 0 && waited < 2000; waited += 2) await sleep(2);
    for (const step of ${JSON.stringify(STEPS)}) {
      await sleep(${STEP_MS});
      await task.setStatus(step);
    }
    await sleep(${STEP_MS});
    return { content: [{ type: 'text', text: 'exported 4/4' }] };
  });
  server.registerTool('listening', { inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: String(tasks.runtime.streamCount) }] }));
  return server;
}, { transport: tasks.withTaskListen(new StdioServerTransport()), onerror: (err) => console.error('entry error:', err) });
`;

test('stdio: the runtime pushes notifications/tasks on serveStdio, and the client closes the subscription with notifications/cancelled', { timeout: 30_000 }, async () => {
  fs.writeFileSync(path.join(pkg.dir, 'stdio-push-server.mjs'), STDIO_SERVER);
  const inner = new StdioClientTransport({ command: process.execPath, args: ['stdio-push-server.mjs'], cwd: pkg.dir, stderr: 'pipe' });
  let stderr = '';
  inner.stderr?.on('data', (d) => (stderr += d));
  const transport = recorded(inner);
  const client = new mod.TaskClient(transport);
  try {
    assert.equal(await client.connect(), '2026-07-28');
    const seen = [];
    const started = performance.now();
    const { result, status, taskId } = await client.callTool('export', {}, { task: true, onStatus: (task) => seen.push(task.statusMessage ?? task.status) });
    assert.ok(performance.now() - started < 2_500, `the call took ${Math.round(performance.now() - started)} ms (the poll interval is 5000 ms)`);
    assert.equal(status, 'completed');
    assert.equal(result.content[0].text, 'exported 4/4');
    assert.deepEqual(seen.filter((m) => STEPS.includes(m)), STEPS);
    const listen = transport.sent.find((s) => s.message.method === 'subscriptions/listen');
    assert.deepEqual(listen.message.params.notifications, { taskIds: [taskId] });
    const cancelled = transport.sent.find((s) => s.message.method === 'notifications/cancelled');
    assert.equal(cancelled?.message.params.requestId, listen.message.id, 'stdio: the subscription is cancelled by notification');
    const streams = await client.callTool('listening', {});
    assert.equal(streams.result.content[0].text, '0', 'the server closed the stream');
    assert.equal(stderr, '');
  } finally {
    await client.close();
  }
});
