// The packed package itself (files, exports map, README), and self-checks of the test
// harness: the schema validator must reject wrong messages, and must refuse to run without
// the schema.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR, REPO_ROOT, installPackage } from './helpers/package.mjs';
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
    'package.json', 'README.md', 'types/index.d.ts', 'types/index.d.cts', 'entries/index.node.mjs', 'entries/index.node.cjs', 'entries/index.browser.js',
    'entries/index.workerd.js', 'core/bindings.js', 'core/bindings.cjs', 'core/errors.js', 'core/errors.cjs', 'core/engine.js', 'core/engine.cjs',
    'core/node-random.js', 'core/node-random.cjs', 'node-cjs/mcp_task_core.js',
    'node-cjs/package.json', 'node-esm/mcp_task_core.js', 'web/mcp_task_core.js',
    'web/mcp_task_core_bg.wasm', 'entries/requestor.node.mjs', 'entries/requestor.browser.js', 'entries/requestor.workerd.js',
    'types/requestor-only.d.ts', 'requestor-node-esm/mcp_task_core_requestor.js', 'requestor-web/mcp_task_core_requestor.js',
    'entries/receiver.node.mjs', 'entries/receiver.node.cjs', 'entries/receiver.browser.js', 'entries/receiver.workerd.js', 'types/receiver-only.d.ts',
    'types/receiver-only.d.cts', 'receiver-node-cjs/mcp_task_core_receiver.js', 'receiver-node-cjs/package.json',
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
  const load = (f) => Object.keys(createRequire(import.meta.url)(path.join(pkg.installed, f))).sort();
  assert.deepEqual(load('core/bindings.cjs'), ['freshInstances', 'guardFreed', 'notInitialized', 'wasmLoader']);
  assert.deepEqual(load('core/errors.cjs'), ['codedError', 'refuseUnknownOptions']);
  assert.deepEqual(load('core/engine.cjs'), ['browserEngine', 'drainOutputs', 'handleObject', 'objectTaskEngine']);
  assert.deepEqual(load('core/protocol.cjs'), ['PROTOCOL']);
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

test('installing the package alone installs nothing else: no dependencies, every peer (the SDKs, OpenTelemetry\'s API) optional', () => {
  const p = pkg.packageJson;
  assert.equal(p.dependencies, undefined);
  const peers = Object.keys(p.peerDependencies ?? {}).sort();
  assert.deepEqual(peers, ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@opentelemetry/api']);
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
  assert.equal(root.workerd, './entries/index.workerd.js');
  assert.equal(root.browser, './entries/index.browser.js');
  assert.deepEqual(root.node, { import: './entries/index.node.mjs', require: './entries/index.node.cjs' });
  assert.deepEqual(root.types, { require: './types/index.d.cts', default: './types/index.d.ts' });
  const requestor = pkg.packageJson.exports['./requestor'];
  assert.equal(requestor.node, './entries/requestor.node.mjs');
  assert.equal(requestor.browser, './entries/requestor.browser.js');
  assert.equal(requestor.workerd, './entries/requestor.workerd.js');
  const receiver = pkg.packageJson.exports['./receiver'];
  assert.deepEqual(receiver.node, { import: './entries/receiver.node.mjs', require: './entries/receiver.node.cjs' });
  assert.equal(receiver.browser, './entries/receiver.browser.js');
  assert.equal(receiver.workerd, './entries/receiver.workerd.js');
  assert.deepEqual(receiver.types, { require: './types/receiver-only.d.cts', default: './types/receiver-only.d.ts' });
});

// One table (scripts/package-table.mjs) says what the package exports: the shipped exports map is
// the table's, and every shipped file sits in a folder named for its role.
test('the exports map is the package table\'s, and the package is laid out by role', async () => {
  const table = await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'package-table.mjs')).href);
  const { main, browser, types, exports } = table.packageExports();
  assert.deepEqual(pkg.packageJson.exports, exports);
  assert.deepEqual([pkg.packageJson.main, pkg.packageJson.browser, pkg.packageJson.types], [main, browser, types]);
  const folders = new Set(pkg.files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]));
  assert.deepEqual([...folders].sort(), [
    'adapters', 'client', 'console', 'core', 'entries', 'node-cjs', 'node-esm', 'receiver-node-cjs', 'receiver-node-esm', 'receiver-web',
    'requestor-node-esm', 'requestor-web', 'runtime', 'storage', 'types', 'web',
  ]);
  assert.deepEqual(pkg.files.filter((f) => !f.includes('/')).sort(), ['LICENSE-APACHE', 'LICENSE-MIT', 'README.md', 'package.json']);
  // Each entry point of each build exists for every platform the table names.
  for (const entry of table.ENTRIES) for (const p of table.platformsOf(entry)) assert.ok(pkg.files.includes(table.entryFile(entry, p)), `${entry.name} on ${p}`);
});

// The engine owns the protocol: its error codes, versions and _meta keys reach the JS modules
// through core/protocol.js, which the build writes from TextTaskRequestor.protocolJson().
test('core/protocol.js is the engine\'s constants, and no package module declares a code, version or _meta key of its own', async () => {
  const { PROTOCOL } = await import(pathToFileURL(path.join(pkg.installed, 'core/protocol.js')).href);
  const { TextTaskRequestor } = await pkg.importEsm();
  assert.deepEqual(PROTOCOL, JSON.parse(TextTaskRequestor.protocolJson()));
  assert.equal(PROTOCOL.errors.missingCapability, -32021);
  assert.equal(PROTOCOL.legacyTaskSupport.perCall, 'optional');
  const template = path.join(REPO_ROOT, 'pkg-template');
  const modules = fs.readdirSync(template, { recursive: true }).filter((f) => f.endsWith('.js') && !f.startsWith('console/console-page'));
  assert.ok(modules.length >= 12, modules.join(', '));
  const code = (src) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/`[^`]*`/g, '``');
  for (const f of modules) {
    const src = code(fs.readFileSync(path.join(template, f), 'utf8'));
    assert.deepEqual(src.match(/-32\d{3}\b/g), null, `${f} declares a JSON-RPC code`);
    assert.deepEqual(src.match(/['"]io\.modelcontextprotocol\/[\w-]+['"]/g), null, `${f} declares a _meta key or the extension id`);
    assert.deepEqual(src.match(/['"](?:2025-11-25|2026-07-28)['"]/g), null, `${f} declares the 2025-11-25 or 2026-07-28 version`);
  }
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
