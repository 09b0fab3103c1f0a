import { benchWire } from '/work/main/js-tests/bench/p1-wire.mjs';
const r = await benchWire({ n: 2000, warmup: 1, runs: 3 });
console.log(JSON.stringify(r, null, 1));
console.log('ratio', r.ours.opsPerSec / r.sdk.opsPerSec);
