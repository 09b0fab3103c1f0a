// Cloudflare Workers / workerd ("workerd" condition). workerd refuses
// `new WebAssembly.Module(bytes)`, so the .wasm is imported as a module (wrangler and
// Miniflare treat *.wasm imports as CompiledWasm) and instantiated synchronously here.
import wasmModule from './web/mcp_task_core_bg.wasm';
import { initSync, TextTaskEngine, TextTaskRequestor } from './web/mcp_task_core.js';
import { objectTaskEngine } from './engine.js';
import { guardFreed } from './extras.js';
import { requestorClasses } from './requestor.js';

initSync({ module: wasmModule });
guardFreed(TextTaskEngine);
guardFreed(TextTaskRequestor);

export * from './web/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';
export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
export const TaskEngine = objectTaskEngine(TextTaskEngine);

/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */
export async function init(_input) {}
