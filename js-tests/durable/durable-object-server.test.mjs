// The Durable Object as a whole MCP server, in workerd through Miniflare: the Worker
// (examples/durable-object/worker.mjs) has no handshake code, only a tool and its work. Official
// clients connect over Streamable HTTP — the SDK 2.x Client with ext-tasks (2026-07-28), our
// TaskClient (2026-07-28 through server/discover, and 2025-11-25 through initialize), the SDK
// 1.x Client (2025-11-25) — and each creates a task, sees the status message its work set,
// answers its input request and gets the result. The handshake answers are checked against
// the official schemas of both dialects; the npm README's Worker (TypeScript) and
// fixtures/do-consumer.ts type-check against durable-object.d.ts; the repository README's
// snippet runs as a Worker. Each test fails on the object that only moved records (the
// handshake then got -32601).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { assertValid, assertValidIn } from '../helpers/schema.mjs';
import { JS_TESTS_DIR, REPO_ROOT } from '../helpers/package.mjs';
import { startWorker } from './fixtures/do-miniflare.mjs';

const WORKER = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'durable-object', 'worker.mjs'), 'utf8');
const CLIENT_INFO = { name: 'do-server-test', version: '1.0.0' };
const CAPABILITIES = { elicitation: { form: {} } };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let worker;
let url;
let mod;
before(async () => {
  worker = await startWorker({ prefix: 'mcp-task-core-do-server-', source: WORKER, bindings: { DRAFTS: 'Drafts' } });
  url = new URL('/mcp', worker.url);
  mod = await worker.pkg.importEsm();
});
after(async () => {
  await worker?.dispose();
});

const textOf = (result) => result.content.map((c) => c.text).join(' ');
/** What the work's `elicit` asks, and the answer each client gives. */
const answerFor = (request) => {
  assert.equal(request.method ?? 'elicitation/create', 'elicitation/create');
  assert.match(request.params.message, /^Which tone for the note on /);
  return { action: 'accept', content: { tone: 'brisk' } };
};

async function post(body, headers = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: res.status === 202 ? null : await res.json() };
}

test('the handshake of both dialects, from the registered tools, valid against the official schemas', { timeout: 30_000 }, async () => {
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
  assertValid('InitializeResult', init.body.result, 'initialize');
  const engine = new mod.TextTaskEngine({ ttl: { defaultMs: 60_000 }, pollIntervalMs: 50 });
  assert.deepEqual(init.body.result.capabilities.tasks, JSON.parse(engine.capabilitiesJson('default')), "the engine's tasks capability");
  engine.free();
  assert.equal(init.body.result.protocolVersion, '2025-11-25');
  assert.equal(init.body.result.serverInfo.name, 'Drafts');
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);

  const legacyTools = (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })).body.result;
  assertValid('ListToolsResult', legacyTools, 'tools/list (2025-11-25)');
  assert.deepEqual(legacyTools.tools.map((t) => [t.name, t.execution?.taskSupport]), [['draft', 'required']]);
  assert.deepEqual((await post({ jsonrpc: '2.0', id: 3, method: 'ping' })).body.result, {});

  const discover = await post({ jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: MODERN_META } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
  assertValidIn('2026-07-28', 'DiscoverResult', discover.body.result, 'server/discover');
  assert.deepEqual(discover.body.result.capabilities.extensions, JSON.parse(mod.TextTaskRequestor.protocolJson()).extensionCapability, "the engine's extension capability");
  assert.ok(discover.body.result.supportedVersions.includes('2026-07-28'));
  assert.equal(discover.body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'Drafts');

  const modernTools = (await post({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: MODERN_META } })).body.result;
  assertValidIn('2026-07-28', 'ListToolsResult', modernTools, 'tools/list (2026-07-28)');
  assert.deepEqual(modernTools.tools.map((t) => [t.name, t.execution]), [['draft', undefined]], '2026-07-28: the server decides, the tool declares nothing');
  assertValidIn('2026-07-28', 'Result', (await post({ jsonrpc: '2.0', id: 6, method: 'ping', params: { _meta: MODERN_META } })).body.result, 'ping (2026-07-28)');

  const future = await post({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  assert.equal(future.status, 400);
  assertValidIn('2026-07-28', 'UnsupportedProtocolVersionError', future.body, 'an unsupported version');
  assert.deepEqual(future.body.error.data.requested, '2099-01-01');
  // Headers that disagree with the body (streamable-http.mdx, "Server Validation").
  for (const headers of [{ 'mcp-method': 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' }]) {
    const mismatch = await post({ jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: MODERN_META } }, headers);
    assert.equal(mismatch.status, 400, JSON.stringify(headers));
    assertValidIn('2026-07-28', 'HeaderMismatchError', mismatch.body, `a mismatch of ${JSON.stringify(headers)}`);
  }
  // Anything else still goes to forward() (default -32601).
  assert.equal((await post({ jsonrpc: '2.0', id: 8, method: 'resources/list', params: {} })).body.error.code, -32601);
});

test('SDK 2.x Client with ext-tasks (2026-07-28): status message, input through tasks/update, result', { timeout: 30_000 }, async () => {
  const client = new Client2(CLIENT_INFO, { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new Transport2(url));
  try {
    assert.deepEqual(client.getServerCapabilities()?.extensions, { 'io.modelcontextprotocol/tasks': {} });
    const { tools } = await client.listTools();
    const declarations = new Map(tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const asked = [];
    const session = createTaskSessionFromClient(client, {
      endpointId: 'do-modern',
      tools: { currentTool: (name) => declarations.get(name) },
      onInputRequest: (request) => {
        asked.push(request);
        return answerFor(request);
      },
      rawDispatch,
      v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
    });
    try {
      const execution = await session.callTool('draft', { topic: 'tides' }, { task: { preference: 'prefer' } });
      assert.equal(execution.kind, 'task');
      const seen = [];
      const { outcome } = await execution.settle({ onEvent: (event) => event.type === 'task' && seen.push(event.task) });
      assert.ok(seen.some((t) => t.status === 'working' && t.statusMessage === 'Reading about tides'), `the status message: ${JSON.stringify(seen.map((t) => [t.status, t.statusMessage]))}`);
      assert.ok(seen.some((t) => t.status === 'input_required'));
      assert.equal(asked.length, 1);
      assert.equal(outcome.status, 'completed');
      assert.equal(textOf(outcome.result), 'A brisk note on tides');
    } finally {
      await session.close();
    }
  } finally {
    await client.close();
  }
});

/** ext-tasks' host-owned path for task traffic (the SDK 2.x Client refuses `resultType: "task"`). */
let rawSeq = 0;
async function rawDispatch(request, options = {}) {
  const body = { jsonrpc: '2.0', id: `raw-${++rawSeq}`, ...request };
  const name = body.method === 'tools/call' ? body.params?.name : body.params?.taskId;
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': body.method, ...(name === undefined ? {} : { 'mcp-name': name }) };
  const res = await fetch(url, { method: 'POST', signal: options.signal, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const message = await res.json();
  return message.error !== undefined ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result };
}

for (const protocolVersion of ['auto', '2025-11-25']) {
  const how = protocolVersion === 'auto' ? '2026-07-28 through server/discover, input through tasks/update' : '2025-11-25 through initialize, input on the tasks/result stream';
  test(`TaskClient (${how}): status message, input, result`, { timeout: 30_000 }, async () => {
    const client = new mod.TaskClient(new Transport2(url), { capabilities: CAPABILITIES, clientInfo: CLIENT_INFO, protocolVersion, requestor: { pollFloorMs: 10 } });
    const dialect = await client.connect();
    try {
      assert.equal(dialect, protocolVersion === 'auto' ? '2026-07-28' : '2025-11-25');
      const statuses = [];
      const asked = [];
      const { result, status } = await client.callTool('draft', { topic: 'kelp' }, {
        task: true,
        onEvent: (event) => event.kind === 'status' && statuses.push(event.task),
        onInputRequest: (request) => {
          asked.push(request);
          return answerFor(request);
        },
      });
      assert.ok(statuses.some((t) => t.statusMessage === 'Reading about kelp'), `the status message: ${JSON.stringify(statuses.map((t) => [t.status, t.statusMessage]))}`);
      assert.equal(asked.length, 1);
      assert.equal(status, 'completed');
      assert.equal(textOf(result), 'A brisk note on kelp');
    } finally {
      await client.close();
    }
  });
}

test('SDK 1.x Client (2025-11-25): status message, elicitation on the tasks/result stream, result', { timeout: 30_000 }, async () => {
  const client = new Client1(CLIENT_INFO, { capabilities: CAPABILITIES });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request);
    return answerFor(request);
  });
  await client.connect(new Transport1(url));
  try {
    assert.ok(client.getServerCapabilities()?.tasks?.requests?.tools?.call, 'the tasks capability from initialize');
    const { tools } = await client.listTools();
    assert.equal(tools.find((t) => t.name === 'draft')?.execution?.taskSupport, 'required');
    const statuses = [];
    let result;
    for await (const m of client.experimental.tasks.callToolStream({ name: 'draft', arguments: { topic: 'reefs' } }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
      if (m.type === 'taskStatus') statuses.push(m.task);
      else if (m.type === 'result') result = m.result;
      else if (m.type === 'error') throw m.error;
    }
    assert.ok(statuses.some((t) => t.status === 'working' && t.statusMessage === 'Reading about reefs'), `the status message: ${JSON.stringify(statuses.map((t) => [t.status, t.statusMessage]))}`);
    assert.equal(asked.length, 1);
    assert.equal(textOf(result), 'A brisk note on reefs');
  } finally {
    await client.close();
  }
});

/** The ```ts block of the npm README's Durable Object section, as written. */
function readmeWorker() {
  const readme = fs.readFileSync(path.join(worker.pkg.installed, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Cloudflare Durable Objects'));
  const start = section.indexOf('```ts\n');
  assert.ok(start > 0, "the README's Durable Object section has a ```ts example");
  return section.slice(start + 6, section.indexOf('\n```\n', start) + 1);
}

test("durable-object.d.ts: the README's Worker and one with typed env, ctx and TaskContext type-check (tsc, strict)", { timeout: 60_000 }, async () => {
  const dir = worker.pkg.dir;
  fs.copyFileSync(path.join(import.meta.dirname, 'fixtures', 'do-consumer.ts'), path.join(dir, 'do-consumer.ts'));
  fs.writeFileSync(path.join(dir, 'do-readme.ts'), readmeWorker());
  const compilerOptions = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', exactOptionalPropertyTypes: true, noImplicitOverride: true };
  fs.writeFileSync(path.join(dir, 'tsconfig.do.json'), JSON.stringify({ compilerOptions, files: ['do-consumer.ts', 'do-readme.ts'] }));
  const tsc = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  const outcome = await new Promise((resolve) => execFile(process.execPath, [tsc, '-p', 'tsconfig.do.json', '--pretty', 'false'], { cwd: dir, encoding: 'utf8' }, (err, stdout) => resolve({ err, stdout })));
  assert.equal(outcome.err, null, `tsc failed:\n${outcome.stdout}`);
});

test("the repository README's Durable Object snippet runs as written: TaskClient answers its task's input and gets the result", { timeout: 30_000 }, async () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('Cloudflare Durable Objects (one object per session or tenant'));
  const start = section.indexOf('```js\n') + 6;
  const snippet = await startWorker({ pkg: worker.pkg, source: section.slice(start, section.indexOf('\n```\n', start) + 1), bindings: { DRAFTS: 'Drafts' } });
  try {
    const client = new mod.TaskClient(new Transport2(new URL('/mcp', snippet.url)), { capabilities: CAPABILITIES, requestor: { pollFloorMs: 10 } });
    assert.equal(await client.connect(), '2026-07-28');
    try {
      const asked = [];
      const { result, status } = await client.callTool('draft', { topic: 'dunes' }, {
        task: true,
        onInputRequest: (request) => {
          asked.push(request.params.message);
          return { action: 'accept', content: { tone: 'dry' } };
        },
      });
      assert.deepEqual(asked, ['Which tone?']);
      assert.equal(status, 'completed');
      assert.equal(textOf(result), 'A dry note on dunes');
    } finally {
      await client.close();
    }
  } finally {
    await snippet.dispose();
  }
});

const CHECKS = `
import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';

export class Work extends TaskEngineObject {
  #seen = [];
  tools() {
    return { fails: { taskSupport: 'required' }, waits: { taskSupport: 'required' } };
  }
  async execute(task, work) {
    if (work.request.params.name === 'fails') throw Object.assign(new Error('backend down'), { code: -32050, data: { retry: true } });
    try {
      await work.elicit({ mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
    } catch (err) {
      this.#seen.push({ aborted: work.signal.aborted, name: err.name });
      throw err;
    }
  }
  async fetch(request) {
    return new URL(request.url).pathname === '/seen' ? Response.json(this.#seen) : super.fetch(request);
  }
}
export class BadPolicy extends TaskEngineObject {
  tools() { return { x: { taskSupport: 'sometimes' } }; }
}
export class Twice extends TaskEngineObject {
  engineOptions() { return { tools: { x: 'required' } }; }
  tools() { return { x: { taskSupport: 'optional' } }; }
}
export default {
  async fetch(request, env) {
    try {
      return await routeToTaskObject(request, env[request.headers.get('x-binding')]);
    } catch (err) {
      return new Response(String(err && err.message), { status: 500 });
    }
  },
};
`;

test("the work's throw fails its task with its JSON-RPC error; a cancel aborts its signal and its input request; bad tools() refused at start", { timeout: 30_000 }, async () => {
  const checks = await startWorker({ prefix: 'mcp-task-core-do-checks-', source: CHECKS, bindings: { WORK: 'Work', BAD: 'BadPolicy', TWICE: 'Twice' } });
  try {
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { ...CAPABILITIES, extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    const call = async (binding, method, params) => {
      const res = await fetch(new URL('/mcp', checks.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-binding': binding, 'mcp-name': params.taskId ?? params.name },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
      });
      return { status: res.status, text: await res.text() };
    };
    const rpc = async (method, params) => JSON.parse((await call('WORK', method, params)).text);
    const until = async (what, check) => {
      for (const end = Date.now() + 5000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (await check()) return;
      assert.fail(`timed out waiting for ${what}`);
    };

    const failing = (await rpc('tools/call', { name: 'fails', arguments: {} })).result.taskId;
    let got;
    await until('the failed task', async () => (got = (await rpc('tasks/get', { taskId: failing })).result).status === 'failed');
    assertValidIn('extension', 'FailedTask', got, 'tasks/get of the failed task');
    assert.deepEqual(got.error, { code: -32050, message: 'backend down', data: { retry: true } });

    const waiting = (await rpc('tools/call', { name: 'waits', arguments: {} })).result.taskId;
    await until('input_required', async () => (await rpc('tasks/get', { taskId: waiting })).result.status === 'input_required');
    await rpc('tasks/cancel', { taskId: waiting });
    const seen = async () => (await fetch(new URL('/seen', checks.url), { headers: { 'x-binding': 'WORK' } })).json();
    await until("the work's rejection", async () => (await seen()).length === 1);
    assert.deepEqual(await seen(), [{ aborted: true, name: 'AbortError' }]);
    assert.equal((await rpc('tasks/get', { taskId: waiting })).result.status, 'cancelled');

    // A client that did not declare elicitation: the work's request is refused with -32021 (nothing sent).
    meta['io.modelcontextprotocol/clientCapabilities'] = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const undeclared = (await rpc('tools/call', { name: 'waits', arguments: {} })).result.taskId;
    await until('the refused input request', async () => (got = (await rpc('tasks/get', { taskId: undeclared })).result).status === 'failed');
    assert.equal(got.error.code, -32021);
    assert.deepEqual(got.error.data.requiredCapabilities, { elicitation: { form: {} } });
    assert.deepEqual((await seen())[1], { aborted: false, name: 'McpError' });

    const bad = await call('BAD', 'tools/list', {});
    assert.equal(bad.status, 500);
    assert.match(bad.text, /tools\(\)\["x"\]: .*taskSupport/);
    const twice = await call('TWICE', 'tools/list', {});
    assert.equal(twice.status, 500);
    assert.match(twice.text, /tools\(\): "x" is also in engineOptions\(\)\.tools/);
  } finally {
    await checks.dispose();
  }
});
