// Types of mcp-task-core (ES module entries: Node `import`, browsers, workers, workerd).
// Hand-written, and held to the code: src/js_names.rs checks option keys, output kinds and
// fields, error codes and audit actions; js-tests/types.test.mjs checks members, parameter
// and return types. index.d.cts is the same text for `require` (generated).

// ---------------------------------------------------------------------------------------
// Wire shapes (MCP 2025-11-25): what TaskEngine takes and returns (TextTaskEngine: their JSON text).

/** Status of a task. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * A tool's task policy. 2025-11-25 (`execution.taskSupport` in `tools/list`): `required` /
 * `optional` / `forbidden`, the client chooses within it (`perCall` acts as `optional`).
 * Tasks extension (2026-07-28), where the server decides: `required` → always a task
 * (`-32021` for a client that did not declare the extension); `optional` → a task when the
 * client declared it, a plain call otherwise; `perCall` → forwarded, and the host may call
 * {@link TaskEngine.startTask}; `forbidden` → never.
 */
export type TaskSupport = 'required' | 'optional' | 'perCall' | 'forbidden';

/** The task surface a message speaks: MCP 2025-11-25 or the tasks extension of 2026-07-28. */
export type Dialect = '2025-11-25' | '2026-07-28';

/** What the transport knows beside a message's body (third argument of {@link TaskEngine.handle}). */
export interface HandleOptions {
  /**
   * The dialect, when the host knows it (e.g. the session's negotiated version). Omitted: read from
   * the request (`params._meta["io.modelcontextprotocol/protocolVersion"]` ≥ 2026-07-28 → the extension).
   */
  dialect?: Dialect;
  /** The Streamable HTTP `Mcp-Name` header: must match `params.taskId` of extension `tasks/*` (`-32020` otherwise). */
  mcpName?: string;
  /**
   * Whose allowance the message spends: the rate limit and the `…PerKey` {@link LimitOptions}
   * (a session ID, an authenticated user, a client address), apart from whose tasks it sees
   * (the context). Omitted: the context is the key, so clients that share a context (every
   * anonymous client, for one) share its allowance.
   */
  quotaKey?: string;
  /**
   * 2025-11-25: the `capabilities` the client sent in its session's `initialize`. A task this
   * request creates never asks the client for input it did not declare (`requestInput` throws
   * `capability_not_declared`). Omitted: nothing is refused. Not used for the tasks extension,
   * whose requests carry their own declaration (`_meta["io.modelcontextprotocol/clientCapabilities"]`).
   */
  clientCapabilities?: { [key: string]: unknown };
}

/** Request methods the engine can run as tasks (task-augmented requests). */
export type TaskRequestMethod = 'tools/call' | 'sampling/createMessage' | 'elicitation/create';

/** The wire `Task` object (what the task JSON strings returned by the engine contain). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  /** Human-readable note on the current status (reason for `cancelled`, error for `failed`, ...). */
  statusMessage?: string;
  /** ISO 8601 timestamp (UTC, millisecond precision). */
  createdAt: string;
  /** ISO 8601 timestamp (UTC, millisecond precision). */
  lastUpdatedAt: string;
  /** Granted retention from creation in ms; `null` for unlimited. */
  ttl: number | null;
  /** Suggested polling interval in ms (absent when `pollIntervalMs: null`). */
  pollInterval?: number;
}

/** One page of tasks (the text returned by {@link TaskEngine.listTasks}, parsed). */
export interface TaskPage {
  tasks: Task[];
  /** Pass back to {@link TaskEngine.listTasks} for the next page; absent on the last page. */
  nextCursor?: string;
}

/** A JSON-RPC request id. */
export type JsonRpcId = string | number;

/** A JSON-RPC error object (`{"code", "message", "data"?}`). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: { [key: string]: unknown };
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Absent when the id of the offending message could not be read. */
  id?: JsonRpcId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

// ---------------------------------------------------------------------------------------
// Options

/**
 * The `tasks` capability the engine offers. When this object is given, every field left
 * out is `false`: it replaces the default (`{ list: true, cancel: true, toolsCall: true }`,
 * a server).
 */
export interface CapabilityOptions {
  /** Support `tasks/list` (advertised only with `contextBinding`). */
  list?: boolean;
  /** Support `tasks/cancel`. */
  cancel?: boolean;
  /** Accept task-augmented `tools/call` (a server). */
  toolsCall?: boolean;
  /** Accept task-augmented `sampling/createMessage` (a client). */
  samplingCreateMessage?: boolean;
  /** Accept task-augmented `elicitation/create` (a client). */
  elicitationCreate?: boolean;
}

/** How requested TTLs become granted ones. Each field left out keeps its default. */
export interface TtlOptions {
  /** Granted when a request names no `ttl`. Default 3 600 000 (1 h). */
  defaultMs?: number;
  /** Requested TTLs above this are clamped to it; also granted for `ttl: null` when unlimited retention is not allowed. Default 86 400 000 (24 h). */
  maxMs?: number;
  /** Whether `ttl: null` may be granted as unlimited. Default `false`. */
  allowUnlimited?: boolean;
}

/**
 * Resource limits. Going past one gives a JSON-RPC error (for the peer) or an error with
 * `code: "limit_exceeded"` (for the host), and changes nothing. Each field left out keeps
 * its default.
 */
export interface LimitOptions {
  /**
   * Running tasks (`working` or `input_required`) one quota key may hold (see
   * {@link HandleOptions.quotaKey}: without one, the context is the key). Finished tasks do not
   * count. Default 1 000.
   */
  maxRunningTasksPerKey?: number;
  /** Running tasks in the whole engine. Default 10 000. */
  maxRunningTasksTotal?: number;
  /**
   * Stored bytes one quota key's tasks may hold: every live task, finished or not, counts its
   * record (256 bytes) and the texts it keeps (ID, status message, result or error) until it
   * expires. A new task is refused while the key is full; a result is always kept.
   * Default 64 MiB (67 108 864).
   */
  maxStoredBytesPerKey?: number;
  /** Stored bytes of every task in the engine, counted the same way. Default 1 GiB (1 073 741 824). */
  maxStoredBytesTotal?: number;
  /** Size of a stored result or error, in bytes of JSON text. Default 4 MiB (4 194 304). */
  maxResultBytes?: number;
  /** Unanswered side-channel requests (e.g. elicitations) for one task. Default 64. */
  maxQueuedMessagesPerTask?: number;
  /** Size of one incoming message, in bytes. Default 4 MiB (4 194 304). */
  maxMessageBytes?: number;
  /** Nesting depth of one incoming message. Default 64. */
  maxJsonDepth?: number;
  /** `tasks/result` requests that may wait on one task at once. Default 16. */
  maxWaitersPerTask?: number;
  /**
   * Undrained outputs. Past it new peer requests are refused (`-32000`) and
   * notifications and audit records are dropped, counted in an
   * {@link OutputsDroppedOutput}. Default 10 000.
   */
  maxPendingOutputs?: number;
  /**
   * Token bucket for `tasks/*` requests per quota key (see {@link HandleOptions.quotaKey}):
   * `burst` at once, refilled at `perSecond` (on the injected clock). Refused requests get a
   * JSON-RPC error (`-32000`). Default `{ burst: 1000, perSecond: 200 }`: one client polling 40
   * tasks at 200 ms, or 200 at 1 s; `null` turns it off.
   */
  rateLimit?: RateLimitOptions | null;
}

/** A token bucket (both fields required, non-negative integers). */
export interface RateLimitOptions {
  burst: number;
  perSecond: number;
}

/**
 * Options of `new TaskEngine(options)`. Every field is optional; numbers are non-negative
 * integers. An unknown key or a wrong type throws a `TypeError` with `code: "invalid_options"` naming the option.
 */
export interface TaskEngineOptions {
  /** Clock in epoch milliseconds. Default `Date.now`. Read once per call; a clock that throws or returns anything but a finite, non-negative number fails that call with `clock_failed` and changes nothing. Time that goes backwards reads as the last time seen. */
  now?: () => number;
  /** Task ID source. Default: random UUID v4. Must return a fresh non-empty string; anything else refuses the task creation. */
  newTaskId?: () => string;
  /** Task features offered. Default `{ list: true, cancel: true, toolsCall: true }`. */
  capabilities?: CapabilityOptions;
  /**
   * Whether the host passes an authenticated context with every call. Default `true`.
   * Without it `tasks.list` is not advertised and `tasks/list` is refused.
   */
  contextBinding?: boolean;
  /** TTL policy. */
  ttl?: TtlOptions;
  /** Suggested polling interval reported with every task, in ms. Default 1 000; `null` reports none. */
  pollIntervalMs?: number | null;
  /** Tasks per `tasks/list` page (at least 1). Default 50. */
  pageSize?: number;
  /** Text for `_meta["io.modelcontextprotocol/model-immediate-response"]` of every `CreateTaskResult`. Default: none. */
  modelImmediateResponse?: string | null;
  /** Send `notifications/tasks/status` on every status change. Default `true`. */
  statusNotifications?: boolean;
  /** Emit `audit` outputs (creation, status changes, result fetches, expiry, refused access, limits). Default `false`. */
  audit?: boolean;
  /**
   * Key of the `tasks/list` cursors (32 hex digits). Engines given the same key accept each
   * other's cursors: one that restores another's {@link TaskEngine.snapshot} then pages its
   * cursors alike. (`storage.cursorKey`, when given, is used instead.) Default: random.
   */
  cursorKey?: string;
  /** Resource limits. */
  limits?: LimitOptions;
  /** Tools and their `execution.taskSupport`, as with {@link TaskEngine.registerTool}. Default: none (a tool never declared does not run as a task). */
  tools?: { [toolName: string]: TaskSupport };
  /**
   * Run over an external storage: every task change comes out as a {@link PersistOutput} ahead of
   * what depends on it, and replies to peers are queued (as `send` outputs whose `inReplyTo` is
   * the request's id) instead of returned by `handle`. Omitted: tasks live in memory only.
   */
  storage?: StorageOptions;
}

// ---------------------------------------------------------------------------------------
// Outputs (discriminated on `kind`)

/**
 * A JSON-RPC message for the peer. `message` is the parsed message and `text` its exact JSON
 * text: send `text` where the transport takes bytes (results are replayed byte for byte).
 */
export interface SendOutput {
  kind: 'send';
  /** The context (session) it belongs to: send it only there. */
  context: string | null;
  /**
   * The id of the waiting `tasks/result` request (or `subscriptions/listen` stream) this message
   * answers or travels with (over Streamable HTTP: that request's SSE stream); `null` for
   * messages that may go on any stream of the context.
   */
  inReplyTo: JsonRpcId | null;
  message: JsonRpcMessage;
  /** `message` as exact JSON text. */
  text: string;
}

/** Run this task-augmented request as task `taskId`; report with `complete` or `fail`. */
export interface ExecuteOutput {
  kind: 'execute';
  taskId: string;
  context: string | null;
  method: TaskRequestMethod;
  /** The original JSON-RPC request (its `params.task` is the engine's business). */
  request: JsonRpcRequest;
  /** `request` as exact JSON text, as received. */
  text: string;
}

/** Not the engine's business: process this message as usual (including requests that run without a task). */
export interface ForwardOutput {
  kind: 'forward';
  context: string | null;
  message: JsonRpcMessage;
  /** `message` as exact JSON text, as received. */
  text: string;
}

/** The requestor answered a request made with {@link TaskEngine.requestInput}. */
export interface InputResponseOutput {
  kind: 'inputResponse';
  taskId: string;
  context: string | null;
  /** The id that `requestInput` returned. */
  requestId: JsonRpcId;
  /** The JSON-RPC response (with `result` or `error`). */
  response: JsonRpcResponse;
  /** `response` as exact JSON text, as received. */
  text: string;
}

/** {@link SendOutput} of {@link TextTaskEngine}: JSON text, not parsed. */
export interface TextSendOutput {
  kind: 'send';
  context: string | null;
  /** The raw JSON id (e.g. `"7"` or `"\"req-7\""`) of the waiting request, or `null`. */
  inReplyTo: string | null;
  /** The JSON-RPC message text. */
  message: string;
}

/** {@link ExecuteOutput} of {@link TextTaskEngine}. */
export interface TextExecuteOutput {
  kind: 'execute';
  taskId: string;
  context: string | null;
  method: TaskRequestMethod;
  /** The original JSON-RPC request text. */
  request: string;
}

/** {@link ForwardOutput} of {@link TextTaskEngine}. */
export interface TextForwardOutput {
  kind: 'forward';
  context: string | null;
  /** The JSON-RPC message text, as received. */
  message: string;
}

/** The task was cancelled: stop its work. A later outcome is refused (`task_cancelled`). */
export interface CancelledOutput {
  kind: 'cancelled';
  taskId: string;
  context: string | null;
}

/** The task's TTL ran out and it was deleted; stop its work if it still runs. */
export interface ExpiredOutput {
  kind: 'expired';
  taskId: string;
  context: string | null;
  /** Whether the task had already finished. */
  wasTerminal: boolean;
}

/** {@link InputResponseOutput} of {@link TextTaskEngine}. */
export interface TextInputResponseOutput {
  kind: 'inputResponse';
  taskId: string;
  context: string | null;
  /** The raw JSON id that `requestInput` returned. */
  requestId: string;
  /** The JSON-RPC response text (with `result` or `error`). */
  response: string;
}

/** What an {@link AuditOutput} records. */
export type AuditAction =
  | 'created'
  | 'transitioned'
  | 'cancelled'
  | 'result_fetched'
  | 'expired'
  | 'access_refused'
  | 'limit_hit'
  | 'rate_limited'
  | 'record_damaged';

/** A record for the host's audit log (only with the `audit: true` option). Nothing to act on. */
export interface AuditOutput {
  kind: 'audit';
  action: AuditAction;
  /** The status before, for `transitioned` and `cancelled`. */
  from?: TaskStatus;
  /** The status after, for `transitioned`. */
  to?: TaskStatus;
  /** The task concerned, when there is one. */
  taskId: string | null;
  /** The context of the requestor (or of the task). */
  context: string | null;
  /** Details for a person reading the log. */
  detail: string | null;
}

/**
 * The output queue was full (`limits.maxPendingOutputs`): `count` notifications,
 * forwarded notifications and audit records were dropped. Drain after every call.
 */
export interface OutputsDroppedOutput {
  kind: 'outputsDropped';
  count: number;
}

/**
 * Storage mode (`options.storage`): write this task change to the storage with a
 * compare-and-set before delivering any output after it (Persists always come first). On a
 * version mismatch, drop the outputs that followed, `restore()` the stored record and retry the operation.
 */
export interface PersistOutput {
  kind: 'persist';
  taskId: string;
  /**
   * The version the storage must hold now; `null`: the task must not exist yet. A string: a
   * repair of damage under the task's key (see `restoreStored`): the version text the storage
   * reported for what it holds there, which the compare-and-set expects instead.
   */
  expectedVersion: number | string | null;
  /** The version written. */
  version: number;
  /** The task's record (JSON text; see {@link TaskEngineMembers.restore}); `null`: delete it. */
  record: string | null;
  /** When the storage may drop the record by itself (the TTL deadline, epoch ms), or `null`. */
  expiresAt: number | null;
}

/** How the engine runs over an external storage (`options.storage`). */
export interface StorageOptions {
  /** Names this process for its lifetime (a boot token). Default: random. Never reuse one. */
  instanceId?: string;
  /** How long a running task's lease lasts without a heartbeat. Default 30 000 ms. */
  leaseMs?: number;
  /**
   * Key of the `tasks/list` cursors (32 hex digits). Give every instance over one storage the same
   * key: list positions then mean the same everywhere (tasks in creation-time order) and a
   * cursor from one instance pages on another. Default: random (cursors stay per instance).
   */
  cursorKey?: string;
}

/** When an adapter (`WasmTaskStore`, `TasksExtension`) moves its tasks into a fresh wasm instance: see their `recycle` option. */
export interface RecycleOptions {
  /** Recycle only a wasm memory of at least this many bytes. Default 16 MiB. */
  minBytes?: number;
  /** ...once the engine holds at most a `ratio`th of the most tasks it held (the peak its memory grew for). At least 1; default 4. */
  ratio?: number;
}

/** One item of {@link TaskEngine.pollOutput}. */
export type TaskEngineOutput =
  | PersistOutput
  | SendOutput
  | ExecuteOutput
  | ForwardOutput
  | CancelledOutput
  | ExpiredOutput
  | InputResponseOutput
  | AuditOutput
  | OutputsDroppedOutput;

/** One item of {@link TextTaskEngine.pollOutput}. */
export type TextTaskEngineOutput =
  | PersistOutput
  | TextSendOutput
  | TextExecuteOutput
  | TextForwardOutput
  | CancelledOutput
  | ExpiredOutput
  | TextInputResponseOutput
  | AuditOutput
  | OutputsDroppedOutput;

/**
 * {@link TextTaskEngine.outputShapes}: for each output kind, its fields besides `kind` (a
 * trailing `?` marks one that may be absent), those holding JSON text (parsed by
 * {@link TaskEngine}) and the one whose exact text {@link TaskEngine} keeps as `text`.
 */
export type OutputShapes = {
  [K in TaskEngineOutput['kind']]: { fields: string[]; json: string[]; text: string | null };
};

/** {@link TextTaskRequestor.outputShapes}: the same for the requestor's outputs (read by {@link TaskRequestor}). */
export type RequestorOutputShapes = {
  [K in TextTaskRequestorOutput['kind']]: { fields: string[]; json: string[]; text: string | null };
};

/** The stored outcome of a finished task ({@link TaskEngineMembers.getTaskResult} of {@link TaskEngine}); `text` is its exact JSON text. */
export type TaskOutcome =
  | { kind: 'result'; result: { [key: string]: unknown }; text: string }
  | { kind: 'error'; error: JsonRpcErrorObject; text: string };

/** A stored outcome as {@link TextTaskEngine} takes and gives it (`storeTaskResult`, `getTaskResult`). */
export interface TextTaskOutcome {
  /** `"result"`: `json` is the result object; `"error"`: `json` is the JSON-RPC error object. */
  kind: 'result' | 'error';
  json: string;
}

// ---------------------------------------------------------------------------------------
// Errors

/**
 * The `code` of an error thrown by the engine:
 * - `unknown_task`: no live task has this ID (never created, or expired and deleted)
 * - `task_cancelled`: the task was cancelled. Every host call (`complete`, `fail`,
 *   `requestInput`, `resume`, `setStatusMessage`, `reportProgress`, `cancel`) and the store
 *   calls `cancelTask` and `storeTaskResult` on a cancelled task throw this code, so one check
 *   tells the work to stop
 * - `already_terminal`: the task completed or failed and cannot change (also the SDK store's
 *   `updateTaskStatus` out of any terminal status, in the SDK's words)
 * - `illegal_transition`: the spec does not allow this status change
 * - `invalid_argument`: an argument is not what the call needs (bad JSON, wrong shape,
 *   NaN, or a non-string where a string is expected: then the error is a `TypeError`)
 * - `limit_exceeded`: a configured limit was reached
 * - `duplicate_id`: `newTaskId()` returned an empty or already used ID
 * - `invalid_cursor`: a list cursor this engine did not issue to this context
 * - `list_unavailable`: listing needs a context
 * - `damaged_record`: storage mode: the storage holds something under the task's key that is not
 *   its record (unparseable, another task's, a version that disagrees); `detail` says what,
 *   for the operator (never for a peer)
 * - `capability_not_declared`: `requestInput` of a request the client did not declare it can
 *   answer (`elicitation`, its `url` mode, `sampling`, `sampling.tools`, `roots`) when it asked
 *   for the task; `rpcCode` is -32021 and `requiredCapabilities` names what is missing
 * - `no_result`: `getTaskResult` of a task that has no stored result (running, or cancelled)
 * - `invalid_options`: the constructor's options are wrong
 */
export type TaskEngineErrorCode =
  | 'unknown_task'
  | 'task_cancelled'
  | 'already_terminal'
  | 'illegal_transition'
  | 'invalid_argument'
  | 'limit_exceeded'
  | 'duplicate_id'
  | 'invalid_cursor'
  | 'list_unavailable'
  | 'damaged_record'
  | 'capability_not_declared'
  | 'no_result'
  | 'invalid_options'
  /** A method of an object whose `free()` was called. */
  | 'freed'
  /** A browser build used before `await init()`. */
  | 'not_initialized'
  /** `options.now()` threw (the error is the `cause`) or gave no finite, non-negative number: the call did nothing. */
  | 'clock_failed';

/** What engine calls throw: an `Error` (a `TypeError` for wrong argument types) with a `code`. Nothing changed. */
export interface TaskEngineError extends Error {
  code: TaskEngineErrorCode;
  /**
   * The JSON-RPC error code to answer a peer with for this refusal: `-32602` (the request
   * named something wrong), `-32603`, or `-32021` (`capability_not_declared`). Absent on
   * `invalid_options`, `freed`, `not_initialized` and `clock_failed`.
   */
  rpcCode?: number;
  /** `capability_not_declared`: the missing capability, as `data.requiredCapabilities` of a -32021 (e.g. `{ elicitation: { url: {} } }`). */
  requiredCapabilities?: { [key: string]: unknown };
}

// ---------------------------------------------------------------------------------------
// The engine: the members both classes share, declared once

/**
 * How an engine class carries the values its shared members take and return:
 * {@link TextTaskEngine} as JSON text ({@link TextEngineValues}), {@link TaskEngine} as plain
 * JS values ({@link ObjectEngineValues}).
 */
export interface EngineValues {
  /** A message from the peer (`handle`). */
  message: unknown;
  /** The immediate reply to send, or `null` (`handle`). */
  reply: unknown;
  /** A forwarded request (`startTask`, `listenTasks`). */
  request: unknown;
  /** The `CreateTaskResult` response to send (`startTask`). */
  started: unknown;
  /** The refusal of a `subscriptions/listen` request (`listenTasks`). */
  listenRefusal: unknown;
  /** A JSON-RPC id (`unlistenTasks`, `requestInput`). */
  id: unknown;
  /** An output (`pollOutput`). */
  output: unknown;
  /** A task (what every call that changes one returns). */
  task: unknown;
  /** One page of tasks (`listTasks`). */
  page: unknown;
  /** A result object (`complete`). */
  result: unknown;
  /** A JSON-RPC error object (`fail`). */
  error: unknown;
  /** A request's params object (`requestInput`). */
  params: unknown;
  /** A progress token (`createTask`). */
  progressToken: unknown;
  /** A stored outcome as a call gives it (`storeTaskResult`). */
  outcomeIn: unknown;
  /** A stored outcome as the engine answers it (`getTaskResult`). */
  outcome: unknown;
}

/** {@link TextTaskEngine}'s values: JSON text (an id `"r1"` is `'"r1"'`), outputs carrying text. */
export interface TextEngineValues extends EngineValues {
  message: string;
  reply: string | null;
  request: string;
  started: string;
  listenRefusal: { error: string };
  id: string;
  output: TextTaskEngineOutput;
  task: string;
  page: string;
  result: string;
  error: string;
  params: string;
  progressToken: string;
  outcomeIn: TextTaskOutcome;
  outcome: TextTaskOutcome;
}

/** {@link TaskEngine}'s values: plain JS values (text is still accepted where JSON is read from the peer). */
export interface ObjectEngineValues extends EngineValues {
  message: JsonRpcMessage | string;
  reply: JsonRpcResponse | null;
  request: JsonRpcRequest | string;
  started: JsonRpcResultResponse;
  listenRefusal: { error: JsonRpcErrorResponse; text: string };
  id: JsonRpcId;
  output: TaskEngineOutput;
  task: Task;
  page: TaskPage;
  result: { [key: string]: unknown };
  error: JsonRpcErrorObject;
  params: { [key: string]: unknown };
  progressToken: JsonRpcId;
  outcomeIn: { kind: 'result'; result: { [key: string]: unknown } } | { kind: 'error'; error: JsonRpcErrorObject };
  outcome: TaskOutcome;
}

/**
 * The MCP task runtime's members, the same in {@link TextTaskEngine} and {@link TaskEngine}
 * except for how values travel (`V`). The host loop:
 *
 * 1. every message from the peer: `const reply = engine.handle(message, context)`; send `reply` if not `null`;
 * 2. after that and every host call, drain `engine.pollOutput()` until `null`
 *    (`send` → deliver `message` to `context`; `execute` → start the work; `forward` → handle it
 *    as a normal MCP message; `cancelled`/`expired` → stop the work; `inputResponse` → give the
 *    answer to the work; `audit` → log it; `persist` → write the record, storage mode);
 * 3. report work through `complete` / `fail` / `requestInput` / `setStatusMessage` / `reportProgress`;
 * 4. (re)arm one timer at `engine.nextDeadline()` (re-read it after each drain); when it fires call
 *    `engine.handleTimeout()` and drain again.
 *
 * Task records (`persist` outputs, `restore`, `snapshot`, `exportTask`) are opaque JSON text in
 * both classes: write them to the storage as they are. Errors: see {@link TaskEngineError}.
 */
export interface TaskEngineMembers<V extends EngineValues> {
  /**
   * One JSON-RPC message from the peer for `context` (the authenticated session or principal;
   * `null`/omitted for none); JSON text is read as received (malformed text gets the spec's
   * parse error). Returns the response to send now, or `null` (notifications, responses,
   * forwarded requests, and a `tasks/result` whose task is still running: its response comes
   * later from {@link pollOutput}). Malformed input gets a JSON-RPC error response and changes nothing.
   * @throws {TypeError} `invalid_argument` when `message` is not a message or `context` is not a string/null/undefined
   */
  handle(message: V['message'], context?: string | null, inbound?: HandleOptions | null): V['reply'];

  /**
   * Tasks extension: turns a forwarded `tools/call` (a `perCall` tool, or any call the host
   * chooses) into a task. Returns the `CreateTaskResult` response to send; an `execute`
   * output follows. The task exists before this returns, so a `tasks/get` for it resolves.
   * Of `inbound`, only `quotaKey` is read (whose allowance the task spends).
   * @throws {TaskEngineError} `invalid_argument` (not a `tools/call`, or the client did not declare the extension), `limit_exceeded`
   */
  startTask(request: V['request'], context?: string | null, inbound?: HandleOptions | null): V['started'];

  /**
   * Tasks extension: the task part of a `subscriptions/listen` request. From now on, status
   * changes of the agreed tasks go out as `notifications/tasks` `send` outputs whose `inReplyTo`
   * is the listen request's id. Returns `{ taskIds }` agreed to (for the acknowledgement), or
   * `{ error }`: the JSON-RPC error response to send instead (`-32021`).
   */
  listenTasks(request: V['request'], context?: string | null): { taskIds: string[] } | V['listenRefusal'];

  /** The `subscriptions/listen` stream with this request id closed. Returns how many task follows ended. */
  unlistenTasks(subscriptionId: V['id'], context?: string | null): number;

  /**
   * Storage mode: restores what the storage holds under task `taskId`'s key, as it read it
   * (`record`: `null` when the key holds no task record at all, say a value of another type;
   * `version`: the version text the storage keeps beside the record, or `null`). Use it for
   * every read of one task and on every conflict. Damage (an unreadable record, another task's,
   * a version that disagrees) is decided here: a task held here fails with a storage-corruption
   * error (its work gets a `cancelled` output) and a `persist` writes that over the damage, so
   * every instance reads the same; the return value then says what was found, for the
   * operator's log. `null`: restored as it was.
   * @throws {TaskEngineError} `damaged_record` (-32603, `detail` for the operator) for damage
   *   under a task not held here: leave it out of list pages, answer requests for it with it
   */
  restoreStored(taskId: string, record: string | null, version: string | null): string | null;

  /**
   * Storage mode: puts a task record read from the storage in place of the local copy (on
   * start, before acting on a task another instance may have changed, after a failed
   * compare-and-set). A running task whose lease ran out is failed (a `persist` follows); work
   * running here on a task another instance ended gets a `cancelled` output.
   * @throws {TaskEngineError} `invalid_argument` for a record this engine did not write
   */
  restore(record: string): void;

  /** Restores every record of a {@link snapshot}; returns how many. */
  restoreSnapshot(snapshot: string): number;

  /**
   * Every live task's record, as a JSON array text. In memory mode each record also keeps the
   * task's place in its list, so an engine with the same `cursorKey` option that restores the
   * snapshot answers this engine's `tasks/list` cursors alike.
   */
  snapshot(): string;

  /** The record of a live task (as a `persist` output would write it now), or `null`. */
  exportTask(taskId: string): string | null;

  /** Storage mode: drops the local copy of a task the storage no longer holds. Returns whether there was one. */
  forgetTask(taskId: string): boolean;

  /** The next output, or `null` when there is nothing to do now. */
  pollOutput(): V['output'] | null;

  /** How many outputs wait to be drained. */
  readonly pendingOutputs: number;

  /** Epoch ms of the next TTL deadline, or `null` when no task has one. */
  nextDeadline(): number | null;

  /** Expires what is due (then drain outputs). Harmless when early or repeated. */
  handleTimeout(): void;

  /**
   * Declares a tool's task policy (see {@link TaskSupport}). `null`/omitted means absent: the
   * tool never runs as a task.
   * @throws {TypeError} `invalid_argument` for any other string
   */
  registerTool(name: string, taskSupport?: TaskSupport | null): void;

  // Host calls: report the work of a task.

  /**
   * The work finished: stores `result` (e.g. a `CallToolResult`) and answers waiting
   * `tasks/result` requests. A `tools/call` result with `isError: true` makes the task
   * `failed`. Returns the task.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`, `invalid_argument`, `limit_exceeded`
   */
  complete(taskId: string, result: V['result']): V['task'];

  /**
   * The work failed with this JSON-RPC error object (`{"code": int, "message": string,
   * "data"?: any}`); `tasks/result` replays exactly this error. Returns the task.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`, `invalid_argument`, `limit_exceeded`
   */
  fail(taskId: string, error: V['error']): V['task'];

  /**
   * Sends the requestor a request the work needs answered (e.g. `"elicitation/create"` with
   * its params) and moves the task to `input_required`. The request travels on the
   * requestor's waiting `tasks/result` (a `send` output with `inReplyTo`), or waits for one.
   * Returns the request's id: the answer comes back as an `inputResponse` output with this
   * `requestId`; once every request is answered the task is `working` again.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`, `invalid_argument`, `limit_exceeded`,
   * `capability_not_declared` (the client did not declare what the request needs; nothing was sent)
   */
  requestInput(taskId: string, method: string, params?: V['params'] | null): V['id'];

  /**
   * `input_required` → `working` (the engine does this itself once all input is answered).
   * Returns the task.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`, `illegal_transition`
   */
  resume(taskId: string): V['task'];

  /**
   * Sets (or with `null` clears) the status message of a running task. Returns the task.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`
   */
  setStatusMessage(taskId: string, message?: string | null): V['task'];

  /**
   * Emits `notifications/progress` with the original request's `progressToken`. Returns
   * `false` (and sends nothing) when the request carried no token.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`, `invalid_argument` (non-finite numbers)
   */
  reportProgress(taskId: string, progress: number, total?: number | null, message?: string | null): boolean;

  /**
   * Cancels a task (the host's own decision): it becomes `cancelled`, waiters are answered
   * and a `cancelled` output is queued. Returns the task.
   * @throws {TaskEngineError} `unknown_task`, `task_cancelled`, `already_terminal`
   */
  cancel(taskId: string, message?: string | null): V['task'];

  // SDK store calls: for hosts (such as SDK adapters) that route JSON-RPC themselves. Same
  // rules as the wire: scoped to `context`, expired tasks invisible; the SDK 1.x TaskStore's
  // rules and wording where it has them (mcp-task-core/sdk is built on them); errors carry `rpcCode`.

  /**
   * Host-side: the context of a live task (`null` for a task created without one), or
   * `undefined` when no live task has this ID. Never expose it to a peer.
   */
  taskContext(taskId: string): string | null | undefined;

  /**
   * Creates a `working` task for a request the host runs itself (no `execute` output).
   * `ttl`: ms (clamped to `ttl.maxMs`; `0` expires at once), `null` for unlimited (if
   * allowed), omitted for the default. `progressToken`: the request's progress token
   * (`'tok'` or `7`; JSON text in {@link TextTaskEngine}). Returns the task.
   * @throws {TaskEngineError} `invalid_argument`, `limit_exceeded`, `duplicate_id`
   */
  createTask(
    context: string | null | undefined,
    method: string,
    ttl?: number | null,
    progressToken?: V['progressToken'] | null,
    /** This task's suggested poll interval (ms); `undefined`: the engine's `pollIntervalMs`; `null`: none. */
    pollIntervalMs?: number | null,
  ): V['task'];

  /** The task as `context` may see it, or `null` (unknown, expired, or another context's). */
  getTask(taskId: string, context?: string | null): V['task'] | null;

  /**
   * One page of `context`'s tasks (see {@link TaskPage}).
   * @throws {TaskEngineError} `list_unavailable` (no context), `invalid_cursor`
   */
  listTasks(context: string | null | undefined, cursor?: string | null): V['page'];

  /**
   * Cancels a task on behalf of `context` (the store-level `tasks/cancel`). Returns the task.
   * @throws {TaskEngineError} `unknown_task` (also another context's), `task_cancelled`, `already_terminal`
   */
  cancelTask(taskId: string, context?: string | null, message?: string | null): V['task'];

  /**
   * The SDK's `updateTaskStatus`: moves a task of `context`. `completed`/`failed` end it
   * without a stored outcome; `cancelled` cancels it. The same status again only updates the
   * message; a move without a (non-empty) `message` between `working` and `input_required`
   * keeps the current one. A task ID that is not a string names no task.
   * @throws {TaskEngineError} `unknown_task` ("Task not found: <id>"), `invalid_argument`,
   *   `already_terminal` ("Cannot update task <id> from terminal status '<from>' to '<to>'", a cancelled task's included)
   * @returns the task as it now is (what `getTask` answers next)
   */
  updateTaskStatus(taskId: string, context: string | null | undefined, status: TaskStatus, message?: string | null): V['task'];

  /**
   * The SDK's `storeTaskResult`: ends a task of `context` with `status` `completed` or
   * `failed` (the host's judgement: a result stored as `failed` fails the task) and its
   * outcome, a result object or (with `failed`) a JSON-RPC error object that `tasks/result` replays.
   * @throws {TaskEngineError} `unknown_task`, `invalid_argument`, `task_cancelled`, `already_terminal`, `limit_exceeded`
   * @returns the task as it now is (what `getTask` answers next)
   */
  storeTaskResult(taskId: string, context: string | null | undefined, status: 'completed' | 'failed', outcome: V['outcomeIn']): V['task'];

  /**
   * The SDK's `getTaskResult`: the stored outcome of a task of `context`.
   * @throws {TaskEngineError} `unknown_task` (also another context's), `no_result` (running, or cancelled)
   */
  getTaskResult(taskId: string, context?: string | null): V['outcome'];

  /** Live tasks held (including finished ones not yet expired). */
  readonly taskCount: number;

  /**
   * One of the engine's counts for a dashboard: `0` to `4` the live tasks held with that status
   * (working, input_required, completed, failed, cancelled), `5` the tasks this engine failed
   * since it was made because their worker's lease ran out (storage mode). The adapters'
   * `figures()` (see {@link TaskFigures}) are built on it.
   */
  figure(which: 0 | 1 | 2 | 3 | 4 | 5): number;

  /**
   * Releases the wasm memory now. The object is unusable afterwards (calls throw `freed`).
   * Where `Symbol.dispose` exists, `using engine = new TaskEngine()` calls this too.
   */
  free(): void;
}

// ---------------------------------------------------------------------------------------
// The engine, text API

/** {@link TextTaskEngine}'s shared members (see {@link TaskEngineMembers}), with JSON text. */
export interface TextTaskEngine extends TaskEngineMembers<TextEngineValues> {}

/** {@link TextTaskRequestor.protocolJson}: the protocol's error codes, versions and `_meta` keys. */
export interface ProtocolConstants {
  versions: { extension: '2026-07-28'; legacy: '2025-11-25' };
  extensionId: 'io.modelcontextprotocol/tasks';
  /** `capabilities.extensions` of a `server/discover` result: `{ "io.modelcontextprotocol/tasks": {} }`. */
  extensionCapability: { [extension: string]: object };
  meta: { protocolVersion: string; clientCapabilities: string; clientInfo: string; serverInfo: string; logLevel: string; subscriptionId: string; relatedTask: string };
  errors: {
    parseError: -32700;
    invalidRequest: -32600;
    methodNotFound: -32601;
    invalidParams: -32602;
    internalError: -32603;
    headerMismatch: -32020;
    missingCapability: -32021;
    unsupportedProtocolVersion: -32022;
    connectionClosed: -32000;
    requestTimeout: -32001;
    resourceNotFound: -32002;
  };
  /** The `data` of a -32021 refusal for want of the tasks extension. */
  missingCapabilityData: { requiredCapabilities: { extensions: { [extension: string]: object } } };
  /** How each policy is listed (`execution.taskSupport`) to a 2025-11-25 client. */
  legacyTaskSupport: { required: 'required'; optional: 'optional'; perCall: 'optional'; forbidden: 'forbidden' };
  /** The requests a 2025-11-25 requestor may turn into tasks. */
  legacyTaskMethods: ['tools/call', 'sampling/createMessage', 'elicitation/create'];
}

/**
 * {@link TaskEngine} with JSON text in and out: messages, tasks, results and ids are passed
 * and returned as JSON text (an id `"r1"` is `'"r1"'`), outputs carry text. For hosts that
 * pass bytes through and for benchmarks; {@link TaskEngine} is the same engine with plain JS
 * values. The host loop and the shared members: see {@link TaskEngineMembers}. Methods that
 * return a task return its wire `Task` JSON text (see {@link Task}). Call {@link free} when
 * done (or let the GC do it).
 */
export declare class TextTaskEngine {
  /** @throws {TaskEngineError} `invalid_options` */
  constructor(options?: TaskEngineOptions | null);

  /** The fields of every output kind, and which hold JSON text (what {@link TaskEngine} parses). */
  static outputShapes(): OutputShapes;

  /** The `tasks` capability object for the `initialize` result of a session in `context`, as JSON text. */
  capabilitiesJson(context?: string | null): string;

  // The SDK 1.x TaskMessageQueue (mcp-task-core/sdk is built on it): scoped to `context`,
  // with the SDK's rules and wording; errors carry `rpcCode`.

  /**
   * Queues a message (JSON object text with `type` `request`, `notification`, `response` or
   * `error`) for a task's requestor. The queue belongs to the task's context when the engine
   * holds the task, else to the first context named; `context` `null`: names none. At most
   * `limits.maxQueuedMessagesPerTask` per task (lowered by `maxSize`). Kept until read or
   * until the task is deleted.
   * @throws {TaskEngineError} `invalid_argument`, `unknown_task` (another context's), `limit_exceeded`
   */
  enqueueMessage(taskId: string, context: string | null | undefined, messageJson: string, maxSize?: number | null): void;
  /** The oldest queued message (JSON text) `context` may read, or `null`. */
  dequeueMessage(taskId: string, context?: string | null): string | null;
  /** Every queued message `context` may read, oldest first, as JSON array text. */
  dequeueAllMessages(taskId: string, context?: string | null): string;
  /** Messages queued for one task, or for every task when no `taskId` is given (no look-up then). */
  queuedMessageCount(taskId?: string | null): number;
  /** Drops every queued message. */
  clearMessages(): void;
}

// ---------------------------------------------------------------------------------------
// The engine

/** {@link TaskEngine}'s shared members (see {@link TaskEngineMembers}), with plain JS values. */
export interface TaskEngine extends TaskEngineMembers<ObjectEngineValues> {}

/**
 * The MCP task runtime: a synchronous, sans-IO state machine, taking and returning plain JS
 * values (messages, tasks, results, ids and progress tokens as the values they are). The host
 * loop and the shared members: see {@link TaskEngineMembers}. A thin layer over
 * {@link TextTaskEngine} (JSON.stringify in, JSON.parse out); an output keeps its exact JSON
 * text as `text`. Call {@link free} when done.
 */
export declare class TaskEngine {
  /** @throws {TaskEngineError} `invalid_options` */
  constructor(options?: TaskEngineOptions | null);

  /** The {@link TextTaskEngine} underneath (same tasks and outputs), for a call that needs exact JSON text. */
  readonly textEngine: TextTaskEngine;

  /** `capabilities.extensions` for a `server/discover` result: `{ "io.modelcontextprotocol/tasks": {} }`. */
  static extensionCapability(): { [extension: string]: object };

  /** The `tasks` capability object for the `initialize` result of a session in `context`. */
  capabilities(context?: string | null): { [key: string]: unknown };
}

// ---------------------------------------------------------------------------------------
// The requestor role (a client polling a receiver's tasks)
// Object mode (TaskRequestor, TaskClient): requestor.d.ts.
export * from './requestor.js';

/** Options of `new TaskRequestor(options)` and `new TextTaskRequestor(options)`; numbers are non-negative integers. */
export interface TaskRequestorOptions {
  /** Clock in epoch ms. Default `Date.now`. Read once per call; a clock that throws or returns anything but a finite, non-negative number fails that call with `clock_failed`. */
  now?: () => number;
  /** Never poll more often than this (ms), whatever the receiver's `pollInterval` says. Default 100. */
  pollFloorMs?: number;
  /**
   * Longest wait of the requestor's own backoff (ms): between polls when the receiver gives no
   * `pollInterval`, and between retries after failures. A receiver's `pollInterval` is honoured
   * even when longer. Default 30 000.
   */
  pollCeilingMs?: number;
  /**
   * First wait when the receiver suggests no `pollInterval`, and first retry backoff after a
   * failure (ms); doubles each time, up to `pollCeilingMs`. Default 500.
   */
  initialBackoffMs?: number;
  /**
   * How long to wait for the answer to a `tasks/get`, `tasks/cancel`, `tasks/list` page or
   * task-augmented call (ms). Then a `tasks/get` is sent again on the poll schedule (a
   * `retrying` output); a call, cancel or list is reported failed. Default 30 000.
   */
  requestTimeoutMs?: number;
  /**
   * How long to wait for the answer to a `tasks/result` sent while the task runs (it blocks
   * until the task ends) or to a plain call (ms); a `tasks/result` for a task known to have
   * ended gets `requestTimeoutMs`. Default 300 000.
   */
  resultTimeoutMs?: number;
  /**
   * Pages one {@link TaskRequestor.list} fetches at most; at the limit (or when the receiver
   * repeats a cursor) it ends with a `listed` output carrying an error. Default 1 000.
   */
  maxListPages?: number;
  /** Prefix of the string ids of the requestor's own requests. Default `"mcp-task-core:"`. */
  requestIdPrefix?: string;
  /**
   * The task surface the receiver speaks. Default `"2025-11-25"`; or call
   * {@link TaskRequestor.useServerInfo} with its `server/discover` / `initialize` result.
   */
  dialect?: Dialect;
  /**
   * The client's capabilities (e.g. `{ elicitation: {} }`). In 2026-07-28 each request's `_meta`
   * is the client's declaration, so every request carries them
   * (`io.modelcontextprotocol/clientCapabilities`), with the tasks extension added where the
   * request asks for or follows a task; capabilities the host puts in a call's `params._meta`
   * win for that call. 2025-11-25 declares them once, in `initialize` (the host's). Default none.
   */
  clientCapabilities?: { [key: string]: unknown };
  /**
   * The client's name and version, sent on every 2026-07-28 request
   * (`io.modelcontextprotocol/clientInfo`) unless a call's `params._meta` has its own. Default none.
   */
  clientInfo?: { name: string; version: string; [key: string]: unknown };
  /**
   * Ask a 2026-07-28 receiver to push each task's status: a `subscriptions/listen` naming the task
   * (a `send` output) once it is created. It stays open while the task runs, so the transport must
   * carry a long-lived request (Streamable HTTP: its own SSE stream). When the task ends the
   * requestor sends `notifications/cancelled` for it: close that request's stream (on stdio, send
   * the notification). A receiver that refuses it is not asked again. Pushed statuses (and
   * 2025-11-25's `notifications/tasks/status`, which come unasked) are always taken in; polling goes
   * on beside them, on the receiver's interval, against a lost notification. Default `false`
   * (`TaskClient`: `true`).
   */
  listen?: boolean;
}

/**
 * One item of {@link TextTaskRequestor.pollOutput}, discriminated on `kind`. Every output about a
 * call or its task carries `callId`, the call's raw JSON id (`null` only for a task imported
 * from a state saved without it).
 *
 * When a request gets no answer within its timeout, or the host reports it lost with
 * {@link TextTaskRequestor.requestFailed}, the `response` of `callRefused`, `cancelAnswered`,
 * `listed` (`error`) and `retrying` is a JSON-RPC error response the requestor made up: code
 * -32001 (timeout) or -32000 (transport), with `error.data.requestor` `"timeout"` or
 * `"transport"`.
 */
export type TextTaskRequestorOutput =
  /**
   * A JSON-RPC message for the receiver. `requestId` is its raw JSON id when it is a request
   * (pass it to {@link TextTaskRequestor.requestFailed} if the transport loses it), else `null`.
   */
  | {
      kind: 'send';
      message: string;
      requestId: string | null;
      /** The Streamable HTTP `Mcp-Name` header for this request (2026-07-28: the task ID of `tasks/*`, the tool of `tools/call`), or `null`. */
      mcpName: string | null;
    }
  /** The receiver created a task for call `callId`; `task` is its `Task` JSON. */
  | { kind: 'created'; callId: string; taskId: string; task: string }
  /** The receiver ran call `callId` as a plain request; `response` is its JSON-RPC response text. */
  | { kind: 'plainResponse'; callId: string; response: string }
  /**
   * The receiver refused call `callId`, or no answer came (see above); `response` is the JSON-RPC
   * error response text. A call is never sent again: it may not be safe to repeat.
   */
  | { kind: 'callRefused'; callId: string; response: string }
  /** The last known state of a task changed; `task` is its `Task` JSON. */
  | { kind: 'status'; callId: string | null; taskId: string; task: string }
  /** The receiver asks something for the task (e.g. `elicitation/create`): answer with `respond(requestId, ...)`. */
  | { kind: 'inputRequest'; callId: string | null; taskId: string; requestId: string; request: string }
  /** A `notifications/progress` (JSON text) for the task's progress token. */
  | { kind: 'progress'; callId: string | null; taskId: string; notification: string }
  /**
   * The task ended; `status` is terminal and `response` is the `tasks/result` response exactly
   * as the receiver sent it (a result, or the underlying JSON-RPC error).
   */
  | { kind: 'finished'; callId: string | null; taskId: string; status: TaskStatus; response: string }
  /** The receiver no longer knows the task (expired or deleted); `error` is its error object JSON. */
  | { kind: 'lost'; callId: string | null; taskId: string; error: string }
  /**
   * A `tasks/get` or `tasks/result` (`method`) for the task failed and will be sent again on the
   * poll schedule, with backoff. `response` is the answer that was not taken (a receiver error
   * such as a rate limit, or a `tasks/result` answer for a task still running), or the
   * requestor's own error response for a timeout or transport failure. Informational.
   */
  | { kind: 'retrying'; callId: string | null; taskId: string; method: 'tasks/get' | 'tasks/result' | 'tasks/update'; response: string }
  /** The answer to {@link TextTaskRequestor.cancel}: the cancelled task, or an error response (JSON text). */
  | { kind: 'cancelAnswered'; callId: string | null; taskId: string; response: string }
  /**
   * {@link TextTaskRequestor.list} finished: every page's tasks as a JSON array text; on failure also
   * the error response that stopped it (made up by the requestor, code -32603 with
   * `error.data.requestor` `"repeatedCursor"` or `"pageLimit"`, when the receiver repeats a
   * cursor or `maxListPages` is reached).
   */
  | { kind: 'listed'; tasks: string; error: string | null }
  /** A message that is none of the requestor's business (or a late answer to a request it gave up on). */
  | { kind: 'forward'; message: string };

/**
 * The requestor side of MCP tasks, for one receiver, in JSON text (the object-mode
 * {@link TaskRequestor} wraps it): sends (task-augmented) requests, polls
 * `tasks/get` on the receiver's `pollInterval`, fetches `tasks/result` when a task ends, and
 * relays the receiver's side-channel requests. Same host loop as {@link TaskEngine}: feed
 * every message from the receiver to `handle`, drain `pollOutput`, and call `handleTimeout`
 * at `nextDeadline`.
 */
export declare class TextTaskRequestor {
  /** @throws {TaskEngineError} `invalid_options` */
  constructor(options?: TaskRequestorOptions | null);

  /** Each output kind's fields, those holding JSON text, and the one object mode keeps as `text`. */
  static outputShapes(): RequestorOutputShapes;

  /**
   * The protocol's names and numbers a host's glue needs, as JSON text of {@link ProtocolConstants}
   * (the package's own modules read them from here, built into `core/protocol.js`). On the
   * requestor's class, so the receiver-only build (`mcp-task-core/receiver`) stays small; the
   * main entry and `mcp-task-core/requestor` have it.
   *
   * ```js
   * const { errors } = JSON.parse(TextTaskRequestor.protocolJson());
   * errors.missingCapability; // -32021
   * ```
   */
  static protocolJson(): string;

  /**
   * Sends `method` with `paramsJson` (an object's JSON text). `task`: `undefined` or `false`
   * for a plain request; `null` or `true` to augment without a `ttl`; a number of ms to augment
   * with that `ttl`. `progressTokenJson` (JSON string or number) goes into
   * `_meta.progressToken`. Returns the call id (the request's raw JSON id) that outputs refer to.
   * @throws {TaskEngineError} `invalid_argument`
   */
  call(method: string, paramsJson?: string | null, task?: number | boolean | null, progressTokenJson?: string | null): string;

  /** Feeds one JSON-RPC message from the receiver. */
  handle(message: string): void;

  /**
   * Answers the receiver's side-channel request `requestId` (from an `inputRequest` output)
   * with a result object (JSON text).
   * @throws {TaskEngineError}
   */
  respond(requestId: string, resultJson: string): void;

  /**
   * Answers the receiver's side-channel request with a JSON-RPC error object (JSON text).
   * @throws {TaskEngineError}
   */
  respondError(requestId: string, errorJson: string): void;

  /**
   * Asks the receiver to cancel a tracked task (answered by a `cancelAnswered` output).
   * Returns the request id.
   * @throws {TaskEngineError} `unknown_task`
   */
  cancel(taskId: string): string;

  /**
   * Lists every task the receiver shows, one page at a time, following `nextCursor` (answered by
   * a `listed` output). Returns the first request id.
   * @throws {TaskEngineError} `invalid_argument` in the tasks extension, which has no `tasks/list`
   */
  list(): string;

  /**
   * Reads the receiver's `server/discover` or `initialize` result (JSON text) and speaks what it
   * offers: the tasks extension when `capabilities.extensions` lists
   * `io.modelcontextprotocol/tasks`, else 2025-11-25. Returns the dialect chosen. In the
   * extension, `call(..., task)` declares the extension on the request (the receiver decides),
   * polls `tasks/get`, surfaces each `inputRequests` entry once as an `inputRequest` output
   * (answer with `respond`, sent as `tasks/update`), and reports the inlined outcome as
   * `finished` with the call's own response.
   */
  useServerInfo(resultJson: string): Dialect;

  /** The dialect spoken. */
  readonly dialect: Dialect;

  /**
   * Tells the requestor that its request `requestId` (a `send` output's `requestId`) failed in
   * transport: it could not be sent, or the stream that would carry its answer was dropped. It
   * stops waiting and recovers: a `tasks/get` or `tasks/result` is sent again on the poll
   * schedule (a `retrying` output); a call, cancel or list is reported failed. Returns whether
   * it was a request still awaiting its answer.
   */
  requestFailed(requestId: string): boolean;

  /** The next output, or `null`. */
  pollOutput(): TextTaskRequestorOutput | null;

  /**
   * Epoch ms when `handleTimeout` is next due (a poll, a retry or a request timeout), or `null`
   * when nothing is tracked or awaited. It may be far off (a receiver's long `pollInterval`):
   * `setTimeout` takes at most 2 147 483 647 ms.
   */
  nextDeadline(): number | null;

  /** Sends the polls and retries that are due; gives up on requests past their timeout. Harmless when early or repeated. */
  handleTimeout(): void;

  /** The last known `Task` JSON of a tracked task, or `null`. */
  task(taskId: string): string | null;

  /** IDs of the tracked tasks. */
  tracked(): string[];

  /** Stops tracking a task (no more polls or outputs for it). */
  forget(taskId: string): void;

  /** The tracked tasks as JSON text, to persist across a restart. */
  exportState(): string;

  /**
   * Tracks the tasks of an exported state again (each polled at the next `handleTimeout`).
   * Returns how many were added.
   * @throws {TaskEngineError} `invalid_argument`
   */
  importState(state: string): number;

  /** Releases the wasm memory now; the object is unusable afterwards. */
  free(): void;
}

/**
 * Whether to send a request as a task, from the receiver's capabilities object
 * (`initialize` result `capabilities`, JSON text), the method, the tool's
 * `execution.taskSupport` (for `tools/call`) and the host's preference where the receiver
 * leaves the choice open.
 */
export function shouldAugment(
  capabilitiesJson: string,
  method: string,
  taskSupport: TaskSupport | null | undefined,
  preferTask: boolean,
): { augment: boolean; reason: string };

// ---------------------------------------------------------------------------------------
// Module functions

/**
 * Sets where random bytes come from (task IDs, list-cursor keys, instance ids): `fill` must
 * fill the whole array from a cryptographically secure generator, or throw. `undefined`
 * restores the default, `crypto.getRandomValues`. The Node entry points set a reader of
 * `/dev/urandom` (the kernel generator that `crypto` also draws from), which starts faster
 * than loading `node:crypto`; hosts rarely need to call this.
 *
 * ```js
 * import { setRandomSource } from 'mcp-task-core';
 * setRandomSource((bytes) => globalThis.crypto.getRandomValues(bytes));
 * ```
 */
export function setRandomSource(fill: ((bytes: Uint8Array) => void) | undefined): void;

/**
 * Makes the wasm module ready. Required once (await it) in browsers; resolves at once on
 * Node and workerd, where the module is instantiated on import. In browsers it accepts what
 * the wasm-bindgen `web` init accepts: a URL or path, a `Response`, the module bytes, or a
 * compiled `WebAssembly.Module` (default: the .wasm next to the module).
 */
export function init(input?: unknown): Promise<void>;

/**
 * `TextTaskEngine.handle` with objects ({@link TaskEngine.handle} does this itself): `message`
 * is stringified unless it is already JSON text, and the reply is parsed. Returns `null` when
 * there is no immediate reply.
 */
export function handleObject(
  engine: Pick<TextTaskEngine, 'handle'>,
  message: JsonRpcMessage | string,
  context?: string | null,
): JsonRpcResponse | null;

/** Drains `engine.pollOutput()` and returns the outputs in order. */
export function drainOutputs(engine: Pick<TaskEngine, 'pollOutput'>): TaskEngineOutput[];
export function drainOutputs(engine: Pick<TextTaskEngine, 'pollOutput'>): TextTaskEngineOutput[];

/**
 * The figures a dashboard shows, from `figures()` of every receiver adapter (`WasmTaskStore`
 * and its `allSessions()` view, `TasksExtension`, `TaskEngineObject`). With storage, the tasks
 * this instance holds.
 */
export interface TaskFigures {
  /** Live tasks held, by status (finished ones count until they expire). */
  tasks: { working: number; input_required: number; completed: number; failed: number; cancelled: number };
  /** Tasks whose work runs in this process (`WasmTaskStore`: created here, no outcome stored yet). */
  running: number;
  /** Of those, the ones waiting for the client's answer to an input request. */
  inputWaiting: number;
  /** Since start: tasks deleted because their TTL ran out. */
  expirations: number;
  /** Since start: tasks failed because the lease of the instance running their work ran out. */
  leaseFailures: number;
  /** Since start: storage errors (calls that got one, and timer rounds that met one). */
  storageErrors: number;
}

/**
 * The `telemetry` option of the receiver adapters (OpenTelemetry traces and metrics of tasks).
 * Default (option absent): `@opentelemetry/api` when Node can resolve it next to this package,
 * with its global tracer and meter providers; nothing when it cannot (workerd, browsers,
 * bundles). `false`: off. An object: that API (the `@opentelemetry/api` module), with the tracer
 * and meter given, else those of its global providers.
 */
export type TaskTelemetryOption =
  | false
  | {
      api: {
        trace: { getTracer(name: string, version?: string): unknown };
        metrics: { getMeter(name: string, version?: string): unknown };
        [key: string]: unknown;
      };
      tracer?: unknown;
      meter?: unknown;
    };
