// P4 — cold start.
// Node: fresh `node p4-cold-child.mjs MODE` processes, measured inside the child (see there);
// the `empty` child gives the runtime's own start, the `floor` child what loading an empty .wasm
// from an ES module costs, and `floor-receiver` the same for P3's receiver floor module (no
// JSON or formatting code), when the run made it (p4-floor-loader.mjs). Interleaved; medians.
// workerd (Miniflare): from `new Miniflare(...)` to the first answered request (dispatchFetch
// resolved and its body read), for a Worker that imports mcp-task-core/receiver (or the main
// entry, both roles) and answers one tools/call, minus the same for an empty Worker (no package
// modules at all). Interleaved; medians.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { DEFAULT_COMPATIBILITY_DATE, startWorkerd } from '../helpers/workerd.mjs';
import { BENCH_DIR, PKG_DIR, median, quantile, runNode } from './lib.mjs';

const MESSAGE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}';

/** `receiverFloorWasm`: P3's receiver floor module of this run (p3-floor.mjs), if it made one. */
export async function benchColdNode({ runs = 15, receiverFloorWasm = null } = {}) {
  const child = path.join(BENCH_DIR, 'p4-cold-child.mjs');
  const floorWasm = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-core-p4-')), 'empty.wasm');
  fs.writeFileSync(floorWasm, Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
  const modes = ['empty', 'floor', ...(receiverFloorWasm ? ['floor-receiver'] : []), 'receiver-esm', 'receiver-cjs', 'esm', 'cjs', 'phases'];
  const env = { BENCH_PKG_DIR: PKG_DIR, BENCH_FLOOR_WASM: floorWasm, BENCH_FLOOR_RECEIVER_WASM: receiverFloorWasm ?? '' };
  const samples = Object.fromEntries(modes.map((m) => [m, []]));
  const wall = Object.fromEntries(modes.map((m) => [m, []]));
  // One untimed round first (file cache).
  for (const m of modes) await runNode(child, [m], { nodeArgs: [], env });
  for (let r = 0; r < runs; r++) {
    for (const m of modes) {
      const t = performance.now();
      samples[m].push(await runNode(child, [m], { nodeArgs: [], env }));
      wall[m].push(performance.now() - t);
    }
  }
  fs.rmSync(path.dirname(floorWasm), { recursive: true, force: true });
  const out = { runs };
  for (const m of modes) {
    out[m] = {
      startMs: median(samples[m].map((s) => s.start)),
      answeredMs: median(samples[m].map((s) => s.answered)),
      deltaMs: median(samples[m].map((s) => s.delta)),
      spawnToExitMs: median(wall[m]),
    };
  }
  // Where the ESM figure goes (medians per phase, from the `phases` child).
  out.phases = Object.fromEntries(Object.keys(samples.phases[0].phases).map((k) => [k, median(samples.phases.map((s) => s.phases[k]))]));
  return out;
}

const worker = (specifier) => `
import { TextTaskEngine } from '${specifier}';
export default {
  fetch() {
    const engine = new TextTaskEngine({ tools: { slow: 'required' } });
    return new Response(engine.handle(${JSON.stringify(MESSAGE)}, 'session-1'));
  },
};`;
/** The receiver-only build (what a task server loads), and the main entry (both roles). */
const OURS_WORKERS = { receiver: worker('mcp-task-core/receiver'), full: worker('mcp-task-core') };
const EMPTY_WORKER = `export default { fetch() { return new Response('{"jsonrpc":"2.0","id":1,"result":{}}'); } };`;

/**
 * P3's receiver floor module (no JSON or formatting code) instantiated on the first request,
 * which it cannot answer: workerd's share of loading our code, with none of it run.
 */
const FLOOR_WORKER = `import floor from './floor.wasm';
export default {
  fetch() {
    const imports = {};
    for (const { module, name } of WebAssembly.Module.imports(floor)) (imports[module] ??= {})[name] = () => { throw new Error(name); };
    new WebAssembly.Instance(floor, imports);
    return new Response('{"jsonrpc":"2.0","id":1,"result":{"task":{"status":"working"}}}');
  },
};`;

/** A Worker of the given modules with the Miniflare options startWorkerd() builds, without the package's. */
async function startBareWorker(modules) {
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    compatibilityDate: DEFAULT_COMPATIBILITY_DATE,
    compatibilityFlags: [],
    modulesRoot: PKG_DIR,
    modules,
  });
  await mf.ready;
  return { mf, dispose: () => mf.dispose() };
}

async function timeWorker(kind, receiverFloorWasm) {
  const t = performance.now();
  const worker = path.join(PKG_DIR, '__test_worker__.mjs');
  const { mf, dispose } =
    kind === 'floor'
      ? await startBareWorker([
          { type: 'ESModule', path: worker, contents: FLOOR_WORKER },
          { type: 'CompiledWasm', path: path.join(PKG_DIR, 'floor.wasm'), contents: fs.readFileSync(receiverFloorWasm) },
        ])
      : kind === 'empty'
        ? await startBareWorker([{ type: 'ESModule', path: worker, contents: EMPTY_WORKER }])
        : await startWorkerd({ script: OURS_WORKERS[kind], pkgDir: PKG_DIR });
  const res = await mf.dispatchFetch('http://localhost/');
  const body = await res.text();
  const ms = performance.now() - t;
  await dispose();
  if (kind !== 'empty' && !body.includes('"working"')) throw new Error(`workerd answered ${body}`);
  return ms;
}

/** `receiverFloorWasm`: as for benchColdNode; adds the `floor` worker (FLOOR_WORKER). */
export async function benchColdWorkerd({ runs = 7, receiverFloorWasm = null } = {}) {
  const kinds = ['empty', 'receiver', 'full', ...(receiverFloorWasm ? ['floor'] : [])];
  for (const k of kinds) await timeWorker(k, receiverFloorWasm);
  const s = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let r = 0; r < runs; r++) for (const k of kinds) s[k].push(await timeWorker(k, receiverFloorWasm));
  // Paired differences (each run against the empty run of the same round), then the median.
  const delta = (k) => s[k].map((o, i) => o - s.empty[i]);
  const figures = (k) => ({ ms: median(s[k]), deltaMs: median(delta(k)), deltaQ1Ms: quantile(delta(k), 0.25), deltaQ3Ms: quantile(delta(k), 0.75) });
  return { runs, emptyMs: median(s.empty), receiver: figures('receiver'), full: figures('full'), floor: receiverFloorWasm ? figures('floor') : null, samples: s };
}
