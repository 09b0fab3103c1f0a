// `mcp-task-core/server` as it ships: in the npm package with its exports entry, the CommonJS
// twin generated from server.js, no SDK at runtime (a peer dependency), a CommonJS round trip
// through the SDK 2.x, and its types checked with tsc against the SDK's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR } from '../helpers/package.mjs';
import { installWithSdk2 } from './harness.mjs';

const run = promisify(execFile);
let pkg;
before(() => {
  pkg = installWithSdk2('mcp-task-core-server-pkg-');
});
after(() => pkg?.cleanup());

const read = (file) => fs.readFileSync(path.join(pkg.installed, file), 'utf8');

test('the ./server export: files, exports map, optional peer dependency, generated CommonJS twin, no SDK at runtime', () => {
  for (const f of ['adapters/sdk-v2.js', 'adapters/sdk-v2.cjs', 'types/server.d.ts', 'types/server.d.cts']) assert.ok(pkg.files.includes(f), `${f} is in the npm package`);
  const entry = pkg.packageJson.exports['./server'];
  assert.deepEqual(entry.types, { require: './types/server.d.cts', default: './types/server.d.ts' });
  assert.deepEqual(entry.node, { import: './adapters/sdk-v2.js', require: './adapters/sdk-v2.cjs' });
  assert.equal(pkg.packageJson.peerDependencies['@modelcontextprotocol/server'], '>=2.4 <3');
  assert.deepEqual(pkg.packageJson.peerDependenciesMeta['@modelcontextprotocol/server'], { optional: true });
  const cjs = read('adapters/sdk-v2.cjs');
  assert.match(cjs, /^'use strict';\n\/\/ Generated from pkg-template\/adapters\/sdk-v2\.js/);
  for (const name of ['TasksExtension', 'TaskContext', 'TaskHandle', 'TaskProtocolError']) {
    assert.match(cjs, new RegExp(`\\b${name}: \\(\\) => ${name}\\b`), `server.cjs exports ${name}`);
  }
  const code = (src) => src.replace(/^\s*\/\/.*$/gm, '');
  assert.deepEqual([...code(read('adapters/sdk-v2.js')).matchAll(/^\s*import\b.*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]), ['mcp-task-core/receiver', '../core/errors.js', '../storage/storage.js', '../runtime/runtime.js', '../core/protocol.js', './sdk-v2-fast-path.js', '../runtime/telemetry.js', '../runtime/companion.js', '../runtime/recycle.js']);
  assert.deepEqual([...code(cjs).matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]), ['mcp-task-core/receiver', '../core/errors.cjs', '../storage/storage.cjs', '../runtime/runtime.cjs', '../core/protocol.cjs', './sdk-v2-fast-path.cjs', '../runtime/telemetry.cjs', '../runtime/companion.cjs', '../runtime/recycle.cjs']);
  // The fast path imports the SDK only when a host calls fastPath (the host has it then).
  const fast = code(read('adapters/sdk-v2-fast-path.js'));
  assert.deepEqual([...fast.matchAll(/^\s*import\b.*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]), ['../core/protocol.js']);
  assert.deepEqual([...fast.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]), ['@modelcontextprotocol/server']);
  assert.ok(pkg.files.includes('adapters/sdk-v2-fast-path.js') && pkg.files.includes('adapters/sdk-v2-fast-path.cjs'), 'the fast path and its CommonJS twin are in the npm package');
  assert.equal(read('types/server.d.cts').split('\n').slice(1).join('\n'), read('types/server.d.ts'), 'server.d.cts is server.d.ts');
});

test('require("mcp-task-core/server") with the SDK 2.x in CommonJS: a task from tools/call to tasks/get', { timeout: 30_000 }, async () => {
  const script = `
const { TasksExtension } = require('mcp-task-core/server');
const { McpServer, createMcpHandler } = require('@modelcontextprotocol/server');
const z = require('zod');
const tasks = new TasksExtension();
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'cjs', version: '1.0.0' });
  tasks.install(server);
  tasks.registerTool(server, 'echo', { taskSupport: 'required', inputSchema: z.object({ said: z.string() }) }, async ({ said }) => ({ content: [{ type: 'text', text: said }] }));
  return server;
});
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
const call = async (method, params, name) => {
  const r = await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }) }));
  return (await r.json()).result;
};
(async () => {
  const created = await call('tools/call', { name: 'echo', arguments: { said: 'from cjs' } }, 'echo');
  await new Promise((r) => setTimeout(r, 20));
  const done = await call('tasks/get', { taskId: created.taskId }, created.taskId);
  console.log(JSON.stringify([created.resultType, done.status, done.result.content[0].text]));
})().catch((e) => { console.error(e); process.exit(1); });
`;
  fs.writeFileSync(path.join(pkg.dir, 'round-trip.cjs'), script);
  const { stdout } = await run(process.execPath, ['round-trip.cjs'], { cwd: pkg.dir });
  assert.deepEqual(JSON.parse(stdout), ['task', 'completed', 'from cjs']);
});

test('tsc --noEmit: a TypeScript consumer of mcp-task-core/server with the SDK 2.x types (strict)', { timeout: 90_000 }, async () => {
  fs.copyFileSync(path.join(JS_TESTS_DIR, 'types', 'consumer-server.ts'), path.join(pkg.dir, 'consumer-server.ts'));
  fs.writeFileSync(path.join(pkg.dir, 'broken-server.ts'), "import { TasksExtension } from 'mcp-task-core/server';\nnew TasksExtension().cancel(42);\n");
  // skipLibCheck stays off so server.d.ts is checked; the SDK's own .d.ts name Node's Buffer
  // (no @types/node here), so errors located in the SDK's files are set aside.
  const tsc = async (files) => {
    const config = path.join(pkg.dir, 'tsconfig.server.json');
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [], module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false };
    fs.writeFileSync(config, JSON.stringify({ compilerOptions, files }, null, 2));
    try {
      await run(process.execPath, [path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--pretty', 'false'], { cwd: pkg.dir });
      return [];
    } catch (err) {
      const errors = String(err.stdout).split('\n').filter((l) => / error TS\d+/.test(l));
      assert.ok(errors.length > 0, `tsc failed without diagnostics:\n${err.stdout}${err.stderr}`);
      return errors.filter((l) => !l.includes('node_modules/@modelcontextprotocol/'));
    }
  };
  // One tsc run for both files: the consumer must check clean, the broken file must not.
  const errors = await tsc(['consumer-server.ts', 'broken-server.ts']);
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0], /^broken-server\.ts\(2,.*TS2345/, 'a type error in a consumer is caught, and only that one');
});
