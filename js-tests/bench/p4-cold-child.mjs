// Child of P4 (Node cold start): node p4-cold-child.mjs empty|esm|cjs
// Imports nothing statically, so its first line runs as soon as the runtime is up. Prints one
// JSON line: `start` = performance.now() at the first line (ms since the process's time
// origin: the runtime's own start), `answered` = after the first handle() returned, and
// `delta` = answered - start (import + instantiate + new TextTaskEngine + first request).
const start = performance.now();
const mode = process.argv[2];
const pkg = process.env.BENCH_PKG_DIR;
const MESSAGE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}';
let reply = 'none';
if (mode === 'esm') {
  const { TextTaskEngine } = await import(new URL(`file://${pkg}/index.node.mjs`).href);
  const engine = new TextTaskEngine({ tools: { slow: 'required' } });
  reply = engine.handle(MESSAGE, 'session-1');
} else if (mode === 'cjs') {
  const { createRequire } = await import('node:module');
  const { TextTaskEngine } = createRequire(import.meta.url)(`${pkg}/index.node.cjs`);
  const engine = new TextTaskEngine({ tools: { slow: 'required' } });
  reply = engine.handle(MESSAGE, 'session-1');
}
const answered = performance.now();
if (mode !== 'empty' && !(typeof reply === 'string' && reply.includes('"working"'))) {
  console.error('unexpected reply', reply);
  process.exit(1);
}
console.log(JSON.stringify({ mode, start, answered, delta: answered - start }));
