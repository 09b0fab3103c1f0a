// The hooks of TasksExtension, which the receiver runtime (runtime.js) feeds: every audit record
// to onaudit, dropped outputs to onerror, storage errors no request sees to onstorageerror.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { switchableStorage } from '../helpers/switchable-storage.mjs';
import { installWithSdk2, modernClient, sleep } from './harness.mjs';

let pkg;
let sdk;
let mod;
let z;

before(async () => {
  pkg = installWithSdk2();
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => pkg?.cleanup());

/** A 2026-07-28 request envelope that declares the tasks extension. */
const DECLARED = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** A runtime serving one required task tool that waits for `release`. */
function setup(options) {
  const tasks = new mod.TasksExtension(options);
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const handler = sdk.createMcpHandler(() => {
    const server = new sdk.McpServer({ name: 'hooks-test', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'wait', { taskSupport: 'required', inputSchema: z.object({}) }, async () => {
      await released;
      return { content: [{ type: 'text', text: 'done' }] };
    });
    return server;
  });
  return { tasks, client: modernClient(handler), release };
}

test('every audit record of a task reaches onaudit, and nothing reaches onerror', { timeout: 10_000 }, async () => {
  const records = [];
  const errors = [];
  const { tasks, client, release } = setup({ onaudit: (r) => records.push(r), onerror: (e) => errors.push(e) });
  const { taskId } = await client.result('tools/call', { name: 'wait', arguments: {} });
  release();
  for (let i = 0; i < 100 && !records.some((r) => r.taskId === taskId && r.action === 'transitioned'); i++) await sleep(10);
  const actions = records.filter((r) => r.taskId === taskId).map((r) => r.action);
  assert.deepEqual(actions.slice(0, 1), ['created'], JSON.stringify(records));
  assert.ok(records.some((r) => r.taskId === taskId && r.action === 'transitioned' && r.to === 'completed'), JSON.stringify(records));
  assert.deepEqual(errors, []);
  tasks.close();
});

test('outputs the engine dropped (its queue full) are reported to onerror with their count', { timeout: 10_000 }, async () => {
  const errors = [];
  const records = [];
  // Two pending outputs at most: five audited creations through the engine itself (as a host
  // may drive it) overflow the queue; the next request's drain reports what was lost.
  const { tasks, client, release } = setup({ onaudit: (r) => records.push(r), onerror: (e) => errors.push(e), engineOptions: { limits: { maxPendingOutputs: 2, rateLimit: null } } });
  for (let i = 0; i < 5; i++) tasks.engine.startTask(JSON.stringify({ jsonrpc: '2.0', id: `direct-${i}`, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: DECLARED } }), null);
  assert.deepEqual(errors, [], 'nothing reported before a drain');
  await client.call('tools/call', { name: 'wait', arguments: {} });
  release();
  const dropped = errors.filter((e) => e.code === 'outputs_dropped');
  assert.equal(dropped.length >= 1, true, `errors: ${errors.map((e) => e.message)}`);
  assert.ok(dropped.every((e) => Number.isSafeInteger(e.count) && e.count > 0));
  assert.match(dropped[0].message, /output queue was full: \d+ notifications or audit records were dropped/);
  tasks.close();
});

test('with storage, an error of the timer (lease renewals) reaches onstorageerror, not onerror; the runtime goes on once the storage is back', { timeout: 10_000 }, async () => {
  const storage = switchableStorage();
  const storageErrors = [];
  const errors = [];
  const { tasks, client, release } = setup({
    storage,
    leaseMs: 600,
    storageTimeoutMs: 200,
    engineOptions: { pollIntervalMs: 50 },
    onstorageerror: (e) => storageErrors.push(e),
    onerror: (e) => errors.push(e),
  });
  const { taskId } = await client.result('tools/call', { name: 'wait', arguments: {} });
  storage.state.down = true;
  for (let i = 0; i < 100 && storageErrors.length === 0; i++) await sleep(10);
  assert.ok(storageErrors.length >= 1, 'a failed timer round is reported');
  assert.equal(storageErrors[0].reason, 'storage_unavailable');
  assert.match(storageErrors[0].message, /^Task storage unavailable: /);
  storage.state.down = false;
  release();
  let task;
  for (let i = 0; i < 200; i++) {
    task = await client.result('tasks/get', { taskId });
    if (task.status === 'completed') break;
    await sleep(10);
  }
  assert.equal(task.status, 'completed', JSON.stringify(task));
  assert.deepEqual(errors, []);
  assert.throws(() => new mod.TasksExtension({ onstorageerror: () => {} }), /options\.onstorageerror is an option of the storage mode/);
  assert.throws(() => new mod.TasksExtension({ storage, onstorageerror: 1 }), /onstorageerror must be a function/);
  tasks.close();
});
