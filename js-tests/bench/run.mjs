// mcp-task-core benchmarks against the official MCP TypeScript SDK 1.x, printed as one table.
//
//   node --expose-gc js-tests/bench/run.mjs [--only=P1,P2,P2E,P3,P4,P5,P6,P7,P8,P9] [--quick]
//   (P1 includes P1e, the 2026-07-28 dialect; P2 includes P2e, SDK Client → McpServer → store)
//   (scripts/bench.sh builds the package first and runs this)
//
// Every ratio compares figures measured in this process and run (or in child processes it
// spawns now, for memory, cold start and scale), after warm-up, as medians of several runs.
// Nothing here asserts on time: targets are printed beside the figures, never enforced.
// Results: js-tests/bench/results.json. Env: BENCH_PKG_DIR (default <repo>/pkg).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR, JS_TESTS_DIR, PKG_DIR, cpuModel, fmtBytes, fmtNum, fmtTime, pkgHasSdk } from './lib.mjs';
import { benchWire } from './p1-wire.mjs';
import { benchListAtScale, benchStoreMemory, benchStoreOps, METHODS } from './p2-store.mjs';
import { FLOOR_RECEIVER_WASM, benchSizeFloor } from './p3-floor.mjs';
import { REQUESTOR_BUDGET, benchSize } from './p3-size.mjs';
import { benchColdNode, benchColdWorkerd } from './p4-cold.mjs';
import { benchScale } from './p5-scale.mjs';
import { benchSdkEndToEnd } from './p2e-sdk-e2e.mjs';
import { benchClients } from './p6-clients.mjs';
import { benchPush } from './p7-push.mjs';
import { benchHttp } from './p8-http.mjs';
import { benchBurstMemory } from './p9-burst.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = new Set((onlyArg ? onlyArg.slice(7) : 'P1,P2,P3,P4,P5,P6,P7,P8,P9').split(',').map((s) => s.trim().toUpperCase()));
if (typeof globalThis.gc !== 'function') {
  console.error('run with: node --expose-gc js-tests/bench/run.mjs');
  process.exit(2);
}

const sdkVersion = JSON.parse(fs.readFileSync(path.join(JS_TESTS_DIR, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;
const ourVersion = JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8')).version;
const meta = {
  date: new Date().toISOString(),
  cpu: cpuModel(),
  cores: os.cpus().length,
  node: process.version,
  v8: process.versions.v8,
  sdk: `@modelcontextprotocol/sdk ${sdkVersion}`,
  ours: `mcp-task-core ${ourVersion} (${path.relative(process.cwd(), PKG_DIR) || PKG_DIR})`,
  loadAverageAtStart: os.loadavg().map((x) => +x.toFixed(2)),
  quick,
};
console.log(`CPU: ${meta.cpu} (${meta.cores} logical cores)   Node: ${meta.node} (V8 ${meta.v8})`);
console.log(`Compared: ${meta.ours} vs ${meta.sdk}   load average at start: ${meta.loadAverageAtStart.join(' ')}`);

const raw = {};
const rows = [];
/** Lines printed under the table (breakdowns too long for a row). */
const notes = [];
/** A table row. ratio/target/met are strings computed by the caller. */
const row = (id, metric, ours, base, ratio, target, met) => rows.push({ id, metric, ours, base, ratio, target, met });
const verdict = (ok) => (ok === null ? 'info' : ok ? 'yes' : 'NO');
const x = (r) => (Number.isFinite(r) ? (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)) + '×' : '—');
const started = performance.now();
const step = async (name, fn) => {
  const t = performance.now();
  process.stderr.write(`… ${name}\n`);
  const r = await fn();
  process.stderr.write(`  ${name}: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  return r;
};

// ---- P1 wire path ---------------------------------------------------------------------------
if (only.has('P1')) {
  const r = (raw.P1 = await step('P1 wire path', () => benchWire(quick ? { n: 500, warmup: 1, runs: 2 } : { n: 4000, warmup: 2, runs: 7 })));
  const ratio = r.ours.opsPerSec / r.sdk.opsPerSec;
  row('P1', `wire mix, ${r.n} tasks, ${r.ours.totalOps} msgs+completes`, `${fmtNum(r.ours.opsPerSec)} op/s`, `${fmtNum(r.sdk.opsPerSec)} op/s`, x(ratio), '≥ 10×', verdict(ratio >= 10));
  for (const p of r.phases) {
    const o = r.ours[`${p}NsPerOp`];
    const s = r.sdk[`${p}NsPerOp`];
    row('P1', `  ${p} (per op)`, fmtTime(o), fmtTime(s), x(s / o), '(part)', 'info');
  }
  // The 2026-07-28 dialect, measured in the same rounds against the same SDK runs. Its mix has no
  // tasks/result or tasks/list (tasks/get inlines the outcome); the ≥ 10× target is the legacy mix's.
  const e = r.ours2026;
  row('P1e', `wire mix 2026-07-28, ${r.n} tasks, ${e.totalOps} msgs+completes`, `${fmtNum(e.opsPerSec)} op/s`, `${fmtNum(r.sdk.opsPerSec)} op/s SDK`, x(e.opsPerSec / r.sdk.opsPerSec), 'info', 'info');
  row('P1e', `  vs our 2025-11-25 mix`, `${fmtNum(e.opsPerSec)} op/s`, `${fmtNum(r.ours.opsPerSec)} op/s ours`, x(e.opsPerSec / r.ours.opsPerSec), 'info', 'info');
  for (const p of r.phases2026) {
    const o = e[`${p}NsPerOp`];
    const s = r.sdk[`${p}NsPerOp`];
    row('P1e', `  ${p} (per op, vs SDK)`, fmtTime(o), fmtTime(s), x(s / o), '(part)', 'info');
  }
}

// ---- P2 TaskStore drop-in -------------------------------------------------------------------
if (only.has('P2')) {
  if (!pkgHasSdk()) {
    row('P2', 'TaskStore drop-in', 'sdk.js missing in the package', '', '', '', 'skip');
  } else {
    const ops = (raw.P2ops = await step('P2 store methods', () => benchStoreOps(quick ? { n: 3000, listPages: 50, warmup: 1, runs: 1 } : { n: 20_000, listPages: 200, warmup: 1, runs: 5 })));
    for (const m of METHODS) {
      const o = ops.oursNsPerOp[m];
      const s = ops.sdkNsPerOp[m];
      const label = m === 'listTasks' ? `${m} (per page, ${ops.n} tasks)` : m;
      row('P2', `${label}`, `${fmtNum(1e9 / o)} op/s`, `${fmtNum(1e9 / s)} op/s`, x(s / o), '≥ 1.0×', verdict(s / o >= 1));
    }
    const mem = (raw.P2mem = await step('P2 retained memory', () => benchStoreMemory(quick ? { n: 3000, runs: 1 } : { n: 20_000, runs: 3 })));
    const ratio = mem.ours.overheadPerTask / mem.sdk.overheadPerTask;
    row('P2', `memory/completed task, 1 KB result: overhead`, fmtBytes(mem.ours.overheadPerTask), fmtBytes(mem.sdk.overheadPerTask), x(ratio), '≤ 0.4×', verdict(ratio <= 0.4));
    row('P2', `  retained in all (heap+arrayBuffers+wasm)`, fmtBytes(mem.ours.bytesPerTask), fmtBytes(mem.sdk.bytesPerTask), x(mem.ours.bytesPerTask / mem.sdk.bytesPerTask), '(part)', 'info');
    row('P2', `  of which wasm linear memory`, fmtBytes(mem.ours.wasmPerTask), fmtBytes(mem.sdk.wasmPerTask), '—', '(part)', 'info');
    const list = (raw.P2list = await step('P2 listTasks at scale', () => benchListAtScale(quick ? { n: 20_000, pages: 10 } : { n: 100_000, pages: 30 })));
    const lr = list.sdkNsPerPage / list.oursNsPerPage;
    row('P2', `listTasks per page at ${fmtNum(list.n)} tasks`, fmtTime(list.oursNsPerPage), fmtTime(list.sdkNsPerPage), x(lr), '≥ 100×', verdict(lr >= 100));
  }
}

// ---- P2e TaskStore drop-in, end to end through the SDK ---------------------------------------
if ((only.has('P2') || only.has('P2E')) && pkgHasSdk()) {
  const e = (raw.P2e = await step('P2e SDK end to end', () => benchSdkEndToEnd(quick ? { n: 300, warmup: 1, rounds: 1 } : { n: 3000, warmup: 1, rounds: 5 })));
  const ratio = e.ours.opsPerSec / e.sdk.opsPerSec;
  row('P2e', `SDK Client→McpServer→store mix, ${e.n} tasks, ${e.ours.totalOps} requests`, `${fmtNum(e.ours.opsPerSec)} op/s`, `${fmtNum(e.sdk.opsPerSec)} op/s`, x(ratio), '≥ 1.0×', verdict(ratio >= 1));
  const label = { create: 'create (tools/call + task)', get: 'tasks/get', result: 'tasks/result', list: 'tasks/list (per page)' };
  for (const p of e.phases) {
    const o = e.ours[`${p}NsPerOp`];
    const s = e.sdk[`${p}NsPerOp`];
    row('P2e', `  ${label[p]}`, `${fmtNum(1e9 / o)} op/s`, `${fmtNum(1e9 / s)} op/s`, x(s / o), '(part)', 'info');
  }
  const w = e.sdkWithEngine.opsPerSec / e.sdk.opsPerSec;
  row('P2e', "  the SDK's store doing the engine's calls too (no glue)", `${fmtNum(e.sdkWithEngine.opsPerSec)} op/s`, `${fmtNum(e.sdk.opsPerSec)} op/s`, x(w), '—', 'info');
  const c = e.sdkWithCrossings.opsPerSec / e.sdk.opsPerSec;
  row('P2e', "  the SDK's store crossing into the engine three times per task, for nothing", `${fmtNum(e.sdkWithCrossings.opsPerSec)} op/s`, `${fmtNum(e.sdk.opsPerSec)} op/s`, x(c), '—', 'info');
}

// ---- P3 size --------------------------------------------------------------------------------
if (only.has('P3')) {
  const s = (raw.P3 = await step('P3 size', () => benchSize()));
  const budget = 64 * 1024;
  const rw = s.receiverWasm;
  row('P3', 'receiver .wasm gzip -9 (vs 64 KiB budget)', fmtBytes(rw.gzip), fmtBytes(budget), x(rw.gzip / budget), '≤ 1.0×', verdict(rw.gzip <= budget));
  row('P3', `  receiver .wasm raw / brotli`, `${fmtBytes(rw.raw)} / ${fmtBytes(rw.brotli)}`, '—', '—', '—', 'info');
  row('P3', `  receiver JS glue web: raw / gzip`, `${fmtBytes(s.receiverGlueWeb.raw)} / ${fmtBytes(s.receiverGlueWeb.gzip)}`, '—', '—', '—', 'info');
  row('P3', '  main entry .wasm (both roles) gzip -9', fmtBytes(s.wasm.gzip), fmtBytes(budget), x(s.wasm.gzip / budget), '—', 'info');
  row('P3', `  main entry .wasm raw / brotli`, `${fmtBytes(s.wasm.raw)} / ${fmtBytes(s.wasm.brotli)}`, '—', '—', '—', 'info');
  if (s.requestorWasm) {
    const r = s.requestorWasm;
    row('P3', 'requestor-only .wasm gzip -9 (vs 40 KiB)', fmtBytes(r.gzip), fmtBytes(REQUESTOR_BUDGET), x(r.gzip / REQUESTOR_BUDGET), '≤ 1.0×', verdict(r.gzip <= REQUESTOR_BUDGET));
    row('P3', `  requestor-only .wasm raw / brotli`, `${fmtBytes(r.raw)} / ${fmtBytes(r.brotli)}`, '—', '—', '—', 'info');
    row('P3', `  requestor-only JS glue web: raw / gzip`, `${fmtBytes(s.requestorGlueWeb.raw)} / ${fmtBytes(s.requestorGlueWeb.gzip)}`, '—', '—', '—', 'info');
  }
  row('P3', `  JS glue web: raw / gzip`, `${fmtBytes(s.glueWeb.raw)} / ${fmtBytes(s.glueWeb.gzip)}`, '—', '—', '—', 'info');
  row('P3', `  JS glue Node ESM: raw / gzip`, `${fmtBytes(s.glueNodeEsm.raw)} / ${fmtBytes(s.glueNodeEsm.gzip)}`, '—', '—', '—', 'info');
  if (s.sdkAdapter) row('P3', `  sdk.js adapter: raw / gzip`, `${fmtBytes(s.sdkAdapter.raw)} / ${fmtBytes(s.sdkAdapter.gzip)}`, '—', '—', '—', 'info');
  // The floor (p3-floor.mjs): each build with no JSON and no formatting code at all. Slow
  // (wasm-opt twice per build), so the full run only.
  const f = quick ? null : (raw.P3floor = await step('P3 floor and breakdown', () => benchSizeFloor()));
  if (f) {
    const floorRow = (label, b, budgetBytes) =>
      row('P3', label, fmtBytes(b.floor.gzip), fmtBytes(budgetBytes), x(b.floor.gzip / budgetBytes), '—', b.floor.gzip <= budgetBytes ? 'info' : 'bound');
    floorRow('  receiver with no serde/serde_json/fmt code (floor)', f.receiver, budget);
    floorRow('  requestor-only with no serde/serde_json/fmt code (floor)', f.requestor, REQUESTOR_BUDGET);
    const parts = (b) => Object.entries(b.breakdown).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(', ');
    notes.push(`P3 breakdown, KB raw of the named module (${(f.receiver.shipped.raw / 1000).toFixed(1)} KB): receiver: ${parts(f.receiver)}.`);
    notes.push(`P3 breakdown, requestor-only (${(f.requestor.shipped.raw / 1000).toFixed(1)} KB): ${parts(f.requestor)}.`);
  }
}

// ---- P4 cold start --------------------------------------------------------------------------
if (only.has('P4')) {
  const n = (raw.P4node = await step('P4 cold start (Node)', () => benchColdNode({ runs: quick ? 3 : 15, receiverFloorWasm: raw.P3floor ? FLOOR_RECEIVER_WASM : null })));
  const budget = 5;
  const re = n['receiver-esm'];
  row('P4', 'Node ESM receiver: import → first answer (vs 5 ms)', `${re.deltaMs.toFixed(2)} ms`, `${n.empty.startMs.toFixed(1)} ms runtime`, x(re.deltaMs / budget), '≤ 1.0×', verdict(re.deltaMs <= budget));
  row('P4', '  Node CJS receiver: require → first answer', `${n['receiver-cjs'].deltaMs.toFixed(2)} ms`, `${n.empty.startMs.toFixed(1)} ms runtime`, x(n['receiver-cjs'].deltaMs / budget), '≤ 1.0×', 'info');
  row('P4', '  Node ESM main entry (both roles): import → answer', `${n.esm.deltaMs.toFixed(2)} ms`, `${n.empty.startMs.toFixed(1)} ms runtime`, x(n.esm.deltaMs / budget), '≤ 1.0×', 'info');
  row('P4', '  Node CJS main entry (both roles): require → answer', `${n.cjs.deltaMs.toFixed(2)} ms`, `${n.empty.startMs.toFixed(1)} ms runtime`, x(n.cjs.deltaMs / budget), '≤ 1.0×', 'info');
  const floorRow = (label, f) => row('P4', label, `${f.deltaMs.toFixed(2)} ms`, 'no package code', x(f.deltaMs / budget), '—', f.deltaMs <= budget ? 'info' : 'bound');
  floorRow('  Node floor: ES module + node:fs + load an empty .wasm', n.floor);
  if (n['floor-receiver']) floorRow('  Node floor: the same, the P3 receiver floor .wasm', n['floor-receiver']);
  const ph = n.phases;
  row('P4', '  receiver ESM phases: loader / wasm glue / entry rest', `${ph.loader.toFixed(1)} / ${ph.wasmGlue.toFixed(1)} / ${ph.entryRest.toFixed(1)} ms`, 'glue = read + validate + instantiate', '', '—', 'info');
  row('P4', '  receiver ESM phases: new / 1st handle / 2nd handle', `${ph.construct.toFixed(2)} / ${ph.firstHandle.toFixed(2)} / ${ph.secondHandle.toFixed(2)} ms`, '1st = lazy compile', '', '—', 'info');
  row('P4', '  Node spawn → exit, receiver (parent clock)', `${re.spawnToExitMs.toFixed(1)} ms`, `${n.empty.spawnToExitMs.toFixed(1)} ms empty`, x(re.spawnToExitMs / n.empty.spawnToExitMs), '—', 'info');
  try {
    const w = (raw.P4workerd = await step('P4 cold start (workerd)', () => benchColdWorkerd({ runs: quick ? 2 : 16, receiverFloorWasm: raw.P3floor ? FLOOR_RECEIVER_WASM : null })));
    const iqr = (f) => `${f.deltaMs.toFixed(1)} ms (IQR ${f.deltaQ1Ms.toFixed(0)}–${f.deltaQ3Ms.toFixed(0)})`;
    row('P4', 'workerd receiver: start → answer, minus empty', iqr(w.receiver), `${w.emptyMs.toFixed(0)} ms empty`, x(w.receiver.deltaMs / budget), '≤ 1.0×', verdict(w.receiver.deltaQ3Ms <= budget));
    row('P4', '  workerd main entry (both roles), minus empty', iqr(w.full), `${w.emptyMs.toFixed(0)} ms empty`, x(w.full.deltaMs / budget), '≤ 1.0×', 'info');
    if (w.floor) row('P4', '  workerd floor: the P3 receiver floor .wasm, minus empty', iqr(w.floor), 'no package code', x(w.floor.deltaMs / budget), '—', w.floor.deltaQ1Ms > budget ? 'bound' : 'info');
  } catch (err) {
    raw.P4workerd = { error: String(err && err.stack) };
    row('P4', 'workerd cold start', `failed: ${String(err && err.message).split('\n')[0].slice(0, 40)}`, '', '', '', 'skip');
  }
}

// ---- P5 scale -------------------------------------------------------------------------------
if (only.has('P5')) {
  const sizes = quick ? [1_000, 100_000] : [1_000, 100_000, 1_000_000];
  const r = (raw.P5 = await step('P5 scale', () => benchScale({ sizes, runsFor: (n) => (quick ? 1 : n >= 1_000_000 ? 3 : 5) })));
  const big = sizes[sizes.length - 1];
  const small = sizes[0];
  const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
  for (const n of sizes) {
    const s = r[n];
    row('P5', `${label(n)} live: get p50/p99`, `${fmtTime(s.get.p50)} / ${fmtTime(s.get.p99)}`, '—', '—', '—', 'info');
    row('P5', `${label(n)} live: create p50/p99`, `${fmtTime(s.create.p50)} / ${fmtTime(s.create.p99)}`, '—', '—', '—', 'info');
    row('P5', `${label(n)} live: tasks/list page (50) p50/p99`, `${fmtTime(s.list.p50)} / ${fmtTime(s.list.p99)}`, '—', '—', '—', 'info');
    row('P5', `${label(n)} live: sweep of ${fmtNum(s.sweep.expired)} (10%)`, `${fmtTime(s.sweep.nsPerExpired)}/expired`, `${s.sweep.sweepMs.toFixed(2)} ms total`, '—', '—', 'info');
  }
  for (const [what, key] of [['get', 'get'], ['create', 'create'], ['tasks/list page', 'list']]) {
    const ratio = r[big][key].p99 / r[small][key].p99;
    row('P5', `${what} p99 at ${label(big)} vs ${label(small)}`, fmtTime(r[big][key].p99), fmtTime(r[small][key].p99), x(ratio), '≤ 1.5×', verdict(ratio <= 1.5));
  }
  const mid = sizes[1];
  for (const base of [small, mid]) {
    if (base === big) continue;
    const ratio = r[big].sweep.nsPerExpired / r[base].sweep.nsPerExpired;
    row('P5', `sweep ns/expired at ${label(big)} vs ${label(base)}`, fmtTime(r[big].sweep.nsPerExpired), fmtTime(r[base].sweep.nsPerExpired), x(ratio), '≤ 1.5× (∝ expired)', verdict(ratio <= 1.5));
  }
}

// ---- P6 many clients ------------------------------------------------------------------------
if (only.has('P6')) {
  const r = (raw.P6 = await step('P6 many clients', () => benchClients(quick ? { seconds: 10, sharedSeconds: 5, floodSeconds: 3 } : {})));
  const d = r.distinct;
  const polled = (t) => `${fmtNum(t.requests)} requests (${t.perSecond.toFixed(0)}/s), ${fmtNum(t.finished)} tasks`;
  row('P6', `${d.clients} anonymous clients, ${d.clients} addresses, ${d.seconds} s: refused`, `${d.refused} of ${fmtNum(d.requests)}`, polled(d), '—', '0', verdict(d.refused === 0 && d.errors === 0));
  row('P6', `  tasks/get p50 / p99 (polled every ${d.interval} ms)`, `${d.getP50.toFixed(1)} / ${d.getP99.toFixed(1)} ms`, `${d.errors} other errors`, '—', '—', 'info');
  const s = r.shared;
  row('P6', `  the same ${s.clients} clients behind one address, ${s.seconds} s: refused`, `${fmtNum(s.refused)} of ${fmtNum(s.requests)}`, polled(s), '—', 'one allowance', 'info');
  const f = r.flood;
  row('P6', `one client flooding tasks/get (64 in flight): refused`, `${fmtNum(f.flood.refused)} of ${fmtNum(f.flood.requests)}`, `${f.flood.perSecond.toFixed(0)} requests/s`, '—', '> 0', verdict(f.flood.refused > 0));
  row('P6', `  another client polling meanwhile: refused`, `${f.other.refused} of ${f.other.requests}`, `${f.other.errors} other errors`, '—', '0', verdict(f.other.refused === 0));
}

// ---- P7 pushed status -----------------------------------------------------------------------
if (only.has('P7')) {
  const r = (raw.P7 = await step('P7 pushed vs polled', () => benchPush()));
  const ms = (v) => `${v.toFixed(1)} ms`;
  row('P7', `work ended → TaskClient has the outcome: pushed vs polled (${r.pollMs} ms interval)`, ms(r.pushedMs), `${ms(r.polledMs)} polled`, x(r.polledMs / r.pushedMs), 'info', 'info');
  row('P7', `  slowest of ${r.runs}`, ms(r.pushedMaxMs), `${ms(r.polledMaxMs)} polled`, '—', '—', 'info');
}

// ---- P8 what an HTTP request costs ----------------------------------------------------------
if (only.has('P8')) {
  const r = (raw.P8 = await step('P8 HTTP request cost', () => benchHttp(quick ? { rounds: 6, warmup: 10 } : {})));
  const floor = r.ms.floor;
  const ms = (v) => `${v.toFixed(2)} ms`;
  const label = { create: 'task create (tools/call)', get: 'tasks/get', plain: 'plain tools/call' };
  // The README's hosting (tasks.fastPath ahead of the SDK) against the target; the SDK path alone
  // (a new McpServer per request for every request) and the alternatives as information.
  const readme = r.ms.fast ? 'fast' : 'per-request';
  for (const op of ['get', 'create', 'plain']) {
    const ratio = r.ms[readme][op] / floor[op];
    const target = op === 'plain' ? 'info' : '≤ 1.3×';
    const name = readme === 'fast' ? 'README hosting (tasks.fastPath)' : 'README hosting, McpServer per request';
    row('P8', `${label[op]}: ${name}`, ms(r.ms[readme][op]), `${ms(floor[op])} floor`, x(ratio), target, op === 'plain' ? 'info' : verdict(ratio <= 1.3));
  }
  if (readme === 'fast') {
    for (const op of ['get', 'create', 'plain']) row('P8', `  ${label[op]}: no fast path, McpServer per request`, ms(r.ms['per-request'][op]), `${ms(floor[op])} floor`, x(r.ms['per-request'][op] / floor[op]), '—', 'info');
  }
  if (r.ms['fast-reused']) {
    for (const op of ['create', 'plain']) row('P8', `  ${label[op]}: fast path, idle McpServers reused (a pool)`, ms(r.ms['fast-reused'][op]), `${ms(floor[op])} floor`, x(r.ms['fast-reused'][op] / floor[op]), '—', 'info');
  }
  if (r.ms.example) {
    for (const op of ['get', 'create']) row('P8', `  ${label[op]}: examples/sdk2-server (7 tools, isLegacyRequest, fastPath)`, ms(r.ms.example[op]), `${ms(floor[op])} floor`, x(r.ms.example[op] / floor[op]), '—', 'info');
  }
  if (r.ms.reused) {
    for (const op of ['get', 'create']) row('P8', `  ${label[op]}: idle McpServers reused (a pool)`, ms(r.ms.reused[op]), `${ms(floor[op])} floor`, x(r.ms.reused[op] / floor[op]), '—', 'info');
  }
  if (r.ms['floor-web']) {
    const web = r.ms['floor-web'].get / floor.get;
    row('P8', '  tasks/get: the floor behind toNodeHandler (adapter alone)', ms(r.ms['floor-web'].get), `${ms(floor.get)} floor`, x(web), '—', web <= 1.3 ? 'info' : 'bound');
  }
  if (r.ms['engine-only']) {
    const e = r.ms['engine-only'].get / floor.get;
    row('P8', '  tasks/get: engine ahead of the SDK, no checks (fast path)', ms(r.ms['engine-only'].get), `${ms(floor.get)} floor`, x(e), '—', e <= 1.3 ? 'info' : 'bound');
  }
  if (r.ms['node-engine']) {
    const e = r.ms['node-engine'].get / floor.get;
    row('P8', '  tasks/get: engine in the listener, no checks (the bound)', ms(r.ms['node-engine'].get), `${ms(floor.get)} floor`, x(e), '—', e <= 1.3 ? 'info' : 'bound');
  }
}

// ---- P9 memory after a burst ---------------------------------------------------------------
if (only.has('P9') && pkgHasSdk()) {
  const r = (raw.P9 = await step('P9 memory after a burst', () => benchBurstMemory(quick ? { n: 20_000 } : {})));
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
  const ratio = r.ours.rssAfter / r.sdk.rssAfter;
  row('P9', `RSS once ${r.bursts} bursts of ${fmtNum(r.n)} tasks (1 KB result, 3 s TTL) expired`, mb(r.ours.rssAfter), mb(r.sdk.rssAfter), x(ratio), '≤ 1.1×', verdict(ratio <= 1.1));
  row('P9', '  peak RSS during the bursts', mb(r.ours.peakRss), mb(r.sdk.peakRss), x(r.ours.peakRss / r.sdk.peakRss), '—', 'info');
  row('P9', '  wasm linear memory: peak / after', `${mb(r.ours.peakWasm)} / ${mb(r.ours.wasmAfter)}`, '—', '—', '—', 'info');
}

// ---- the table ------------------------------------------------------------------------------
meta.loadAverageAtEnd = os.loadavg().map((x) => +x.toFixed(2));
meta.seconds = +((performance.now() - started) / 1000).toFixed(1);
const head = { id: '', metric: 'metric', ours: 'mcp-task-core', base: 'baseline (SDK / ref.)', ratio: 'ratio', target: 'target', met: 'met' };
const cols = Object.keys(head);
const width = Object.fromEntries(cols.map((c) => [c, Math.max(...[head, ...rows].map((r) => String(r[c]).length))]));
const line = (r) => cols.map((c) => (c === 'ratio' ? String(r[c]).padStart(width[c]) : String(r[c]).padEnd(width[c]))).join('  ');
console.log('');
console.log(line(head));
console.log(cols.map((c) => '-'.repeat(width[c])).join('  '));
let last = null;
for (const r of rows) {
  if (last !== null && r.id !== last) console.log('');
  console.log(line(r));
  last = r.id;
}
console.log('');
console.log('ratio: P1/P1e/P2/P2e throughput = ours ÷ SDK (P1e also ÷ our own 2025-11-25 mix);');
console.log('P2 memory = our overhead ÷ the SDK\'s (bytes retained per task beyond the');
console.log('result\'s 1024 JSON bytes; counted: V8 heapUsed + arrayBuffers + wasm linear memory growth, after full GCs);');
console.log('P2 list = SDK time ÷ ours; P3 = size ÷ budget; P4 = added ms ÷ 5 ms; P5 = figure at the largest size ÷ at the smaller;');
console.log("P8 = ms per round trip ÷ the floor's; P9 = our RSS ÷ the SDK store's, each in its own child process.");
if (raw.P1) console.log(`P1 driver: ${raw.P1.driver}.`);
if (raw.P2e) {
  console.log(`P2e: SDK Client and McpServer over InMemoryTransport on both sides, each request awaited in turn; only the`);
  console.log(`     TaskStore + TaskMessageQueue differ. Medians of ${raw.P2e.rounds} interleaved rounds after ${raw.P2e.warmup} warm-up.`);
  console.log(`     "doing the engine's calls too": the SDK's store that also makes, ends and reads each task in a TextTaskEngine as`);
  console.log(`     WasmTaskStore calls it (createTask, storeTaskResult, getTaskResult; no glue): what the engine's calls alone cost there.`);
  console.log(`     "crossing ... for nothing": the same three calls replaced by a getTask of an unknown task (an ID and a context`);
  console.log(`     passed in, a miss, null back): what any store that asks a wasm engine three times per task pays before any work.`);
  const { inFlow, backToBack } = raw.P2e.engineUs;
  const us = (o) => Object.entries(o).map(([k, v]) => `${k} ${v.toFixed(1)} us`).join(', ');
  console.log(`     Those calls inside SDK requests: ${us(inFlow)}; back to back: ${us(backToBack)}.`);
}
if (raw.P6) {
  console.log(`P6: examples/sdk2-server over HTTP at the engine's default limits; each client runs a 1 s task, polls it at the`);
  console.log(`    interval it advertises, then starts the next; clients bind their own loopback address (as distinct machines).`);
}
if (raw.P7) {
  console.log(`P7: TasksExtension (SDK 2.x, withTaskListen) and TaskClient in one process, no sockets; work of ${raw.P7.workMs.join(' / ')} ms;`);
  console.log(`    medians; ratio = polled ÷ pushed.`);
}
if (raw.P8) {
  console.log(`P8: one fetch client (keep-alive), sequential round trips, median of ${raw.P8.rounds * raw.P8.n} per hosting and op in blocks of ${raw.P8.n}`);
  console.log(`    taken in turn; each server its own process. Floor: a bare node:http server answering the SDK hosting's own bytes.`);
  console.log(`    README hosting: tasks.fastPath(toNodeHandler(createMcpHandler(...))), task tools registered once: tasks/get and task creates answered in the listener with the SDK's checks.`);
  console.log(`    The floor behind toNodeHandler answers the same bytes from a web-standard handler; "engine ahead of the SDK" answers`);
  console.log(`    tasks/get from the engine before createMcpHandler with none of its checks: what any fast path behind the adapter costs at least;`);
  console.log(`    "ahead of toNodeHandler too": the same in the node:http listener, before the Node adapter.`);
  console.log(`    p90 in results.json.`);
}
if (raw.P5) {
  const shares = Object.values(raw.P5).flatMap((r) => ['get', 'create', 'list'].map((k) => r[k].preemptedShare));
  console.log(`P5: p50/p99 leave out samples during which the process was preempted (involuntary context switch;`);
  console.log(`    up to ${(Math.max(...shares) * 100).toFixed(1)}% of samples); p99 with them ("p99raw") is in results.json.`);
}
console.log(`P4: Node figures are measured inside fresh processes (performance.now() from before the import to after the first handle());`);
console.log(`    "runtime" is performance.now() at the first line of a child that imports nothing. workerd: Miniflare start → response;
    its target counts as met only when the upper quartile of the paired differences is within 5 ms (one worker start swings by tens of ms).`);
console.log(`"bound" rows (floors): what the figure cannot go below with this design, measured in the same run: P3, each build`);
console.log(`    with every serde, serde_json and core::fmt function emptied (p3-floor.mjs); P4, Node loading an empty .wasm, and
    loading (read, compile, instantiate: no request) the receiver floor module.`);
for (const n of notes) console.log(n);
const failed = rows.filter((r) => r.met === 'NO').length;
console.log(`${rows.filter((r) => r.met === 'yes').length} targets met, ${failed} missed. ${meta.seconds} s. Load average at end: ${meta.loadAverageAtEnd.join(' ')}`);

const out = path.join(BENCH_DIR, 'results.json');
fs.writeFileSync(out, JSON.stringify({ meta, rows, raw }, null, 2) + '\n');
console.log(`Results: ${path.relative(process.cwd(), out)}`);
