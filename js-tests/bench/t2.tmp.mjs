import { benchStoreOps, benchListAtScale, benchStoreMemory } from './p2-store.mjs';
let t = performance.now();
console.log(await benchStoreOps({ n: 20000, warmup: 1, runs: 3 }), performance.now() - t); t = performance.now();
console.log(await benchListAtScale({}), performance.now() - t); t = performance.now();
console.log(await benchStoreMemory({ n: 20000, runs: 2 }), performance.now() - t);
