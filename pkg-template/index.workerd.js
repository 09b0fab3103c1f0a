// Cloudflare Workers / workerd ("workerd" condition). workerd refuses
// `new WebAssembly.Module(bytes)`, so the .wasm is imported as a module (wrangler and
// Miniflare treat *.wasm imports as CompiledWasm) and instantiated synchronously here.
import wasmModule from './web/mcp_task_core_bg.wasm';
import { initSync, TextTaskEngine, TaskRequestor } from './web/mcp_task_core.js';
import { objectTaskEngine } from './engine.js';
import { guardFreed } from './extras.js';

initSync({ module: wasmModule });
guardFreed(TextTaskEngine);
guardFreed(TaskRequestor);

export * from './web/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';

/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
export const TaskEngine = objectTaskEngine(TextTaskEngine);

/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */
export async function init(_input) {}
