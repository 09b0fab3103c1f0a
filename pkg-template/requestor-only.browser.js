// `mcp-task-core/requestor` in browsers (and the "worker", "import" and "default" conditions):
// the requestor-only build, a smaller .wasm with `TextTaskRequestor` and `shouldAugment` and no
// receiver. Call `await init()` once first; with no argument the .wasm is fetched from next to
// ./requestor-web/mcp_task_core_requestor.js (import.meta.url).
import initWasm, * as raw from './requestor-web/mcp_task_core_requestor.js';
import { guardFreed, wasmLoader } from './extras.js';
import { browserRequestor } from './requestor.js';

guardFreed(raw.TextTaskRequestor);

const loader = wasmLoader(initWasm);

export const { TextTaskRequestor, shouldAugment, TaskRequestor, TaskClient } = browserRequestor(raw, loader);

/**
 * Loads and instantiates the requestor wasm once; later calls return the same promise.
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<any>} [input]
 * @returns {Promise<void>}
 */
export const init = loader.init;
