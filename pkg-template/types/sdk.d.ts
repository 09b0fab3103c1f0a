// Types for `mcp-task-core/sdk`: a TaskStore and a TaskMessageQueue for the official TypeScript
// SDK `@modelcontextprotocol/sdk` 1.x (a peer dependency; imported here for types only).
//
//   import { WasmTaskStore, WasmTaskMessageQueue } from 'mcp-task-core/sdk';
//   const taskStore = new WasmTaskStore();                           // was: new InMemoryTaskStore()
//   const taskMessageQueue = new WasmTaskMessageQueue({ taskStore }); // was: new InMemoryTaskMessageQueue()
//   const server = new McpServer(info, { taskStore, taskMessageQueue, capabilities });
//
// Works the same with `Server`, and with `Client` for client-hosted tasks.
//
// Tasks are scoped to the session that created them. Server code that acts on a task outside a
// request uses `taskStore.allSessions()`: `taskStore.getTask(id)` -> `taskStore.allSessions().getTask(id)`.
import type { CreateTaskOptions, QueuedMessage, TaskMessageQueue, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CallToolResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { StorageHostOptions, TaskStorage } from 'mcp-task-core/storage';
import type { RecycleOptions, TaskFigures, TaskTelemetryOption } from 'mcp-task-core';

/**
 * Resource limits of a WasmTaskStore (each optional; `null` or `Infinity`: no limit). The
 * defaults keep what worked with `InMemoryTaskStore` working: it has no limits. A refusal throws
 * a `TaskStoreError` (-32603, reason `limit_exceeded`); see `propagateTaskCreationErrors`.
 */
export interface WasmTaskStoreLimits {
  /**
   * Running tasks (`working` or `input_required`) one session (or all session-less callers
   * together) may hold. Default: no limit.
   */
  maxRunningTasksPerKey?: number | null;
  /** Running tasks in the whole store. Default: no limit. */
  maxRunningTasksTotal?: number | null;
  /**
   * Stored bytes of one session's tasks (each live task counts 256 bytes and the texts it keeps:
   * ID, status message, result or error). A new task is refused while it is full. Default: no limit.
   */
  maxStoredBytesPerKey?: number | null;
  /** Stored bytes of every task in the store, counted the same way. Default: no limit. */
  maxStoredBytesTotal?: number | null;
  /**
   * Size of one stored result or error, in bytes of JSON text. Default 64 MiB (the engine keeps
   * results in wasm memory, which grows but never shrinks).
   */
  maxResultBytes?: number | null;
}

export interface WasmTaskStoreOptions extends StorageHostOptions {
  /** TTL granted when `createTask` gets no `ttl`. Default 3600000 (1 h). */
  defaultTtlMs?: number;
  /** Requested TTLs above this are clamped to it. Default 86400000 (24 h). */
  maxTtlMs?: number;
  /** Whether `ttl: null` may be granted as unlimited; otherwise it gets `maxTtlMs`. Default false. */
  allowUnlimitedTtl?: boolean;
  /** `pollInterval` of tasks whose creator gives none; `null` for none. Default 1000. */
  pollIntervalMs?: number | null;
  /** Tasks per `tasks/list` page. Default 50. */
  pageSize?: number;
  limits?: WasmTaskStoreLimits;
  /**
   * The clock (epoch milliseconds); the engine, the read cache and the timer all read it. Default:
   * `Date.now()`, read at each use (so fake timers installed after the store was built rule it).
   * Time going backwards is clamped.
   */
  now?: () => number;
  /**
   * Keep one timer per store at the next TTL deadline, so expired tasks are freed even when no
   * call comes (unref'd in Node). Expiry is also checked lazily on every call, so turning the
   * timer off never exposes an expired task. Default: on, unless `now` is given. With `storage`
   * the timer also renews the leases of work running here: keep it on.
   */
  timer?: boolean;
  /**
   * Tasks kept parsed in a read cache, so `getTask` of a task read or created here before
   * answers without the engine (the engine gives each answer's expiry; any change made here
   * drops it). Off with `storage` (other instances write). About 300 bytes of JS heap per
   * entry; the oldest goes first. `0` turns it off. Default 32768.
   */
  readCacheSize?: number;
  /**
   * Without `storage`: give the wasm memory back after a burst. A wasm memory grows for the peak of
   * live tasks and never shrinks; with recycling the engine lives in a wasm instance of its own
   * and, after an expiry, once that memory is at least `minBytes` and the engine holds at most a
   * `ratio`th of the most tasks it held, the tasks move into an engine of a fresh instance (every task, result,
   * status message, TTL and list cursor as it was) and the old memory is released. Only when
   * nothing is in flight: no running work, open stream, pending output or queued message.
   * `false` turns it off (the engine then lives in the shared instance). Default: on, with
   * `{ minBytes: 16 MiB, ratio: 4 }`.
   */
  recycle?: boolean | RecycleOptions;
  /**
   * Keep the tasks in an external storage shared by every instance (e.g.
   * `redisStorage(client)` from `mcp-task-core/redis`), so they survive a restart and any
   * instance serves any task. Each call loads the records it needs, runs the engine, writes
   * every change with a compare-and-set and, on a conflict, restores the stored record and runs
   * again. Running work holds a lease renewed every `pollIntervalMs` (at most `leaseMs / 3`): a
   * dead instance's tasks fail once it runs out, and a cancel made on another instance reaches
   * `onTaskCancelled` here at the next renewal.
   */
  storage?: TaskStorage;
  /**
   * With `storage`: each storage error no call sees, a timer round's (lease renewals, expiry),
   * which is tried again with backoff until the storage answers. For a dashboard or an alert;
   * calls get theirs as a thrown `TaskStoreError`.
   */
  onStorageError?: (error: TaskStoreError) => void;
  /**
   * OpenTelemetry traces and metrics of the tasks (see the README's "Traces and metrics").
   * Default: `@opentelemetry/api` if installed; `false`: off; `{ api, tracer?, meter? }`: those.
   */
  telemetry?: TaskTelemetryOption;
}

export type { TaskFigures, TaskTelemetryOption } from 'mcp-task-core';

// The storage interface lives in mcp-task-core/storage (no SDK types): re-exported here.
export type { StoragePersist, TaskStorage } from 'mcp-task-core/storage';

/**
 * A `TaskStore` on the mcp-task-core engine: one engine per store, the SDK's `sessionId` is the
 * engine's context.
 *
 * Semantics (where they differ from `InMemoryTaskStore`, ours follow the 2025-11-25 spec):
 * - `getTask` → `null` for unknown, expired or other sessions' tasks. Tasks created without a
 *   session are visible only to callers without a session, and session-less callers see no
 *   session's tasks (`InMemoryTaskStore` shows them every task, which leaks tasks across clients
 *   in stateless HTTP). Server code acting on any task uses `allSessions()`.
 * - `ttl: 0` expires at once; TTLs are clamped to `maxTtlMs`; `ttl: null` is unlimited only with
 *   `allowUnlimitedTtl`; a missing `ttl` gets `defaultTtlMs`. The TTL runs from creation.
 *   No per-task timers: expiry runs lazily on every call, plus one optional timer per store.
 * - `listTasks` throws on a cursor it did not issue to that session.
 * - `updateTaskStatus` / `storeTaskResult` throw on any move out of a terminal status; a
 *   cancelled task stays cancelled.
 * - A failed task's JSON-RPC error is replayed: `storeTaskResult(id, 'failed', error)` with an
 *   `Error` (such as the SDK's `McpError`; in TypeScript cast it, or use `jsonRpcErrorResult`)
 *   stores `{ code, message, data }` mapped exactly as the SDK maps an error thrown by a request
 *   handler (integer `code` or -32603, `message`, `data` if defined). `getTaskResult` then throws
 *   it as a `JsonRpcError`, so the SDK's `tasks/result` handler answers with that very JSON-RPC
 *   error instead of a result.
 * - No `node:crypto`: works in Node, browsers and workers.
 */
export declare class WasmTaskStore implements TaskStore {
  /**
   * Throws TypeError on invalid options (in browsers before `init()`: on the first call): an
   * unknown key (named, with the known ones), a storage option (`instanceId`, `leaseMs`,
   * `cursorKey`, `storageTimeoutMs`) without `storage`, a value of the wrong type.
   */
  constructor(options?: WasmTaskStoreOptions);
  createTask(taskParams: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string): Promise<Task>;
  getTask(taskId: string, sessionId?: string): Promise<Task | null>;
  /**
   * `result`: the CallToolResult (or other Result); for `failed`, also an `Error` or a
   * `jsonRpcErrorResult()` to record the JSON-RPC error the request failed with.
   */
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result | Error, sessionId?: string): Promise<void>;
  /** Throws `JsonRpcError` for a task that failed with a JSON-RPC error. */
  getTaskResult(taskId: string, sessionId?: string): Promise<Result>;
  updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void>;
  listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }>;
  /**
   * Trusted server-side access to every task, whatever session created it (the same view each
   * time). For server code only: background work, admin endpoints, tests. The SDK never calls it
   * (it calls the store's own, session-scoped methods), and its methods refuse a session ID.
   */
  allSessions(): WasmTaskStoreAllSessions;
  /**
   * `listener(taskId, sessionId)` runs when a task's running work must stop: cancelled here or,
   * with `storage`, ended by another instance (seen at the next lease renewal). Returns an
   * unsubscribe function. Background work hands it to its AbortController.
   */
  onTaskCancelled(listener: (taskId: string, sessionId: string | undefined) => void): () => void;
  /** `listener(taskId, sessionId)` runs when a task expires and is deleted; returns an unsubscribe function. */
  onTaskExpired(listener: (taskId: string, sessionId: string | undefined) => void): () => void;
  /** Every live task of every session (debugging; with `storage`: the ones this instance holds). */
  getAllTasks(): Task[];
  /** Live tasks held (with `storage`: held by this instance). */
  readonly size: number;
  /**
   * The figures a dashboard shows: tasks by status, running work (tasks created here with no
   * outcome stored yet), work waiting for input, and since start expirations, lease failures
   * and storage errors (with `storage`: this instance's).
   */
  figures(): TaskFigures;
  /** Deletes every task and stops the timer (with `storage`: forgets the local copies; the storage keeps its records). */
  cleanup(): void;
}

/**
 * `WasmTaskStore.allSessions()`: the store's methods without the session check, on any live
 * task. Same rules otherwise (terminal tasks stay terminal, a cancelled task stays cancelled,
 * expired tasks are gone). The SDK sends no `notifications/tasks/status` for changes made here.
 * Each method throws a `TypeError` if given a session ID: the view cannot serve requests.
 */
export interface WasmTaskStoreAllSessions {
  /** The store's figures (see `WasmTaskStore.figures`). */
  figures(): TaskFigures;
  /** The task, or `null` when no live task has this ID. */
  getTask(taskId: string): Promise<Task | null>;
  /** As `WasmTaskStore.getTaskResult`, for any session's task. */
  getTaskResult(taskId: string): Promise<Result>;
  /** As `WasmTaskStore.storeTaskResult`, for any session's task. */
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result | Error): Promise<void>;
  /** As `WasmTaskStore.updateTaskStatus`, for any session's task. */
  updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void>;
  /**
   * One page of every session's tasks: session by session (a page never mixes sessions), each
   * session's in creation order. Its cursors are its own.
   */
  listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }>;
}

export interface WasmTaskMessageQueueOptions {
  /**
   * Messages one task may have queued; `enqueue` throws beyond it. Default: no limit (as
   * `InMemoryTaskMessageQueue`; the SDK's `maxTaskQueueSize` option applies either way).
   */
  maxMessagesPerTask?: number;
  /**
   * Keep the messages in this store's engine: each task's session comes from the store, and the
   * messages of tasks that expire go with them.
   */
  taskStore?: WasmTaskStore;
}

/**
 * A `TaskMessageQueue`: one FIFO per task, messages kept as JSON text (they must be
 * JSON-serialisable), delivered only to the session the task belongs to (another session's
 * `dequeue` gets nothing, its `enqueue` throws -32602). `enqueue` throws when the SDK's `maxSize`
 * (`maxTaskQueueSize`) or `maxMessagesPerTask` is reached. With `{ taskStore }` the task's session
 * comes from the store (SDK versions before 1.32 enqueue side-channel requests without one) and
 * expired tasks' messages are dropped; without it the first session named binds the queue.
 */
export declare class WasmTaskMessageQueue implements TaskMessageQueue {
  constructor(options?: WasmTaskMessageQueueOptions);
  enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number): Promise<void>;
  dequeue(taskId: string, sessionId?: string): Promise<QueuedMessage | undefined>;
  dequeueAll(taskId: string, sessionId?: string): Promise<QueuedMessage[]>;
  /** Messages queued for one task, or for all tasks. */
  size(taskId?: string): number;
  /** Drops every queued message and unlinks the task store. */
  cleanup(): void;
}

/** The JSON-RPC error of a failed task, thrown by `getTaskResult`. */
export declare class JsonRpcError extends Error {
  constructor(code: number, message: string, data?: unknown);
  readonly code: number;
  readonly data?: unknown;
  toJSON(): { code: number; message: string; data?: unknown };
}

/**
 * Thrown by the store and the queue. `code`: the JSON-RPC code (sent to the peer with `message`);
 * `reason`: machine-readable:
 * - an engine error code (`TaskEngineErrorCode` of mcp-task-core: `unknown_task`,
 *   `already_terminal`, `invalid_argument`, `invalid_cursor`, `limit_exceeded`, ...);
 * - `no_result`: `getTaskResult` for a task that ended without a stored result (cancelled, or
 *   set `completed`/`failed` by `updateTaskStatus` without `storeTaskResult`); code -32603;
 * - `storage_unavailable`: the external storage failed or timed out; code -32603;
 * - `storage_conflict`: the task kept changing under the operation (compare-and-set conflicts); code -32603.
 */
export declare class TaskStoreError extends Error {
  constructor(code: number, message: string, reason: string);
  readonly code: number;
  readonly reason: TaskStoreErrorReason;
}

/** See {@link TaskStoreError}. */
export type TaskStoreErrorReason = import('mcp-task-core').TaskEngineErrorCode | 'no_result' | 'storage_unavailable' | 'storage_conflict';

/** `_meta` key under which `jsonRpcErrorResult` carries the JSON-RPC error. */
export declare const JSONRPC_ERROR_META_KEY: 'mcp-task-core/jsonrpc-error';

/**
 * A failed CallToolResult (`isError: true`, the error message as text) that also carries the
 * JSON-RPC error `{ code, message, data? }` of `error` (mapped like the SDK maps a thrown
 * handler error). `extra.taskStore.storeTaskResult(taskId, 'failed', jsonRpcErrorResult(err))`:
 * WasmTaskStore replays the JSON-RPC error on `tasks/result`; other stores return the tool result.
 */
export declare function jsonRpcErrorResult(error: unknown): CallToolResult;

/**
 * Makes a task store's refusal to create a task (e.g. a `limits` refusal, or "Task storage
 * unavailable") reach the client as the JSON-RPC error of the task-augmented request (`code`,
 * `message`, `data` of the thrown error), instead of `McpServer`'s "-32602 Invalid task creation
 * result". On an `McpServer`, `Server` or `Client` of SDK 1.x; returns its argument; once is
 * enough. Works with any task store. Relies on the SDK's request handler map
 * (`Protocol._requestHandlers`); throws a `TypeError` if `server` has none.
 *
 * In Node a `WasmTaskStore` does this by itself: it gives every SDK server or client that holds
 * it this wrapping at its first request (it loads the SDK installed beside this package and wraps
 * its `Protocol.prototype._onrequest`, for Protocols holding a `WasmTaskStore` only). Call it
 * yourself in browsers and workers, with another task store, or where the server's SDK is
 * another copy than the one beside this package.
 */
export declare function propagateTaskCreationErrors<T extends object>(server: T): T;

/** The companion tools' names (see {@link withCompanionTools}). Defaults: `task_status`, `task_cancel`. */
export interface CompanionToolNames {
  status?: string;
  cancel?: string;
}

/**
 * Tasks for clients that do not speak tasks, on one `McpServer` of SDK 1.x whose server holds a
 * task store (opt-in; returns its argument; once per server). A task tool (`registerToolTask`,
 * `taskSupport` `'required'` or `'optional'`) called without `params.task` by a client whose
 * `initialize` declared no `tasks` capability runs as a task and answers at once with a
 * `CallToolResult` that names it (text, and `_meta["io.modelcontextprotocol/related-task"].taskId`)
 * and says what to call next. Two tools, listed only to such clients (which see task tools as
 * plain tools), follow it: `task_status({ taskId })` (status, status message and, once done, the
 * outcome) and `task_cancel({ taskId })`. They answer through the server's own `tasks/get`,
 * `tasks/result` and `tasks/cancel` handlers: a task is found exactly where `tasks/get` finds it
 * (another session's is not). Such a client never calls `tasks/result`, so it cannot answer an
 * input request: in these tasks the `extra.sendRequest` given to `createTask` rejects with
 * -32021 (nothing sent or queued) and the tool decides. Relies on the SDK's request handler map, as
 * {@link propagateTaskCreationErrors} does; throws a `TypeError` for anything but an `McpServer`.
 */
export declare function withCompanionTools<T extends object>(server: T, names?: CompanionToolNames): T;
