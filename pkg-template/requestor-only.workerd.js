// `mcp-task-core/requestor` in Cloudflare Workers / workerd: the requestor-only build. workerd
// refuses `new WebAssembly.Module(bytes)`, so the .wasm is imported as a module and
// instantiated synchronously here.
import wasmModule from './requestor-web/mcp_task_core_requestor_bg.wasm';
import { initSync, TextTaskRequestor } from './requestor-web/mcp_task_core_requestor.js';
import { guardFreed } from './extras.js';
import { requestorClasses } from './requestor.js';

initSync({ module: wasmModule });
guardFreed(TextTaskRequestor);

export { TextTaskRequestor, shouldAugment } from './requestor-web/mcp_task_core_requestor.js';
export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */
export async function init(_input) {}
