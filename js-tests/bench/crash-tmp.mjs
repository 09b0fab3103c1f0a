import { benchStoreOps } from './p2-store.mjs';
await benchStoreOps({ n: 20_000, listPages: 200, warmup: 1, runs: 7 });
console.log('ok');
