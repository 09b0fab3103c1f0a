import { runOurs } from './p1-wire.mjs';
const A = await import(process.env.A + '/index.node.mjs');
const B = await import(process.env.B + '/index.node.mjs');
const best = { A: Infinity, B: Infinity };
for (let r = 0; r < 16; r++) for (const [k, m] of [['A', A], ['B', B]]) {
  const res = await runOurs(2000, m.TextTaskEngine);
  const tot = Object.values(res.time).reduce((s, x) => s + x, 0);
  if (r > 1) best[k] = Math.min(best[k], tot);
}
console.log('P1 ours: A', best.A.toFixed(2), 'ms   B', best.B.toFixed(2), 'ms   B/A', (best.B / best.A).toFixed(3));
