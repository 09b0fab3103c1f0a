// `mcp-task-core/requestor` in browsers (and the "worker", "import" and "default" conditions):
// the requestor-only build, a smaller .wasm with `TextTaskRequestor` and `shouldAugment` and no
// receiver. Call `await init()` once first; with no argument the .wasm is fetched from next to
// ./requestor-web/mcp_task_core_requestor.js (import.meta.url).
import initWasm, * as raw from './requestor-web/mcp_task_core_requestor.js';
import { guardFreed, notInitialized } from './extras.js';
import { requestorClasses } from './requestor.js';

let ready;
let loaded = false;

guardFreed(raw.TextTaskRequestor);

export class TextTaskRequestor extends raw.TextTaskRequestor {
  constructor(options) {
    if (!loaded) throw notInitialized('new TaskRequestor() / new TextTaskRequestor()');
    super(options);
  }
}

export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

export function shouldAugment(capabilitiesJson, method, taskSupport, preferTask) {
  if (!loaded) throw notInitialized('shouldAugment()');
  return raw.shouldAugment(capabilitiesJson, method, taskSupport, preferTask);
}

/**
 * Loads and instantiates the requestor wasm once; later calls return the same promise.
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module | Promise<any>} [input]
 * @returns {Promise<void>}
 */
export function init(input) {
  if (!ready) {
    ready = initWasm(input === undefined ? undefined : { module_or_path: input }).then(
      () => {
        loaded = true;
      },
      (err) => {
        ready = undefined;
        throw err;
      },
    );
  }
  return ready;
}
