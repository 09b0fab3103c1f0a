// Child of P4 (Node cold start): node p4-cold-child.mjs empty|esm|cjs|receiver-esm|receiver-cjs|floor|floor-receiver|phases
// esm / cjs: the main entry (both roles, the full .wasm); receiver-*: `mcp-task-core/receiver`
// (the receiver-only .wasm: what a server and the SDK adapters load).
// Imports nothing statically, so its first line runs as soon as the runtime is up. Prints one
// JSON line: `start` = performance.now() at the first line (ms since the process's time
// origin: the runtime's own start), `answered` = after the first handle() returned, and
// `delta` = answered - start (import + instantiate + new TextTaskEngine + first request).
const start = performance.now();
const mode = process.argv[2];
const pkg = process.env.BENCH_PKG_DIR;
const MESSAGE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}';
let reply = 'none';
const ENTRIES = { esm: 'entries/index.node.mjs', cjs: 'entries/index.node.cjs', 'receiver-esm': 'entries/receiver.node.mjs', 'receiver-cjs': 'entries/receiver.node.cjs' };
if (mode === 'esm' || mode === 'receiver-esm') {
  const { TextTaskEngine } = await import(new URL(`file://${pkg}/${ENTRIES[mode]}`).href);
  const engine = new TextTaskEngine({ tools: { slow: 'required' } });
  reply = engine.handle(MESSAGE, 'session-1');
} else if (mode === 'cjs' || mode === 'receiver-cjs') {
  const { createRequire } = await import('node:module');
  const { TextTaskEngine } = createRequire(import.meta.url)(`${pkg}/${ENTRIES[mode]}`);
  const engine = new TextTaskEngine({ tools: { slow: 'required' } });
  reply = engine.handle(MESSAGE, 'session-1');
} else if (mode === 'floor' || mode === 'floor-receiver') {
  // Node's own share (p4-floor-loader.mjs), for an empty module, and for the receiver with no
  // JSON or formatting code (P3's floor): the same steps, no package code, no request.
  const { loadModule } = await import(new URL('./p4-floor-loader.mjs', import.meta.url).href);
  loadModule(mode === 'floor' ? process.env.BENCH_FLOOR_WASM : process.env.BENCH_FLOOR_RECEIVER_WASM);
  reply = '"working"';
} else if (mode === 'phases') {
  // Where the receiver ESM figure goes, step by step: the module loader's own first import (a module
  // with no code), the wasm-bindgen glue (reads, validates and instantiates the .wasm), the
  // rest of the entry point (object-mode wrappers, TaskClient, random source), the
  // constructor, the first handle() (V8 compiles each wasm function on its first call),
  // and a second handle() for comparison.
  const marks = [performance.now()];
  await import('data:text/javascript,export default 0');
  marks.push(performance.now());
  await import(new URL(`file://${pkg}/receiver-node-esm/mcp_task_core_receiver.js`).href);
  marks.push(performance.now());
  const { TextTaskEngine } = await import(new URL(`file://${pkg}/entries/receiver.node.mjs`).href);
  marks.push(performance.now());
  const engine = new TextTaskEngine({ tools: { slow: 'required' } });
  marks.push(performance.now());
  reply = engine.handle(MESSAGE, 'session-1');
  marks.push(performance.now());
  engine.handle(MESSAGE.replace('"id":1', '"id":2'), 'session-1');
  marks.push(performance.now());
  const names = ['loader', 'wasmGlue', 'entryRest', 'construct', 'firstHandle', 'secondHandle'];
  const phases = Object.fromEntries(names.map((n, i) => [n, marks[i + 1] - marks[i]]));
  console.log(JSON.stringify({ mode, start, answered: marks[5], delta: marks[5] - start, phases }));
  process.exit(0);
}
const answered = performance.now();
if (mode !== 'empty' && !(typeof reply === 'string' && reply.includes('"working"'))) {
  console.error('unexpected reply', reply);
  process.exit(1);
}
console.log(JSON.stringify({ mode, start, answered, delta: answered - start }));
