// mcp-task-core/server (ESM): the task runtime of the official TypeScript SDK 2.x
// (`@modelcontextprotocol/server` >= 2.4), for the tasks extension `io.modelcontextprotocol/tasks`
// (protocol 2026-07-28) and, from the same engine, MCP 2025-11-25 tasks.
//
//   import { TasksExtension } from 'mcp-task-core/server';
//   const tasks = new TasksExtension();                        // one per process: it holds the engine
//   const handler = tasks.withTaskListen(createMcpHandler(() => {
//     const server = new McpServer(info);
//     tasks.install(server);                                   // before any registerTool
//     tasks.registerTool(server, 'report', { taskSupport: 'optional', inputSchema }, async (args, task) => {
//       await task.setStatus('working on it');
//       const answer = await task.elicit({ mode: 'form', message: 'Which format?', requestedSchema });
//       return { content: [{ type: 'text', text: '...' }] };
//     });
//     return server;
//   }));
//
// This file is glue: every protocol rule (who gets a task, -32021, what tasks/get returns, how
// tasks/update answers input, idempotent cancel, expiry) is the engine's. The SDK is never
// imported (it is a peer dependency, used for types only): handlers are registered through the
// objects the caller passes in. Its CommonJS twin (sdk-v2.cjs) is generated from this file by
// scripts/package-table.mjs.
import { TextTaskEngine, freshInstance } from 'mcp-task-core/receiver';
import { refuseUnknownOptions } from '../core/errors.js';
import { StorageLoop } from '../storage/storage.js';
import { TaskRuntime } from '../runtime/runtime.js';
import { PROTOCOL } from '../core/protocol.js';
import { fastPath } from './sdk-v2-fast-path.js';
import { checkTelemetryOption } from '../runtime/telemetry.js';
import { companionAnswer, companionNames, companionStarted, companionTools } from '../runtime/companion.js';
import { EngineRecycler, recycleOptions } from '../runtime/recycle.js';

const { extensionId: EXTENSION_ID, legacyTaskSupport: LEGACY_TASK_SUPPORT } = PROTOCOL;
const { extension: MODERN_VERSION, legacy: LEGACY_VERSION } = PROTOCOL.versions;
const { missingCapability: MISSING_CAPABILITY, invalidParams: INVALID_PARAMS, internalError: INTERNAL_ERROR } = PROTOCOL.errors;
const {
  subscriptionId: SUBSCRIPTION_ID_META,
  protocolVersion: PROTOCOL_VERSION_META,
  clientCapabilities: CLIENT_CAPABILITIES_META,
} = PROTOCOL.meta;
const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel', 'tasks/result', 'tasks/list'];
const POLICIES = new Set(['required', 'optional', 'perCall']);

/** Params schema for the SDK's custom-method form: any params object, passed through as is. */
const ANY_PARAMS = {
  '~standard': {
    version: 1,
    vendor: 'mcp-task-core',
    validate: (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? { value } : { issues: [{ message: 'params must be an object' }] },
  },
};

/** Result schema for `ctx.mcpReq.send`: whatever the client answers goes to the engine. */
const ANY_RESULT = { '~standard': { version: 1, vendor: 'mcp-task-core', validate: (value) => ({ value }) } };

/**
 * A JSON-RPC error: thrown from SDK handlers, the SDK answers with exactly `{ code, message,
 * data }`. Also what `TaskContext.requestInput` rejects with when the client answers an error,
 * and, with code -32021 and `data.requiredCapabilities`, when the client did not declare the
 * capability the request needs (nothing is sent; the task goes on as the tool decides).
 */
class TaskProtocolError extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = 'TaskProtocolError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isModern(version) {
  return typeof version === 'string' && version >= MODERN_VERSION;
}

/**
 * The `quotaKey` option as a function `(ctx, principal) => key`: whose allowance (the engine's rate
 * limit, running tasks and stored bytes per key) a request spends. The host's own function, or the
 * default: the transport's session; else, for an authenticated request, none (its context, the
 * principal, is the key); else the client address in `addressHeader`, when the host names a header
 * it (or its proxy) sets. No key: the request spends its context's allowance, which every
 * anonymous client shares. Keys are prefixed by kind, so no client can name another kind's key.
 */
function quotaKeyOption(option) {
  if (typeof option === 'function') return option;
  const valid =
    option === undefined ||
    (isPlainObject(option) && Object.keys(option).every((k) => k === 'addressHeader') && ['string', 'undefined'].includes(typeof option.addressHeader));
  if (!valid) throw new TypeError("TasksExtension options.quotaKey must be a function (ctx, principal) => string | null, or { addressHeader: 'x-forwarded-for' }");
  const header = option?.addressHeader;
  return (ctx, principal) => {
    if (typeof ctx?.sessionId === 'string' && ctx.sessionId !== '') return `session:${ctx.sessionId}`;
    if (principal !== null) return null;
    const value = header === undefined ? null : ctx?.http?.req?.headers?.get?.(header);
    // The last address of a list: the one the host's own proxy added (earlier ones are the client's word).
    const address = typeof value === 'string' ? value.split(',').pop().trim() : '';
    return address === '' ? null : `address:${address}`;
  };
}

/** What a `TasksExtension` takes; anything else is a typo or an option of another adapter. */
const OPTIONS = ['engine', 'engineOptions', 'principal', 'quotaKey', 'onerror', 'onaudit', 'storage', 'instanceId', 'leaseMs', 'cursorKey', 'storageTimeoutMs', 'onDamaged', 'onstorageerror', 'companionTools', 'telemetry', 'recycle'];

/** Options that only mean something with `storage`: without it they would be ignored. */
const STORAGE_ONLY_OPTIONS = ['instanceId', 'leaseMs', 'cursorKey', 'storageTimeoutMs', 'onDamaged', 'onstorageerror'];


/** A -32603 error of the storage, with the StorageLoop's reason (`storage_unavailable`, ...). */
function storageError(message, reason) {
  return Object.assign(new TaskProtocolError(INTERNAL_ERROR, message), { reason });
}

/**
 * The default principal: the authenticated user, never a shared value. A verified token that
 * names its subject (`authInfo.extra.sub`, as token verifiers report the JWT `sub` claim) binds
 * tasks to that subject within its OAuth client; without `authInfo` the request is anonymous
 * (`null`: task IDs, random UUIDs, are then the only bearer of access). A token with no subject
 * is refused: `clientId` names the client application, which every user of it shares.
 */
function defaultPrincipal(authInfo) {
  if (authInfo === undefined || authInfo === null) return null;
  const subject = authInfo.extra?.sub;
  if (typeof subject === 'string' && subject !== '') return JSON.stringify([authInfo.clientId ?? null, subject]);
  throw new TaskProtocolError(
    INTERNAL_ERROR,
    'Cannot tell which user this request acts for: the verified token names no subject (authInfo.extra.sub). ' +
      'The server must pass TasksExtension({ principal: (authInfo) => ... }) to bind tasks to its users.',
  );
}

function checkOptions(options) {
  if (!isPlainObject(options)) throw new TypeError('TasksExtension options must be an object');
  refuseUnknownOptions(options, OPTIONS);
  companionNames(options.companionTools, 'TasksExtension options.companionTools');
  if (options.storage === undefined || options.storage === null) {
    const ignored = STORAGE_ONLY_OPTIONS.find((key) => options[key] !== undefined);
    if (ignored !== undefined) throw new TypeError(`TasksExtension options.${ignored} is an option of the storage mode: it needs options.storage`);
    // The engine's storage mode needs the loop that writes its records: given here, never alone.
    if (options.engineOptions?.storage !== undefined) throw new TypeError('TasksExtension: give options.storage (the runtime sets the engine storage mode from it), not engineOptions.storage');
  } else if (options.engine !== undefined) {
    throw new TypeError('TasksExtension: give storage or engine, not both (the runtime creates the engine of its storage mode)');
  }
  if (options.recycle !== undefined && (options.storage != null || options.engine !== undefined)) {
    throw new TypeError('TasksExtension options.recycle: only an engine the runtime creates in memory is recycled (not with storage or engine)');
  }
  if (options.onDamaged !== undefined && typeof options.onDamaged !== 'function') throw new TypeError('TasksExtension: onDamaged must be a function');
  for (const hook of ['principal', 'onerror', 'onaudit', 'onstorageerror']) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') throw new TypeError(`TasksExtension: ${hook} must be a function`);
  }
  if (options.engineOptions?.audit === true && options.onaudit === undefined) {
    throw new TypeError('TasksExtension: engineOptions.audit needs onaudit(record), where the audit records go');
  }
  checkTelemetryOption(options.telemetry, 'TasksExtension options.');
}

/** The `error.type` of a JSON-RPC error a task failed with (OpenTelemetry's MCP conventions). */
const errorTypeOf = (error) => String(error.code);

/** registerTool's config and handler, checked: the policy, runAsTask and the SDK's own config. */
function checkedTool(config, handler) {
  const { taskSupport, runAsTask, ...sdkConfig } = config ?? {};
  if (!POLICIES.has(taskSupport)) {
    throw new TypeError(`registerTool: taskSupport must be 'required', 'optional' or 'perCall', got ${JSON.stringify(taskSupport)}`);
  }
  if (taskSupport === 'perCall' && typeof runAsTask !== 'function') {
    throw new TypeError("registerTool: taskSupport 'perCall' needs runAsTask(args, ctx) => boolean");
  }
  if (typeof handler !== 'function') throw new TypeError('registerTool: handler must be a function');
  return { taskSupport, runAsTask, sdkConfig };
}

/**
 * The tools/call route of a tool of every server (see TasksExtension._fastTool), from its first
 * registration, or null when the SDK path does more for a call of it than the runtime's
 * tools/call: a per-call choice (`perCall`), a scope challenge, parameters bound to `Mcp-Param`
 * headers (`x-mcp-header`), the name of a companion tool, a schema that is not a Standard Schema.
 */
function fastToolOf(server, name, shared, registered, companions) {
  if (shared.policy === 'perCall' || shared.config.scopeChallenge !== undefined) return null;
  if (companions !== null && (name === companions.status || name === companions.cancel)) return null;
  const schema = registered.inputSchema;
  if (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function') return null;
  let json;
  try {
    json = JSON.stringify(server.toolInputSchemaJson(name) ?? null);
  } catch {
    return null;
  }
  if (json.includes('x-mcp-header')) return null;
  return { policy: shared.policy, runAsTask: undefined, handler: shared.handler, registered: Object.freeze({ enabled: true, inputSchema: schema }) };
}

/** The JSON-RPC error object a handler's throw stands for, or null (not a JSON-RPC error). */
function jsonRpcErrorOf(err) {
  if (err !== null && typeof err === 'object' && Number.isSafeInteger(err.code)) {
    const error = { code: err.code, message: typeof err.message === 'string' && err.message !== '' ? err.message : 'Error' };
    if (err.data !== undefined) error.data = err.data;
    return error;
  }
  return null;
}

/** A thrown value as the SDK reports a throwing tool: an `isError` result. */
function toolErrorResult(err) {
  const text = err instanceof Error ? err.message : String(err);
  return { content: [{ type: 'text', text }], isError: true };
}


/** The request `_meta` as it came on the wire: the SDK lifts the reserved envelope keys into ctx. */
function wireMeta(meta, ctx) {
  const envelope = ctx?.mcpReq?.envelope;
  if (meta === undefined && envelope === undefined) return undefined;
  return { ...(isPlainObject(meta) ? meta : {}), ...(isPlainObject(envelope) ? envelope : {}) };
}

/** A request id of ours: random, so no client can name (or collide with) the stream it opens. */
function mintedId(kind) {
  return `mcp-task-core/${kind}:${crypto.randomUUID()}`;
}

/** A listen stream's message with the client's subscription id in place of the engine's. */
function withSubscriptionId(messageText, streamId, subscriptionId) {
  const message = JSON.parse(messageText);
  const meta = message.params?._meta;
  if (isPlainObject(meta) && meta[SUBSCRIPTION_ID_META] === streamId) meta[SUBSCRIPTION_ID_META] = subscriptionId;
  return message;
}

/** The acknowledgement of listen request `id`: the task IDs it follows. */
function listenAck(id, taskIds) {
  return { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds }, _meta: { [SUBSCRIPTION_ID_META]: id } } };
}

/** The answer that ends listen stream `id` gracefully. */
function listenEnd(id) {
  return { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META]: id } } };
}

/** Whether `message` is a subscriptions/listen request that names task IDs. */
function listensToTasks(message) {
  return isPlainObject(message) && message.method === 'subscriptions/listen' && message.id !== undefined && isPlainObject(message.params?.notifications) && 'taskIds' in message.params.notifications;
}

function sseFrame(message) {
  return `event: message\ndata: ${typeof message === 'string' ? message : JSON.stringify(message)}\n\n`;
}

/**
 * What a task's work gets. In a task, `signal` fires on `tasks/cancel`, on the host's
 * `cancel()` and on expiry; `requestInput` puts a request into the task's `inputRequests`
 * (2025-11-25: sends it on the waiting `tasks/result`) and resolves with the client's answer;
 * it rejects with a -32021 `TaskProtocolError` (nothing sent) when the client did not declare the
 * capability (e.g. `elicitation`) on the request that created the task (2025-11-25: in the
 * session's `initialize`). Without a task (a plain call of an `optional` or `perCall` tool),
 * `taskId` is undefined, `signal` is the request's, and `requestInput` rejects: input without a task goes through the
 * SDK's own multi round-trip flow (`inputRequired`).
 */
class TaskContext {
  constructor(runtime, taskId, signal, mcpReq, authInfo) {
    this._runtime = runtime;
    this.taskId = taskId;
    // An AbortSignal, or what makes it on first read (most work never reads it, and a signal
    // costs more to make than the rest of a task's start).
    this._signal = signal;
    this.mcpReq = mcpReq;
    this.authInfo = authInfo;
  }

  get signal() {
    if (typeof this._signal === 'function') this._signal = this._signal();
    return this._signal;
  }

  get isTask() {
    return this.taskId !== undefined;
  }

  requestInput(method, params) {
    if (this.taskId === undefined) {
      return Promise.reject(new TaskProtocolError(INTERNAL_ERROR, 'requestInput needs a task: this call runs without one'));
    }
    return this._runtime._requestInput(this.taskId, method, params);
  }

  elicit(params) {
    return this.requestInput('elicitation/create', params);
  }

  createMessage(params) {
    return this.requestInput('sampling/createMessage', params);
  }

  setStatus(message) {
    if (this.taskId === undefined) return undefined;
    return this._runtime._setStatus(this.taskId, message);
  }
}

/**
 * A running task as its work sees it (the draft SDK's `store.handle(taskId)` shape): the
 * `signal`, `status()`, `requireInput()`, and the outcome through `complete()` / `fail()`.
 */
class TaskHandle {
  constructor(runtime, taskId, entry) {
    this._runtime = runtime;
    this.taskId = taskId;
    this._entry = entry;
  }

  get signal() {
    return this._entry.controller.signal;
  }

  status(message) {
    return this._runtime._setStatus(this.taskId, message);
  }

  requireInput(method, params) {
    return this._runtime._requestInput(this.taskId, method, params);
  }

  complete(result) {
    return this._runtime._finish(this.taskId, (engine) => engine.complete(this.taskId, JSON.stringify(result)));
  }

  fail(error) {
    const object = jsonRpcErrorOf(error) ?? { code: INTERNAL_ERROR, message: String(error?.message ?? error) };
    return this._runtime._finish(this.taskId, (engine) => engine.fail(this.taskId, JSON.stringify(object)), errorTypeOf(object));
  }
}

/**
 * The task runtime for SDK 2.x servers. One per process: it holds one engine, and every
 * `McpServer` it is installed on (one per request under `createMcpHandler`) shares it.
 */
class TasksExtension {
  constructor(options = {}) {
    checkOptions(options);
    // A TaskEngine (object mode) is used through its TextTaskEngine: same tasks, JSON text.
    const engineOptions = { ...options.engineOptions };
    if (options.onaudit !== undefined && options.engine === undefined) engineOptions.audit = true;
    // Storage mode: every change is written through the StorageLoop (mcp-task-core/storage), which
    // alone drains the engine's outputs (see TaskRuntime.op).
    let loop = null;
    if (options.storage !== undefined && options.storage !== null) {
      engineOptions.storage = { ...engineOptions.storage };
      if (options.instanceId !== undefined) engineOptions.storage.instanceId = String(options.instanceId);
      if (options.leaseMs !== undefined) engineOptions.storage.leaseMs = options.leaseMs;
      if (options.cursorKey !== undefined) engineOptions.storage.cursorKey = String(options.cursorKey);
      loop = new StorageLoop(options.storage, {
        timeoutMs: options.storageTimeoutMs,
        onDamaged: options.onDamaged,
        onOutput: (out) => this.runtime.output(out),
        engineError: (err) => (err?.code === 'damaged_record' ? storageError(err.message, 'damaged_record') : err),
        storageError: (why) => storageError(`Task storage unavailable: ${why}`, 'storage_unavailable'),
        conflictError: (n) => storageError(`Task storage: the task kept changing under this operation (${n} compare-and-set conflicts in a row)`, 'storage_conflict'),
      });
    }
    // The task policies of registerTool, given again to each engine a recycling makes.
    this._taskTools = new Map();
    const recycle = loop === null && options.engine === undefined ? recycleOptions(options.recycle, 'TasksExtension options.recycle') : null;
    const create = (Text, cursorKey) => {
      const engine = new Text(cursorKey === undefined ? engineOptions : { ...engineOptions, cursorKey });
      for (const [name, taskSupport] of this._taskTools) engine.registerTool(name, taskSupport);
      return engine;
    };
    const recycler = recycle === null ? null : new EngineRecycler({ ...recycle, instance: freshInstance, create, cursorKey: engineOptions.cursorKey });
    const engine = options.engine?.textEngine ?? options.engine ?? (recycler === null ? create(TextTaskEngine) : recycler.first());
    this._principalOf = options.principal ?? defaultPrincipal;
    this._onerror = options.onerror ?? (() => {});
    // Streams are opened under ids minted here, random, never the client's own (clients number
    // their requests alike), each with the principal it serves.
    this.runtime = new TaskRuntime(engine, {
      loop,
      recycler,
      // The engine's clock, read at each use (as the engine reads it), so timers follow fake clocks.
      clock: typeof engineOptions.now === 'function' ? engineOptions.now : null,
      rpcError: (code, message, data) => new TaskProtocolError(code, message, data),
      onError: (err) => this._onerror(err),
      onAudit: options.onaudit,
      onStorageError: options.onstorageerror,
      telemetry: options.telemetry,
    });
    this._servers = new WeakMap();
    this._installs = 0;
    // Task tools of every server (registerTool(name, config, handler)), by name.
    this._shared = new Map();
    // What the fast path's tools/call sees in place of a server's state: the fast tools.
    this._fastState = { modern: true, tools: new Map() };
    this._active = new WeakMap(); // request AbortSignal -> server state, while a plain tools/call runs
    // Per-client limits: whose allowance each request spends (see quotaKeyOption).
    this._quotaKey = quotaKeyOption(options.quotaKey);
    // Tools that let a client with no task support follow a task (see _companionCall).
    this._companions = companionNames(options.companionTools, 'TasksExtension options.companionTools');
    // The fast path's quota key is the default one: a host's own function may read any of the
    // SDK's context, which the fast path does not build.
    this._defaultQuotaKey = typeof options.quotaKey !== 'function';
    // The identity (serverInfo) of the installed servers, { text, value }: undefined before the
    // first, null once two differ (the fast path then cannot tell which the SDK would stamp).
    this._identity = undefined;
  }

  /** The engine: the runtime's current one (recycling replaces it), so read it at each use. */
  get engine() {
    return this.runtime.engine;
  }

  /** `capabilities.extensions` entry: `{ "io.modelcontextprotocol/tasks": {} }`. */
  static capability() {
    return structuredClone(PROTOCOL.extensionCapability);
  }

  /**
   * Attaches the runtime to an `McpServer` (call it before `registerTool`): advertises the
   * extension, registers `tasks/get|update|cancel` (and, for 2025-11-25 sessions,
   * `tasks/result|list`) through the SDK's custom-method form, and routes task tools.
   */
  install(server) {
    const sdkServer = server?.server;
    if (sdkServer === undefined || typeof sdkServer.setRequestHandler !== 'function') {
      throw new TypeError('install(server) takes an McpServer from @modelcontextprotocol/server');
    }
    if (this._servers.has(server)) return;
    try {
      sdkServer.assertCanSetRequestHandler('tools/call');
    } catch {
      throw new Error('install(server) must come before the first registerTool: the runtime routes tools/call');
    }
    const state = { tools: new Map(), minted: new Map(), refusals: new Map(), modern: false };
    this._servers.set(server, state);
    this._seeIdentity(sdkServer);
    sdkServer.registerCapabilities({ extensions: TasksExtension.capability() });

    // tools/call: the SDK's hook for wrapping a registered handler. Task tools are decided here,
    // before McpServer's own tools/call handler (which answers a tool's throw with an isError
    // result, so a -32021 could not reach the wire from inside a tool callback).
    const wrapHandler = sdkServer._wrapHandler.bind(sdkServer);
    sdkServer._wrapHandler = (method, handler) => {
      const wrapped = wrapHandler(method, handler);
      if (method === 'tools/list' && this._companions !== null) return (request, ctx) => this._toolsList(server, state, wrapped, request, ctx);
      return method === 'tools/call' ? (request, ctx) => this._toolsCall(server, state, wrapped, request, ctx) : wrapped;
    };

    // The era is known when the serving entry connects the instance (createMcpHandler sets the
    // negotiated version first for 2026-07-28 traffic).
    const connect = sdkServer.connect.bind(sdkServer);
    sdkServer.connect = (transport) => {
      state.modern = isModern(sdkServer.getNegotiatedProtocolVersion?.());
      if (!state.modern) {
        sdkServer.registerCapabilities({ tasks: JSON.parse(this.engine.capabilitiesJson(null)) });
        for (const tool of state.tools.values()) {
          tool.registered.execution = { ...tool.registered.execution, taskSupport: LEGACY_TASK_SUPPORT[tool.policy] };
        }
      }
      return connect(transport);
    };

    for (const method of TASK_METHODS) {
      sdkServer.setRequestHandler(method, { params: ANY_PARAMS }, (params, ctx) => this._taskMethod(server, state, method, params, ctx));
    }
    this._installs += 1;
    for (const [name, shared] of this._shared) {
      const registered = this.registerTool(server, name, shared.config, shared.handler);
      if (shared.fast !== undefined) continue;
      shared.fast = fastToolOf(server, name, shared, registered, this._companions);
      if (shared.fast !== null) this._fastState.tools.set(name, shared.fast);
    }
  }

  /**
   * Registers a task tool. `config` is `McpServer.registerTool`'s, plus `taskSupport`:
   * `'required'` (always a task; -32021 for a client that did not declare the extension),
   * `'optional'` (a task when the client declared it, a plain call otherwise) or `'perCall'` (a
   * task when `runAsTask(args, ctx)` says so and the client declared it). The handler gets
   * `(args, task)`; what it returns or throws is the outcome.
   *
   * `registerTool(server, name, config, handler)` registers it on one installed server and
   * returns the SDK's RegisteredTool. `registerTool(name, config, handler)`, before the first
   * `install`, registers it on every server the runtime is installed on: such a tool is the same
   * whatever the request, so `fastPath` can also create its tasks without building a server.
   */
  registerTool(...call) {
    if (typeof call[0] === 'string') return this._registerShared(...call);
    const [server, name, config, handler] = call;
    const state = this._servers.get(server);
    if (state === undefined) throw new Error('registerTool: call install(server) first');
    const { taskSupport, runAsTask, sdkConfig } = checkedTool(config, handler);
    // Once per name and policy: every per-request server registers the same tools again.
    if (this._taskTools.get(name) !== taskSupport) {
      this.engine.registerTool(name, taskSupport);
      this._taskTools.set(name, taskSupport);
    }
    // The plain (no task) path: McpServer validates the arguments and calls this, with
    // (args, ctx), or (ctx) alone for a tool without inputSchema.
    const registered = server.registerTool(name, sdkConfig, (...call) => {
      const ctx = call.length >= 2 ? call[1] : call[0];
      const args = call.length >= 2 ? call[0] : undefined;
      return handler(args, new TaskContext(this, undefined, ctx.mcpReq.signal, ctx.mcpReq, ctx.http?.authInfo));
    });
    state.tools.set(name, { policy: taskSupport, runAsTask, handler, registered });
    return registered;
  }

  /** registerTool(name, config, handler): a task tool of every server installed from now on. */
  _registerShared(name, config, handler) {
    if (this._installs > 0) throw new Error('registerTool(name, config, handler): register the tools of every server before the first install(server)');
    if (this._shared.has(name)) throw new Error(`registerTool: a task tool named ${JSON.stringify(name)} is already registered`);
    const { taskSupport, runAsTask } = checkedTool(config, handler);
    this._shared.set(name, { config, handler, policy: taskSupport, runAsTask, fast: undefined });
  }

  /**
   * The task tool `name` as the fast path may serve a call of it, or undefined: a tool of every
   * server, as the first installed server registered it, that the SDK path runs straight through
   * to the task (no per-call choice, scope challenge or parameter headers of its own).
   */
  _fastTool(name) {
    return this._fastState.tools.get(name);
  }

  /**
   * A 2026-07-28 call of a fast tool (see _fastTool) from the fast path: the SDK path's own
   * tools/call, with no server. Where that would hand the call to the SDK's handler (arguments
   * that fail the schema, no task made), `fallBack()` is called instead: the request then goes
   * to the SDK as it came.
   */
  _fastToolsCall(request, ctx, fallBack) {
    return this._toolsCall(null, this._fastState, fallBack, request, ctx);
  }

  /**
   * From inside any tool handler: turns this call into a task and returns the
   * `CreateTaskResult` to return from the handler (the draft SDK's `tasks.create(ctx)`). Drive
   * the task with `handle(taskId)`. Throws -32021 when the client did not declare the extension.
   * With `storage`, a promise of it, settled once the task is written.
   */
  create(ctx) {
    const state = this._serverOfCtx(ctx);
    const principal = this._principal(ctx.http?.authInfo);
    const text = this._requestText('tools/call', {}, ctx);
    const quotaKey = this._quotaKeyOf(ctx, principal);
    return this.runtime.op({ write: true }, (engine) => {
      let response;
      try {
        response = engine.startTask(text, principal, { quotaKey });
      } catch (err) {
        if (err?.code === 'invalid_argument') {
          const refusal = new TaskProtocolError(MISSING_CAPABILITY, `Missing required client capability: ${err.message}`, structuredClone(PROTOCOL.missingCapabilityData));
          state?.refusals.set(ctx.mcpReq.id, refusal);
          throw refusal;
        }
        throw err;
      }
      const result = JSON.parse(response).result;
      const origin = this.runtime.tracing ? this._originOf(ctx) : undefined;
      this.runtime.began(result.taskId, principal, origin === undefined ? undefined : JSON.parse(text), origin);
      state?.minted.set(ctx.mcpReq.id, result);
      return result;
    });
  }

  /** The handle of a live task this runtime created (see `create`). */
  handle(taskId) {
    const entry = this.runtime.running(taskId);
    if (entry === undefined) throw new TaskProtocolError(INVALID_PARAMS, `No running task ${taskId}`);
    return new TaskHandle(this, taskId, entry);
  }

  /**
   * The figures a dashboard shows (see TaskRuntime.figures): tasks by status, running work,
   * work waiting for input, and since start expirations, lease failures and storage errors.
   */
  figures() {
    return this.runtime.figures();
  }

  /** What the trace of a task created by request `ctx` records of it: the client's id, the HTTP headers. */
  _originOf(ctx) {
    return { requestId: ctx.mcpReq.id, headers: ctx.http?.req?.headers };
  }

  /** Cancels a task from the server side (its `signal` fires; `tasks/get` shows `cancelled`). */
  cancel(taskId, message) {
    return this.runtime.quietly({ taskId, write: true }, (engine) => engine.cancel(taskId, message ?? null));
  }

  /**
   * Wraps a `createMcpHandler` result (Streamable HTTP), or a server transport (stdio: pass the
   * result to `serveStdio(factory, { transport })`), so that `subscriptions/listen` requests naming
   * `notifications.taskIds` get `notifications/tasks` (the SDK's entries serve listen themselves and
   * drop `taskIds`). Other requests go to the handler, or the SDK, unchanged.
   */
  withTaskListen(handler) {
    if (typeof handler?.fetch !== 'function' && typeof handler?.send === 'function') return this._listenOn(handler);
    const fetch = async (request, options) => {
      // 2026-07-28 requests name their method in the Mcp-Method header (the SDK refuses them
      // without it): only a listen request's body is read here.
      if (request.method.toUpperCase() === 'POST' && request.headers.get('mcp-method') === 'subscriptions/listen') {
        let body;
        try {
          body = await request.clone().json();
        } catch {
          body = undefined;
        }
        if (listensToTasks(body)) {
          return this._serveListen(request, body, options);
        }
      }
      return handler.fetch(request, options);
    };
    return { ...handler, fetch };
  }

  /**
   * Wraps the Node listener `toNodeHandler(handler)` of `@modelcontextprotocol/node` (where
   * `handler` serves 2026-07-28 with createMcpHandler): 2026-07-28 `tasks/get`, `tasks/update` and
   * `tasks/cancel` are answered from the engine when the SDK would serve them and answer the same
   * (same checks, principal from `req.auth`, result, status), without building a server for the
   * request; every other request goes to `serve` unchanged. `options`: `maxRequestBodySize` and
   * `responseMode` when given to toNodeHandler / createMcpHandler (`'sse'`: nothing is answered
   * here). Authentication belongs before it (it sets `req.auth`): the factory is not called for
   * what it answers.
   */
  fastPath(serve, options) {
    return fastPath(this, serve, options);
  }

  /** Stops the expiry timer and aborts every running task's work. The engine stays usable. */
  close() {
    this.runtime.close();
  }

  // ----------------------------------------------------------------------------------------
  // Request paths

  /** tools/list for a client that does not speak tasks: task tools as plain ones, and the companion tools. */
  async _toolsList(server, state, wrapped, request, ctx) {
    const result = await wrapped(request, ctx);
    if (this._speaksTasks(server, state, request, ctx)) return result;
    // Task tools are plain tools to such a client (SDK 1.x clients refuse a tool listed 'required').
    const tools = (result.tools ?? []).map((t) => (t.execution?.taskSupport === undefined ? t : { ...t, execution: { ...t.execution, taskSupport: 'forbidden' } }));
    const companions = companionTools(this._companions).filter((t) => server._registeredTools?.[t.name] === undefined);
    return { ...result, tools: request.params?.cursor === undefined ? [...tools, ...companions] : tools };
  }

  /**
   * Whether the client speaks tasks: 2026-07-28, the extension in the request's client
   * capabilities; 2025-11-25, `tasks` in the session's capabilities or a task-augmented call.
   */
  _speaksTasks(server, state, request, ctx) {
    if (state.modern) return isPlainObject(wireMeta(request.params?._meta, ctx)?.[CLIENT_CAPABILITIES_META]?.extensions?.[EXTENSION_ID]);
    return server.server.getClientCapabilities?.()?.tasks !== undefined || request.params?.task !== undefined;
  }

  /**
   * A request as a task-speaking client would send it: the engine then treats it as the client
   * declared task support (2026-07-28: the extension in its capabilities; 2025-11-25: `task`),
   * and nothing else: such a client cannot answer a task's input request (it has no tasks/update
   * or tasks/result), so the work's `requestInput` rejects with -32021 and nothing is sent.
   */
  _asSpeaking(state, method, params, ctx) {
    const meta = wireMeta(params?._meta, ctx);
    const speaking = { ...params };
    if (meta !== undefined) speaking._meta = { ...meta, [CLIENT_CAPABILITIES_META]: { extensions: { [EXTENSION_ID]: {} } } };
    if (!state.modern && method === 'tools/call') speaking.task = {};
    return { params: speaking, ctx: { ...ctx, mcpReq: { ...ctx.mcpReq, envelope: undefined } } };
  }

  /** A companion tool's call: the named task, through tasks/get or tasks/cancel (same scoping). */
  async _companionCall(server, state, request, ctx) {
    const call = (method, taskId) => {
      const speaking = this._asSpeaking(state, method, { taskId, _meta: request.params._meta }, ctx);
      return this._taskMethod(server, state, method, speaking.params, speaking.ctx);
    };
    return companionAnswer(request.params.name, request.params.arguments, this._companions, {
      get: (taskId) => call('tasks/get', taskId),
      // 2026-07-28 answers tasks/cancel with an empty result: the status is read back.
      cancel: async (taskId) => (await call('tasks/cancel', taskId), call('tasks/get', taskId)),
      outcome: (task) => this._outcomeOf(state, task, (method) => call(method, task.taskId)),
    });
  }

  /** A finished task's outcome: `{ result }` or `{ error }` (2025-11-25 through tasks/result). */
  async _outcomeOf(state, task, call) {
    if (task.result !== undefined || task.error !== undefined) return task;
    try {
      return { result: await call('tasks/result') };
    } catch (err) {
      const error = jsonRpcErrorOf(err);
      if (error === null) throw err;
      return { error };
    }
  }

  /** The CallToolResult that answers a task tool's call at once, for a client with no task support. */
  _companionAnswer(created) {
    const { taskId } = created.task ?? created;
    return companionStarted(taskId, this._companions);
  }

  async _toolsCall(server, state, wrapped, request, ctx) {
    const name = request.params?.name;
    // A tool the server registered under the same name keeps it.
    if (this._companions !== null && (name === this._companions.status || name === this._companions.cancel) && server._registeredTools?.[name] === undefined) {
      return this._companionCall(server, state, request, ctx);
    }
    const tool = typeof name === 'string' ? state.tools.get(name) : undefined;
    if (tool === undefined || tool.registered.enabled === false) return this._plainCall(state, wrapped, request, ctx);

    // The arguments are validated first, as for any tool; invalid ones get the SDK's answer.
    const schema = tool.registered.inputSchema;
    let args = request.params.arguments;
    if (schema !== undefined) {
      const checked = await schema['~standard'].validate(args ?? {});
      if (checked.issues !== undefined) return wrapped(request, ctx);
      args = checked.value;
    }

    const principal = this._principal(ctx.http?.authInfo);
    const quotaKey = this._quotaKeyOf(ctx, principal);
    const id = mintedId('server');
    // Companion mode: a client with no task support gets the task, named in a plain result.
    if (this._companions !== null && !this._speaksTasks(server, state, request, ctx)) {
      if (tool.policy === 'perCall' && !(await tool.runAsTask(args, ctx))) return wrapped(request, ctx);
      const speaking = this._asSpeaking(state, 'tools/call', request.params, ctx);
      const speakingText = this._requestText('tools/call', speaking.params, speaking.ctx, id);
      const inbound = { dialect: state.modern ? MODERN_VERSION : LEGACY_VERSION, quotaKey };
      if (!state.modern) inbound.clientCapabilities = {};
      const reply = await this._launching(id, tool, args, principal, ctx, (engine) => engine.handle(speakingText, principal, inbound));
      if (reply !== null) return this._companionAnswer(this._resultOf(reply));
    }
    const text = this._requestText('tools/call', request.params, ctx, id);
    const inbound = { dialect: state.modern ? MODERN_VERSION : LEGACY_VERSION, quotaKey };
    // 2025-11-25: the session's initialize capabilities govern what the task may ask for.
    if (!state.modern) inbound.clientCapabilities = server.server.getClientCapabilities?.();
    const reply = await this._launching(id, tool, args, principal, ctx, (engine) => engine.handle(text, principal, inbound));
    if (reply !== null) {
      // Not null: a task (CreateTaskResult) or the engine's refusal; null: the engine's
      // `forward`, not a task.
      const parsed = JSON.parse(reply);
      if (parsed.error !== undefined) throw new TaskProtocolError(parsed.error.code, parsed.error.message, parsed.error.data);
      return parsed.result;
    }
    if (tool.policy === 'perCall' && (await tool.runAsTask(args, ctx))) {
      const started = await this._launching(id, tool, args, principal, ctx, (engine) => {
        try {
          return engine.startTask(text, principal, { quotaKey });
        } catch (err) {
          if (err?.code !== 'invalid_argument') throw err;
          return null;
        }
      });
      if (started !== null) return JSON.parse(started).result;
    }
    return wrapped(request, ctx);
  }

  /**
   * `create(engine)`, which may create a task for our request `id` (the engine's reply text, or
   * null): the tool's work starts on the task's `execute`. With storage the engine queues its
   * reply behind the writes (a `send` in reply to `id`): it is caught here, once written.
   */
  _launching(id, tool, args, principal, ctx, create) {
    const origin = this.runtime.tracing ? this._originOf(ctx) : undefined;
    return this.runtime.launching(JSON.stringify(id), principal, this._launcher(tool, args, principal, ctx), create, origin);
  }

  async _plainCall(state, wrapped, request, ctx) {
    const id = ctx.mcpReq.id;
    this._active.set(ctx.mcpReq.signal, state);
    try {
      const result = await wrapped(request, ctx);
      // The handler called create(ctx): the answer is that task's CreateTaskResult, whatever
      // McpServer made of it (it injects `content: []` into a flat result with no `task` key,
      // and a tool with an outputSchema turns it into an "Output validation error" isError
      // result); otherwise the task would be created but never reach the client.
      const minted = state.minted.get(id);
      if (minted !== undefined) return { ...minted };
      // create(ctx) refused (-32021): McpServer turned the throw into an isError result.
      const refusal = state.refusals.get(id);
      if (refusal !== undefined && isPlainObject(result) && result.isError === true) throw refusal;
      return result;
    } finally {
      state.minted.delete(id);
      state.refusals.delete(id);
    }
  }

  /**
   * What starts the tool's work on the `execute` of a task the call creates (see _launching).
   */
  _launcher(tool, args, principal, ctx) {
    const authInfo = ctx.http?.authInfo;
    // The work outlives the request: keep what identifies it, not the request's live context
    // (which holds its per-request server).
    const { id, method, _meta, envelope } = ctx.mcpReq;
    const mcpReq = Object.freeze({ id, method, _meta, envelope });
    return (taskId) => {
      const entry = this.runtime.track(taskId, principal);
      const task = new TaskContext(this, taskId, () => entry.controller.signal, mcpReq, authInfo);
      Promise.resolve()
        .then(() => tool.handler(args, task))
        .then(
          (result) => this._finish(taskId, (engine) => engine.complete(taskId, JSON.stringify(result ?? {}))),
          (err) => {
            const error = jsonRpcErrorOf(err);
            if (error !== null) return this._finish(taskId, (engine) => engine.fail(taskId, JSON.stringify(error)), errorTypeOf(error));
            return this._finish(taskId, (engine) => engine.complete(taskId, JSON.stringify(toolErrorResult(err))));
          },
        );
    };
  }

  async _taskMethod(server, state, method, params, ctx) {
    const principal = this._principal(ctx.http?.authInfo);
    const full = { ...params };
    // The SDK lifts `inputResponses` out of the params of every 2026-07-28 request into
    // ctx.mcpReq.inputResponses (dropping entries that are not bare response objects).
    if (method === 'tasks/update' && ctx.mcpReq.inputResponses !== undefined && full.inputResponses === undefined) {
      full.inputResponses = ctx.mcpReq.inputResponses;
    }
    const id = mintedId('server');
    const text = this._requestText(method, full, ctx, id);
    const quotaKey = this._quotaKeyOf(ctx, principal);
    const inbound = { dialect: state.modern ? MODERN_VERSION : LEGACY_VERSION, quotaKey };
    // With storage: the named task is loaded first, and written when the method changes it.
    const plan = method === 'tasks/list' ? { context: principal } : { taskId: params.taskId, write: method === 'tasks/update' || method === 'tasks/cancel' };
    let waiting;
    const reply = await this.runtime.op(plan, (engine) => {
      const answer = engine.handle(text, principal, inbound);
      // The stream is open before the engine's outputs for it are delivered.
      if (answer === null) waiting = this._awaitResult(id, principal, ctx);
      return answer;
    });
    return reply === null ? waiting : this._resultOf(reply);
  }

  /**
   * 2025-11-25 tasks/result on a running task: the answer (and any input request of the task)
   * comes later, on this request's stream.
   */
  _awaitResult(id, principal, ctx) {
    const rawId = JSON.stringify(id);
    return new Promise((resolve, reject) => {
      const deliver = (message) => {
        if (message === null) {
          this.runtime.closeStream(rawId);
          reject(new TaskProtocolError(INTERNAL_ERROR, 'The task runtime closed'));
          return;
        }
        const parsed = JSON.parse(message);
        if (parsed.id === id && parsed.method === undefined) {
          this.runtime.closeStream(rawId);
          try {
            resolve(this._resultOf(message));
          } catch (err) {
            reject(err);
          }
        } else if (parsed.method !== undefined && parsed.id !== undefined) {
          this._relayRequest(parsed, principal, ctx);
        } else if (parsed.method !== undefined) {
          ctx.mcpReq.notify({ method: parsed.method, params: parsed.params }).catch((err) => this._onerror(err));
        }
      };
      this.runtime.openStream(rawId, principal, deliver);
      // The client gave up (or its stream dropped): the engine stops holding a waiter for it.
      ctx.mcpReq.signal?.addEventListener(
        'abort',
        () => {
          if (!this.runtime.closeStream(rawId)) return;
          this.runtime.quietly({}, (engine) => engine.handle(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }), principal));
        },
        { once: true },
      );
    });
  }

  /** A side-channel request (2025-11-25) for the client, sent on the waiting tasks/result stream. */
  _relayRequest(request, principal, ctx) {
    const answer = (body) => this.runtime.quietly({ write: true }, (engine) => engine.handle(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...body }), principal));
    Promise.resolve()
      .then(() => ctx.mcpReq.send({ method: request.method, params: request.params }, ANY_RESULT))
      .then(
        (result) => answer({ result }),
        (err) => answer({ error: jsonRpcErrorOf(err) ?? { code: INTERNAL_ERROR, message: String(err?.message ?? err) } }),
      );
  }

  _serveListen(request, body, options) {
    const refuse = (error, status) => Response.json({ jsonrpc: '2.0', id: body.id ?? null, error }, { status });
    let principal;
    try {
      principal = this._principal(options?.authInfo);
    } catch (err) {
      return refuse(jsonRpcErrorOf(err), 500);
    }
    const meta = body.params?._meta;
    if (!isPlainObject(meta) || !isModern(meta[PROTOCOL_VERSION_META])) {
      return refuse({ code: INVALID_PARAMS, message: 'subscriptions/listen needs the 2026-07-28 request envelope in params._meta' }, 400);
    }
    // The engine follows the stream under an id of ours; the client's id (its subscription id)
    // is put back into what goes out on the stream.
    const streamId = mintedId('listen');
    const outcome = this.engine.listenTasks(JSON.stringify({ ...body, id: streamId }), principal);
    this.runtime.drain();
    if (outcome.error !== undefined) {
      const { error } = JSON.parse(outcome.error);
      return refuse(error, error?.code === MISSING_CAPABILITY ? 400 : 200);
    }
    const rawId = JSON.stringify(streamId);
    const encoder = new TextEncoder();
    let controller;
    let open = true;
    let keepAlive;
    const close = (graceful) => {
      if (!open) return;
      if (graceful) controller.enqueue(encoder.encode(sseFrame(listenEnd(body.id))));
      open = false;
      clearInterval(keepAlive);
      this.runtime.closeStream(rawId);
      this.engine.unlistenTasks(rawId, principal);
      try {
        controller.close();
      } catch {
        // already closed by the reader
      }
    };
    const stream = new ReadableStream({
      start: (c) => {
        controller = c;
        controller.enqueue(encoder.encode(sseFrame(listenAck(body.id, outcome.taskIds))));
        if (outcome.taskIds.length === 0) {
          close(true);
          return;
        }
        const deliver = (message) => {
          if (message === null) close(true);
          else if (open) controller.enqueue(encoder.encode(sseFrame(withSubscriptionId(message, streamId, body.id))));
        };
        this.runtime.openStream(rawId, principal, deliver);
        keepAlive = setInterval(() => open && controller.enqueue(encoder.encode(': keepalive\n\n')), 15_000);
        keepAlive.unref?.();
      },
      cancel: () => close(false),
    });
    request.signal?.addEventListener('abort', () => close(false), { once: true });
    return new Response(stream, {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' },
    });
  }

  /**
   * The stdio form of withTaskListen: a transport over `wire` that serves listen requests naming
   * task IDs itself (their streams share the wire, told apart by subscription id) and ends one on
   * the client's `notifications/cancelled`; every other message passes through.
   */
  _listenOn(wire) {
    const open = new Map(); // the client's listen id (JSON) -> close(graceful)
    const send = (message) => wire.send(message).catch((err) => this._onerror(err));
    const wrapper = { start: () => wire.start(), send: (message, options) => wire.send(message, options), close: () => wire.close() };
    wire.onmessage = (message, extra) => {
      if (listensToTasks(message)) return this._serveListenOn(message, send, open);
      const key = message?.method === 'notifications/cancelled' ? JSON.stringify(message.params?.requestId) : undefined;
      if (key !== undefined && open.has(key)) return open.get(key)(false);
      wrapper.onmessage?.(message, extra);
    };
    wire.onclose = () => {
      for (const close of [...open.values()]) close(false);
      wrapper.onclose?.();
    };
    wire.onerror = (error) => wrapper.onerror?.(error);
    return wrapper;
  }

  _serveListenOn(body, send, open) {
    const refuse = (error) => send({ jsonrpc: '2.0', id: body.id, error });
    let principal;
    try {
      principal = this._principal(undefined);
    } catch (err) {
      return refuse(jsonRpcErrorOf(err));
    }
    const meta = body.params?._meta;
    if (!isPlainObject(meta) || !isModern(meta[PROTOCOL_VERSION_META])) {
      return refuse({ code: INVALID_PARAMS, message: 'subscriptions/listen needs the 2026-07-28 request envelope in params._meta' });
    }
    const streamId = mintedId('listen');
    const outcome = this.engine.listenTasks(JSON.stringify({ ...body, id: streamId }), principal);
    this.runtime.drain();
    if (outcome.error !== undefined) return refuse(JSON.parse(outcome.error).error);
    send(listenAck(body.id, outcome.taskIds));
    if (outcome.taskIds.length === 0) return send(listenEnd(body.id));
    const rawId = JSON.stringify(streamId);
    const key = JSON.stringify(body.id);
    const close = (graceful) => {
      if (open.get(key) !== close) return;
      open.delete(key);
      this.runtime.closeStream(rawId);
      this.engine.unlistenTasks(rawId, principal);
      if (graceful) send(listenEnd(body.id));
    };
    open.set(key, close);
    this.runtime.openStream(rawId, principal, (message) => (message === null ? close(true) : send(withSubscriptionId(message, streamId, body.id))));
  }

  // ----------------------------------------------------------------------------------------
  // Engine plumbing

  /**
   * Records an installed server's identity: what the SDK stamps as `serverInfo` on its results
   * (it reads the same field, Server._serverInfo; there is no public getter).
   */
  _seeIdentity(sdkServer) {
    if (this._identity === null) return;
    const info = sdkServer._serverInfo;
    const text = isPlainObject(info) ? JSON.stringify(info) : null;
    if (text === null || (this._identity !== undefined && this._identity.text !== text)) this._identity = null;
    else this._identity ??= { text, value: JSON.parse(text) };
  }

  /** The serverInfo the fast path stamps, or null when it cannot be sure of the SDK's answer. */
  _fastServerInfo() {
    return this._defaultQuotaKey && this._identity ? this._identity.value : null;
  }

  /** The principal of a request's `authInfo`, as the `principal` option decides it. */
  _principal(authInfo) {
    const principal = this._principalOf(authInfo);
    if (principal === null || (typeof principal === 'string' && principal !== '')) return principal;
    throw new TaskProtocolError(INTERNAL_ERROR, `The principal option must return a non-empty string or null, got ${JSON.stringify(principal)}`);
  }

  _requestText(method, params, ctx, id = mintedId('server')) {
    const meta = wireMeta(params?._meta, ctx);
    const fullParams = { ...params };
    if (meta !== undefined) fullParams._meta = meta;
    return JSON.stringify({ jsonrpc: '2.0', id, method, params: fullParams });
  }

  /** The request's quota key for the engine: a non-empty string, or undefined (its context's allowance). */
  _quotaKeyOf(ctx, principal) {
    const key = this._quotaKey(ctx, principal);
    return typeof key === 'string' && key !== '' ? key : undefined;
  }

  _resultOf(replyText) {
    const reply = JSON.parse(replyText);
    if (reply.error !== undefined) throw new TaskProtocolError(reply.error.code, reply.error.message, reply.error.data);
    return reply.result;
  }

  _serverOfCtx(ctx) {
    // create(ctx) runs inside a tools/call of an installed server: _plainCall keyed its state by
    // the request's abort signal (the one object the SDK hands through unchanged).
    const signal = ctx?.mcpReq?.signal;
    return signal === undefined ? undefined : this._active.get(signal);
  }

  _setStatus(taskId, message) {
    return this.runtime.quietly({ taskId, write: true }, (engine) => engine.setStatusMessage(taskId, message ?? null));
  }

  _finish(taskId, report, errorType) {
    return this.runtime.finish(taskId, report, errorType);
  }

  _requestInput(taskId, method, params) {
    return this.runtime.requestInput(taskId, method, params);
  }
}

export { TasksExtension, TaskContext, TaskHandle, TaskProtocolError };
