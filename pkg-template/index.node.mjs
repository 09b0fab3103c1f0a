// Node, ESM (`import` under the "node" condition). The wasm is read and instantiated
// synchronously when ./node-esm/mcp_task_core.js is first imported.
import { TaskEngine, TextTaskRequestor } from './node-esm/mcp_task_core.js';
import { guardFreed } from './extras.js';
import { requestorClasses } from './requestor.js';

guardFreed(TaskEngine);
guardFreed(TextTaskRequestor);

export * from './node-esm/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';
export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

/** Resolves at once: on Node the module is ready on import. Kept for a uniform API. */
export async function init(_input) {}
