// Cloudflare Workers / workerd ("workerd" condition). workerd refuses
// `new WebAssembly.Module(bytes)`, so the .wasm is imported as a module (wrangler and
// Miniflare treat *.wasm imports as CompiledWasm) and instantiated synchronously here.
import wasmModule from './web/mcp_task_core_bg.wasm';
import { initSync, TaskEngine, TextTaskRequestor } from './web/mcp_task_core.js';
import { guardFreed } from './extras.js';
import { requestorClasses } from './requestor.js';

initSync({ module: wasmModule });
guardFreed(TaskEngine);
guardFreed(TextTaskRequestor);

export * from './web/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';
export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */
export async function init(_input) {}
