import { liftedLimits } from './lib.mjs';
const { WasmTaskStore } = await import(process.env.BENCH_PKG_DIR + '/sdk.js');
const w = new WasmTaskStore({ pageSize: 10, limits: liftedLimits() });
await w.createTask({ ttl: 60000 }, 1, { method: 'tools/call' }, undefined);
w.cleanup();
