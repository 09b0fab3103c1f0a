// Types for `mcp-task-core/durable-object` (Cloudflare Workers): a Durable Object holding the
// task engine for one session or tenant, its records in the object's SQLite storage, and a whole
// MCP server over Streamable HTTP. `Request`, `Response` and `AbortSignal` are the Workers
// globals (@cloudflare/workers-types, or the DOM lib).
import type { AuditOutput, JsonRpcRequest, TaskEngineOptions, TaskFigures, TaskSupport, TaskTelemetryOption, TextExecuteOutput, TextTaskEngine } from 'mcp-task-core';
import type { OperatorView } from './operator-view.js';

/** What `taskConsole()` returns: the options of mcp-task-core/console's `taskConsole`, `authorize` required. */
export interface TaskObjectConsole {
  /** Decides each console request: `true` serves it, anything else (or a throw) answers 403. */
  authorize(request: Request): boolean | Promise<boolean>;
  /** Where the console is (default `/console`); not the MCP endpoint's path. */
  basePath?: string;
  /** The page's heading (default `Tasks`). */
  title?: string;
  /** How often the open event streams' poller lists the tasks, in ms (default 500). */
  pollMs?: number;
  /** Errors of `authorize` and of the view. Default: the object's `error()`. */
  onerror?(err: unknown): void;
}

/** The parts of a Durable Object namespace binding used for routing. */
export interface TaskObjectNamespace {
  idFromName(name: string): unknown;
  get(id: any): { fetch(request: Request): Promise<Response> };
}

/**
 * Sends `request` to the object of its session or tenant: `keyOf(request)` names it (default:
 * the `mcp-session-id` header, else `x-tenant`, else "default").
 */
export declare function routeToTaskObject(request: Request, namespace: TaskObjectNamespace, keyOf?: (request: Request) => string): Promise<Response>;

/** A row of a SQL query's cursor. */
export type TaskObjectSqlRow = Record<string, ArrayBuffer | string | number | null>;

/**
 * The parts of the Durable Object state (`ctx`) the class uses: its SQLite storage and alarm.
 * `DurableObjectState` of @cloudflare/workers-types has them; pass it as the second type
 * argument of {@link TaskEngineObject} to see the whole of it as `this.ctx`.
 */
export interface TaskObjectState {
  readonly storage: {
    readonly sql: {
      exec(query: string, ...bindings: any[]): Iterable<TaskObjectSqlRow> & { toArray(): TaskObjectSqlRow[] };
    };
    transactionSync<T>(closure: () => T): T;
    setAlarm(scheduledTime: number | Date): Promise<void>;
    deleteAlarm(): Promise<void>;
  };
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * A tool as {@link TaskEngineObject.tools} declares it: `tools/list` shows the rest of the
 * object as the tool's definition (`inputSchema` defaults to `{ type: 'object' }`).
 */
export interface TaskObjectTool {
  /**
   * The task policy (see `TaskSupport`): in 2025-11-25 `tools/list` it is the tool's
   * `execution.taskSupport` (`perCall` listed as `optional`); in 2026-07-28 the server decides
   * and the tool declares nothing. Omitted: never a task (its calls go to `forward`).
   */
  taskSupport?: TaskSupport;
  inputSchema?: { type: 'object'; [key: string]: unknown };
  title?: string;
  description?: string;
  outputSchema?: { [key: string]: unknown };
  annotations?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** What a client answers to `elicitation/create`. */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * What the work of one task gets (second argument of {@link TaskEngineObject.execute}).
 *
 *   async execute(task, work) {
 *     await work.setStatus('Reading the sources');
 *     const { action, content } = await work.elicit({ mode: 'form', message: 'Which tone?', requestedSchema });
 *     return { content: [{ type: 'text', text: `A ${content.tone} note` }] };
 *   }
 */
export interface TaskContext {
  readonly taskId: string;
  /** The engine context (principal) the task belongs to. */
  readonly context: string | null;
  /** The request that created the task (e.g. a `tools/call`: `request.params.name`, `request.params.arguments`). */
  readonly request: JsonRpcRequest & { params: { [key: string]: any } };
  /** Aborts when the task is cancelled or expires: stop the work. */
  readonly signal: AbortSignal;
  /** Sets (`null`: clears) the task's status message, which `tasks/get` shows; resolves once it is stored. */
  setStatus(message: string | null): Promise<void>;
  /**
   * Asks the client (e.g. `'elicitation/create'`, `'sampling/createMessage'`): the task is
   * `input_required` until it answers. 2026-07-28: the request is in `tasks/get`'s
   * `inputRequests` and answered by `tasks/update`; 2025-11-25: it travels on the client's
   * waiting `tasks/result` (an event stream) and is answered by a JSON-RPC response. Resolves
   * with the answer's result; rejects with an `Error` carrying the answer's JSON-RPC `code` and
   * `data`, with code -32021 (`data.requiredCapabilities`) when the client did not declare the
   * capability the request needs (nothing was sent), or with the abort reason when the task
   * ends first.
   */
  requestInput<R = { [key: string]: unknown }>(method: string, params?: { [key: string]: unknown }): Promise<R>;
  /** `requestInput('elicitation/create', params)`. */
  elicit(params: { message: string; [key: string]: unknown }): Promise<ElicitAnswer>;
  /** `requestInput('sampling/createMessage', params)`. */
  createMessage(params: { [key: string]: unknown }): Promise<{ [key: string]: unknown }>;
}

/** Options of {@link TaskEngineObject.handle}: what the transport knows beside the message. */
export interface TaskObjectHandleOptions {
  /** The request's `Mcp-Name` header (checked against `params.taskId` of 2026-07-28 `tasks/*`). */
  mcpName?: string;
  /** Each request a waiting `tasks/result` carries before its response (2025-11-25 input), as JSON text. */
  onMessage?: (text: string) => void;
  /** The HTTP request's headers: its `traceparent` parents the trace of a task it creates when the message carries none. */
  headers?: { get(name: string): string | null };
}

/**
 * Extend it (and bind it as a SQLite-backed Durable Object class). A whole MCP server of both
 * dialects over Streamable HTTP (`fetch`): it answers `initialize` (2025-11-25, with the
 * engine's `tasks` capability), `server/discover` (2026-07-28, with the engine's extension
 * capability: `{ resultType, supportedVersions, capabilities: { tools, extensions }, ttlMs,
 * cacheScope, _meta: { "io.modelcontextprotocol/serverInfo" } }`), `tools/list` (from
 * {@link tools}) and `ping` itself; task requests go to the engine, anything else to
 * {@link forward}. Every task change is written to table `mcp_tasks` with a compare-and-set
 * before anything after it is delivered; records are restored when the object starts; the
 * alarm is armed at the engine's next deadline (expiry, lease renewals) and `alarm()` runs
 * `handleTimeout()`.
 *
 * `Env`: the Worker's bindings (`this.env`). `State`: the type of `this.ctx` (for example
 * `DurableObjectState` of @cloudflare/workers-types).
 */
export declare class TaskEngineObject<Env = unknown, State extends TaskObjectState = TaskObjectState> {
  constructor(ctx: State, env: Env);
  protected readonly ctx: State;
  protected readonly env: Env;
  /** The engine (restored from storage). */
  readonly engine: TextTaskEngine;
  /**
   * TaskEngine options (tools, ttl, limits...), checked by the engine (an unknown key throws).
   * `storage` is set by the class: returning one throws a `TypeError`.
   */
  engineOptions(): Omit<TaskEngineOptions, 'storage'>;
  /**
   * The tools `tools/list` shows, by name; their task policies are registered with the engine.
   * A name also in `engineOptions().tools`, or a `taskSupport` the engine does not know,
   * throws a `TypeError` at start. Default: none.
   */
  tools(): { [name: string]: TaskObjectTool };
  /** The server's name and version (`initialize`, `server/discover`). Default: the class name, "1.0.0". */
  serverInfo(): { name: string; version: string; [key: string]: unknown };
  /** Lease of work running in this object, ms (a positive integer, else a `TypeError`). Default 30 000. */
  leaseMs(): number;
  /**
   * OpenTelemetry traces and metrics of the tasks: `{ api, tracer?, meter? }` with `api` the
   * `@opentelemetry/api` module the Worker bundles (workerd resolves no package at run time), or
   * `false`. Default: undefined (none).
   */
  telemetry(): TaskTelemetryOption | undefined;
  /**
   * The figures a dashboard shows: tasks by status, running work, work waiting for input, and
   * since this instance started, expirations, lease failures and storage errors.
   */
  figures(): TaskFigures;
  /**
   * Runs a task's work. A returned result (e.g. a `CallToolResult`) completes the task; a
   * throw fails it with the thrown `code` (an integer), `message` and `data`, else -32603.
   * Returning nothing leaves the outcome to {@link complete} / {@link fail}. Default: fails
   * the task (no executor).
   */
  execute(task: TextExecuteOutput, work: TaskContext): Promise<{ [key: string]: unknown } | void>;
  /** The work of `taskId` must stop (its `TaskContext.signal` has aborted). */
  cancelled(taskId: string): void;
  /**
   * A damaged row of `mcp_tasks` (unreadable, another task's record, a version that disagrees),
   * with what was found, for the operator's log (never sent to a client). Default:
   * `console.error`. A task held here fails with a storage-corruption error written over the
   * damage; a row found damaged at start is left out, and the object starts with the rest.
   */
  damaged(detail: string, taskId: string): void;
  /** Each audit record of the engine (with `engineOptions().audit: true`). Default: none kept. */
  audit(record: AuditOutput): void;
  /**
   * A fault with no request to go to: outputs the engine dropped (its queue full; `code`
   * `'outputs_dropped'` and `count`), a message for another context, a hook that threw.
   * Default: `console.error`.
   */
  error(error: Error & { code?: string; count?: number }): void;
  /**
   * A JSON-RPC message that is neither about tasks nor the handshake; the reply text or null.
   * Default: -32601 (HTTP 404 for a 2026-07-28 request).
   */
  forward(message: string, context: string | null): Promise<string | null>;
  /** The engine context of a request. Default: the routing key. */
  contextOf(request: Request): string | null;
  /**
   * The task console (mcp-task-core/console) as a route of this object, over `operatorView()`:
   * its options, with `authorize` required and `basePath` (default `/console`) not the MCP
   * endpoint's path; requests under `basePath` go to the console. Default: null (no console).
   */
  taskConsole(): TaskObjectConsole | null;
  /**
   * The trusted, server-side view of every task of this object, whatever context created it:
   * list (with a status filter), get, cancel (the work's signal fires), a task's pending input
   * requests and their answer (it reaches the work as the client's answer would). For the
   * console and the object's operator tools; no request to the MCP endpoint reaches it.
   */
  operatorView(): Required<Omit<OperatorView, 'subscribe'>>;
  /** One JSON-RPC message: the reply text (a `tasks/result` on a running task waits for it), or null. */
  handle(message: string, context?: string | null, options?: TaskObjectHandleOptions): Promise<string | null>;
  complete(taskId: string, resultJson: string): Promise<string>;
  fail(taskId: string, errorJson: string): Promise<string>;
  alarm(): Promise<void>;
  /**
   * POST one JSON-RPC message; the reply as JSON, or 202 without a body. A waiting
   * `tasks/result` that carries input requests answers as an event stream (when accepted).
   * A 2026-07-28 request whose `MCP-Protocol-Version` or `Mcp-Method` header disagrees with its
   * body gets -32020; -32020 and -32022 answer 400, a 2026-07-28 -32601 404; other methods than POST 405.
   * Under the console's `basePath` (see `taskConsole()`): the console.
   */
  fetch(request: Request): Promise<Response>;
}
