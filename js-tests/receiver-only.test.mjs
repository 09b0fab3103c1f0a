// `mcp-task-core/receiver`: the receiver-only build (its own, smaller .wasm, no requestor), as a
// server imports it. In Node (ESM and CommonJS), headless Chromium and workerd it resolves to
// its own entry (the exports map's conditions), loads only the receiver .wasm, and answers a
// task-augmented tools/call and a tasks/get that validate against the schema. The SDK adapters
// (mcp-task-core/sdk, mcp-task-core/server) load it and nothing else. Its types check with tsc,
// and name no requestor.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { withChromium } from './helpers/browser.mjs';
import { JS_TESTS_DIR, installPackage } from './helpers/package.mjs';
import { ExchangeValidator } from './helpers/schema.mjs';
import { withWorkerd } from './helpers/workerd.mjs';

const run = promisify(execFile);
const EXPORTS = ['TaskEngine', 'TextTaskEngine', 'drainOutputs', 'freshInstance', 'handleObject', 'init', 'setRandomSource'];
const RECEIVER_WASM = 'receiver-web/mcp_task_core_receiver_bg.wasm';

let pkg;
before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-receiver-only-' });
});
after(() => pkg?.cleanup());

/** What every runtime does with the imported `mcp-task-core/receiver` (`mcp`). */
async function createAndGet(mcp) {
  await mcp.init();
  const cursorKey = '000102030405060708090a0b0c0d0e0f';
  const engine = new mcp.TextTaskEngine({ now: () => 1_764_000_000_000, tools: { slow: 'required' }, cursorKey });
  const create = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {}, task: { ttl: 60_000 } } });
  const created = engine.handle(create, 'alice');
  const taskId = JSON.parse(created).result.task.taskId;
  const outputs = mcp.drainOutputs(engine).map((o) => o.kind);
  const get = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } });
  const got = engine.handle(get, 'alice');
  const objects = new mcp.TaskEngine({ now: () => 1_764_000_000_000 });
  const listed = objects.handle({ jsonrpc: '2.0', id: 3, method: 'tasks/list', params: {} }, 'bob');
  // The same task in an engine of a fresh instance (a memory of its own), restored from a snapshot.
  const fresh = mcp.freshInstance();
  const moved = new fresh.TextTaskEngine({ now: () => 1_764_000_000_000, tools: { slow: 'required' }, cursorKey });
  const restored = moved.restoreSnapshot(engine.snapshot());
  const instance = { restored, same: moved.handle(get, 'alice') === got, ownMemory: fresh.memory instanceof WebAssembly.Memory && fresh.memory !== mcp.freshInstance().memory };
  return { exports: Object.keys(mcp).sort(), exchange: [create, created, get, got], outputs, listed, instance };
}

function assertRun(result) {
  assert.deepEqual(result.exports, EXPORTS, 'the receiver, and no requestor');
  const v = new ExchangeValidator();
  const [create, created, get, got] = result.exchange;
  v.incoming(create, 'alice');
  assert.equal(v.outgoing(created).result.task.status, 'working');
  v.incoming(get, 'alice');
  assert.equal(v.outgoing(got).result.status, 'working');
  assert.deepEqual(result.outputs, ['execute']);
  assert.deepEqual(result.listed, { jsonrpc: '2.0', id: 3, result: { tasks: [] } });
  assert.deepEqual(result.instance, { restored: 1, same: true, ownMemory: true });
}

/** A Node child that records every .wasm file read while it runs `body` (a module's source). */
async function wasmReadBy(body, { cjs = false } = {}) {
  const file = path.join(pkg.dir, `probe-wasm-${Math.random().toString(36).slice(2)}.${cjs ? 'cjs' : 'mjs'}`);
  const record = `const fs = ${cjs ? "require('node:fs')" : "(await import('node:fs')).default"};
const path = ${cjs ? "require('node:path')" : "(await import('node:path')).default"};
const root = ${JSON.stringify(fs.realpathSync(pkg.installed))};
const read = fs.readFileSync;
const wasmRead = [];
fs.readFileSync = function (p, ...rest) {
  const name = String(p instanceof URL ? p.pathname : p);
  if (name.endsWith('.wasm')) wasmRead.push(path.relative(root, path.resolve(name)));
  return read.call(this, p, ...rest);
};
${cjs ? "require('node:module')" : "(await import('node:module')).default"}.syncBuiltinESMExports();`;
  const source = cjs ? `${record}\n(async () => {\n${body}\nconsole.log(JSON.stringify({ wasmRead, out }));\n})();` : `${record}\n${body}\nconsole.log(JSON.stringify({ wasmRead, out }));`;
  fs.writeFileSync(file, source);
  const { stdout } = await run(process.execPath, [file], { cwd: pkg.dir });
  return JSON.parse(stdout);
}

test('Node ESM: mcp-task-core/receiver resolves to the receiver-only entry, reads only its .wasm, and answers tasks', async () => {
  const probe = path.join(pkg.dir, 'probe-receiver.mjs');
  fs.writeFileSync(probe, "export * as mcp from 'mcp-task-core/receiver';\nexport const entry = import.meta.resolve('mcp-task-core/receiver');\n");
  const { mcp, entry } = await import(pathToFileURL(probe).href);
  assert.equal(entry, pathToFileURL(path.join(pkg.installed, 'entries/receiver.node.mjs')).href);
  // Its glue loads the receiver-only .wasm, the one copy in receiver-web/.
  const glue = fs.readFileSync(path.join(pkg.installed, 'receiver-node-esm/mcp_task_core_receiver.js'), 'utf8');
  assert.match(glue, /new URL\(['"]\.\.\/receiver-web\/mcp_task_core_receiver_bg\.wasm['"], import\.meta\.url\)/);
  assertRun(await createAndGet(mcp));
  const { wasmRead } = await wasmReadBy("const mcp = await import('mcp-task-core/receiver');\nconst out = Object.keys(mcp).length;");
  assert.deepEqual(wasmRead, [RECEIVER_WASM]);
});

test('Node CommonJS: require("mcp-task-core/receiver") is the receiver-only entry and answers tasks', async () => {
  const { wasmRead, out } = await wasmReadBy(
    `const mcp = require('mcp-task-core/receiver');
const out = { entry: require.resolve('mcp-task-core/receiver'), run: await (${createAndGet.toString()})(mcp) };`,
    { cjs: true },
  );
  assert.equal(out.entry, path.join(fs.realpathSync(pkg.installed), 'entries/receiver.node.cjs'));
  assertRun(out.run);
  assert.deepEqual(wasmRead, [RECEIVER_WASM]);
});

test('the SDK adapters load the receiver-only .wasm, and only it (ESM and CommonJS)', async () => {
  const store = `const { WasmTaskStore } = await import('mcp-task-core/sdk');
const store = new WasmTaskStore();
const task = await store.createTask({ ttl: 60000 }, 1, { method: 'tools/call', params: { name: 'x' } });
const out = task.status;
store.cleanup();`;
  assert.deepEqual(await wasmReadBy(store), { wasmRead: [RECEIVER_WASM], out: 'working' });
  assert.deepEqual(await wasmReadBy(store.replace("await import('mcp-task-core/sdk')", "require('mcp-task-core/sdk')"), { cjs: true }), {
    wasmRead: [RECEIVER_WASM],
    out: 'working',
  });
});

test('Chromium: mcp-task-core/receiver (browser condition) fetches only the receiver .wasm and answers tasks', { timeout: 90_000 }, async () => {
  const browserEntry = pkg.packageJson.exports['./receiver'].browser;
  const page = `<!doctype html><meta charset="utf-8"><title>receiver only</title>
<script type="importmap">${JSON.stringify({ imports: { 'mcp-task-core/receiver': `/pkg/${browserEntry.replace(/^\.\//, '')}` } })}</script>
<script type="module">
  import * as mcp from 'mcp-task-core/receiver';
  ${createAndGet.toString()}
  // Before init(): each wasm-backed export says to await init(), not a bindings TypeError.
  const codeOf = (call) => { try { call(); return 'no error'; } catch (err) { return err.code; } };
  window.early = [codeOf(() => new mcp.TaskEngine()), codeOf(() => new mcp.TextTaskEngine()), codeOf(() => mcp.setRandomSource(undefined)), codeOf(() => mcp.freshInstance())];
  window.run = () => createAndGet(mcp);
</script>`;
  const wasmFetched = [];
  const result = await withChromium(
    async (p, baseUrl) => {
      p.on('request', (r) => r.url().endsWith('.wasm') && wasmFetched.push(new URL(r.url()).pathname));
      await p.goto(`${baseUrl}/index.html`);
      await p.waitForFunction(() => typeof window.run === 'function');
      return { early: await p.evaluate(() => window.early), run: await p.evaluate(() => window.run()) };
    },
    { mounts: { '/pkg/': pkg.installed }, files: { '/index.html': page } },
  );
  assert.deepEqual(result.early, ['not_initialized', 'not_initialized', 'not_initialized', 'not_initialized']);
  assertRun(result.run);
  assert.deepEqual(wasmFetched, [`/pkg/${RECEIVER_WASM}`], 'only the receiver-only .wasm');
});

test('workerd: the receiver-only entry (workerd condition) instantiates and answers tasks', { timeout: 120_000 }, async () => {
  const entry = pkg.packageJson.exports['./receiver'].workerd;
  const script = `import * as mcp from ${JSON.stringify(entry)};
${createAndGet.toString()}
export default { async fetch() { return Response.json(await createAndGet(mcp)); } };`;
  const body = await withWorkerd({ script, pkgDir: pkg.installed }, async (url) => (await fetch(url)).json());
  assertRun(body);
});

const CONSUMER = `import { init, drainOutputs, freshInstance, setRandomSource, TaskEngine, TextTaskEngine, type TaskEngineOptions, type Task } from 'mcp-task-core/receiver';
// @ts-expect-error the receiver-only entry has no requestor
import { TextTaskRequestor } from 'mcp-task-core/receiver';
export async function start(options: TaskEngineOptions): Promise<Task | null> {
  await init();
  setRandomSource(undefined);
  const text = new TextTaskEngine(options);
  const engine = new TaskEngine(options);
  const reply: string | null = text.handle('{}');
  void reply;
  void drainOutputs(engine);
  void TextTaskRequestor;
  const fresh = freshInstance();
  const moved: TextTaskEngine = new fresh.TextTaskEngine({ ...options, cursorKey: '000102030405060708090a0b0c0d0e0f' });
  const pages: number = fresh.memory.buffer.byteLength;
  void [moved, pages];
  return engine.getTask('t');
}
`;

test('types: mcp-task-core/receiver checks with tsc --strict (nodenext ESM and CommonJS, bundler resolution)', { timeout: 90_000 }, async () => {
  const tsc = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  fs.writeFileSync(path.join(pkg.dir, 'receiver-consumer.ts'), CONSUMER);
  fs.writeFileSync(path.join(pkg.dir, 'receiver-consumer.cts'), CONSUMER);
  const configs = [
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, 'receiver-consumer.ts'],
    ['nodenext-cjs', { module: 'nodenext', moduleResolution: 'nodenext' }, 'receiver-consumer.cts'],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, 'receiver-consumer.ts'],
  ];
  for (const [name, options, file] of configs) {
    const config = path.join(pkg.dir, `tsconfig.receiver-${name}.json`);
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [], skipLibCheck: false, ...options };
    fs.writeFileSync(config, JSON.stringify({ compilerOptions, files: [file] }));
    await run(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: pkg.dir }).catch((err) =>
      assert.fail(`tsc (${name}) failed:\n${err.stdout}${err.stderr}`),
    );
  }
});
