// P9 — memory after a burst: the process's RSS once a soak of task bursts has expired, ours
// (WasmTaskStore) against the SDK's InMemoryTaskStore, each in its own child process
// (p9-burst-child.mjs), the two run side by side.
import path from 'node:path';
import { BENCH_DIR, runNode } from './lib.mjs';

export async function benchBurstMemory({ bursts = 8, n = 50_000, gapMs = 1000 } = {}) {
  const child = path.join(BENCH_DIR, 'p9-burst-child.mjs');
  const args = [String(bursts), String(n), String(gapMs)];
  const [ours, sdk] = await Promise.all(['wasm', 'sdk'].map((kind) => runNode(child, [kind, ...args])));
  return { bursts, n, gapMs, ours, sdk };
}
