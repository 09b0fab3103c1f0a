// TaskClient against the official SDK 2.x: examples/sdk2-server (McpServer of
// @modelcontextprotocol/server with mcp-task-core/server) over the 2.x client's
// StreamableHTTPClientTransport. server/discover picks the tasks extension (2026-07-28); a task
// runs to its result through tasks/get (each with the Mcp-Name header), input goes back through
// tasks/update, a tool error completes, a JSON-RPC error rejects, and an AbortSignal cancels.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { REPO_ROOT } from '../helpers/package.mjs';
import { installWithSdk2 } from '../sdk2/harness.mjs';

let pkg;
let mod;
let server;
let url;

before(async () => {
  pkg = installWithSdk2('mcp-task-core-task-client-');
  mod = await pkg.importEsm();
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
  const child = spawn(process.execPath, ['server.mjs'], { cwd: pkg.dir, env: { ...process.env, PORT: '0', STEP_MS: '20' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\S+)/.exec(out);
      if (m) resolve(new URL(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
  server = { child, exited: new Promise((r) => child.on('exit', r)) };
});

after(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  pkg?.cleanup();
});

/** A connected client; `requests` records each POST's JSON-RPC method and Mcp-Name header. */
async function connect(options = {}) {
  const requests = [];
  const recordingFetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
    if (body?.method) requests.push({ method: body.method, mcpName: new Headers(init.headers).get('mcp-name'), params: body.params });
    return fetch(input, init);
  };
  const client = new mod.TaskClient(new StreamableHTTPClientTransport(url, { fetch: recordingFetch }), {
    capabilities: { elicitation: { form: {} } },
    requestor: { pollFloorMs: 10 },
    ...options,
  });
  const dialect = await client.connect();
  return { client, dialect, requests };
}

test('SDK 2.x server: the tasks extension through callTool, with Mcp-Name on every tasks/get', { timeout: 60_000 }, async () => {
  // Polling only: pushed status would end the 50 ms task before its first tasks/get.
  const { client, dialect, requests } = await connect({ requestor: { pollFloorMs: 10, listen: false } });
  try {
    assert.equal(dialect, '2026-07-28');
    assert.equal(requests[0].method, 'server/discover');
    const { result, taskId, status } = await client.callTool('slow_compute', { seconds: 0.05, label: 'sum' }, { task: true });
    assert.equal(result.content[0].text, 'computed sum after 0.05 s');
    assert.equal(status, 'completed');
    const gets = requests.filter((r) => r.method === 'tasks/get');
    assert.ok(gets.length >= 1);
    for (const get of gets) assert.equal(get.mcpName, taskId, 'Mcp-Name names the task');
    assert.equal(requests.find((r) => r.method === 'tools/call').mcpName, 'slow_compute');

    // Input: the elicitation comes back through tasks/update.
    const asked = [];
    const deleted = await client.callTool('confirm_delete', { filename: 'a.txt' }, {
      task: true,
      onInputRequest: (request) => {
        asked.push(request);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    assert.equal(deleted.result.content[0].text, 'deleted a.txt');
    assert.equal(asked[0].method, 'elicitation/create');
    assert.equal(asked[0].params.message, 'Delete a.txt?');
    assert.ok(requests.some((r) => r.method === 'tasks/update'));

    // A tool error completes the task in this dialect; a JSON-RPC error fails it and rejects.
    const toolError = await client.callTool('failing_job', {}, { task: true });
    assert.equal(toolError.status, 'completed');
    assert.equal(toolError.result.isError, true);
    const err = await client.callTool('protocol_error_job', {}, { task: true }).then(() => assert.fail('resolved'), (e) => e);
    assert.equal(err.code, -32603);
    assert.deepEqual(err.data, { reason: 'backend_unavailable' });
    assert.equal(err.status, 'failed');
  } finally {
    await client.close();
  }
});

test('SDK 2.x server: an AbortSignal cancels the task, and the server reports it cancelled', { timeout: 60_000 }, async () => {
  const unowned = [];
  const { client, requests } = await connect({ onEvent: (e) => unowned.push(e) });
  try {
    const controller = new AbortController();
    const call = client.callTool('slow_compute', { seconds: 30 }, {
      task: true,
      signal: controller.signal,
      onEvent: (e) => e.kind === 'created' && controller.abort(),
    });
    await assert.rejects(call, (e) => e.name === 'AbortError');
    // The requestor follows the task to its end: the server's own word that it is cancelled.
    for (let i = 0; !unowned.some((e) => e.kind === 'finished'); i++) {
      assert.ok(i < 20_000, 'the cancelled task never finished');
      await new Promise((r) => setTimeout(r, 1));
    }
    const cancel = requests.find((r) => r.method === 'tasks/cancel');
    assert.ok(cancel, 'tasks/cancel sent');
    const finished = unowned.find((e) => e.kind === 'finished');
    assert.equal(finished.status, 'cancelled');
    assert.equal(finished.taskId, cancel.params.taskId);
    assert.equal(cancel.mcpName, cancel.params.taskId);
  } finally {
    await client.close();
  }
});

const TASKS = 'io.modelcontextprotocol/tasks';

test('SDK 2.x server: the declared capabilities and clientInfo go on every request, so tools that ask for input are served', { timeout: 60_000 }, async () => {
  const clientInfo = { name: 'declared-client', version: '2.0.0' };
  const { client, requests } = await connect({ capabilities: { elicitation: {} }, clientInfo });
  try {
    // A plain tool that asks first (multi round trip): -32021 unless the call declares elicitation.
    const first = await client.callTool('test_tool_with_task', {}, { task: true });
    assert.equal(first.result.resultType, 'input_required', JSON.stringify(first.result));
    assert.equal(first.result.inputRequests.user_name.method, 'elicitation/create');
    const answer = { user_name: { action: 'accept', content: { name: 'Ada' } } };
    const greeted = await client.request('tools/call', { name: 'test_tool_with_task', arguments: {}, inputResponses: answer }, { task: true });
    assert.equal(greeted.status, 'completed');
    assert.equal(greeted.result.content[0].text, 'Hello, Ada!');
    // A task tool that elicits: the answer goes back through tasks/update.
    const deleted = await client.callTool('confirm_delete', { filename: 'b.txt' }, { task: true, onInputRequest: () => ({ action: 'accept', content: { confirm: true } }) });
    assert.equal(deleted.result.content[0].text, 'deleted b.txt');
    const plain = await client.callTool('greet', { name: 'Bo' });
    assert.equal(plain.taskId, null);

    const declared = { elicitation: {}, extensions: { [TASKS]: {} } };
    for (const method of ['tools/call', 'tasks/get', 'tasks/update']) {
      const sent = requests.filter((r) => r.method === method && r.params.name !== 'greet');
      assert.ok(sent.length > 0, `${method} sent`);
      for (const r of sent) {
        assert.deepEqual(r.params._meta['io.modelcontextprotocol/clientCapabilities'], declared, `${method} declares the client's capabilities`);
        assert.deepEqual(r.params._meta['io.modelcontextprotocol/clientInfo'], clientInfo, `${method} names the client`);
      }
    }
    // A plain call declares the capabilities without the extension (it does not ask for a task).
    const greet = requests.find((r) => r.params.name === 'greet');
    assert.deepEqual(greet.params._meta['io.modelcontextprotocol/clientCapabilities'], { elicitation: {} });
    assert.deepEqual(greet.params._meta['io.modelcontextprotocol/clientInfo'], clientInfo);
  } finally {
    await client.close();
  }
});

test('SDK 2.x server: without onInputRequest a task that asks for input rejects the call and is cancelled', { timeout: 60_000 }, async () => {
  const { client, requests } = await connect();
  try {
    let timer;
    const outcome = await Promise.race([
      client.callTool('confirm_delete', { filename: 'c.txt' }, { task: true }).then((value) => ({ value }), (error) => ({ error })),
      new Promise((resolve) => (timer = setTimeout(() => resolve('pending'), 5_000))),
    ]).finally(() => clearTimeout(timer));
    assert.notEqual(outcome, 'pending', 'the call waits without a word');
    assert.equal(outcome.error?.code, -32601, JSON.stringify(outcome));
    assert.match(outcome.error.message, /elicitation\/create.*onInputRequest|onInputRequest.*elicitation\/create/);
    for (let i = 0; !requests.some((r) => r.method === 'tasks/cancel'); i++) {
      assert.ok(i < 5_000, 'tasks/cancel never sent');
      await new Promise((r) => setTimeout(r, 1));
    }
    assert.equal(requests.find((r) => r.method === 'tasks/cancel').params.taskId, outcome.error.taskId);
  } finally {
    await client.close();
  }
});

for (const protocolVersion of ['2026-07-28', '2025-11-25']) {
  test(`SDK 2.x server, ${protocolVersion}: close() is not an error: onError hears nothing of the aborted requests`, { timeout: 60_000 }, async () => {
    const errors = [];
    const { client } = await connect({ protocolVersion, onError: (e) => errors.push(e) });
    let created = null;
    const call = client.callTool('slow_compute', { seconds: 30 }, { task: true, onEvent: (e) => e.kind === 'created' && (created = e) });
    for (let i = 0; created === null; i++) {
      assert.ok(i < 10_000, 'the task is never created');
      await new Promise((r) => setTimeout(r, 1));
    }
    // Requests in flight (a tasks/get, or 2025-11-25's blocking tasks/result) when the transport closes.
    await new Promise((r) => setTimeout(r, 250));
    await client.close();
    await assert.rejects(call, /Connection closed: the client was closed/);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(errors.map((e) => e?.message ?? String(e)), []);
  });
}
