// P4 — cold start.
// Node: fresh `node p4-cold-child.mjs MODE` processes, measured inside the child (see there);
// the `empty` child gives the runtime's own start. Modes are interleaved; medians.
// workerd (Miniflare): from `new Miniflare(...)` to the first answered request (dispatchFetch
// resolved and its body read), for a Worker that imports mcp-task-core and answers one
// tools/call, minus the same for an empty Worker (no package modules at all). Interleaved; medians.
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { DEFAULT_COMPATIBILITY_DATE, startWorkerd } from '../helpers/workerd.mjs';
import { BENCH_DIR, PKG_DIR, median, quantile, runNode } from './lib.mjs';

const MESSAGE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}';

export async function benchColdNode({ runs = 15 } = {}) {
  const child = path.join(BENCH_DIR, 'p4-cold-child.mjs');
  const modes = ['empty', 'esm', 'cjs', 'phases'];
  const samples = Object.fromEntries(modes.map((m) => [m, []]));
  const wall = Object.fromEntries(modes.map((m) => [m, []]));
  // One untimed round first (file cache).
  for (const m of modes) await runNode(child, [m], { nodeArgs: [], env: { BENCH_PKG_DIR: PKG_DIR } });
  for (let r = 0; r < runs; r++) {
    for (const m of modes) {
      const t = performance.now();
      samples[m].push(await runNode(child, [m], { nodeArgs: [], env: { BENCH_PKG_DIR: PKG_DIR } }));
      wall[m].push(performance.now() - t);
    }
  }
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

const OURS_WORKER = `
import { TextTaskEngine } from 'mcp-task-core';
export default {
  fetch() {
    const engine = new TextTaskEngine({ tools: { slow: 'required' } });
    return new Response(engine.handle(${JSON.stringify(MESSAGE)}, 'session-1'));
  },
};`;
const EMPTY_WORKER = `export default { fetch() { return new Response('{"jsonrpc":"2.0","id":1,"result":{}}'); } };`;

async function timeWorker(kind) {
  const t = performance.now();
  let mf;
  let dispose;
  if (kind === 'ours') {
    ({ mf, dispose } = await startWorkerd({ script: OURS_WORKER, pkgDir: PKG_DIR }));
  } else {
    // The same Miniflare options as startWorkerd() builds, without the package's modules.
    mf = new Miniflare({
      host: '127.0.0.1',
      port: 0,
      compatibilityDate: DEFAULT_COMPATIBILITY_DATE,
      compatibilityFlags: [],
      modulesRoot: PKG_DIR,
      modules: [{ type: 'ESModule', path: path.join(PKG_DIR, '__test_worker__.mjs'), contents: EMPTY_WORKER }],
    });
    await mf.ready;
    dispose = () => mf.dispose();
  }
  const res = await mf.dispatchFetch('http://localhost/');
  const body = await res.text();
  const ms = performance.now() - t;
  await dispose();
  if (kind === 'ours' && !body.includes('"working"')) throw new Error(`workerd answered ${body}`);
  return ms;
}

export async function benchColdWorkerd({ runs = 7 } = {}) {
  await timeWorker('empty');
  await timeWorker('ours');
  const s = { ours: [], empty: [] };
  for (let r = 0; r < runs; r++) {
    s.empty.push(await timeWorker('empty'));
    s.ours.push(await timeWorker('ours'));
  }
  return {
    runs,
    oursMs: median(s.ours),
    emptyMs: median(s.empty),
    // Paired differences (each ours run against the empty run just before it), then the median.
    deltaMs: median(s.ours.map((o, i) => o - s.empty[i])),
    deltaQ1Ms: quantile(s.ours.map((o, i) => o - s.empty[i]), 0.25),
    deltaQ3Ms: quantile(s.ours.map((o, i) => o - s.empty[i]), 0.75),
    samples: s,
  };
}
