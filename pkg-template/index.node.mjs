// Node, ESM (`import` under the "node" condition). The wasm is read and instantiated
// synchronously when ./node-esm/mcp_task_core.js is first imported.
import { TextTaskEngine, TextTaskRequestor, setRandomSource } from './node-esm/mcp_task_core.js';
import { objectTaskEngine } from './engine.js';
import { guardFreed } from './extras.js';
import { requestorClasses } from './requestor.js';
import { fillRandom } from './node-random.js';

setRandomSource(fillRandom);
guardFreed(TextTaskEngine);
guardFreed(TextTaskRequestor);

export * from './node-esm/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';
export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
export const TaskEngine = objectTaskEngine(TextTaskEngine);

/** Resolves at once: on Node the module is ready on import. Kept for a uniform API. */
export async function init(_input) {}
