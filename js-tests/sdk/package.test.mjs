// `mcp-task-core/sdk` as it ships: the npm-packed package installed into a scratch project next
// to the SDK, used through the "./sdk" export from ESM and CommonJS, type-checked with tsc
// against the SDK's TaskStore / TaskMessageQueue, and run in headless Chromium and workerd
// (no node:crypto, lazy wasm init).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { withChromium } from '../helpers/browser.mjs';
import { REPO_ROOT, installPackage } from '../helpers/package.mjs';
import { withWorkerd } from '../helpers/workerd.mjs';
import { PKG_DIR } from './harness.mjs';

const JS_TESTS = path.join(REPO_ROOT, 'js-tests');
let pkg;
let tmp;
let installed;

before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-sdk-' });
  ({ dir: tmp, installed } = pkg);
  for (const f of ['adapters/sdk-v1.js', 'adapters/sdk-v1.cjs', 'types/sdk.d.ts', 'types/sdk.d.cts']) assert.ok(pkg.files.includes(f), `${f} is in the npm package`);
  // The peer dependency, as the user's project would have it.
  fs.mkdirSync(path.join(tmp, 'node_modules', '@modelcontextprotocol'));
  fs.symlinkSync(path.join(JS_TESTS, 'node_modules', '@modelcontextprotocol', 'sdk'), path.join(tmp, 'node_modules', '@modelcontextprotocol', 'sdk'), 'dir');
});

after(() => pkg?.cleanup());

const source = (file) => ({ src: fs.readFileSync(path.join(PKG_DIR, file), 'utf8') });

test('the SDK 1.x adapter\'s CommonJS twin is generated from it, and neither loads anything but the engine, the storage loop and the shared helpers', () => {
  const esm = source('adapters/sdk-v1.js');
  const cjs = source('adapters/sdk-v1.cjs');
  assert.match(cjs.src, /^'use strict';\n\/\/ Generated from pkg-template\/adapters\/sdk-v1\.js/, 'sdk.cjs is the generated twin');
  // The twin exports what the ES module does (read from the source, not from a converter's layout).
  const exported = [...esm.src.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]);
  const listed = [...esm.src.matchAll(/^export \{([^}]+)\}/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim()).filter(Boolean));
  assert.ok(exported.length + listed.length >= 2);
  for (const name of [...exported, ...listed]) assert.match(cjs.src, new RegExp(`\\b${name}: \\(\\) => ${name}\\b`), `sdk.cjs exports ${name}`);
  // Code without comments (type annotations name the SDK: types only).
  const code = (src) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const imports = [...code(esm.src).matchAll(/^\s*import\b.*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  const requires = [...code(cjs.src).matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
  requires.sort();
  assert.deepEqual(imports, ['mcp-task-core/receiver', '../storage/storage.js', '../runtime/runtime.js', '../core/errors.js', '../core/protocol.js', '../runtime/telemetry.js', '../runtime/companion.js', '../runtime/recycle.js']);
  assert.deepEqual(requires, ['../core/errors.cjs', '../core/protocol.cjs', '../runtime/companion.cjs', '../runtime/recycle.cjs', '../runtime/runtime.cjs', '../runtime/telemetry.cjs', '../storage/storage.cjs', 'mcp-task-core/receiver']);
  // The runtime loads the engine helpers only.
  assert.deepEqual([...code(source('runtime/runtime.js').src).matchAll(/^\s*import\b.*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]), ['../core/engine.js', '../core/protocol.js', './telemetry.js']);
  // The storage loop (mcp-task-core/storage) loads the engine helpers and the error conventions only.
  assert.deepEqual([...code(source('storage/storage.js').src).matchAll(/^\s*import\b.*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]), ['../core/engine.js', '../core/errors.js', '../core/protocol.js']);
  assert.deepEqual([...code(source('storage/storage.cjs').src).matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]), ['../core/engine.cjs', '../core/errors.cjs', '../core/protocol.cjs']);
  for (const { src } of [esm, cjs, source('storage/storage.js'), source('runtime/runtime.js')]) {
    assert.doesNotMatch(code(src), /node:|\bcrypto\b/, 'no Node built-ins');
  }
  // The SDK only as the optional run-time hook of propagateByDefault (in Node, where the SDK
  // installed beside the package loads; nothing is bundled): named once, in a constant.
  for (const { src } of [esm, cjs]) {
    assert.deepEqual([...code(src).matchAll(/@modelcontextprotocol\/sdk\/[^'"]*/g)].map((m) => m[0]), ['@modelcontextprotocol/sdk/shared/protocol.js']);
  }
  assert.doesNotMatch(code(source('storage/storage.js').src), /@modelcontextprotocol/);
  const pkg = JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8'));
  // 1.24.0 is the first SDK release with experimental tasks (TaskStore); 1.23.x has none.
  assert.equal(pkg.peerDependencies['@modelcontextprotocol/sdk'], '>=1.24 <2');
  // Optional: an install for the engine or the requestor alone pulls no SDK.
  assert.deepEqual(pkg.peerDependenciesMeta['@modelcontextprotocol/sdk'], { optional: true });
  assert.equal(pkg.dependencies?.['@modelcontextprotocol/sdk'], undefined);
});

// A full round trip (task tool, tasks/get, tasks/result, JSON-RPC error replay) through the
// package export, in the module system of `ext`.
const ROUND_TRIP = {
  mjs: `
import { WasmTaskStore, WasmTaskMessageQueue } from 'mcp-task-core/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
`,
  cjs: `
const { WasmTaskStore, WasmTaskMessageQueue } = require('mcp-task-core/sdk');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { CallToolResultSchema, CreateTaskResultSchema, McpError } = require('@modelcontextprotocol/sdk/types.js');
`,
};
const ROUND_TRIP_BODY = `
(async () => {
  const taskStore = new WasmTaskStore();
  const taskMessageQueue = new WasmTaskMessageQueue({ taskStore });
  const server = new McpServer({ name: 's', version: '1' }, {
    capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue });
  const tool = (fail) => ({
    createTask: async (extra) => {
      const task = await extra.taskStore.createTask({ ttl: 60000, pollInterval: 5 });
      setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, fail ? 'failed' : 'completed',
        fail ? new McpError(-32011, 'nope', { why: 1 }) : { content: [{ type: 'text', text: 'ok' }] }), 5);
      return { task };
    },
    getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  server.experimental.tasks.registerToolTask('good', {}, tool(false));
  server.experimental.tasks.registerToolTask('bad', {}, tool(true));
  const client = new Client({ name: 'c', version: '1' });
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  await client.connect(ct);
  const out = {};
  for (const name of ['good', 'bad']) {
    const { task } = await client.request({ method: 'tools/call', params: { name, arguments: {}, task: { ttl: 1000 } } }, CreateTaskResultSchema);
    try {
      out[name] = (await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).content[0].text;
    } catch (e) {
      out[name] = { code: e.code, data: e.data };
    }
    out[name + 'Status'] = (await client.experimental.tasks.getTask(task.taskId)).status;
  }
  await client.close();
  await server.close();
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

for (const ext of ['mjs', 'cjs']) {
  test(`node ${ext === 'mjs' ? 'ESM import' : 'CommonJS require'} of mcp-task-core/sdk drives the SDK`, () => {
    const file = path.join(tmp, `round-trip.${ext}`);
    fs.writeFileSync(file, ROUND_TRIP[ext] + ROUND_TRIP_BODY);
    const out = JSON.parse(execFileSync(process.execPath, [file], { cwd: tmp, encoding: 'utf8', timeout: 30_000 }));
    assert.deepEqual(out, {
      good: 'ok',
      goodStatus: 'completed',
      bad: { code: -32011, data: { why: 1 } },
      badStatus: 'failed',
    });
  });
}

test('types: tsc accepts the stores as the SDK\u2019s TaskStore / TaskMessageQueue (ESM and CJS)', () => {
  const check = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TaskMessageQueue, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { JSONRPC_ERROR_META_KEY, JsonRpcError, TaskStoreError, WasmTaskMessageQueue, WasmTaskStore, jsonRpcErrorResult, propagateTaskCreationErrors } from 'mcp-task-core/sdk';
import type { WasmTaskStoreAllSessions } from 'mcp-task-core/sdk';

const store = new WasmTaskStore({ defaultTtlMs: 1000, maxTtlMs: 2000, pollIntervalMs: 50, pageSize: 10, limits: { maxRunningTasksPerKey: 5 }, now: () => Date.now(), timer: false });
const taskStore: TaskStore = store;
const taskMessageQueue: TaskMessageQueue = new WasmTaskMessageQueue({ taskStore: store, maxMessagesPerTask: 10 });
const capabilities = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
const server: McpServer = propagateTaskCreationErrors(new McpServer({ name: 's', version: '1' }, { taskStore, taskMessageQueue, capabilities }));
new Server({ name: 's', version: '1' }, { taskStore: new WasmTaskStore(), capabilities });
new Client({ name: 'c', version: '1' }, { taskStore: new WasmTaskStore(), taskMessageQueue: new WasmTaskMessageQueue() });
server.experimental.tasks.registerToolTask('t', {}, {
  createTask: async (extra) => {
    const task = await extra.taskStore.createTask({ ttl: 1000 });
    await extra.taskStore.storeTaskResult(task.taskId, 'failed', jsonRpcErrorResult(new Error('x')));
    return { task };
  },
  getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
  getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
});
const key: 'mcp-task-core/jsonrpc-error' = JSONRPC_ERROR_META_KEY;
const e = new JsonRpcError(-32602, 'x', { a: 1 });
const code: number = e.code;
const stop: () => void = store.onTaskExpired((id: string, sid: string | undefined) => void [id, sid]);
const n: number = store.size;
const all: WasmTaskStoreAllSessions = store.allSessions();
const seen: Promise<{ taskId: string } | null> = all.getTask('id');
const page: Promise<{ tasks: { status: string }[]; nextCursor?: string }> = all.listTasks();
void [key, code, stop, n, TaskStoreError, seen, page, all.updateTaskStatus('id', 'cancelled', 'stop'), all.storeTaskResult('id', 'completed', { content: [] })];
new WasmTaskStore({ limits: { maxRunningTasksPerKey: null, maxRunningTasksTotal: 100_000, maxResultBytes: null } });
// @ts-expect-error the view takes no session ID
all.getTask('id', 'session');
// @ts-expect-error the options are typed
new WasmTaskStore({ defaultTtlMs: 'soon' });
`;
  fs.writeFileSync(path.join(tmp, 'check.mts'), check);
  fs.writeFileSync(
    path.join(tmp, 'check.cts'),
    `import { WasmTaskStore, WasmTaskMessageQueue } from 'mcp-task-core/sdk';
import type { TaskMessageQueue, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
const s: TaskStore = new WasmTaskStore({ maxTtlMs: 10 });
const q: TaskMessageQueue = new WasmTaskMessageQueue();
export = [s, q];
`,
  );
  const tsc = path.join(JS_TESTS, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
  const run = (flags, files) => {
    try {
      execFileSync(process.execPath, [tsc, ...flags, ...files], { cwd: tmp, encoding: 'utf8', timeout: 60_000 });
    } catch (err) {
      assert.fail(`tsc failed:\n${err.stdout}${err.stderr}`);
    }
  };
  // --skipLibCheck keeps the run short (the SDK's and zod's .d.ts are big) but would skip our
  // declaration files too: copies of them are checked as sources in the same run.
  fs.copyFileSync(path.join(installed, 'types/sdk.d.ts'), path.join(tmp, 'sdk-decl.mts'));
  fs.copyFileSync(path.join(installed, 'types/sdk.d.cts'), path.join(tmp, 'sdk-decl.cts'));
  run(args, ['check.mts', 'check.cts', 'sdk-decl.mts', 'sdk-decl.cts']);
});

// The store, exercised the way the SDK calls it, in any runtime (browser page or worker).
const RUNTIME_EXERCISE = `
async function exercise(WasmTaskStore, WasmTaskMessageQueue) {
  const store = new WasmTaskStore();            // no init(): the first call loads the wasm
  const queue = new WasmTaskMessageQueue({ taskStore: store });
  const req = { method: 'tools/call', params: { name: 'x' } };
  const t = await store.createTask({ ttl: 60000, pollInterval: 20 }, 1, req, 'A');
  const out = { created: t.status, pollInterval: t.pollInterval, otherSession: await store.getTask(t.taskId, 'B') };
  await store.updateTaskStatus(t.taskId, 'input_required', 'question', 'A');
  await queue.enqueue(t.taskId, { type: 'request', message: { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: {} }, timestamp: 1 }, 'A');
  out.dequeued = (await queue.dequeue(t.taskId, 'A')).message.method;
  const err = Object.assign(new Error('Quota exceeded'), { code: -32011, data: { retry: true } });
  await store.storeTaskResult(t.taskId, 'failed', err, 'A');
  try { await store.getTaskResult(t.taskId, 'A'); out.replay = 'no error'; }
  catch (e) { out.replay = { name: e.name, code: e.code, message: e.message, data: e.data }; }
  const z = await store.createTask({ ttl: 0 }, 2, req, 'A');
  out.zeroGone = (await store.getTask(z.taskId, 'A')) === null;
  out.listed = (await store.listTasks(undefined, 'A')).tasks.map((x) => x.status);
  out.allSessions = [(await store.allSessions().getTask(t.taskId)).status, (await store.getTask(t.taskId)) === null];
  store.cleanup();
  return out;
}`;
const EXPECTED_RUNTIME = {
  created: 'working',
  pollInterval: 20,
  otherSession: null,
  dequeued: 'elicitation/create',
  replay: { name: 'JsonRpcError', code: -32011, message: 'Quota exceeded', data: { retry: true } },
  zeroGone: true,
  listed: ['failed'],
  allSessions: ['failed', true],
};

test('headless Chromium: the receiver-only browser build, initialised lazily by the store', { timeout: 120_000 }, async () => {
  const page = `<!doctype html><script type="importmap">{"imports":{"mcp-task-core/receiver":"/pkg/entries/receiver.browser.js"}}</script>
<script type="module">
import { WasmTaskStore, WasmTaskMessageQueue } from '/pkg/adapters/sdk-v1.js';
${RUNTIME_EXERCISE}
exercise(WasmTaskStore, WasmTaskMessageQueue).then((r) => { window.__result = r; }, (e) => { window.__result = { error: String(e && e.stack || e) }; });
</script>`;
  const wasmFetched = [];
  const result = await withChromium(
    async (p, baseUrl) => {
      p.on('request', (r) => r.url().endsWith('.wasm') && wasmFetched.push(new URL(r.url()).pathname));
      await p.goto(`${baseUrl}/t.html`);
      await p.waitForFunction(() => window.__result !== undefined);
      return p.evaluate(() => window.__result);
    },
    { files: { '/t.html': page }, mounts: { '/pkg/': installed } },
  );
  assert.deepEqual(result, EXPECTED_RUNTIME);
  // The store needs only the engine: the page loads the receiver-only .wasm and nothing else.
  assert.deepEqual(wasmFetched, ['/pkg/receiver-web/mcp_task_core_receiver_bg.wasm']);
});

test('workerd: the same code in a Worker (engine via the "workerd" build)', { timeout: 120_000 }, async () => {
  // The adapter imports 'mcp-task-core/receiver', which the helper maps to the package's workerd receiver entry.
  const script = `import { WasmTaskStore, WasmTaskMessageQueue } from './adapters/sdk-v1.js';
${RUNTIME_EXERCISE}
export default { async fetch() { return Response.json(await exercise(WasmTaskStore, WasmTaskMessageQueue)); } };
`;
  await withWorkerd({ script, pkgDir: installed }, async (url) => {
    const res = await fetch(url);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), EXPECTED_RUNTIME);
  });
});
