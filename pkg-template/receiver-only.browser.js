// `mcp-task-core/receiver` in browsers (and the "worker", "import" and "default" conditions):
// the receiver-only build, a smaller .wasm with the task engine and no requestor. Call
// `await init()` once first; with no argument the .wasm is fetched from next to
// ./receiver-web/mcp_task_core_receiver.js (import.meta.url).
import initWasm, * as raw from './receiver-web/mcp_task_core_receiver.js';
import { objectTaskEngine } from './engine.js';
import { guardFreed, wasmLoader } from './extras.js';

const loader = wasmLoader(initWasm);

guardFreed(raw.TextTaskEngine);

export { handleObject, drainOutputs } from './extras.js';

// Used before `await init()`, the bindings would fail with "Cannot read properties of
// undefined": these say what to do instead.
export class TextTaskEngine extends raw.TextTaskEngine {
  constructor(options) {
    loader.assertLoaded('new TextTaskEngine()');
    super(options);
  }
}

/** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
export class TaskEngine extends objectTaskEngine(TextTaskEngine) {
  constructor(options) {
    loader.assertLoaded('new TaskEngine()');
    super(options);
  }
}

/** @param {((bytes: Uint8Array) => void) | undefined} fill */
export function setRandomSource(fill) {
  loader.assertLoaded('setRandomSource()');
  raw.setRandomSource(fill);
}

/**
 * Loads and instantiates the receiver wasm once; later calls return the same promise.
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<any>} [input]
 * @returns {Promise<void>}
 */
export const init = loader.init;
