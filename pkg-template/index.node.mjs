// Node, ESM (`import` under the "node" condition). The wasm is read and instantiated
// synchronously when ./node-esm/mcp_task_core.js is first imported.
export * from './node-esm/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';

/** Resolves at once: on Node the module is ready on import. Kept for a uniform API. */
export async function init(_input) {}
