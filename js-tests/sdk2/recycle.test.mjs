// TasksExtension gives the wasm memory of a burst back: once the burst has expired and nothing is
// in flight, the runtime moves the tasks into an engine of a fresh wasm instance (its tools
// registered again, every answer as it was); never while work runs or a stream is open.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { installWithSdk2, modernClient, waitFor } from './harness.mjs';

// Every wasm memory instantiated from here on, to read each one's size.
const memories = [];
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    if (instance.exports.memory instanceof WebAssembly.Memory) memories.push(instance.exports.memory);
    return instance;
  },
});

const MIB = 1024 * 1024;
const T0 = Date.parse('2026-07-28T00:00:00.000Z');
const BIG = JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(8 * 1024) }] });

let pkg;
let sdk;
let mod;
let z;
before(async () => {
  pkg = installWithSdk2('mcp-task-core-sdk2-recycle-');
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => pkg?.cleanup());

/** Stored tasks with 8 KiB results and a 1 s TTL, made on `engine` directly (a burst). */
function burst(engine, n) {
  for (let i = 0; i < n; i++) {
    const { taskId } = JSON.parse(engine.createTask('burst', 'tools/call', 1000));
    engine.storeTaskResult(taskId, 'burst', 'completed', { kind: 'result', json: BIG });
  }
}

test('TasksExtension: not while work runs; then the tasks move, tools and answers as they were', async () => {
  let now = T0;
  const tasks = new mod.TasksExtension({ engineOptions: { now: () => now, pollIntervalMs: 10 }, recycle: { minBytes: 8 * MIB } });
  const release = new AbortController();
  const handler = sdk.createMcpHandler(() => {
    const server = new sdk.McpServer({ name: 'recycle-test', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      await task.setStatus('holding');
      if (!release.signal.aborted) await new Promise((resolve) => release.signal.addEventListener('abort', resolve, { once: true }));
      return { content: [{ type: 'text', text: 'released' }] };
    });
    return server;
  });
  const client = modernClient(handler);
  try {
    const held = (await client.result('tools/call', { name: 'hold', arguments: {} })).taskId;
    await waitFor(client, held, (t) => t.statusMessage === 'holding');
    const first = tasks.engine;
    const memory = memories.at(-1);
    burst(first, 2_000);
    assert.ok(memory.buffer.byteLength >= 16 * MIB);
    const count = memories.length;

    // The burst expires while `hold` runs: nothing moves.
    now += 1_500;
    const holding = JSON.stringify(await client.result('tasks/get', { taskId: held }));
    assert.equal(tasks.engine.taskCount, 1, 'the burst expired');
    assert.equal(tasks.engine, first);
    assert.equal(memories.length, count);

    // The work ends; the next expiry moves the tasks.
    release.abort();
    const done = await waitFor(client, held, (t) => t.status === 'completed');
    // The whole response but its id (each request has its own).
    const response = async () => JSON.stringify({ ...(await client.call('tasks/get', { taskId: held })), id: undefined });
    const before = { task: JSON.stringify(done), response: await response() };
    JSON.parse(first.createTask('tick', 'tools/call', 10));
    now += 20;
    const after = { task: JSON.stringify(await client.result('tasks/get', { taskId: held })), response: await response() };
    assert.notEqual(tasks.engine, first, 'a new engine');
    assert.equal(memories.length, count + 1, 'in a fresh instance');
    assert.ok(memories.at(-1).buffer.byteLength * 4 <= memory.buffer.byteLength, 'with a fraction of the memory');
    assert.deepEqual(after, before);
    assert.notEqual(holding, after.task);
    // The tool is still a task tool on the new engine, and its work runs there.
    const again = (await client.result('tools/call', { name: 'hold', arguments: {} })).taskId;
    assert.equal((await waitFor(client, again, (t) => t.status === 'completed')).status, 'completed');
  } finally {
    release.abort();
    tasks.close();
  }
});

test('TasksExtension: recycle only for an engine the runtime creates in memory', async () => {
  const { TextTaskEngine } = await import(pathToFileURL(path.join(pkg.installed, 'entries/receiver.node.mjs')).href);
  assert.throws(() => new mod.TasksExtension({ engine: new TextTaskEngine(), recycle: false }), /options\.recycle: only an engine the runtime creates in memory/);
  assert.throws(() => new mod.TasksExtension({ recycle: { ratio: 0 } }), /TasksExtension options\.recycle\.ratio must be a finite number of at least 1/);
});

test('runtime: no move while a stream is open or work is tracked, then one', async () => {
  const { TaskRuntime } = await import(pathToFileURL(path.join(pkg.installed, 'runtime/runtime.js')).href);
  const { EngineRecycler } = await import(pathToFileURL(path.join(pkg.installed, 'runtime/recycle.js')).href);
  const { freshInstance } = await import(pathToFileURL(path.join(pkg.installed, 'entries/receiver.node.mjs')).href);
  let now = T0;
  const recycler = new EngineRecycler({ instance: freshInstance, create: (Text, cursorKey) => new Text({ now: () => now, cursorKey }), minBytes: 8 * MIB, ratio: 4 });
  const runtime = new TaskRuntime(recycler.first(), { timer: false, recycler });
  const engine = runtime.engine;
  const expireBurst = () => {
    burst(runtime.engine, 2_000);
    now += 1_500;
    runtime.timeout();
  };
  runtime.openStream('"s1"', 'c', () => {});
  expireBurst();
  assert.equal(runtime.engine, engine, 'not while a stream is open');
  runtime.closeStream('"s1"');
  const work = runtime.track('t1', 'c');
  expireBurst();
  assert.equal(runtime.engine, engine, 'not while work is tracked');
  runtime.untrack('t1', work);
  const peak = recycler.memory.buffer.byteLength;
  expireBurst();
  assert.notEqual(runtime.engine, engine, 'moved');
  assert.ok(recycler.memory.buffer.byteLength * 4 <= peak);
  assert.throws(() => engine.taskCount, /freed/, 'the old engine is freed');
  runtime.close();
});
