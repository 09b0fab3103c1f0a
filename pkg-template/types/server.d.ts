// Types for `mcp-task-core/server`: the task runtime of the official TypeScript SDK 2.x
// (`@modelcontextprotocol/server` >= 2.4, a peer dependency; imported here for types only) for
// the tasks extension `io.modelcontextprotocol/tasks` (protocol 2026-07-28) and MCP 2025-11-25
// tasks, from one engine.
//
//   import { TasksExtension } from 'mcp-task-core/server';
//   const tasks = new TasksExtension();
//   tasks.registerTool('report', { taskSupport: 'optional', inputSchema }, async (args, task) => { ... });
//   const handler = tasks.withTaskListen(createMcpHandler(() => {
//     const server = new McpServer(info);
//     tasks.install(server); // registers `report` on it
//     return server;
//   }));
import type {
  AuthInfo,
  CallToolResult,
  ElicitRequestFormParams,
  ElicitResult,
  Icon,
  McpHttpHandler,
  McpServer,
  RegisteredTool,
  ServerContext,
  StandardSchemaWithJSON,
  ToolAnnotations,
  Transport,
} from '@modelcontextprotocol/server';
import type { RecycleOptions, TaskEngine, TaskEngineOptions, TaskFigures, TaskTelemetryOption, TextTaskEngine } from 'mcp-task-core';
import type { StorageHostOptions, TaskStorage } from 'mcp-task-core/storage';

/** What `fastPath` must know of the SDK hosting it sits in front of. */
export interface FastPathOptions {
  /** The `maxRequestBodySize` given to `toNodeHandler` / `createMcpHandler` (default: theirs, 4 MiB). */
  maxRequestBodySize?: number;
  /** The `responseMode` given to `createMcpHandler`: with `'sse'` every request goes to the SDK. */
  responseMode?: 'auto' | 'json' | 'sse';
}

/**
 * A tool's task policy, decided per request by the engine:
 * - `'required'`: always a task; a client that did not declare the extension gets `-32021`
 *   (2025-11-25: a call without `task` gets `-32601`).
 * - `'optional'`: a task when the client declared the extension (2025-11-25: sent `task`), a
 *   plain call otherwise.
 * - `'perCall'`: a plain call unless `runAsTask(args, ctx)` says so (and the client declared
 *   the extension).
 */
export type TaskToolPolicy = 'required' | 'optional' | 'perCall';

export interface TasksExtensionOptions extends StorageHostOptions {
  /** The engine to use (e.g. one shared with other hosts; a `TaskEngine` is used through its `textEngine`). Default: `new TextTaskEngine(engineOptions)`. */
  engine?: TextTaskEngine | TaskEngine;
  /** Options of the engine created when `engine` is not given (TTL, poll interval, limits, ...). */
  engineOptions?: TaskEngineOptions;
  /**
   * The principal tasks are bound to, from the request's verified `authInfo` (`undefined`
   * without authentication): every `tasks/*` request, listen stream and waiting `tasks/result`
   * sees only its principal's tasks. Default: the token's subject, `authInfo.extra.sub`, within
   * its OAuth client (`authInfo.clientId`); `null` without `authInfo` (task IDs, random UUIDs,
   * are then the only bearer of access). A verified token that names no subject is refused
   * (-32603): `clientId` alone names the client application, which all its users share.
   */
  principal?: (authInfo: AuthInfo | undefined) => string | null;
  /** Errors that have no request to go to (e.g. an outcome the engine refused, dropped outputs). */
  onerror?: (error: unknown) => void;
  /**
   * Where the engine's audit records go (creation, status changes, result fetches, expiry,
   * refused access, limits). Giving it turns `audit` on in the engine this runtime creates;
   * `engineOptions.audit` without it is refused.
   */
  onaudit?: (record: import('mcp-task-core').AuditOutput) => void;
  /**
   * Whose allowance a request spends: the engine's rate limit, running tasks and stored bytes
   * per key (`engineOptions.limits`), apart from whose tasks it sees (the principal). Default:
   * the transport's session (`ctx.sessionId`); else, authenticated, the principal; else the
   * client address in `addressHeader` when given (a header the host or its trusted proxy sets,
   * e.g. `'x-forwarded-for'`, whose last address is used); else none: every anonymous request
   * then spends one shared allowance. A function `(ctx, principal) => key` decides it instead
   * (`null` or `undefined`: the principal's allowance).
   */
  quotaKey?: QuotaKeyOption;
  /**
   * Tasks for clients that do not speak tasks (off by default). With it, a task tool called by a
   * client that declared no task support (2026-07-28: no `io.modelcontextprotocol/tasks` in the
   * request's client capabilities; 2025-11-25: no `tasks` capability and no `params.task`) runs as
   * a task and answers at once with a `CallToolResult` that names it (text, and
   * `_meta["io.modelcontextprotocol/related-task"].taskId`) and says what to call next; two tools
   * follow it: `task_status({ taskId })` (status, status message and, once done, the outcome) and
   * `task_cancel({ taskId })`. They reach tasks exactly as `tasks/get` and `tasks/cancel` do (a
   * task of another principal is not found) and are listed only to clients that do not speak
   * tasks (which see task tools as plain tools). Such a client cannot answer an input request:
   * in these tasks `requestInput` rejects with -32021, nothing sent. A tool the server registers
   * under a companion's name keeps it. `true` for these names, or `{ status, cancel }`.
   */
  companionTools?: boolean | CompanionToolNames;
  /**
   * The engine the runtime creates without `storage` (not a given `engine`): give the wasm memory back after a burst. A wasm memory grows for the peak of
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
   * Keep the tasks in an external storage shared by every instance (`redisStorage(client)` from
   * `mcp-task-core/redis`, or your own), the one `WasmTaskStore` takes, so they survive a
   * restart and any instance serves `tasks/get`, `tasks/update` and `tasks/cancel` of any task.
   * Every change is written through `StorageLoop` (`mcp-task-core/storage`) with a
   * compare-and-set before anything that follows it is sent (a `CreateTaskResult` only once the
   * task is written). Work runs where it started and holds a lease renewed every
   * `engineOptions.pollIntervalMs` (at most `leaseMs / 3`): a cancel or an input answer given to
   * another instance reaches it at the next renewal; the tasks of an instance that died fail
   * with a -32603 lease error once it runs out. With it, `create` returns a promise.
   * Not with `engine` (the runtime creates the engine of its storage mode).
   */
  storage?: TaskStorage;
  /**
   * With `storage`: each storage error no request sees: a timer round (lease renewals, expiry)
   * or a work's outcome that the storage did not take (both are tried again, with backoff, until
   * it answers). For a dashboard or an alert; requests get theirs as a -32603 answer.
   */
  onstorageerror?: (error: Error & { reason?: string }) => void;
  /**
   * OpenTelemetry traces and metrics of the tasks (see the README's "Traces and metrics").
   * Default: `@opentelemetry/api` if installed; `false`: off; `{ api, tracer?, meter? }`: those.
   */
  telemetry?: TaskTelemetryOption;
}

export type { TaskFigures, TaskTelemetryOption } from 'mcp-task-core';

/** See {@link TasksExtensionOptions.companionTools}. Defaults: `task_status`, `task_cancel`. */
export interface CompanionToolNames {
  status?: string;
  cancel?: string;
}

/** See {@link TasksExtensionOptions.quotaKey}. */
export type QuotaKeyOption = ((ctx: ServerContext, principal: string | null) => string | null | undefined) | { addressHeader?: string };

/** `McpServer.registerTool`'s config, plus the task policy. */
export interface TaskToolConfig<Schema extends StandardSchemaWithJSON | undefined = undefined> {
  taskSupport: TaskToolPolicy;
  /** For `'perCall'`: whether this call runs as a task. */
  runAsTask?: (args: TaskToolArgs<Schema>, ctx: ServerContext) => boolean | Promise<boolean>;
  title?: string;
  description?: string;
  inputSchema?: Schema;
  outputSchema?: StandardSchemaWithJSON;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

export type TaskToolArgs<Schema extends StandardSchemaWithJSON | undefined> = Schema extends StandardSchemaWithJSON
  ? StandardSchemaWithJSON.InferOutput<Schema>
  : undefined;

/**
 * The outcome of a task tool: what it returns is the task's result (`isError: true` included:
 * `completed` on 2026-07-28, `failed` on 2025-11-25); a thrown error with an integer `code`
 * (e.g. `TaskProtocolError`, the SDK's `ProtocolError`) fails the task with that JSON-RPC
 * error; any other throw becomes an `isError` result, as the SDK does for a plain call.
 */
export type TaskToolHandler<Schema extends StandardSchemaWithJSON | undefined> = (
  args: TaskToolArgs<Schema>,
  task: TaskContext,
) => CallToolResult | Promise<CallToolResult>;

/**
 * The flat `CreateTaskResult` of the tasks extension (`resultType: "task"` and the task's
 * fields). Return it from the tool handler that called {@link TasksExtension.create}.
 */
export interface TaskCreatedResult {
  resultType: 'task';
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  _meta?: Record<string, unknown>;
}

/** What a task tool's handler gets. */
export declare class TaskContext {
  private constructor();
  /** The task's ID; `undefined` when this call runs without a task (a plain call). */
  readonly taskId: string | undefined;
  readonly isTask: boolean;
  /**
   * In a task: aborts on `tasks/cancel`, `TasksExtension.cancel` and expiry (`reason` is an
   * `AbortError` whose `reason` is `'cancelled'` or `'expired'`). In a plain call: the request's.
   */
  readonly signal: AbortSignal;
  /**
   * The `tools/call` that started this: in a plain call the SDK's `ctx.mcpReq`; in a task a
   * snapshot of its `id`, `method`, `_meta` and `envelope` (the request is answered by then).
   */
  readonly mcpReq: ServerContext['mcpReq'] | Readonly<Pick<ServerContext['mcpReq'], 'id' | 'method' | '_meta' | 'envelope'>>;
  readonly authInfo: AuthInfo | undefined;
  /**
   * Asks the client something (`elicitation/create`, `sampling/createMessage`, ...): the task
   * is `input_required` with this request in `inputRequests` until the client answers with
   * `tasks/update` (2025-11-25: sent on the client's `tasks/result`). Resolves with the answer;
   * rejects with a `TaskProtocolError` when the client answers an error, and when the task is
   * cancelled or expires. Rejects at once without a task, and with a `TaskProtocolError` of code
   * -32021 (`data.requiredCapabilities`; nothing sent) when the client did not declare what the
   * request needs (`elicitation`, its `url` mode, `sampling`, `sampling.tools`, `roots`) on the
   * `tools/call` that created the task (2025-11-25: in its session's `initialize`). Catch it to
   * go on without the answer; thrown on, it fails the task with that error.
   */
  requestInput<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** `requestInput('elicitation/create', params)`. */
  elicit(params: ElicitRequestFormParams | Record<string, unknown>): Promise<ElicitResult>;
  /** `requestInput('sampling/createMessage', params)`. */
  createMessage<T = Record<string, unknown>>(params: Record<string, unknown>): Promise<T>;
  /**
   * Sets (or with `null` clears) the task's `statusMessage`. Does nothing without a task. With
   * `storage`, a promise settled once it is written (it never rejects: errors go to `onerror`).
   */
  setStatus(message: string | null): void | Promise<void>;
}

/** A task driven by the server's own code (from `TasksExtension.create` + `handle`). */
export declare class TaskHandle {
  private constructor();
  readonly taskId: string;
  /** Aborts on `tasks/cancel`, `TasksExtension.cancel` and expiry. */
  readonly signal: AbortSignal;
  /** Sets (or with `null` clears) the `statusMessage`. Does nothing once the task ended. With `storage`, a promise (as `TaskContext.setStatus`). */
  status(message: string | null): void | Promise<void>;
  /** As `TaskContext.requestInput`. */
  requireInput<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /**
   * The task's result (a tool result). Ignored once the task was cancelled or expired. With
   * `storage`, a promise settled once written (retried while the storage is unavailable; never rejects).
   */
  complete(result: CallToolResult | Record<string, unknown>): void | Promise<void>;
  /** Fails the task with a JSON-RPC error (`{ code, message, data? }`, or an error carrying them). As `complete` with `storage`. */
  fail(error: { code: number; message: string; data?: unknown } | Error): void | Promise<void>;
}

/** A JSON-RPC error (`code`, `message`, `data`), as the SDK sends a handler's throw. */
export declare class TaskProtocolError extends Error {
  constructor(code: number, message: string, data?: unknown);
  readonly code: number;
  readonly data?: unknown;
}

/**
 * The task runtime for SDK 2.x servers: one per process (it holds the engine), installed on
 * every `McpServer` (one per request under `createMcpHandler`).
 */
export declare class TasksExtension {
  constructor(options?: TasksExtensionOptions);
  /** The engine: every task rule lives there. Recycling (`recycle`) replaces it: read it at each use. */
  readonly engine: TextTaskEngine;
  /** `{ "io.modelcontextprotocol/tasks": {} }`, the `capabilities.extensions` entry. */
  static capability(): Record<string, Record<string, never>>;
  /**
   * Attaches the runtime to a server, before its first `registerTool`: advertises the
   * extension (and, to a 2025-11-25 session, the `tasks` capability), registers
   * `tasks/get|update|cancel` (and `tasks/result|list`, which only a 2025-11-25 session reaches)
   * with the SDK's custom-method form, and routes `tools/call` of task tools.
   * @throws when tools are already registered
   */
  install(server: McpServer): void;
  /** Registers a task tool on an installed server (see {@link TaskToolPolicy}). */
  registerTool<Schema extends StandardSchemaWithJSON | undefined = undefined>(
    server: McpServer,
    name: string,
    config: TaskToolConfig<Schema>,
    handler: TaskToolHandler<Schema>,
  ): RegisteredTool;
  /**
   * Registers a task tool of every server the runtime is installed on (`install` registers it),
   * before the first `install`. Such a tool is the same whatever the request, so
   * {@link fastPath} creates its tasks without building a server.
   * @throws after the first `install`, or for a name already registered this way
   */
  registerTool<Schema extends StandardSchemaWithJSON | undefined = undefined>(name: string, config: TaskToolConfig<Schema>, handler: TaskToolHandler<Schema>): void;
  /**
   * From inside any tool handler of an installed server: makes this call a task and returns
   * the `CreateTaskResult` for the handler to return (drive the task with {@link handle}).
   * Once it is called, the call's answer is that `CreateTaskResult`. With `storage`, a promise
   * of it, settled once the task is written (`await` it: that works without storage too).
   * @throws `TaskProtocolError` -32021 when the client did not declare the extension (the
   *   runtime sends it as the JSON-RPC error of the call)
   */
  create(ctx: ServerContext): TaskCreatedResult | Promise<TaskCreatedResult>;
  /** The handle of a running task made by {@link create}. */
  handle(taskId: string): TaskHandle;
  /** Cancels a task from the server side. With `storage`, a promise settled once written (never rejects). */
  cancel(taskId: string, message?: string | null): void | Promise<void>;
  /**
   * Wraps a `createMcpHandler` result (Streamable HTTP): `subscriptions/listen` requests that name
   * `notifications.taskIds` are served here (acknowledged with the task IDs the principal may
   * follow, then one `notifications/tasks` per status change), because the SDK's entry serves
   * listen itself and honours only its own four notification types. Everything else goes to
   * `handler`.
   */
  withTaskListen<H extends Pick<McpHttpHandler, 'fetch'>>(handler: H): H;
  /**
   * The same for stdio: wraps the server transport given to `serveStdio(factory, { transport })`
   * (from `@modelcontextprotocol/server/stdio`). Listen requests that name task IDs are served
   * on the wire (the acknowledgement, then `notifications/tasks` carrying the request's id as
   * subscription id); the client's `notifications/cancelled` for one ends it; every other message
   * goes to `serveStdio` unchanged.
   *
   *   serveStdio(factory, { transport: tasks.withTaskListen(new StdioServerTransport()) });
   */
  withTaskListen(transport: Transport): Transport;
  /**
   * Node hosting: wraps `toNodeHandler(handler)` of `@modelcontextprotocol/node` (`handler` serving
   * 2026-07-28 through `createMcpHandler`). A 2026-07-28 `tasks/get`, `tasks/update` or
   * `tasks/cancel`, or a `tools/call` creating a task of a tool registered for every server
   * (`registerTool(name, config, handler)`; not `perCall`, no scope challenge, no `Mcp-Param`
   * headers), is answered in the listener from the engine, with no `McpServer` built for it,
   * when the SDK would serve it and answer the same: the SDK's own classifier and Content-Type
   * test, the body limit, the `Mcp-Name` rule, the principal of `req.auth`, the SDK's result
   * encoding, status and content type. Everything else (other methods, 2025-11-25 traffic, every
   * request the SDK would refuse, bodies over 64 KiB or without Content-Length) goes to `serve`
   * with its body unchanged. Off until the first `McpServer` is installed (its `serverInfo` is
   * stamped on results; servers of different identities, or a `quotaKey` function, turn it off).
   * The factory is not called for what it answers: authenticate before it (set `req.auth`).
   */
  fastPath<L extends (req: any, res: any, parsedBody?: any) => unknown>(serve: L, options?: FastPathOptions): L;
  /**
   * The figures a dashboard shows: tasks by status, running work, work waiting for input, and
   * since start expirations, lease failures and storage errors (with `storage`: this instance's).
   */
  figures(): TaskFigures;
  /** Stops the expiry timer, aborts running work and closes listen streams. */
  close(): void;
}
