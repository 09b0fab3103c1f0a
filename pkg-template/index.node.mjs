// Node, ESM (`import` under the "node" condition). The wasm is read and instantiated
// synchronously when ./node-esm/mcp_task_core.js is first imported.
import { TaskEngine, TaskRequestor } from './node-esm/mcp_task_core.js';
import { guardFreed } from './extras.js';

guardFreed(TaskEngine);
guardFreed(TaskRequestor);

export * from './node-esm/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';

/** Resolves at once: on Node the module is ready on import. Kept for a uniform API. */
export async function init(_input) {}
