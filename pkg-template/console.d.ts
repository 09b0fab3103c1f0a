// Types for `mcp-task-core/console`: a live web page of every task of a server, for operators.
// `Request` and `Response` are the fetch API's (Node 20+, Workers); `node` takes Node's
// `http.IncomingMessage` and `http.ServerResponse`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WasmTaskStore } from 'mcp-task-core/sdk';
import type { TasksExtension } from 'mcp-task-core/server';

export type OperatorTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the operator sees it: the protocol's task, plus where it came from when known. */
export interface OperatorTask {
  taskId: string;
  status: OperatorTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds from `createdAt` until the task is deleted; `null`: no limit. */
  ttl: number | null;
  pollInterval?: number;
  /** The tool whose call created the task (`null` when not known). */
  tool: string | null;
  /** The context the task belongs to: the session ID, principal or tenant (`null` when not known). */
  context: string | null;
}

/** A task with its outcome: `result` (completed, or failed with a tool result) or `error` (failed with a JSON-RPC error). */
export interface OperatorTaskDetail extends OperatorTask {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** An input request a task waits on (an elicitation, a sampling request, ...). */
export interface OperatorInputRequest {
  /** The request's JSON-RPC id, as JSON text (how `answer` names it). */
  requestId: string;
  method: string;
  params: Record<string, unknown>;
}

/**
 * What the console reads: every task of the server, whatever context created it. Trusted,
 * server-side access: give it only to the console (or other operator tools), never to a client.
 */
export interface OperatorView {
  /** Every live task (with `status`, only those). */
  list(filter?: { status?: OperatorTaskStatus }): Promise<OperatorTask[]>;
  /** The task with its outcome, or `null` when no live task has this ID. */
  get(taskId: string): Promise<OperatorTaskDetail | null>;
  /** Cancels the task (its running work is told to stop). Rejects for a task that already ended. */
  cancel(taskId: string, message?: string): Promise<void>;
  /**
   * Optional (with `answer`): the input requests a task waits on, or `null` for no live task.
   * Without the pair the console shows that a task waits but cannot answer it.
   */
  input?(taskId: string): Promise<OperatorInputRequest[] | null>;
  /**
   * Optional (with `input`): answers a task's input request with `result` (e.g. an
   * `ElicitResult`); the waiting work gets it as it would get its client's answer. Rejects when
   * the task does not wait on that request.
   */
  answer?(taskId: string, requestId: string, result: Record<string, unknown>): Promise<void>;
  /**
   * Optional change hook: `listener(taskId)` after a task changed. The console lists again at
   * once; without the hook (or for changes it misses) it lists every `pollMs`.
   */
  subscribe?(listener: (taskId: string) => void): () => void;
}

/**
 * The operator view of a `WasmTaskStore` (SDK 1.x): every session's tasks via
 * `store.allSessions()`. It wraps this store's `createTask`, `updateTaskStatus` and
 * `storeTaskResult` (calling the originals) to note each task's tool and session and to report
 * changes at once. Tasks created before the view, or by another instance on the same storage,
 * have `tool` and `context` `null`. No `input`/`answer`: SDK 1.x carries a task's input requests
 * and their answers in its own Protocol (its message queue and response handlers), not in the
 * store, so the console shows that such a task waits but cannot answer it.
 */
export declare function sdkOperatorView(store: WasmTaskStore): OperatorView;

/**
 * The operator view of a `TasksExtension` (SDK 2.x): the tasks its engine holds, each read in
 * its own context (the principal), cancelled through the runtime (the work's `signal` fires),
 * and their input requests, answered as the client would answer them (`tasks/update`, or the
 * 2025-11-25 response). No change hook (the console polls); `tool` is `null` (the runtime does
 * not keep it). With `storage`, the tasks this instance holds.
 */
export declare function tasksExtensionOperatorView(tasks: TasksExtension): Required<Omit<OperatorView, 'subscribe'>>;

export interface TaskConsoleOptions {
  /**
   * Decides each request (page, event stream, JSON, cancel): `true` serves it, anything else
   * (or a throw) answers 403. Required: without it every request is refused. The event stream
   * is opened by the browser's `EventSource`, which sends cookies and HTTP auth but no custom
   * header, so decide on a cookie, HTTP auth, or the network the request comes from.
   * `nodeRequest` is Node's request when served by `node(req, res)`.
   */
  authorize?: (request: Request, nodeRequest?: IncomingMessage) => boolean | Promise<boolean>;
  /** Where the host mounts the console (default `/console`; `""` for the root). The page is at `basePath + "/"`. */
  basePath?: string;
  /** How often the open event streams' shared poller lists the tasks, in ms (default 500, at least 50). */
  pollMs?: number;
  /** The page's heading (default `Tasks`). */
  title?: string;
  /** Errors of `authorize` and of the view (the page shows the feed as down). */
  onerror?: (err: unknown) => void;
}

export interface TaskConsole {
  /**
   * The fetch-style handler (a Worker or Durable Object route): `GET basePath/` the page,
   * `GET basePath/events` server-sent events (`snapshot`, `task`, `gone`, `feed`),
   * `GET basePath/tasks[?status=]` and `GET basePath/tasks/{id}` JSON (with `inputRequests`
   * while the task waits on input, when the view has `input`), `POST basePath/tasks/{id}/cancel`
   * (JSON body `{ "message"?: string }`), `POST basePath/tasks/{id}/answer` (JSON body
   * `{ "requestId": string, "result": object }`).
   */
  fetch(request: Request): Promise<Response>;
  /** The same for Node's `http` server. */
  node(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Stops the poller and ends the open event streams. */
  close(): void;
}

/** The console's handler over an operator view. */
export declare function taskConsole(view: OperatorView, options?: TaskConsoleOptions): TaskConsole;
