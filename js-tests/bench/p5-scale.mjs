// P5 — scale: one fresh child process per live-task count (see p5-scale-child.mjs).
import path from 'node:path';
import { BENCH_DIR, median, runNode } from './lib.mjs';

function op(samples, key) {
  const pick = (f) => median(samples.map(f));
  return {
    p50: pick((s) => s[key].p50),
    p99: pick((s) => s[key].p99),
    p99raw: pick((s) => s[key].p99raw),
    preemptedShare: pick((s) => s[key].preempted / s[key].samples),
  };
}

export async function benchScale({ sizes = [1_000, 100_000, 1_000_000], runsFor = (n) => (n >= 1_000_000 ? 1 : 3) } = {}) {
  const child = path.join(BENCH_DIR, 'p5-scale-child.mjs');
  const out = {};
  for (const n of sizes) {
    const samples = [];
    for (let r = 0; r < runsFor(n); r++) samples.push(await runNode(child, [String(n)], { nodeArgs: ['--expose-gc', '--max-old-space-size=8192'] }));
    const pick = (f) => median(samples.map(f));
    out[n] = {
      runs: samples.length,
      setupNsPerTask: pick((s) => s.setupNsPerTask),
      wasmBytesPerTask: pick((s) => s.wasmBytesPerTask),
      get: op(samples, 'get'),
      wireGet: op(samples, 'wireGet'),
      create: op(samples, 'create'),
      list: op(samples, 'list'),
      sweep: {
        expired: samples[0].sweep.expired,
        nsPerExpired: pick((s) => s.sweep.nsPerExpired),
        drainNsPerExpired: pick((s) => s.sweep.drainNsPerExpired),
        sweepMs: pick((s) => s.sweep.sweepNs) / 1e6,
      },
    };
  }
  return out;
}
