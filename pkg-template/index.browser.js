// Browsers (and the "worker", "import" and "default" conditions): wasm-bindgen --target web.
// Call `await init()` once before using anything else. With no argument the .wasm is fetched
// from next to ./web/mcp_task_core.js (import.meta.url); pass a URL, Response, bytes or a
// WebAssembly.Module to load it some other way.
import initWasm, * as raw from './web/mcp_task_core.js';
import { browserEngine } from './engine.js';
import { guardFreed, wasmLoader } from './extras.js';
import { browserRequestor } from './requestor.js';

export * from './web/mcp_task_core.js';
export { handleObject, drainOutputs } from './extras.js';

const loader = wasmLoader(initWasm);

guardFreed(raw.TextTaskEngine);
guardFreed(raw.TextTaskRequestor);

// Used before `await init()`, the bindings would fail with "Cannot read properties of
// undefined": these say what to do instead. (Local exports take precedence over `export *`.)
export const { TextTaskEngine, TaskEngine, setRandomSource } = browserEngine(raw, loader);
export const { TextTaskRequestor, shouldAugment, TaskRequestor, TaskClient } = browserRequestor(raw, loader);

/**
 * Loads and instantiates the wasm module once; later calls return the same promise.
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<any>} [input]
 * @returns {Promise<void>}
 */
export const init = loader.init;
