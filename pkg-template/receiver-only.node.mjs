// `mcp-task-core/receiver` on Node (ESM): the receiver-only build, a smaller .wasm with the task
// engine and no requestor (servers, and the SDK and Durable Object adapters, load this one).
// Instantiated synchronously on import.
import { TextTaskEngine, setRandomSource, freshBindings } from './receiver-node-esm/mcp_task_core_receiver.js';
import { objectTaskEngine } from './engine.js';
import { guardFreed, freshInstances } from './extras.js';
import { fillRandom } from './node-random.js';

setRandomSource(fillRandom);
guardFreed(TextTaskEngine);

export { TextTaskEngine, setRandomSource } from './receiver-node-esm/mcp_task_core_receiver.js';
export { handleObject, drainOutputs } from './extras.js';

/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
export const TaskEngine = objectTaskEngine(TextTaskEngine);

/** Resolves at once: on Node the module is ready on import. Kept for a uniform API. */
export async function init(_input) {}

/**
 * A fresh instance of the receiver wasm: its own `TextTaskEngine` class and linear memory (the
 * compiled module and the random source are shared). A wasm memory never shrinks: the adapters
 * move their tasks into a fresh instance once a burst has expired (see `recycle`).
 */
export const freshInstance = freshInstances(freshBindings);
