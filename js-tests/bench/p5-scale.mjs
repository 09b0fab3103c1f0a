// P5 — scale: one fresh child process per live-task count (see p5-scale-child.mjs).
import path from 'node:path';
import { BENCH_DIR, median, runNode } from './lib.mjs';

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
      get: { p50: pick((s) => s.get.p50), p99: pick((s) => s.get.p99) },
      wireGet: { p50: pick((s) => s.wireGet.p50), p99: pick((s) => s.wireGet.p99) },
      create: { p50: pick((s) => s.create.p50), p99: pick((s) => s.create.p99) },
      list: { p50: pick((s) => s.list.p50), p99: pick((s) => s.list.p99) },
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
