// `mcp-task-core/receiver` in Cloudflare Workers / workerd: the receiver-only build (the Durable
// Object adapter uses it). workerd refuses `new WebAssembly.Module(bytes)`, so the .wasm is
// imported as a module and instantiated synchronously here.
import wasmModule from './receiver-web/mcp_task_core_receiver_bg.wasm';
import { initSync, TextTaskEngine, freshBindings } from './receiver-web/mcp_task_core_receiver.js';
import { objectTaskEngine } from './engine.js';
import { guardFreed, freshInstances } from './extras.js';

initSync({ module: wasmModule });
guardFreed(TextTaskEngine);

export { TextTaskEngine, setRandomSource } from './receiver-web/mcp_task_core_receiver.js';
export { handleObject, drainOutputs } from './extras.js';

/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
export const TaskEngine = objectTaskEngine(TextTaskEngine);

/** Resolves at once: the module is instantiated on import. Kept for a uniform API. */
export async function init(_input) {}

/**
 * A fresh instance of the receiver wasm: its own `TextTaskEngine` class and linear memory (the
 * compiled module and the random source are shared). A wasm memory never shrinks: the adapters
 * move their tasks into a fresh instance once a burst has expired (see `recycle`).
 */
export const freshInstance = freshInstances(freshBindings);
