// Types of the requestor in object mode: `TaskRequestor` (plain JS values over the wasm
// `TextTaskRequestor`) and `TaskClient` (a `TaskRequestor` run over an official MCP SDK transport).
//
//   import { TaskClient } from 'mcp-task-core';
//   import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
//   const client = new TaskClient(new StreamableHTTPClientTransport(new URL(url)));
//   await client.connect();
//   const { result } = await client.callTool('slow', { n: 1 }, { task: { ttl: 60_000 }, signal, onProgress });
import type {
  Dialect,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcNotification,
  TaskRequestorOptions,
  TaskStatus,
} from './index.js';

/**
 * A task as the receiver describes it, in either dialect: 2025-11-25 (`ttl`, `pollInterval`) or
 * the tasks extension of 2026-07-28 (`ttlMs`, `pollIntervalMs`).
 */
export interface RequestorTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** 2025-11-25: retention from creation in ms; `null` for unlimited. */
  ttl?: number | null;
  /** 2025-11-25: suggested polling interval in ms. */
  pollInterval?: number;
  /** Tasks extension: retention from creation in ms; `null` for unlimited. */
  ttlMs?: number | null;
  /** Tasks extension: suggested polling interval in ms. */
  pollIntervalMs?: number;
  [key: string]: unknown;
}

/** How `call()` sends a request: `true` or `{ ttl? }` asks for a task (the ttl is 2025-11-25 only). */
export type TaskOption = boolean | { ttl?: number | null };

/** Options of {@link TaskRequestor.call}. */
export interface TaskRequestorCallOptions {
  /** Ask for a task (`true`, or `{ ttl }` in ms); absent or `false`: a plain request. */
  task?: TaskOption;
  /** Goes into `_meta.progressToken` and stays valid for the task's life. */
  progressToken?: string | number;
}

/**
 * One item of {@link TaskRequestor.pollOutput}: the text mode's output with plain JS values.
 * `callId` is the call's id (`null` only for a task imported from a state saved without it).
 * Where the receiver's bytes matter, `text` holds them exactly as they came (a `send`
 * message, a response that is replayed byte for byte).
 */
export type TaskRequestorOutput =
  | { kind: 'send'; message: JsonRpcMessage; text: string; requestId: JsonRpcId | null; mcpName: string | null }
  | { kind: 'created'; callId: JsonRpcId; taskId: string; task: RequestorTask }
  | { kind: 'plainResponse'; callId: JsonRpcId; response: JsonRpcResponse; text: string }
  | { kind: 'callRefused'; callId: JsonRpcId; response: JsonRpcErrorResponse; text: string }
  | { kind: 'status'; callId: JsonRpcId | null; taskId: string; task: RequestorTask }
  | { kind: 'inputRequest'; callId: JsonRpcId | null; taskId: string; requestId: JsonRpcId; request: JsonRpcRequest }
  | { kind: 'progress'; callId: JsonRpcId | null; taskId: string; notification: JsonRpcNotification }
  | { kind: 'finished'; callId: JsonRpcId | null; taskId: string; status: TaskStatus; response: JsonRpcResponse; text: string }
  | { kind: 'lost'; callId: JsonRpcId | null; taskId: string; error: JsonRpcErrorObject }
  | { kind: 'retrying'; callId: JsonRpcId | null; taskId: string; method: 'tasks/get' | 'tasks/result' | 'tasks/update'; response: JsonRpcResponse }
  | { kind: 'cancelAnswered'; callId: JsonRpcId | null; taskId: string; response: JsonRpcResponse }
  | { kind: 'listed'; tasks: RequestorTask[]; error: JsonRpcErrorResponse | null }
  /** `message` is `null` when the receiver sent text that is not JSON; `text` is what it sent. */
  | { kind: 'forward'; message: JsonRpcMessage | null; text: string };

/**
 * The events of one call, as {@link TaskClient} hands them out: outputs that carry its `callId`,
 * and progress that came before the task was known or for a plain call (`taskId` `null`).
 */
export type TaskCallEvent =
  | Extract<TaskRequestorOutput, { callId: unknown }>
  | { kind: 'progress'; callId: JsonRpcId; taskId: string | null; notification: JsonRpcNotification };

/** The exported state of a requestor (see {@link TaskRequestor.exportState}). */
export interface TaskRequestorState {
  version: number;
  dialect?: Dialect;
  tasks: Array<{ [key: string]: unknown }>;
}

/**
 * The requestor side of MCP tasks in object mode: the {@link TextTaskRequestor} host loop with
 * plain JS values (feed `handle`, drain `pollOutput`, call `handleTimeout` at `nextDeadline`).
 *
 *   const requestor = new TaskRequestor();
 *   const callId = requestor.call('tools/call', { name: 'slow' }, { task: { ttl: 60_000 }, progressToken: 'tok' });
 */
export declare class TaskRequestor {
  /** @throws {TaskEngineError} `invalid_options` */
  constructor(options?: TaskRequestorOptions | null);
  /**
   * Sends `method` with `params`; returns the call id that outputs carry.
   * @throws {TaskEngineError} `invalid_argument`
   */
  call(method: string, params?: { [key: string]: unknown } | null, options?: TaskRequestorCallOptions): JsonRpcId;
  /** Feeds one message from the receiver (an object, or its JSON text as received). */
  handle(message: JsonRpcMessage | string): void;
  /** Answers an `inputRequest` with a result object. */
  respond(requestId: JsonRpcId, result: { [key: string]: unknown }): void;
  /** Answers an `inputRequest` with a JSON-RPC error object (2025-11-25 only). */
  respondError(requestId: JsonRpcId, error: JsonRpcErrorObject): void;
  /** Asks the receiver to cancel a tracked task; returns the request id. */
  cancel(taskId: string): JsonRpcId;
  /** Lists every task the receiver shows (2025-11-25); returns the first request id. */
  list(): JsonRpcId;
  /** Reads the receiver's `server/discover` or `initialize` result; returns the dialect chosen. */
  useServerInfo(result: { [key: string]: unknown } | string): Dialect;
  /** The dialect spoken. */
  readonly dialect: Dialect;
  /** The transport lost request `requestId` (a `send` output's): the requestor recovers. */
  requestFailed(requestId: JsonRpcId): boolean;
  /** The next output, or `null`. */
  pollOutput(): TaskRequestorOutput | null;
  /** Epoch ms when `handleTimeout` is next due, or `null`. */
  nextDeadline(): number | null;
  /** Sends the polls and retries that are due. */
  handleTimeout(): void;
  /** The last known task, or `null`. */
  task(taskId: string): RequestorTask | null;
  /** IDs of the tracked tasks. */
  tracked(): string[];
  /** Stops tracking a task. */
  forget(taskId: string): void;
  /** The tracked tasks, to persist. */
  exportState(): TaskRequestorState;
  /** Tracks the tasks of an exported state again; returns how many. */
  importState(state: TaskRequestorState | string): number;
  /** Releases the wasm memory now. */
  free(): void;
}

/**
 * The transport of the official MCP SDK (`Transport` in `@modelcontextprotocol/sdk/shared/transport.js`
 * 1.x and `@modelcontextprotocol/client` 2.x): what {@link TaskClient} needs of it.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: any, options?: any): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/** The part of an `AbortSignal` a call uses (declared here so no DOM or Node types are needed). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Options of `new TaskClient(transport, options)`; any other key throws a `TypeError` that lists these. */
export interface TaskClientOptions {
  /**
   * Options of the {@link TaskRequestor} it drives (its declaration comes from `capabilities` and
   * `clientInfo` here). `listen` defaults to `true` here: on a 2026-07-28 server each task's status
   * is pushed (`subscriptions/listen`), with polling beside it; `listen: false` only polls.
   */
  requestor?: Omit<TaskRequestorOptions, 'clientCapabilities' | 'clientInfo'>;
  /**
   * `'auto'` (default): `server/discover` (2026-07-28), falling back to `initialize`
   * (2025-11-25) when the server does not offer 2026-07-28.
   */
  protocolVersion?: 'auto' | Dialect;
  /**
   * The client's name and version: in `initialize` (2025-11-25), and on every 2026-07-28 request
   * (`_meta["io.modelcontextprotocol/clientInfo"]`). Default `{ name: 'mcp-task-core', version: '0' }`.
   */
  clientInfo?: { name: string; version: string; [key: string]: unknown };
  /**
   * The client's capabilities (e.g. `{ elicitation: {} }` to take input requests): declared in
   * `initialize` (2025-11-25), and on every 2026-07-28 request, whose `_meta` is the declaration
   * (`io.modelcontextprotocol/clientCapabilities`, with the tasks extension added where the
   * request asks for or follows a task).
   */
  capabilities?: { [key: string]: unknown };
  /** How long to wait for the answer to `server/discover` or `initialize` (ms). Default 30 000. */
  handshakeTimeoutMs?: number;
  /** Answers a request of the receiver that belongs to no task; default: `ping`, else -32601. */
  onRequest?: (request: JsonRpcRequest) => unknown | Promise<unknown>;
  /** Every message of the receiver that belongs to no call. A throw goes to `onError`. */
  onMessage?: (message: JsonRpcMessage | null, text: string) => void;
  /** Events of tasks no open call owns (e.g. imported with `requestor.importState`). A throw goes to `onError`. */
  onEvent?: (event: TaskRequestorOutput) => void;
  /**
   * Transport errors while the client is open (a failed send is also reported to the requestor;
   * `close()` is no error, and what it aborts is not reported), and throws of `onMessage` and
   * `onEvent` (without `onError` those go to `console.error`).
   */
  onError?: (error: unknown) => void;
}

/**
 * Per-call options of {@link TaskClient.callTool} and {@link TaskClient.request}; any other key
 * rejects the call with a `TypeError` that lists these. A throw in `onEvent`, `onProgress` or
 * `onStatus` rejects the call with it and cancels its task.
 */
export interface TaskCallOptions extends TaskRequestorCallOptions {
  /** Aborting rejects with the signal's reason and sends `tasks/cancel` once a task exists. */
  signal?: AbortSignalLike;
  /**
   * The task's status when it is created and at each change of its status or `statusMessage`, pushed
   * (2026-07-28 `notifications/tasks` on a `subscriptions/listen` stream; 2025-11-25
   * `notifications/tasks/status`) or polled, whichever comes first. Not called for a plain answer.
   */
  onStatus?: (task: RequestorTask, about: { callId: JsonRpcId; taskId: string }) => void;
  /** `notifications/progress` params for this call (a progress token is made when none is given). */
  onProgress?: (progress: { progressToken: string | number; progress: number; total?: number; message?: string; [key: string]: unknown }) => void;
  /**
   * Answers the receiver's requests for this call's task (e.g. `elicitation/create`) with a
   * result; a throw answers with an error (2025-11-25) or ends the call (tasks extension).
   * Without it, `callTool` and `request` take no input: the receiver's request is refused
   * (2025-11-25: a -32601 error answer), and the call rejects with a {@link TaskCallError} of code
   * -32601 and status `input_required` and its task is cancelled. A stream yields the
   * `inputRequest` event instead, to answer with {@link TaskClient.respond}.
   */
  onInputRequest?: (
    request: JsonRpcRequest,
    about: { callId: JsonRpcId; taskId: string; requestId: JsonRpcId },
  ) => { [key: string]: unknown } | Promise<{ [key: string]: unknown }>;
  /** Every event of this call. */
  onEvent?: (event: TaskCallEvent) => void;
}

/** What a call resolves with: the request's result, and how it ran. */
export interface TaskCallResult<R = { [key: string]: unknown }> {
  result: R;
  callId: JsonRpcId;
  /** The task that ran the call, or `null` when the receiver answered it plainly. */
  taskId: string | null;
  /** The task's final status, or `null` for a plain answer. */
  status: TaskStatus | null;
}

/**
 * A call rejected: a JSON-RPC error (the receiver's or the client's own: -32001 timeout,
 * -32000 transport, -32601 input asked of a call without `onInputRequest`), or a lost task. An
 * aborted call rejects with the signal's reason instead, and a call whose callback threw, with
 * that throw.
 */
export interface TaskCallError extends Error {
  code: number;
  data?: unknown;
  callId: JsonRpcId;
  taskId: string | null;
  status: TaskStatus | null;
  response?: JsonRpcErrorResponse;
  /** -32601: the receiver's request no handler could answer. */
  request?: JsonRpcRequest;
}

/**
 * A {@link TaskRequestor} run over an official MCP SDK transport: it performs the handshake,
 * moves the messages, keeps the timers, and gives each call a Promise or an async iterator.
 *
 *   const client = new TaskClient(transport, { capabilities: { elicitation: {} } });
 *   await client.connect();
 *   for await (const event of client.callToolStream('slow', {}, { task: true })) console.log(event.kind);
 */
export declare class TaskClient {
  /**
   * Over `transport` (not started yet: {@link TaskClient.connect} starts it).
   * @throws {TypeError} code `invalid_options`: an unknown or ill-typed option
   */
  constructor(transport: McpTransport, options?: TaskClientOptions);
  /** The requestor it drives. */
  readonly requestor: TaskRequestor;
  /** The receiver's `server/discover` or `initialize` result once connected, or `null` before. */
  readonly serverInfo: { [key: string]: unknown } | null;
  /** Starts the transport and performs the handshake; resolves with the dialect spoken. */
  connect(): Promise<Dialect>;
  /** `tools/call`; rejects with a {@link TaskCallError}, or the abort reason. */
  callTool<R = { [key: string]: unknown }>(name: string, args?: { [key: string]: unknown }, options?: TaskCallOptions): Promise<TaskCallResult<R>>;
  /** Any request the requestor may send. */
  request<R = { [key: string]: unknown }>(method: string, params?: { [key: string]: unknown }, options?: TaskCallOptions): Promise<TaskCallResult<R>>;
  /**
   * `tools/call` as the call's events, ending after the last; throws what `callTool` rejects with.
   * Leaving the loop before the end (`break`, `return`, a throw) cancels the call's task.
   */
  callToolStream(name: string, args?: { [key: string]: unknown }, options?: TaskCallOptions): AsyncIterableIterator<TaskCallEvent>;
  /** Any request as its events (leaving early cancels its task). */
  requestStream(method: string, params?: { [key: string]: unknown }, options?: TaskCallOptions): AsyncIterableIterator<TaskCallEvent>;
  /** Answers an `inputRequest` event of a stream (one no `onInputRequest` handler took). */
  respond(requestId: JsonRpcId, result: { [key: string]: unknown }): void;
  /** Asks the receiver to cancel a tracked task; returns the request id. */
  cancel(taskId: string): JsonRpcId;
  /** Closes the transport (and its listen streams); open calls reject. Not an error: `onError` hears nothing of it. */
  close(): Promise<void>;
}
