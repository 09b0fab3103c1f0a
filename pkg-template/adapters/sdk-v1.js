// @ts-check
// mcp-task-core/sdk (ESM): a TaskStore and a TaskMessageQueue for the official TypeScript SDK
// `@modelcontextprotocol/sdk` 1.x, backed by the task engine. Drop-in replacements for the
// SDK's InMemoryTaskStore / InMemoryTaskMessageQueue:
//
//   import { WasmTaskStore, WasmTaskMessageQueue } from 'mcp-task-core/sdk';
//   const taskStore = new WasmTaskStore();
//   const server = new McpServer(info, { taskStore, taskMessageQueue: new WasmTaskMessageQueue({ taskStore }), capabilities });
//
// The SDK is not imported here (it is a peer dependency, used for types), with one exception:
// in Node, propagateByDefault() loads the SDK's Protocol module at run time, if the SDK sits
// beside this package, to give every server holding a WasmTaskStore its refusals. The engine
// comes from this package's own root entry, which picks the right build (Node ESM, browser,
// workerd) through the "exports" conditions. In browsers the engine module is initialised
// lazily on the first call (every TaskStore method is async), or call `init()` yourself first.
// Its CommonJS twin (sdk-v1.cjs) is generated from this file by scripts/package-table.mjs.
//
// Glue only: every task rule (statuses, terminal checks, the SDK store's wording, the JSON-RPC
// code of each refusal, the message queues) is the engine's; this file maps SDK calls onto it.
// Type-checked (checkJs) against sdk.d.ts by js-tests/sdk/types.test.mjs.
import { TextTaskEngine as TaskEngine, init, freshInstance } from 'mcp-task-core/receiver';
import { StorageLoop } from '../storage/storage.js';
import { TaskRuntime } from '../runtime/runtime.js';
import { refuseUnknownOptions } from '../core/errors.js';
import { PROTOCOL } from '../core/protocol.js';
import { checkTelemetryOption } from '../runtime/telemetry.js';
import { companionAnswer, companionNames, companionStarted, companionTools } from '../runtime/companion.js';
import { EngineRecycler, recycleOptions } from '../runtime/recycle.js';

/** @typedef {import('mcp-task-core/sdk').WasmTaskStoreOptions} WasmTaskStoreOptions */
/** @typedef {import('mcp-task-core/sdk').WasmTaskMessageQueueOptions} WasmTaskMessageQueueOptions */
/** @typedef {import('mcp-task-core/sdk').WasmTaskStoreAllSessions} WasmTaskStoreAllSessions */
/** @typedef {import('mcp-task-core').TaskEngineOptions} TaskEngineOptions */
/** @typedef {import('mcp-task-core').TextTaskEngineOutput} TaskEngineOutput */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').Task} Task */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').Result} Result */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').Request} Request */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').RequestId} RequestId */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult} CallToolResult */
/** @typedef {import('@modelcontextprotocol/sdk/experimental/tasks').CreateTaskOptions} CreateTaskOptions */
/** @typedef {import('@modelcontextprotocol/sdk/experimental/tasks').QueuedMessage} QueuedMessage */
/** @typedef {{ tasks: Task[], nextCursor?: string }} TaskList */

/** JSON-RPC error codes this module uses (the SDK's ErrorCode values). */
const { invalidParams: INVALID_PARAMS, internalError: INTERNAL_ERROR, missingCapability: MISSING_CAPABILITY } = PROTOCOL.errors;
/** The requests a requestor may turn into tasks: the handlers propagateTaskCreationErrors wraps. */
const TASK_METHODS = PROTOCOL.legacyTaskMethods;

/**
 * `_meta` key of a failed tool result that carries the JSON-RPC error the request failed
 * with. See jsonRpcErrorResult().
 */
const JSONRPC_ERROR_META_KEY = 'mcp-task-core/jsonrpc-error';

/**
 * What the store and the queue throw. `code` is a JSON-RPC error code (the SDK sends a thrown
 * error's integer `code` and `message` to the peer as the JSON-RPC error), `reason` the
 * engine's machine-readable code ("unknown_task", "already_terminal", "invalid_cursor",
 * "limit_exceeded", "invalid_argument", "no_result", ...).
 */
class TaskStoreError extends Error {
  /**
   * @param {number} code
   * @param {string} message
   * @param {import('mcp-task-core/sdk').TaskStoreErrorReason} reason
   */
  constructor(code, message, reason) {
    super(message);
    this.name = 'TaskStoreError';
    this.code = code;
    this.reason = reason;
  }
}

/**
 * The JSON-RPC error a failed task's request ended with. `getTaskResult` throws it, so the
 * SDK's `tasks/result` handler answers with exactly `{ code, message, data }`.
 */
class JsonRpcError extends Error {
  /**
   * @param {number} code
   * @param {string} message
   * @param {unknown} [data]
   */
  constructor(code, message, data) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    if (data !== undefined) {
      /** @type {unknown} */
      this.data = data;
    }
  }
  /**
   * The JSON-RPC error object.
   * @returns {{ code: number, message: string, data?: unknown }}
   */
  toJSON() {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * An engine error (string `code`, and `rpcCode`: the JSON-RPC code the engine gives it) as a
 * TaskStoreError (numeric `code`); anything else as it is.
 * @param {unknown} err
 * @returns {unknown}
 */
function fromEngine(err) {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') {
    const rpcCode = 'rpcCode' in err && typeof err.rpcCode === 'number' ? err.rpcCode : INTERNAL_ERROR;
    // The engine's codes are a subset of TaskStoreErrorReason (index.d.ts TaskEngineErrorCode).
    return new TaskStoreError(rpcCode, err.message, /** @type {import('mcp-task-core/sdk').TaskStoreErrorReason} */ (err.code));
  }
  return err;
}

/**
 * Runs an engine call, turning its errors (string `code`) into TaskStoreError (numeric `code`).
 * @template T
 * @param {() => T} fn
 * @returns {T}
 */
function engineCall(fn) {
  try {
    return fn();
  } catch (err) {
    throw fromEngine(err);
  }
}

/** @param {string} message */
function invalid(message) {
  return new TaskStoreError(INVALID_PARAMS, message, 'invalid_argument');
}

/**
 * Session ID -> engine context. Tasks of one session are invisible to every other context.
 * @param {unknown} sessionId
 */
function contextOf(sessionId) {
  return sessionId === undefined || sessionId === null ? '-' : 's:' + String(sessionId);
}

/** @param {string | null | undefined} context */
function sessionOf(context) {
  return typeof context === 'string' && context.startsWith('s:') ? context.slice(2) : undefined;
}

/** @param {unknown} value */
function isError(value) {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The JSON-RPC error object `{ code, message, data? }` of a thrown value, mapped the way the
 * SDK maps an error thrown by a request handler (Protocol._onrequest): an integer `code` or
 * -32603, `message` or "Internal error", `data` when defined.
 * @param {unknown} error
 * @returns {{ code: number, message: string, data?: unknown }}
 */
function errorObjectOf(error) {
  /** @type {any} */
  const err = error;
  const code = err !== null && typeof err === 'object' && Number.isSafeInteger(err.code) ? err.code : INTERNAL_ERROR;
  const rawMessage = err !== null && typeof err === 'object' ? err.message : err;
  const message = rawMessage === undefined || rawMessage === null ? 'Internal error' : String(rawMessage);
  const data = err !== null && typeof err === 'object' ? err.data : undefined;
  return data === undefined ? { code, message } : { code, message, data };
}

/**
 * The JSON-RPC error a stored result stands for, or null for an ordinary result.
 * @param {unknown} result
 */
function jsonRpcErrorIn(result) {
  if (isError(result)) return errorObjectOf(result);
  const marked = isPlainObject(result) && isPlainObject(result._meta) ? result._meta[JSONRPC_ERROR_META_KEY] : undefined;
  return isPlainObject(marked) ? errorObjectOf(marked) : null;
}

/**
 * A failed CallToolResult that carries a JSON-RPC error, for
 * `extra.taskStore.storeTaskResult(taskId, 'failed', jsonRpcErrorResult(err))` (typed as a
 * Result, unlike an Error). WasmTaskStore stores it as the task's JSON-RPC error, replayed by
 * `tasks/result`; any other store keeps it as an ordinary `isError` tool result whose text is
 * the error message.
 * @param {unknown} error
 * @returns {CallToolResult}
 */
function jsonRpcErrorResult(error) {
  const e = errorObjectOf(error);
  return { content: [{ type: 'text', text: e.message }], isError: true, _meta: { [JSONRPC_ERROR_META_KEY]: e } };
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {string}
 */
function jsonText(value, what) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw invalid(`The ${what} is not JSON-serialisable: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof text !== 'string') throw invalid(`The ${what} is not JSON-serialisable`);
  return text;
}

/**
 * @param {Record<string, any>} options
 * @param {string} key
 * @returns {number | undefined}
 */
function optionalNumber(options, key) {
  const value = options[key];
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
    throw new TypeError(`options.${key} must be a non-negative number of milliseconds`);
  }
  return value === undefined ? undefined : Math.floor(value);
}

/** The engine's largest accepted integer option: as a limit, no limit at all. */
const NO_LIMIT = 9e15;

/**
 * Limits of the drop-in store. InMemoryTaskStore has none, so a server that worked with it must
 * keep working: no cap on running tasks or stored bytes (per session or in total) nor on queued
 * messages (a linked WasmTaskMessageQueue keeps them in this engine), and results up to 64 MiB
 * (the engine keeps results in wasm memory, which grows but never shrinks).
 */
const DROP_IN_LIMITS = {
  maxRunningTasksPerKey: NO_LIMIT,
  maxRunningTasksTotal: NO_LIMIT,
  maxStoredBytesPerKey: NO_LIMIT,
  maxStoredBytesTotal: NO_LIMIT,
  maxResultBytes: 64 * 1024 * 1024,
  maxQueuedMessagesPerTask: NO_LIMIT,
};

/**
 * `options.limits` over the drop-in defaults; `null` or `Infinity` means no limit.
 * @param {unknown} limits
 * @returns {Record<string, any>}
 */
function limitsOf(limits) {
  if (limits === undefined || limits === null) return { ...DROP_IN_LIMITS };
  if (typeof limits !== 'object') throw new TypeError('options.limits must be an object');
  /** @type {Record<string, any>} */
  const out = { ...DROP_IN_LIMITS };
  for (const [key, value] of Object.entries(limits)) {
    if (value === undefined) continue; // the default, not the engine's
    // (rateLimit is an object, or null for none: the engine reads it as it is.)
    out[key] = key !== 'rateLimit' && (value === null || value === Infinity) ? NO_LIMIT : value;
  }
  return out;
}

/** The keys of WasmTaskStoreOptions (sdk.d.ts). */
const STORE_OPTIONS = [
  'defaultTtlMs',
  'maxTtlMs',
  'allowUnlimitedTtl',
  'pollIntervalMs',
  'pageSize',
  'limits',
  'now',
  'timer',
  'readCacheSize',
  'storage',
  'instanceId',
  'leaseMs',
  'cursorKey',
  'storageTimeoutMs',
  'onDamaged',
  'onStorageError',
  'telemetry',
  'recycle',
];

/** Options that only mean something without `storage`: with it they would be ignored. */
const MEMORY_ONLY_OPTIONS = ['recycle'];

/** Options that only mean something with `storage`: without it they would be ignored. */
const STORAGE_ONLY_OPTIONS = ['instanceId', 'leaseMs', 'cursorKey', 'storageTimeoutMs', 'onDamaged', 'onStorageError'];

/** The engine's name of an option this store passes on -> the store's own name for it. */
const CALLER_NAMES = /** @type {Record<string, string>} */ ({
  'storage.instanceId': 'instanceId',
  'storage.leaseMs': 'leaseMs',
  'storage.cursorKey': 'cursorKey',
  'ttl.defaultMs': 'defaultTtlMs',
  'ttl.maxMs': 'maxTtlMs',
  'ttl.allowUnlimited': 'allowUnlimitedTtl',
});

/**
 * A new engine (of `Text`, the class of one wasm instance; with `cursorKey`, the cursor key
 * every engine of the store shares); options it refuses throw a TypeError naming them as the
 * caller wrote them.
 * @param {TaskEngineOptions} options
 * @param {typeof TaskEngine} [Text]
 * @param {string} [cursorKey]
 */
function newEngine(options, Text = TaskEngine, cursorKey = undefined) {
  try {
    return new Text(cursorKey === undefined ? options : { ...options, cursorKey });
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'invalid_options') {
      throw new TypeError(err.message.replace(/options\.((?:storage|ttl)\.\w+)/g, (name, path) => `options.${CALLER_NAMES[path] ?? path}`));
    }
    throw err;
  }
}

/**
 * @param {Record<string, any>} options
 * @returns {TaskEngineOptions & { now?: () => number }}
 */
function engineOptions(options) {
  /** @type {Record<string, any>} */
  const ttl = {};
  const defaultMs = optionalNumber(options, 'defaultTtlMs');
  const maxMs = optionalNumber(options, 'maxTtlMs');
  if (defaultMs !== undefined) ttl.defaultMs = defaultMs;
  if (maxMs !== undefined) ttl.maxMs = maxMs;
  if (options.allowUnlimitedTtl !== undefined) ttl.allowUnlimited = Boolean(options.allowUnlimitedTtl);
  /** @type {Record<string, any>} */
  const out = {
    // The SDK sends notifications/tasks/status itself; the engine must not queue its own.
    statusNotifications: false,
    contextBinding: true,
    capabilities: { list: true, cancel: true },
    ttl,
  };
  if (options.pollIntervalMs === null) out.pollIntervalMs = null;
  else if (options.pollIntervalMs !== undefined) out.pollIntervalMs = optionalNumber(options, 'pollIntervalMs');
  if (options.pageSize !== undefined) out.pageSize = options.pageSize;
  out.limits = limitsOf(options.limits);
  if (options.now !== undefined) {
    if (typeof options.now !== 'function') throw new TypeError('options.now must be a function returning epoch milliseconds');
    out.now = options.now;
  }
  return out;
}

/**
 * The store's engine for a linked WasmTaskMessageQueue: `[ENGINE](load)` is the engine, `null`
 * when not loaded yet and `load` is false, else a promise of it (browsers load it on first use);
 * `[SETTLE](engine)` drains what a queue call caused (expiries).
 */
const ENGINE = Symbol('mcp-task-core/sdk store engine');
const SETTLE = Symbol('mcp-task-core/sdk store settle');

/** Prefix of the cursors of allSessions().listTasks(). */
const ALL_CURSOR_PREFIX = 'all-sessions:';

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Default `readCacheSize`: about 300 bytes of JS heap per cached task at most. */
const DEFAULT_READ_CACHE_SIZE = 32_768;

/**
 * A task of the engine (`TextTaskEngine.getTask` / `createTask`: the host's task JSON) with
 * when the read cache stops trusting it: `until`, its expiry (epoch ms, exclusive: `createdAt`
 * plus `ttl`, the spec's TTL), or null for never. Only a call that changes the task (one
 * the store makes itself, dropping the entry) changes it before then.
 * @param {string} json
 * @returns {{ until: number | null, task: Task }}
 */
function entryOfTask(json) {
  /** @type {Task} */
  const task = JSON.parse(json);
  return { until: task.ttl === null ? null : Date.parse(task.createdAt) + task.ttl, task };
}


/**
 * A `TaskStore` for `@modelcontextprotocol/sdk` 1.x on the mcp-task-core engine (one engine per
 * store; the SDK's `sessionId` is the engine's context).
 *
 * - `getTask` returns `null` for unknown, expired and other sessions' tasks; tasks created
 *   without a session are seen only by callers without a session, and the other way round.
 *   Server code that acts on any task (not for a request) uses `allSessions()`.
 * - No limit on live tasks by default (as InMemoryTaskStore); results up to 64 MiB. `limits`
 *   sets them; a refusal is a TaskStoreError (-32603, reason "limit_exceeded"), which
 *   reaches the client as the request's JSON-RPC error (see propagateByDefault).
 * - TTLs follow the engine's policy: `ttl: 0` expires at once, TTLs are clamped to `maxTtlMs`,
 *   `ttl: null` is unlimited only with `allowUnlimitedTtl`, no `ttl` gets `defaultTtlMs`.
 *   Expiry runs lazily on every call, plus one timer per store at the next deadline (unref'd in
 *   Node; `timer: false` turns it off, and it is off by default with an injected `now`).
 * - A failed task's JSON-RPC error is kept: `storeTaskResult(id, 'failed', error)` with an
 *   `Error` (e.g. the SDK's `McpError`) or a `jsonRpcErrorResult(error)` stores
 *   `{ code, message, data }`, and `getTaskResult` throws it as a `JsonRpcError`, which the SDK's
 *   `tasks/result` handler sends as that JSON-RPC error.
 * - Everything stored is JSON text inside the engine: results must be JSON-serialisable.
 */
class WasmTaskStore {
  /** @type {ReturnType<typeof engineOptions>} */
  #engineOptions;
  /**
   * `recycle`, checked (null: never; always null with storage).
   * @type {{ minBytes: number, ratio: number } | null}
   */
  #recycle = null;
  /** @type {Promise<TaskEngine> | null} */
  #loading = null;
  /**
   * Engine context -> number of its live tasks (no per-task state: the engine keeps each task's
   * context and poll interval). Only getAllTasks() and cleanup() use it, to list every context.
   * @type {Map<string | null, number>}
   */
  #contexts = new Map();
  /** @typedef {(taskId: string, sessionId: string | undefined) => void} TaskListener */
  /** @type {Set<TaskListener>} */
  #listeners = new Set();
  /**
   * The caller's clock (`options.now`), or null: then every decision about time reads
   * `Date.now()` when it is made, as the engine does, so one clock rules the engine, the read
   * cache and the timer, even one replaced after the store was built (fake timers).
   * @type {(() => number) | null}
   */
  #clock;
  /** @type {boolean} */
  #useTimer;
  /**
   * The runtime of the current engine (runtime.js): its drain, its timer; one per engine.
   * @type {TaskRuntime | null}
   */
  #runtime = null;
  /**
   * Storage mode: told about each storage error no call sees (the timer's rounds).
   * @type {((error: TaskStoreError) => void) | undefined}
   */
  #onStorageError = undefined;
  /**
   * The allSessions() view, made once.
   * @type {WasmTaskStoreAllSessions | null}
   */
  #view = null;
  /** @type {Set<TaskListener>} */
  #cancelListeners = new Set();
  /** The `telemetry` option (see telemetry.js), given to each runtime. */
  #telemetry;
  /**
   * Storage mode (`options.storage`): the host loop over the storage (mcp-task-core/storage).
   * @type {StorageLoop | null}
   */
  #loop = null;
  /**
   * Read cache: task ID -> the task as last read or created here, parsed once. The engine says
   * how long each answer holds (`until`, epoch ms, exclusive; `null`: until changed): its
   * expiry deadline. Every change made here drops the entry, and so does the task's expiry.
   * Without storage only: with it, other instances write the same tasks.
   * @type {Map<string, { context: string, task: Task, until: number | null }>}
   */
  #cache = new Map();
  /** Most entries the read cache keeps (the oldest goes first); 0 turns it off. */
  #cacheLimit = DEFAULT_READ_CACHE_SIZE;

  /** @param {WasmTaskStoreOptions} [options] */
  constructor(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    refuseUnknownOptions(options, STORE_OPTIONS);
    propagateByDefault();
    checkTelemetryOption(options.telemetry, 'options.');
    this.#telemetry = options.telemetry;
    this.#engineOptions = engineOptions(options);
    this.#clock = this.#engineOptions.now ?? null;
    this.#useTimer = options.timer ?? options.now === undefined;
    if (options.readCacheSize !== undefined) {
      const size = options.readCacheSize;
      if (typeof size !== 'number' || Number.isNaN(size) || size < 0) throw new TypeError('options.readCacheSize must be a non-negative number');
      this.#cacheLimit = size;
    }
    if (options.storage !== undefined && options.storage !== null) {
      /** @type {Record<string, unknown> & import('mcp-task-core/sdk').TaskStorage} */
      const st = /** @type {any} */ (options.storage);
      for (const m of ['load', 'loadContext', 'write']) {
        if (typeof st[m] !== 'function') throw new TypeError(`options.storage.${m} must be a function (see redisStorage in mcp-task-core/redis)`);
      }
      /** @type {Record<string, any>} */
      const storage = {};
      if (options.instanceId !== undefined) storage.instanceId = String(options.instanceId);
      const leaseMs = optionalNumber(options, 'leaseMs');
      if (leaseMs !== undefined) storage.leaseMs = leaseMs;
      if (options.cursorKey !== undefined) storage.cursorKey = String(options.cursorKey);
      this.#engineOptions.storage = storage;
      const timeoutMs = optionalNumber(options, 'storageTimeoutMs');
      if (options.onDamaged !== undefined && typeof options.onDamaged !== 'function') throw new TypeError('options.onDamaged must be a function');
      if (options.onStorageError !== undefined && typeof options.onStorageError !== 'function') throw new TypeError('options.onStorageError must be a function');
      this.#onStorageError = options.onStorageError;
      this.#loop = new StorageLoop(st, {
        timeoutMs,
        onDamaged: options.onDamaged,
        onOutput: (o) => this.#runtime?.output(o),
        engineError: fromEngine,
        storageError: (why) => new TaskStoreError(INTERNAL_ERROR, `Task storage unavailable: ${why}`, 'storage_unavailable'),
        conflictError: (n) =>
          new TaskStoreError(INTERNAL_ERROR, `Task storage: the task kept changing under this operation (${n} compare-and-set conflicts in a row)`, 'storage_conflict'),
      });
      const given = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (options));
      const ignored = MEMORY_ONLY_OPTIONS.find((key) => given[key] !== undefined);
      if (ignored !== undefined) throw new TypeError(`options.${ignored} is an option of the memory mode: the storage holds the tasks`);
    } else {
      const given = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (options));
      const ignored = STORAGE_ONLY_OPTIONS.find((key) => given[key] !== undefined);
      if (ignored !== undefined) throw new TypeError(`options.${ignored} is an option of the storage mode: it needs options.storage`);
      this.#recycle = recycleOptions(options.recycle, 'options.recycle');
    }
    try {
      this.#attach();
    } catch (err) {
      // Bad options are reported now; a wasm module not yet initialised (the browser build
      // before `init()`) is loaded by the first call.
      if (err instanceof TypeError) throw err;
    }
  }

  /**
   * The engine, initialising the wasm module first if needed.
   * @returns {TaskEngine | Promise<TaskEngine>}
   */
  #ready() {
    if (this.#engine) return this.#engine;
    if (!this.#loading) {
      this.#loading = Promise.resolve(init()).then(() => {
        return this.#engine ?? this.#attach();
      });
      this.#loading.catch(() => {
        this.#loading = null;
      });
    }
    return this.#loading;
  }

  /**
   * The engine: the runtime's (recycling replaces it), or null while there is none.
   * @returns {TaskEngine | null}
   */
  get #engine() {
    return this.#runtime === null ? null : /** @type {TaskEngine} */ (this.#runtime.engine);
  }

  /**
   * Makes this store's engine, with a runtime of its own (and a wasm instance of its own when it
   * recycles).
   * @returns {TaskEngine}
   */
  #attach() {
    const options = this.#engineOptions;
    const recycle = this.#recycle;
    const recycler =
      recycle === null ? null : new EngineRecycler({ ...recycle, instance: freshInstance, create: (/** @type {typeof TaskEngine} */ Text, /** @type {string | undefined} */ key) => newEngine(options, Text, key) });
    const engine = recycler === null ? newEngine(options) : recycler.first();
    this.#runtime = new TaskRuntime(engine, {
      recycler,
      loop: this.#loop,
      clock: this.#clock,
      timer: this.#useTimer,
      onStorageError: this.#onStorageError,
      telemetry: this.#telemetry,
      onOutput: (/** @type {TaskEngineOutput} */ o) => {
        if (o.kind === 'expired') this.#tellExpired(o);
        else if (o.kind === 'cancelled') this.#tellCancelled(o);
      },
    });
    return engine;
  }

  /**
   * Runs `fn(engine)`, then drains the engine's outputs and re-arms the expiry timer. The next
   * deadline moves only when a task is created (`creates`) or deleted (an expiry drained), so
   * other calls skip the nextDeadline() look-up.
   * @template T
   * @param {(engine: TaskEngine) => T} fn
   * @param {boolean} [creates]
   * @param {import('../storage/storage.js').StoragePlan} [plan]
   * @returns {Promise<T>}
   */
  async #run(fn, creates = false, plan = undefined) {
    const loop = this.#loop;
    if (loop) {
      if (this.#engine === null) await this.#ready();
      return /** @type {TaskRuntime} */ (this.#runtime).op(plan ?? {}, fn);
    }
    const engine = this.#engine ?? (await this.#ready());
    try {
      return fn(engine);
    } finally {
      this.#settle(engine, creates);
    }
  }

  /**
   * `fn(engine)` at once when the engine is loaded and there is no storage (no promise of its
   * own: the caller's async method is the only hop), else through #run.
   * @template T
   * @param {(engine: TaskEngine) => T} fn
   * @param {boolean} [creates]
   * @param {import('../storage/storage.js').StoragePlan} [plan]
   * @returns {T | Promise<T>}
   */
  #call(fn, creates = false, plan = undefined) {
    const engine = this.#engine;
    if (engine === null || this.#loop !== null) return this.#run(fn, creates, plan);
    try {
      return fn(engine);
    } finally {
      this.#settle(engine, creates);
    }
  }

  /** Now, in epoch ms, read as the engine reads it (see #clock). */
  #now() {
    const clock = this.#clock;
    return clock === null ? Date.now() : clock();
  }

  /**
   * The cached task `taskId` of `context` while the engine's answer holds, else null.
   * @param {string} taskId
   * @param {string} context
   * @returns {Task | null}
   */
  #cachedTask(taskId, context) {
    const entry = this.#cache.get(taskId);
    if (entry === undefined || entry.context !== context) return null;
    if (entry.until !== null) {
      let now;
      try {
        now = this.#now();
      } catch {
        return null; // the engine reports the clock's failure
      }
      if (!(now < entry.until)) {
        this.#cache.delete(taskId);
        return null;
      }
    }
    return entry.task;
  }

  /**
   * The task of the engine's task JSON (see entryOfTask), kept in the read cache when it is on.
   * @param {string} context
   * @param {string} json
   * @returns {Task}
   */
  #remember(context, json) {
    return this.#keep(context, entryOfTask(json));
  }

  /**
   * `entry.task`, kept in the read cache when it is on (then a copy is returned).
   * @param {string} context
   * @param {{ until: number | null, task: Task }} entry
   * @returns {Task}
   */
  #keep(context, { until, task }) {
    if (this.#cacheLimit > 0 && this.#loop === null) {
      if (this.#cache.size >= this.#cacheLimit) {
        const oldest = this.#cache.keys().next();
        if (!oldest.done) this.#cache.delete(oldest.value);
      }
      this.#cache.set(task.taskId, { context, task, until });
      return { ...task };
    }
    return task;
  }

  /**
   * Drops what the read cache holds of task `taskId`: before any change to it.
   * @param {unknown} taskId
   */
  #forget(taskId) {
    this.#cache.delete(/** @type {string} */ (taskId));
  }

  /**
   * Delivers the outputs of an operation on `engine` (memory only: with storage the loop
   * drains them, and synchronous look-ups leave them for its next round); `rearm`: the
   * operation may have moved the next deadline.
   * @param {TaskEngine} engine
   * @param {boolean} [rearm]
   */
  #settle(engine, rearm = true) {
    if (this.#loop === null && engine === this.#engine) /** @type {TaskRuntime} */ (this.#runtime).drain(rearm);
  }

  /** @param {{ taskId: string, context: string | null }} out */
  #tellExpired(out) {
    this.#forget(out.taskId);
    const left = (this.#contexts.get(out.context) ?? 0) - 1;
    if (left > 0) this.#contexts.set(out.context, left);
    else this.#contexts.delete(out.context);
    const sessionId = sessionOf(out.context);
    for (const listener of this.#listeners) {
      try {
        listener(out.taskId, sessionId);
      } catch {
        // A listener's fault must not break the store.
      }
    }
  }

  /** @param {{ taskId: string, context: string | null }} out */
  #tellCancelled(out) {
    const sessionId = sessionOf(out.context);
    for (const listener of this.#cancelListeners) {
      try {
        listener(out.taskId, sessionId);
      } catch {
        // A listener's fault must not break the store.
      }
    }
  }

  /**
   * Creates a `working` task bound to `sessionId`. `taskParams.ttl`: ms (clamped to
   * `maxTtlMs`; 0 expires at once), `null` (unlimited if allowed, else `maxTtlMs`) or absent
   * (`defaultTtlMs`). `taskParams.pollInterval` overrides the store's `pollIntervalMs`.
   * @param {CreateTaskOptions} taskParams
   * @param {RequestId} requestId
   * @param {Request} request
   * @param {string} [sessionId]
   * @returns {Promise<Task>}
   */
  async createTask(taskParams, requestId, request, sessionId) {
    /** @type {{ ttl?: unknown, pollInterval?: unknown }} */
    const params = taskParams ?? {};
    const asked = params.ttl;
    /** @type {number | null | undefined} */
    let ttl = undefined;
    if (asked !== undefined && asked !== null) {
      if (typeof asked !== 'number' || !Number.isFinite(asked) || asked < 0) {
        throw invalid(`ttl must be a non-negative number of milliseconds or null, got ${String(asked)}`);
      }
      ttl = Math.floor(asked);
    } else {
      ttl = asked;
    }
    const askedInterval = params.pollInterval;
    /** @type {number | undefined} */
    let pollInterval = undefined;
    if (askedInterval !== undefined && askedInterval !== null) {
      if (typeof askedInterval !== 'number' || !Number.isFinite(askedInterval) || askedInterval < 1) {
        throw invalid(`pollInterval must be a positive number of milliseconds, got ${String(askedInterval)}`);
      }
      pollInterval = Math.floor(askedInterval);
    }
    const method = request && typeof request.method === 'string' ? request.method : 'tools/call';
    const context = contextOf(sessionId);
    if (this.#loop === null) {
      const engine = this.#engine;
      if (engine !== null) {
        let json;
        try {
          // The engine keeps the task's own poll interval (undefined: the store's pollIntervalMs).
          json = engine.createTask(context, method, ttl, undefined, pollInterval);
        } catch (err) {
          this.#settle(engine, false);
          throw fromEngine(err);
        }
        this.#contexts.set(context, (this.#contexts.get(context) ?? 0) + 1);
        const entry = entryOfTask(json);
        this.#began(entry.task.taskId, context, request, requestId, sessionId);
        // No deadline, or one no earlier than the armed timer's, leaves the next deadline as it is.
        const armedAt = /** @type {TaskRuntime} */ (this.#runtime).armedAt;
        this.#settle(engine, entry.until !== null && (armedAt === null || armedAt < 0 || entry.until < armedAt));
        return this.#keep(context, entry);
      }
      return this.#run((e) => {
        const text = engineCall(() => e.createTask(context, method, ttl, undefined, pollInterval));
        this.#contexts.set(context, (this.#contexts.get(context) ?? 0) + 1);
        const task = this.#remember(context, text);
        this.#began(task.taskId, context, request, requestId, sessionId);
        return task;
      }, true);
    }
    return this.#run((engine) => {
      const json = engineCall(() => engine.createTask(context, method, ttl, undefined, pollInterval));
      this.#contexts.set(context, (this.#contexts.get(context) ?? 0) + 1);
      return JSON.parse(json);
    }, true, { write: true }).then((task) => {
      this.#began(task.taskId, context, request, requestId, sessionId);
      return task;
    });
  }

  /**
   * A task created here: the SDK runs its work in this process until it stores the result
   * (the runtime counts it as running work and traces it).
   * @param {string} taskId
   * @param {string} context
   * @param {unknown} request
   * @param {unknown} requestId
   * @param {string | undefined} sessionId
   */
  #began(taskId, context, request, requestId, sessionId) {
    /** @type {TaskRuntime} */ (this.#runtime).began(taskId, context, request, { requestId, sessionId });
  }

  /**
   * The figures a dashboard shows (see TaskRuntime.figures in runtime.js): tasks by status,
   * running work, work waiting for input, and since start expirations, lease failures and
   * storage errors. With storage, the tasks this instance holds.
   * @returns {import('mcp-task-core/sdk').TaskFigures}
   */
  figures() {
    if (this.#runtime !== null) return this.#runtime.figures();
    return { tasks: { working: 0, input_required: 0, completed: 0, failed: 0, cancelled: 0 }, running: 0, inputWaiting: 0, expirations: 0, leaseFailures: 0, storageErrors: 0 };
  }

  /**
   * The task, or `null` when it is unknown, expired or another session's.
   * @param {string} taskId
   * @param {string} [sessionId]
   * @returns {Promise<Task | null>}
   */
  async getTask(taskId, sessionId) {
    const context = contextOf(sessionId);
    if (typeof taskId === 'string' && this.#loop === null) {
      const hit = this.#cachedTask(taskId, context);
      if (hit !== null) return { ...hit };
      const engine = this.#engine;
      if (engine !== null) {
        try {
          const text = engine.getTask(taskId, context);
          return text === null ? null : this.#remember(context, text);
        } finally {
          this.#settle(engine, false);
        }
      }
    }
    return this.#run((engine) => this.#get(engine, taskId, context), false, { taskId });
  }

  /**
   * Ends a task with its result: `completed`, or `failed` (a tool result with `isError`, or a
   * JSON-RPC error given as an `Error` or a `jsonRpcErrorResult()`). Throws for unknown tasks
   * and terminal ones (a cancelled task stays cancelled).
   * @param {string} taskId
   * @param {'completed' | 'failed'} status
   * @param {Result | Error} result
   * @param {string} [sessionId]
   * @returns {Promise<void>}
   */
  async storeTaskResult(taskId, status, result, sessionId) {
    const context = contextOf(sessionId);
    const engine = this.#loop === null ? this.#engine : null;
    if (engine === null) return this.#run((e) => this.#storeResult(e, taskId, status, result, context), false, { taskId, write: true });
    try {
      this.#storeResult(engine, taskId, status, result, context);
    } finally {
      this.#settle(engine, false);
    }
  }

  /**
   * The stored result. For a task that failed with a JSON-RPC error, throws it as a
   * `JsonRpcError` (so `tasks/result` answers with that error). Throws -32602 for unknown tasks
   * and -32603 for a task with no stored result (running, or cancelled).
   * @param {string} taskId
   * @param {string} [sessionId]
   * @returns {Promise<Result>}
   */
  async getTaskResult(taskId, sessionId) {
    const context = contextOf(sessionId);
    const engine = this.#loop === null ? this.#engine : null;
    if (engine === null) return this.#run((e) => this.#result(e, taskId, context), false, { taskId });
    try {
      return this.#result(engine, taskId, context);
    } finally {
      this.#settle(engine, false);
    }
  }

  /**
   * Moves a task (`working` <-> `input_required`, or to a terminal status without a result).
   * The same status again only updates the status message. Without a `statusMessage`, a move
   * between `working` and `input_required` keeps the current message (as the SDK's store
   * does). Throws for unknown tasks and for any move out of a terminal status.
   */
  /**
   * @param {string} taskId
   * @param {Task['status']} status
   * @param {string} [statusMessage]
   * @param {string} [sessionId]
   * @returns {Promise<void>}
   */
  async updateTaskStatus(taskId, status, statusMessage, sessionId) {
    const context = contextOf(sessionId);
    const engine = this.#loop === null ? this.#engine : null;
    if (engine === null) return this.#run((e) => this.#update(e, taskId, status, statusMessage, context), false, { taskId, write: true });
    try {
      this.#update(engine, taskId, status, statusMessage, context);
    } finally {
      this.#settle(engine, false);
    }
  }

  /**
   * One page of the session's tasks in creation order; throws on a cursor not issued to it.
   * @param {string} [cursor]
   * @param {string} [sessionId]
   * @returns {Promise<TaskList>}
   */
  async listTasks(cursor, sessionId) {
    const context = contextOf(sessionId);
    return this.#call((engine) => {
      if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') throw invalid('Invalid cursor');
      const page = JSON.parse(engineCall(() => engine.listTasks(context, cursor ?? null)));
      return page.nextCursor === undefined ? { tasks: page.tasks } : { tasks: page.tasks, nextCursor: page.nextCursor };
    }, false, { context });
  }

  /**
   * Trusted server-side access to every task, whatever session created it: `getTask(taskId)`,
   * `getTaskResult(taskId)`, `storeTaskResult(taskId, status, result)`,
   * `updateTaskStatus(taskId, status, statusMessage?)` and `listTasks(cursor?)` (every session's
   * tasks, session by session). Same rules as the store's own methods; only the session check
   * is gone. For server code (background work, admin tools, tests), never for a request: the
   * SDK only ever calls the store's own methods, which stay session-scoped, and the methods of
   * this view refuse a session ID argument, so handing the view to the SDK as a store fails
   * loudly. The SDK sends no `notifications/tasks/status` for changes made here.
   */
  allSessions() {
    if (this.#view) return this.#view;
    /**
     * @param {string} name
     * @param {number} arity
     * @param {(engine: TaskEngine, ...args: any[]) => any} fn
     * @returns {(...args: any[]) => Promise<any>}
     */
    const method = (name, arity, fn, write = false) =>
      (...args) => {
        if (args.length > arity) {
          return Promise.reject(
            new TypeError(`allSessions().${name}() takes no session ID: it acts on every session's tasks, for server code only (never give it to the SDK as a task store)`),
          );
        }
        const plan = name === 'listTasks' ? {} : { taskId: args[0], write };
        return this.#run((engine) => fn(engine, ...args), false, plan);
      };
    /**
     * The context of live task `taskId`. For no such task any context will do: the engine
     * answers it as an unknown task.
     * @param {TaskEngine} engine
     * @param {unknown} taskId
     */
    const owner = (engine, taskId) => (typeof taskId === 'string' ? engine.taskContext(taskId) ?? null : null);
    this.#view = Object.freeze({
      getTask: method('getTask', 1, (engine, /** @type {unknown} */ taskId) => {
        const context = typeof taskId === 'string' ? engine.taskContext(taskId) : undefined;
        return context === undefined ? null : this.#get(engine, taskId, context);
      }),
      getTaskResult: method('getTaskResult', 1, (engine, /** @type {unknown} */ taskId) => this.#result(engine, taskId, owner(engine, taskId))),
      storeTaskResult: method('storeTaskResult', 3, (engine, /** @type {unknown} */ taskId, /** @type {unknown} */ status, /** @type {unknown} */ result) =>
        this.#storeResult(engine, taskId, status, result, owner(engine, taskId)),
      true),
      updateTaskStatus: method('updateTaskStatus', 3, (engine, /** @type {unknown} */ taskId, /** @type {unknown} */ status, /** @type {unknown} */ statusMessage) =>
        this.#update(engine, taskId, status, statusMessage, owner(engine, taskId)),
      true),
      listTasks: method('listTasks', 1, (engine, /** @type {unknown} */ cursor) => this.#listAll(engine, cursor)),
      figures: () => this.figures(),
    });
    return this.#view;
  }

  /**
   * @param {TaskEngine} engine
   * @param {unknown} taskId
   * @param {string | null} context
   * @returns {Task | null}
   */
  #get(engine, taskId, context) {
    if (typeof taskId !== 'string') return null;
    const json = engine.getTask(taskId, context);
    return json === null || json === undefined ? null : JSON.parse(json);
  }

  /**
   * @param {TaskEngine} engine
   * @param {any} taskId
   * @param {any} status
   * @param {unknown} result
   * @param {string | null} context
   */
  #storeResult(engine, taskId, status, result, context) {
    this.#forget(taskId);
    // An Error (or a jsonRpcErrorResult) is the JSON-RPC error the request failed with.
    const error = jsonRpcErrorIn(result);
    const json = error ? jsonText(error, 'error') : jsonText(result, 'result');
    const outcome = /** @type {import('mcp-task-core').TextTaskOutcome} */ ({ kind: error ? 'error' : 'result', json });
    this.#changed(context, engineCall(() => engine.storeTaskResult(taskId, context, status, outcome)));
    this.#runtime?.moved(taskId, status, error ? String(error.code) : undefined);
  }

  /**
   * @param {TaskEngine} engine
   * @param {any} taskId
   * @param {string | null} context
   * @returns {Result}
   */
  #result(engine, taskId, context) {
    const outcome = engineCall(() => engine.getTaskResult(taskId, context));
    if (outcome.kind === 'result') return JSON.parse(outcome.json);
    const e = JSON.parse(outcome.json);
    throw new JsonRpcError(e.code, e.message, e.data);
  }

  /**
   * @param {TaskEngine} engine
   * @param {any} taskId
   * @param {any} status
   * @param {unknown} statusMessage
   * @param {string | null} context
   */
  #update(engine, taskId, status, statusMessage, context) {
    this.#forget(taskId);
    const message = statusMessage ? String(statusMessage) : null;
    this.#changed(context, engineCall(() => engine.updateTaskStatus(taskId, context, status, message)));
    this.#runtime?.moved(taskId, status);
  }

  /**
   * The engine's answer to a change made here (the task JSON as it now is) goes into the read
   * cache: the SDK reads the task again after each change.
   * @param {string | null} context
   * @param {string} json
   */
  #changed(context, json) {
    if (context !== null) this.#remember(context, json);
  }

  /**
   * One page of every session's tasks: sessions in a fixed order (their engine contexts,
   * sorted), each session's tasks in creation order, one engine page at a time (a page never
   * mixes sessions). The cursor names the session and the engine's cursor within it; a session
   * whose tasks all expired meanwhile is skipped.
   * @param {TaskEngine} engine
   * @param {unknown} cursor
   * @returns {TaskList}
   */
  #listAll(engine, cursor) {
    /** @type {string | null} */
    let from = null;
    /** @type {string | null} */
    let inner = null;
    if (cursor !== undefined && cursor !== null) {
      const at = typeof cursor === 'string' && cursor.startsWith(ALL_CURSOR_PREFIX) ? parseJson(cursor.slice(ALL_CURSOR_PREFIX.length)) : null;
      if (!Array.isArray(at) || at.length !== 2 || typeof at[0] !== 'string' || (at[1] !== null && typeof at[1] !== 'string')) {
        throw new TaskStoreError(INVALID_PARAMS, 'Invalid cursor', 'invalid_cursor');
      }
      [from, inner] = at;
    }
    const contexts = [...this.#contexts.keys()].filter((c) => typeof c === 'string').sort();
    let i = from === null ? 0 : contexts.findIndex((c) => c >= from);
    if (i < 0) return { tasks: [] };
    if (contexts[i] !== from) inner = null;
    for (; i < contexts.length; i++, inner = null) {
      const context = contexts[i];
      const page = JSON.parse(engineCall(() => engine.listTasks(context, inner)));
      if (page.tasks.length === 0 && page.nextCursor === undefined) continue;
      const next = page.nextCursor !== undefined ? [context, page.nextCursor] : i + 1 < contexts.length ? [contexts[i + 1], null] : null;
      return next === null ? { tasks: page.tasks } : { tasks: page.tasks, nextCursor: ALL_CURSOR_PREFIX + JSON.stringify(next) };
    }
    return { tasks: [] };
  }

  /**
   * Calls `listener(taskId, sessionId)` when a task expires and is deleted. Returns a function
   * that removes the listener.
   * @param {TaskListener} listener
   * @returns {() => void}
   */
  onTaskExpired(listener) {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Calls `listener(taskId, sessionId)` when a task's running work must stop: it was cancelled
   * here, or (with `storage`) it was ended by another instance, which this instance learns at
   * its next lease renewal (at most `pollIntervalMs`, or a third of `leaseMs`, later). Returns a
   * function that removes the listener. Background work passes it on to its AbortController.
   * @param {TaskListener} listener
   * @returns {() => void}
   */
  onTaskCancelled(listener) {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    this.#cancelListeners.add(listener);
    return () => void this.#cancelListeners.delete(listener);
  }

  /**
   * For a linked WasmTaskMessageQueue: the engine (loading it if `load`), or `null`.
   * @param {boolean} [load]
   * @returns {TaskEngine | Promise<TaskEngine> | null}
   */
  [ENGINE](load = true) {
    return this.#engine ?? (load ? this.#ready() : null);
  }

  /**
   * For a linked WasmTaskMessageQueue: drains the outputs of its call (expiries).
   * @param {TaskEngine} engine
   */
  [SETTLE](engine) {
    if (engine === this.#engine) this.#settle(engine, false);
  }

  /**
   * `[context, task]` for every live task, context by context (pages of listTasks).
   * @param {TaskEngine} engine
   * @returns {[string | null, Task][]}
   */
  #everyTask(engine) {
    /** @type {[string | null, Task][]} */
    const out = [];
    for (const context of [...this.#contexts.keys()]) {
      /** @type {string | null} */
      let cursor = null;
      do {
        const page = JSON.parse(engine.listTasks(context, cursor));
        for (const task of page.tasks) out.push([context, task]);
        cursor = page.nextCursor ?? null;
      } while (cursor !== null);
    }
    return out;
  }

  /**
   * Every live task of every session (for debugging; like InMemoryTaskStore.getAllTasks).
   * @returns {Task[]}
   */
  getAllTasks() {
    const engine = this.#engine;
    if (!engine) return [];
    try {
      return this.#everyTask(engine).map(([, task]) => task);
    } finally {
      this.#settle(engine, false);
    }
  }

  /** The number of live tasks held (expired ones are counted until the next call or timer). */
  get size() {
    return this.#engine ? this.#engine.taskCount : 0;
  }

  /** Deletes every task and stops the expiry timer (like InMemoryTaskStore.cleanup). */
  cleanup() {
    const runtime = this.#runtime;
    runtime?.close();
    const engine = this.#engine;
    /** @type {[string | null, Task][]} */
    let gone = [];
    if (engine && this.#listeners.size > 0) {
      try {
        gone = this.#everyTask(engine);
        runtime?.drain(false);
      } catch {
        // a freed or broken engine: nothing to report
      }
    }
    this.#contexts.clear();
    this.#cache.clear();
    this.#runtime = null;
    this.#loading = null;
    if (engine) {
      try {
        engine.free();
      } catch {
        // already freed
      }
      try {
        this.#attach();
      } catch {
        // re-created lazily
      }
    }
    for (const [context, { taskId }] of gone) {
      for (const listener of this.#listeners) {
        try {
          listener(taskId, sessionOf(context));
        } catch {
          // ignored
        }
      }
    }
  }
}

/**
 * A `TaskMessageQueue` for `@modelcontextprotocol/sdk` 1.x on the engine's per-task message
 * queues: one FIFO per task, messages kept as JSON text, delivered only to the session the task
 * belongs to. `enqueue` throws when the SDK's `maxSize` (its `maxTaskQueueSize` option) or this
 * queue's `maxMessagesPerTask` (default: no limit, as InMemoryTaskMessageQueue) is reached.
 *
 * With `{ taskStore }` (a WasmTaskStore) the messages live in the store's engine: a task's
 * session comes from the store (an `enqueue` naming another session throws), and the messages
 * of tasks that expire are dropped with them. Without it the queue has an engine of its own and
 * the first `enqueue` that names a session binds the queue to it. (SDK versions before 1.32
 * enqueue side-channel requests without a session ID; the store link makes that harmless.)
 */
class WasmTaskMessageQueue {
  /** @type {number} */
  #max;
  /** @type {WasmTaskStore | null} */
  #store = null;
  /**
   * The engine of an unlinked queue (no tasks: only queues).
   * @type {TaskEngine | null}
   */
  #own = null;

  /** @param {WasmTaskMessageQueueOptions} [options] */
  constructor(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    refuseUnknownOptions(options, ['maxMessagesPerTask', 'taskStore']);
    // No limit by default, as InMemoryTaskMessageQueue: the SDK's maxTaskQueueSize still applies.
    const max = options.maxMessagesPerTask ?? Infinity;
    if (typeof max !== 'number' || Number.isNaN(max) || max < 0) {
      throw new TypeError('options.maxMessagesPerTask must be a non-negative number');
    }
    this.#max = max;
    if (options.taskStore !== undefined) {
      const store = options.taskStore;
      if (!(store instanceof WasmTaskStore)) throw new TypeError('options.taskStore must be a WasmTaskStore');
      this.#store = store;
    }
  }

  /**
   * Runs `fn` on the engine holding the queues (the store's, or this queue's own).
   * @template T
   * @param {(engine: TaskEngine) => T} fn
   * @returns {Promise<T>}
   */
  async #call(fn) {
    const store = this.#store;
    if (store) {
      await store[ENGINE]();
      // The current engine, read after the wait: a recycling may have replaced it meanwhile.
      const engine = /** @type {TaskEngine} */ (store[ENGINE](false));
      try {
        return engineCall(() => fn(engine));
      } finally {
        store[SETTLE](engine);
      }
    }
    if (!this.#own) {
      await init();
      // No limit of its own: the caps come with each call.
      this.#own ??= new TaskEngine({ limits: { maxQueuedMessagesPerTask: NO_LIMIT } });
    }
    const own = this.#own;
    return engineCall(() => fn(own));
  }

  /**
   * @param {string} taskId
   * @param {QueuedMessage} message
   * @param {string} [sessionId]
   * @param {number} [maxSize]
   * @returns {Promise<void>}
   */
  async enqueue(taskId, message, sessionId, maxSize) {
    const named = sessionId === undefined || sessionId === null ? null : contextOf(sessionId);
    const text = jsonText(message, 'queued message');
    return this.#call((engine) => engine.enqueueMessage(taskId, named, text, Math.min(maxSize ?? Infinity, this.#max)));
  }

  /**
   * @param {string} taskId
   * @param {string} [sessionId]
   * @returns {Promise<QueuedMessage | undefined>}
   */
  async dequeue(taskId, sessionId) {
    if (this.#nothingQueued()) return undefined;
    const text = await this.#call((engine) => engine.dequeueMessage(taskId, contextOf(sessionId)));
    return text === null ? undefined : JSON.parse(text);
  }

  /**
   * @param {string} taskId
   * @param {string} [sessionId]
   * @returns {Promise<QueuedMessage[]>}
   */
  async dequeueAll(taskId, sessionId) {
    if (this.#nothingQueued()) return [];
    return JSON.parse(await this.#call((engine) => engine.dequeueAllMessages(taskId, contextOf(sessionId))));
  }

  /**
   * Whether the engine holding the queues holds no message at all (its count, no look-up): the
   * SDK's `tasks/result` handler dequeues twice per call, nearly always from empty queues.
   */
  #nothingQueued() {
    const engine = this.#store ? /** @type {TaskEngine | null} */ (this.#store[ENGINE](false)) : this.#own;
    return engine !== null && engine.queuedMessageCount(null) === 0;
  }

  /**
   * Messages waiting for one task (or for all tasks without an argument).
   * @param {string} [taskId]
   * @returns {number}
   */
  size(taskId) {
    const engine = this.#store ? /** @type {TaskEngine | null} */ (this.#store[ENGINE](false)) : this.#own;
    return engine ? engine.queuedMessageCount(taskId ?? null) : 0;
  }

  /** Drops every queued message and unlinks the task store. */
  cleanup() {
    const engine = this.#store ? /** @type {TaskEngine | null} */ (this.#store[ENGINE](false)) : this.#own;
    engine?.clearMessages();
    this.#store = null;
  }
}

/** Marks a handler map already set up by propagateTaskCreationErrors(). */
const PROPAGATING = Symbol('mcp-task-core/sdk propagateTaskCreationErrors');

/**
 * Makes the task store's refusal to create a task reach the client as the JSON-RPC error of the
 * task-augmented request, for an `McpServer`, `Server` or `Client` of SDK 1.x. Returns `server`.
 *
 * Why: the SDK's Protocol answers a request whose handler throws with that error (`code`,
 * `message`, `data`), but `McpServer`'s `tools/call` handler catches every error except an
 * `McpError` -32042 (URL elicitation required) and returns it as an `isError` tool result; for a
 * task-augmented call, `Server` then finds no `task` in that result and answers
 * "-32602 Invalid task creation result", without the store's reason.
 *
 * How: the handlers of the requests a requestor may turn into tasks (`tools/call`,
 * `sampling/createMessage`, `elicitation/create`) are wrapped in `server`'s handler map, those
 * set there now and those set later. For a task-augmented request the wrapper gives the handler
 * an `extra.taskStore` whose `createTask` remembers the first error it throws; if the handler then
 * fails, the request fails with that error instead. Every other request finds its handler as
 * the SDK set it. (It reads the SDK's request handler map, `Protocol._requestHandlers`;
 * js-tests/sdk/limits.test.mjs pins the SDK behaviour this relies on.)
 * @template {object} T
 * @param {T} server
 * @returns {T}
 */
function propagateTaskCreationErrors(server) {
  /** @param {any} p */
  const isProtocol = (p) => p !== null && typeof p === 'object' && p._requestHandlers instanceof Map;
  // McpServer keeps its Server in `.server`; Server and Client are Protocols themselves.
  /** @type {any} */
  const given = server;
  const protocol = given !== null && typeof given === 'object' && isProtocol(given.server) ? given.server : given;
  if (!isProtocol(protocol)) {
    throw new TypeError('propagateTaskCreationErrors(server) takes an McpServer, Server or Client of @modelcontextprotocol/sdk 1.x');
  }
  /** @type {Map<string, unknown>} */
  const handlers = protocol._requestHandlers;
  if (/** @type {any} */ (handlers)[PROPAGATING]) return server;
  const set = handlers.set;
  /**
   * @param {string} method
   * @param {unknown} handler
   */
  const withErrors = (method, handler) => (TASK_METHODS.includes(method) && typeof handler === 'function' ? withCreationErrors(handler) : handler);
  for (const [method, handler] of handlers) set.call(handlers, method, withErrors(method, handler));
  Object.defineProperty(handlers, 'set', {
    configurable: true,
    writable: true,
    /**
     * @this {Map<string, unknown>}
     * @param {string} method
     * @param {unknown} handler
     */
    value: function setWithCreationErrors(method, handler) {
      return set.call(this, method, withErrors(method, handler));
    },
  });
  Object.defineProperty(handlers, PROPAGATING, { value: true });
  return server;
}

/** The SDK 1.x module of its Protocol class (the base of McpServer's Server and of Client). */
const SDK_PROTOCOL_MODULE = '@modelcontextprotocol/sdk/shared/protocol.js';
/** @type {Promise<void> | null} */
let sdkHook = null;

/**
 * Gives every SDK 1.x server and client that holds a WasmTaskStore propagateTaskCreationErrors
 * at its first request, so a refused task creation (storage unavailable, a limit) reaches the
 * client as the store's JSON-RPC error by default. Why here: the SDK hands the store no
 * reference to the server that holds it, and McpServer turns the store's error into
 * "-32602 Invalid task creation result". How: once per process, in Node only, the SDK copy
 * installed beside this package is loaded (the one the server's own imports get) and its
 * `Protocol.prototype._onrequest` wrapped; any other Protocol, or a store of another kind, is
 * left as it is. Where that copy cannot be loaded (browsers, workers, a second copy of the SDK)
 * nothing changes: call propagateTaskCreationErrors(server) there.
 */
function propagateByDefault() {
  if (sdkHook !== null) return;
  /** @type {any} */
  const host = globalThis;
  if (typeof host.process?.versions?.node !== 'string') {
    sdkHook = Promise.resolve();
    return;
  }
  // Not a literal: bundlers leave it alone. The CommonJS twin loads the SDK's CommonJS build.
  const name = SDK_PROTOCOL_MODULE;
  /** @type {Promise<any>} */
  const loaded =
    // @ts-ignore `require` exists in the CommonJS twin (sdk-v1.cjs) only
    typeof require === 'function' ? Promise.resolve().then(() => require(name)) : import(name);
  sdkHook = loaded.then(
    (sdk) => {
      /** @type {any} */
      const proto = sdk?.Protocol?.prototype;
      const onrequest = proto?._onrequest;
      if (typeof onrequest !== 'function') return;
      /**
       * @this {any}
       * @param {unknown[]} args
       */
      proto._onrequest = function onrequestPropagating(...args) {
        // Set up once per server: every later request only reads the mark.
        if (this._taskStore instanceof WasmTaskStore && this._requestHandlers?.[PROPAGATING] !== true) propagateTaskCreationErrors(this);
        return onrequest.apply(this, args);
      };
    },
    () => {},
  );
}

/**
 * `handler` whose task-augmented requests fail with the task store's refusal, if any.
 * @param {Function} handler
 */
function withCreationErrors(handler) {
  /**
   * @this {unknown}
   * @param {any} request
   * @param {any} extra
   */
  return function handleWithCreationErrors(request, extra) {
    const store = extra !== null && typeof extra === 'object' ? extra.taskStore : undefined;
    const augmented = request !== null && typeof request === 'object' && isPlainObject(request.params) && isPlainObject(request.params.task);
    if (!augmented || store === null || typeof store !== 'object' || typeof store.createTask !== 'function') {
      return handler.call(this, request, extra);
    }
    /** @type {{ err: unknown } | null} */
    let refusal = null;
    /** @param {unknown} err */
    const remember = (err) => {
      refusal ??= { err };
      throw err;
    };
    /** @param {any[]} args */
    const createTask = (...args) => {
      try {
        return Promise.resolve(store.createTask(...args)).catch(remember);
      } catch (err) {
        return Promise.reject(err).catch(remember);
      }
    };
    // The SDK's store for a request is a plain object of closures: a copy with this createTask
    // (this runs for every task-augmented request). Another shape keeps its own as the
    // prototype, so its methods still find their state.
    const taskStore =
      Object.getPrototypeOf(store) === Object.prototype ? { ...store, createTask } : Object.create(store, { createTask: { value: createTask, enumerable: true } });
    // Called at once (the SDK calls handlers from a promise callback already); a synchronous
    // throw becomes the rejection, as the handler's own would.
    let answer;
    try {
      answer = handler.call(this, request, { ...extra, taskStore });
    } catch (err) {
      answer = Promise.reject(err);
    }
    return Promise.resolve(answer).catch((err) => {
      throw refusal ? refusal.err : err;
    });
  };
}

const COMPANIONS = Symbol('mcp-task-core/sdk companion tools');

/**
 * Tasks for clients that do not speak tasks, on an SDK 1.x `McpServer` whose server holds a task
 * store (opt-in, per server; returns `server`). A task tool (`registerToolTask`, `taskSupport`
 * `'required'` or `'optional'`) called without `params.task` by a client whose `initialize`
 * declared no `tasks` capability runs as a task and answers at once with a `CallToolResult` that
 * names it and says what to call next; two tools follow it, listed only to such clients:
 * `status` (default `task_status`: the status, status message and, once done, the outcome) and
 * `cancel` (default `task_cancel`). They answer through the server's own `tasks/get`,
 * `tasks/result` and `tasks/cancel` handlers, so a task is found exactly where `tasks/get` finds
 * it (another session's is not).
 * @template {object} T
 * @param {T} server
 * @param {{ status?: string, cancel?: string }} [options]
 * @returns {T}
 */
function withCompanionTools(server, options = {}) {
  /** @type {any} */
  const mcp = server;
  const protocol = mcp?.server;
  if (protocol === null || typeof protocol !== 'object' || !(protocol._requestHandlers instanceof Map) || typeof mcp._registeredTools !== 'object') {
    throw new TypeError('withCompanionTools(server) takes an McpServer of @modelcontextprotocol/sdk 1.x');
  }
  const names = /** @type {{ status: string, cancel: string }} */ (companionNames(isPlainObject(options) ? options : null, 'withCompanionTools options'));
  const handlers = protocol._requestHandlers;
  if (handlers[COMPANIONS]) throw new Error('withCompanionTools: this server has them already');
  const get = handlers.get;
  /** @param {string} method */
  const sdkHandler = (method) => get.call(handlers, method);
  /** @param {any} request */
  const speaksTasks = (request) => protocol.getClientCapabilities?.()?.tasks !== undefined || isPlainObject(request?.params?.task);
  const listed = companionTools(names);

  /**
   * A companion tool's call, through the SDK's own task handlers.
   * @param {any} request
   * @param {any} extra
   */
  const companionCall = (request, extra) => {
    /** @param {string} method @param {string} taskId */
    const call = (method, taskId) => sdkHandler(method)({ method, params: { taskId } }, extra);
    return companionAnswer(request.params.name, request.params.arguments, names, {
      get: (taskId) => call('tasks/get', taskId),
      cancel: (taskId) => call('tasks/cancel', taskId),
      outcome: async (task) => ({ result: await call('tasks/result', task.taskId) }),
    });
  };

  /**
   * The extra of a task started for a client with no task support: such a client never calls
   * tasks/result, so it could never answer the work's requests. They reject at once with -32021
   * and nothing is sent or queued (the task does not move to input_required), as with
   * TasksExtension's companion tools.
   * @param {any} extra
   */
  const withoutInput = (extra) => ({
    ...extra,
    sendRequest: async (/** @type {any} */ r) => {
      throw new JsonRpcError(MISSING_CAPABILITY, `Missing required client capability: the client declared no task support, so it cannot answer ${r?.method} for a task`, {
        requiredCapabilities: { tasks: {} },
      });
    },
  });

  Object.defineProperty(handlers, 'get', {
    configurable: true,
    writable: true,
    /**
     * @this {Map<string, unknown>}
     * @param {string} method
     */
    value: function getWithCompanions(method) {
      const handler = get.call(this, method);
      if (typeof handler !== 'function') return handler;
      if (method === 'tools/list') {
        /**
         * @param {any} request
         * @param {any} extra
         */
        return async (request, extra) => {
          const result = await handler(request, extra);
          if (speaksTasks(request)) return result;
          // A client that does not speak tasks sees task tools as plain tools (SDK 1.x clients
          // refuse to call a tool listed with taskSupport 'required').
          const tools = (result.tools ?? []).map((/** @type {any} */ t) => (t.execution?.taskSupport === undefined ? t : { ...t, execution: { ...t.execution, taskSupport: 'forbidden' } }));
          // A tool the server registered under the same name keeps it.
          const companions = listed.filter((t) => mcp._registeredTools[t.name] === undefined);
          return { ...result, tools: request?.params?.cursor === undefined ? [...tools, ...companions] : tools };
        };
      }
      if (method !== 'tools/call') return handler;
      /**
       * @param {any} request
       * @param {any} extra
       */
      return async (request, extra) => {
        const name = request?.params?.name;
        const tool = typeof name === 'string' ? mcp._registeredTools[name] : undefined;
        if ((name === names.status || name === names.cancel) && tool === undefined) return companionCall(request, extra);
        const policy = tool?.enabled === false ? undefined : tool?.execution?.taskSupport;
        if ((policy !== 'required' && policy !== 'optional') || speaksTasks(request) || extra?.taskStore === undefined) return handler(request, extra);
        // The call as a task-speaking client would make it: the tool creates its task.
        const created = await withCreationErrors(handler)({ ...request, params: { ...request.params, task: {} } }, withoutInput(extra));
        const taskId = created.task.taskId;
        return companionStarted(taskId, names);
      };
    },
  });
  Object.defineProperty(handlers, COMPANIONS, { value: true });
  return server;
}

export {
  WasmTaskStore,
  WasmTaskMessageQueue,
  JsonRpcError,
  TaskStoreError,
  jsonRpcErrorResult,
  propagateTaskCreationErrors,
  withCompanionTools,
  JSONRPC_ERROR_META_KEY,
};
