// `mcp-task-core/receiver` in browsers (and the "worker", "import" and "default" conditions):
// the receiver-only build, a smaller .wasm with the task engine and no requestor. Call
// `await init()` once first; with no argument the .wasm is fetched from next to
// ./receiver-web/mcp_task_core_receiver.js (import.meta.url).
import initWasm, * as raw from './receiver-web/mcp_task_core_receiver.js';
import { browserEngine } from './engine.js';
import { guardFreed, wasmLoader, freshInstances } from './extras.js';

const loader = wasmLoader(initWasm);

guardFreed(raw.TextTaskEngine);

export { handleObject, drainOutputs } from './extras.js';
export const { TextTaskEngine, TaskEngine, setRandomSource } = browserEngine(raw, loader);

/**
 * Loads and instantiates the receiver wasm once; later calls return the same promise.
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<any>} [input]
 * @returns {Promise<void>}
 */
export const init = loader.init;

/**
 * A fresh instance of the receiver wasm: its own `TextTaskEngine` class and linear memory (the
 * compiled module and the random source are shared). A wasm memory never shrinks: the adapters
 * move their tasks into a fresh instance once a burst has expired (see `recycle`).
 */
export const freshInstance = freshInstances(() => {
  loader.assertLoaded('freshInstance()');
  return raw.freshBindings();
});
