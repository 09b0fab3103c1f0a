// Types of `mcp-task-core/requestor`: the requestor-only build (a smaller .wasm, no receiver).
// The same classes as the main entry's requestor part.
//
//   import { init, TaskClient } from 'mcp-task-core/requestor';
//   await init(); // browsers; resolves at once on Node and workerd
export { TextTaskRequestor, shouldAugment, init } from './index.js';
export { TaskRequestor, TaskClient } from './requestor.js';
export type * from './requestor.js';
export type { Dialect, RequestorOutputShapes, TaskRequestorOptions, TextTaskRequestorOutput } from './index.js';
