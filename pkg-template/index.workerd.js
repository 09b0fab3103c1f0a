// Cloudflare Workers / workerd ("workerd" condition). workerd refuses
// `new WebAssembly.Module(bytes)`, so the .wasm is imported as a module (wrangler and
// Miniflare treat *.wasm imports as CompiledWasm) and instantiated synchronously here.
import wasmModule from './web/mcp_task_core_bg.wasm';
import { initSync, TaskEngine, TaskRequestor } from './web/mcp_task_core.js';
import { guardFreed } from './extras.js';

initSync({ module: wasmModule });
guardFreed(TaskEngine);
guardFreed(TaskRequestor);

export * from './web/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';

/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */
export async function init(_input) {}
