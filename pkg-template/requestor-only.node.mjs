// `mcp-task-core/requestor` on Node (ESM): the requestor-only build, a smaller .wasm with
// `TextTaskRequestor` and `shouldAugment` and no receiver. Instantiated synchronously on import.
import { TextTaskRequestor } from './requestor-node-esm/mcp_task_core_requestor.js';
import { guardFreed } from './extras.js';
import { requestorClasses } from './requestor.js';

guardFreed(TextTaskRequestor);

export { TextTaskRequestor, shouldAugment } from './requestor-node-esm/mcp_task_core_requestor.js';
export const { TaskRequestor, TaskClient } = requestorClasses(TextTaskRequestor);

/** Resolves at once: on Node the module is ready on import. Kept for a uniform API. */
export async function init(_input) {}
