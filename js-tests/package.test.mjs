// The packed package itself (files, exports map, README), and self-checks of the test
// harness: the schema validator must reject wrong messages, and must refuse to run without
// the schema.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR, installPackage } from './helpers/package.mjs';
import { ExchangeValidator } from './helpers/schema.mjs';
import { exportResultTypes, NUMERIC_TYPES } from './helpers/wasm-exports.mjs';

const run = promisify(execFile);
let pkg;
before(() => {
  pkg = installPackage();
});
after(() => pkg?.cleanup());

test('the tarball holds the entries, builds, types, conveniences and the npm README', () => {
  for (const f of [
    'package.json', 'README.md', 'index.d.ts', 'index.d.cts', 'index.node.mjs', 'index.node.cjs', 'index.browser.js',
    'index.workerd.js', 'extras.js', 'extras.cjs', 'engine.js', 'engine.cjs', 'node-random.js', 'node-random.cjs', 'node-cjs/mcp_task_core.js',
    'node-cjs/package.json', 'node-esm/mcp_task_core.js', 'web/mcp_task_core.js',
    'web/mcp_task_core_bg.wasm', 'requestor-only.node.mjs', 'requestor-only.browser.js', 'requestor-only.workerd.js',
    'requestor-only.d.ts', 'requestor-node-esm/mcp_task_core_requestor.js', 'requestor-web/mcp_task_core_requestor.js',
    'receiver-only.node.mjs', 'receiver-only.node.cjs', 'receiver-only.browser.js', 'receiver-only.workerd.js', 'receiver-only.d.ts',
    'receiver-only.d.cts', 'receiver-node-cjs/mcp_task_core_receiver.js', 'receiver-node-cjs/package.json',
    'receiver-node-esm/mcp_task_core_receiver.js', 'receiver-web/mcp_task_core_receiver.js',
  ]) {
    assert.ok(pkg.files.includes(f), `${f} in the tarball`);
  }
  // One copy of each module (the full build, the requestor-only and the receiver-only builds), shared by its Node and web glue.
  assert.deepEqual(pkg.files.filter((f) => f.endsWith('.wasm')).sort(), [
    'receiver-web/mcp_task_core_receiver_bg.wasm',
    'requestor-web/mcp_task_core_requestor_bg.wasm',
    'web/mcp_task_core_bg.wasm',
  ]);
  const full = fs.readFileSync(path.join(pkg.installed, 'web/mcp_task_core_bg.wasm'));
  const requestorOnly = fs.readFileSync(path.join(pkg.installed, 'requestor-web/mcp_task_core_requestor_bg.wasm'));
  const receiverOnly = fs.readFileSync(path.join(pkg.installed, 'receiver-web/mcp_task_core_receiver_bg.wasm'));
  assert.ok(requestorOnly.length < full.length / 2, `requestor-only .wasm (${requestorOnly.length} B) under half the full one (${full.length} B)`);
  // The receiver-only build leaves the requestor out: smaller than the full one by at least a tenth.
  assert.ok(receiverOnly.length < full.length * 0.9, `receiver-only .wasm (${receiverOnly.length} B) under 90% of the full one (${full.length} B)`);
  const readme = fs.readFileSync(path.join(pkg.installed, 'README.md'), 'utf8');
  assert.match(readme, /npm install mcp-task-core/);
  assert.match(readme, /## Options/);
  assert.match(readme, /Cloudflare Workers/);
  // The CommonJS twin exports what the ES module does.
  const extras = createRequire(import.meta.url)(path.join(pkg.installed, 'extras.cjs'));
  assert.deepEqual(Object.keys(extras).sort(), ['codedError', 'drainOutputs', 'freshInstances', 'guardFreed', 'handleObject', 'notInitialized', 'refuseUnknownOptions', 'wasmLoader']);
});

// Each module loaded at start-up costs a resolve, a read and a parse (in a browser, a request):
// the wasm-bindgen glue takes in its inline JS snippets (scripts/bundle-glue.mjs).
test('each wasm-bindgen glue is one module: no snippets/ shipped, no relative JS import', () => {
  assert.deepEqual(pkg.files.filter((f) => f.includes('snippets/')), []);
  const glues = pkg.files.filter((f) => /^(?:[a-z-]+-)?(?:node-cjs|node-esm|web)\/mcp_task_core\w*\.js$/.test(f));
  assert.equal(glues.length, 8, `eight glue modules: ${glues.join(', ')}`);
  for (const f of glues) {
    const text = fs.readFileSync(path.join(pkg.installed, f), 'utf8');
    const relative = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|(?<![\w$])require\(\s*)(["'`])(\.[^"'`]*)\1/g)].map((m) => m[2]);
    assert.deepEqual(relative, [], `${f} imports no other module of the package`);
    assert.match(text, /^\/\/ wasm-bindgen's glue with its inline JS snippets/, `${f} was bundled`);
  }
});

// Node 20's V8 can abort the whole process ("Fatal error ... unreachable code" in
// Deoptimizer::DoComputeBuiltinContinuation) when it lazily deoptimises JS that inlined a call to
// a wasm export returning a reference while that call runs; the bench's store passes hit it in
// about a third of runs. The wasm32 builds leave reference types out (.cargo/config.toml), so
// wasm-bindgen hands JS values back as table indices.
test('no export of a shipped .wasm returns a reference', () => {
  for (const file of ['web/mcp_task_core_bg.wasm', 'requestor-web/mcp_task_core_requestor_bg.wasm', 'receiver-web/mcp_task_core_receiver_bg.wasm']) {
    const bytes = fs.readFileSync(path.join(pkg.installed, file));
    const results = exportResultTypes(bytes);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).filter((e) => e.kind === 'function').map((e) => e.name);
    assert.deepEqual([...results.keys()].sort(), names.sort(), `${file}: every exported function read`);
    assert.ok(results.has('texttaskengine_new') || results.has('texttaskrequestor_new'), `${file}: the classes' exports are there`);
    const references = [...results].filter(([, types]) => types.some((t) => !NUMERIC_TYPES.has(t))).map(([name]) => name);
    assert.deepEqual(references, [], `${file}: exports returning a reference`);
  }
});

test('package metadata: licences shipped, repository, homepage, bugs, engines', () => {
  for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) assert.ok(pkg.files.includes(f), `${f} in the tarball`);
  assert.match(fs.readFileSync(path.join(pkg.installed, 'LICENSE-MIT'), 'utf8'), /^MIT License/);
  assert.match(fs.readFileSync(path.join(pkg.installed, 'LICENSE-APACHE'), 'utf8'), /Apache License\s+Version 2\.0/);
  const p = pkg.packageJson;
  assert.equal(p.license, '(MIT OR Apache-2.0)');
  assert.deepEqual(p.repository, { type: 'git', url: 'git+https://github.com/mcp-task-core/mcp-task-core.git' });
  assert.equal(p.homepage, 'https://github.com/mcp-task-core/mcp-task-core#readme');
  assert.deepEqual(p.bugs, { url: 'https://github.com/mcp-task-core/mcp-task-core/issues' });
  assert.match(p.engines?.node ?? '', /^>=\d+/);
});

test('installing the package alone installs nothing else: no dependencies, every SDK peer optional', () => {
  const p = pkg.packageJson;
  assert.equal(p.dependencies, undefined);
  const peers = Object.keys(p.peerDependencies ?? {}).sort();
  assert.deepEqual(peers, ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server']);
  for (const peer of peers) assert.equal(p.peerDependenciesMeta?.[peer]?.optional, true, `${peer} is an optional peer`);
});

test('every target of the exports map exists', () => {
  const targets = [];
  const walk = (v) => {
    if (typeof v === 'string') targets.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(pkg.packageJson.exports);
  walk(pkg.packageJson.main);
  walk(pkg.packageJson.browser);
  walk(pkg.packageJson.types);
  assert.ok(targets.length > 10);
  for (const t of targets) assert.ok(fs.existsSync(path.join(pkg.installed, t)), `${t} exists`);
  const root = pkg.packageJson.exports['.'];
  assert.equal(root.workerd, './index.workerd.js');
  assert.equal(root.browser, './index.browser.js');
  assert.deepEqual(root.node, { import: './index.node.mjs', require: './index.node.cjs' });
  assert.deepEqual(root.types, { require: './index.d.cts', default: './index.d.ts' });
  const requestor = pkg.packageJson.exports['./requestor'];
  assert.equal(requestor.node, './requestor-only.node.mjs');
  assert.equal(requestor.browser, './requestor-only.browser.js');
  assert.equal(requestor.workerd, './requestor-only.workerd.js');
  const receiver = pkg.packageJson.exports['./receiver'];
  assert.deepEqual(receiver.node, { import: './receiver-only.node.mjs', require: './receiver-only.node.cjs' });
  assert.equal(receiver.browser, './receiver-only.browser.js');
  assert.equal(receiver.workerd, './receiver-only.workerd.js');
  assert.deepEqual(receiver.types, { require: './receiver-only.d.cts', default: './receiver-only.d.ts' });
});

test('harness: the validator rejects what the schema forbids', () => {
  const v = new ExchangeValidator();
  v.incoming('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{}}}');
  v.incoming('{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t"}}');
  const task = { taskId: 't', status: 'working', createdAt: '2025-11-25T10:30:00.000Z', lastUpdatedAt: '2025-11-25T10:30:00.000Z', ttl: 1000 };
  v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task } }));
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task: { ...task, status: 'done' } } })), /CreateTaskResult/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task: { ...task, ttl: undefined } } })), /CreateTaskResult/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { ...task, pollInterval: 1.5 } })), /GetTaskResult/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { ...task, createdAt: 'yesterday' } })), /ISO 8601/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { ...task, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } })), /related-task/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 99, result: {} })), /no request/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: 'x', message: 'm' } })), /JSONRPCErrorResponse/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: { taskId: 't' } })), /TaskStatusNotification/);
  assert.throws(() => v.outgoing(JSON.stringify({ jsonrpc: '2.0', id: 'e', method: 'elicitation/create', params: { message: 'm' } })), /ElicitRequest/);
  assert.throws(() => v.outgoing('{"jsonrpc":"2.0"'), SyntaxError);
});

test('harness: a missing schema fails loudly', async () => {
  const probe = `import { ExchangeValidator } from ${JSON.stringify(path.join(JS_TESTS_DIR, 'helpers', 'schema.mjs'))}; new ExchangeValidator();`;
  await assert.rejects(
    run(process.execPath, ['--input-type=module', '-e', probe], { env: { ...process.env, MCP_SPEC_DIR: '/nonexistent/spec' }, cwd: JS_TESTS_DIR }),
    (err) => /MCP schema not found at \/nonexistent\/spec\/2025-11-25\/schema\.json/.test(err.stderr),
  );
});
