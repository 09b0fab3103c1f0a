// Types for `mcp-task-core/console`: a live web page of every task of a server, for operators.
// `Request` and `Response` are the fetch API's (Node 20+, Workers); `node` takes Node's
// `http.IncomingMessage` and `http.ServerResponse`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WasmTaskStore } from 'mcp-task-core/sdk';
import type { TasksExtension } from 'mcp-task-core/server';
import type { OperatorInputRequest, OperatorTask, OperatorTaskDetail, OperatorTaskStatus, OperatorView } from './operator-view.js';

export type { OperatorInputRequest, OperatorTask, OperatorTaskDetail, OperatorTaskStatus, OperatorView };

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
