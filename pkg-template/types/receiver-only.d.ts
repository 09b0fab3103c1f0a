// Types of `mcp-task-core/receiver`: the receiver-only build (a smaller .wasm, no requestor).
// The same classes and functions as the main entry's receiver part.
//
//   import { init, TaskEngine } from 'mcp-task-core/receiver';
//   await init(); // browsers; resolves at once on Node and workerd
export { TextTaskEngine, TaskEngine, handleObject, drainOutputs, setRandomSource, init } from './index.js';
import type { TextTaskEngine } from './index.js';

/**
 * A fresh instance of the receiver wasm: a `TextTaskEngine` class whose engines live in a linear
 * memory of their own (the compiled module and the {@link setRandomSource} source are shared).
 * A wasm memory grows for a burst of tasks and never shrinks; an engine of a fresh instance,
 * restored from a {@link TextTaskEngine.snapshot} (both engines given one `cursorKey`), holds the
 * same tasks in a memory sized for them, and the old instance goes once its engines are freed.
 * The package's adapters do this themselves (their `recycle` option). Browsers: after `init()`.
 */
export function freshInstance(): { TextTaskEngine: typeof TextTaskEngine; memory: WebAssembly.Memory };

export type {
  TaskStatus,
  TaskSupport,
  Dialect,
  HandleOptions,
  TaskRequestMethod,
  Task,
  TaskPage,
  JsonRpcId,
  JsonRpcErrorObject,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  JsonRpcResponse,
  JsonRpcMessage,
  CapabilityOptions,
  TtlOptions,
  LimitOptions,
  RateLimitOptions,
  TaskEngineOptions,
  SendOutput,
  ExecuteOutput,
  ForwardOutput,
  InputResponseOutput,
  TextSendOutput,
  TextExecuteOutput,
  TextForwardOutput,
  CancelledOutput,
  ExpiredOutput,
  TextInputResponseOutput,
  AuditAction,
  AuditOutput,
  OutputsDroppedOutput,
  PersistOutput,
  StorageOptions,
  TaskEngineOutput,
  TextTaskEngineOutput,
  OutputShapes,
  TaskOutcome,
  TextTaskOutcome,
  TaskEngineErrorCode,
  TaskEngineError,
  ProtocolConstants,
  TaskFigures,
  TaskTelemetryOption,
} from './index.js';
