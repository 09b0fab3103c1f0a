// Browsers (and the "worker", "import" and "default" conditions): wasm-bindgen --target web.
// Call `await init()` once before using anything else. With no argument the .wasm is fetched
// from next to ./web/mcp_task_core.js (import.meta.url); pass a URL, Response, bytes or a
// WebAssembly.Module to load it some other way.
import initWasm from './web/mcp_task_core.js';

export * from './web/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';

let ready;

/**
 * Loads and instantiates the wasm module once; later calls return the same promise.
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<any>} [input]
 * @returns {Promise<void>}
 */
export function init(input) {
  if (!ready) {
    ready = initWasm(input === undefined ? undefined : { module_or_path: input }).then(
      () => undefined,
      (err) => {
        ready = undefined;
        throw err;
      },
    );
  }
  return ready;
}
