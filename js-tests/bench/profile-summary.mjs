// Summarise a V8 .cpuprofile (node --cpu-prof): self and inclusive time per function.
//   node js-tests/bench/profile-summary.mjs FILE.cpuprofile [TOP=30] [FILTER_REGEX]
//   UNDER=REGEX ...   only samples with a frame matching REGEX on the stack
import fs from 'node:fs';

const [file, topArg = '30', filter] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.mjs FILE.cpuprofile [TOP] [FILTER_REGEX]');
  process.exit(2);
}
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const deltas = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const id = prof.samples[i];
  self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const key = (n) => {
  const f = n.callFrame;
  const where = f.url ? f.url.split('/').slice(-2).join('/') : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
const selfBy = new Map();
const inclBy = new Map();
const under = process.env.UNDER ? new RegExp(process.env.UNDER) : null;
const onStack = (id, r) => {
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) if (r.test(key(byId.get(cur)))) return true;
  return false;
};
for (const [id, us] of self) {
  if (under && !onStack(id, under)) continue;
  const k = key(byId.get(id));
  selfBy.set(k, (selfBy.get(k) ?? 0) + us);
  // inclusive: every distinct function on the stack
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const kk = key(byId.get(cur));
    if (seen.has(kk)) continue;
    seen.add(kk);
    inclBy.set(kk, (inclBy.get(kk) ?? 0) + us);
  }
}
const re = filter ? new RegExp(filter) : null;
const show = (title, map) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  const rows = [...map].filter(([k]) => !re || re.test(k)).sort((a, b) => b[1] - a[1]).slice(0, Number(topArg));
  for (const [k, us] of rows) console.log(`${((us / total) * 100).toFixed(1).padStart(6)}%  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
};
show('SELF', selfBy);
show('INCLUSIVE', inclBy);
