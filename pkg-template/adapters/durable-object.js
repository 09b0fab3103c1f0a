// mcp-task-core/durable-object (Cloudflare Workers only): a Durable Object that holds the task
// engine for one session or tenant and is a whole MCP server over Streamable HTTP. Glue only:
// the engine decides, this class moves records.
//
//   import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';
//   export class Tasks extends TaskEngineObject {
//     tools() { return { slow: { taskSupport: 'required', inputSchema: { type: 'object' } } }; }
//     async execute(task, work) { await work.setStatus('halfway'); return { content: [...] }; }
//   }
//   export default { fetch: (request, env) => routeToTaskObject(request, env.TASKS) };
//   // wrangler: a durable_objects binding TASKS -> Tasks, with a new_sqlite_classes migration
//
// - The handshake is answered here, from the registered tools: `initialize` (2025-11-25, with
//   the engine's `tasks` capability), `server/discover` (2026-07-28, with the engine's
//   extension capability), `tools/list` (each tool's task support in the dialect's shape) and
//   `ping`. Task requests go to the engine; anything else to `forward()`.
// - The work of a task gets a `TaskContext`: its status message, input requests (answered
//   through `tasks/update`, or on the waiting `tasks/result` stream in 2025-11-25), an
//   AbortSignal. What `execute` returns completes the task; what it throws fails it.
// - Every task change (the engine's `persist` outputs) is written to the object's SQLite
//   storage (table mcp_tasks) with a compare-and-set on the version, before anything after it
//   is delivered; workerd's output gate holds the reply until the write is durable.
// - On start (constructor, under blockConcurrencyWhile) every stored record is restored. A new
//   start is a new engine instance: the leases of work that ran in the previous one run out
//   and the engine fails those tasks; TTLs that passed meanwhile expire on the next alarm.
// - The alarm is armed at engine.nextDeadline() (TTL expiry, lease renewals and checks) and
//   alarm() calls handleTimeout().
import { DurableObject } from 'cloudflare:workers';
import { TextTaskEngine } from 'mcp-task-core/receiver';
import { SETTLED_CODES, TaskRuntime } from '../runtime/runtime.js';
import { PROTOCOL } from '../core/protocol.js';
import { runtimeOperatorView } from '../runtime/operator-view.js';
import { taskConsole } from '../console/console.js';

const SCHEMA = 'CREATE TABLE IF NOT EXISTS mcp_tasks (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL, expires_at INTEGER)';

/** The per-request protocol version (2026-07-28) this object speaks, and the handshake one. */
const { extension: MODERN, legacy: LEGACY } = PROTOCOL.versions;
/** Handshake versions a 2025-era client may ask for; any other gets ours (the client's to judge). */
const LEGACY_VERSIONS = [LEGACY, '2025-06-18', '2025-03-26', '2024-11-05'];
const { protocolVersion: VERSION_META, serverInfo: SERVER_INFO_META } = PROTOCOL.meta;
const {
  methodNotFound: METHOD_NOT_FOUND,
  internalError: INTERNAL_ERROR,
  missingCapability: MISSING_CAPABILITY,
  headerMismatch: HEADER_MISMATCH,
  unsupportedProtocolVersion: UNSUPPORTED_VERSION,
} = PROTOCOL.errors;
/** Errors a Streamable HTTP server answers with 400 Bad Request (streamable-http.mdx). */
const BAD_REQUEST = new Set([HEADER_MISMATCH, UNSUPPORTED_VERSION]);

/**
 * Sends `request` to the object of its session or tenant: `keyOf(request)` names it (default:
 * the `mcp-session-id` header, else the `x-tenant` header, else "default").
 */
export function routeToTaskObject(request, namespace, keyOf = defaultKey) {
  const id = namespace.idFromName(keyOf(request));
  return namespace.get(id).fetch(request);
}

/** The parsed message when it is a request with a valid id, else null (the engine judges the rest). */
function requestOf(message) {
  let parsed;
  try {
    parsed = JSON.parse(message);
  } catch {
    return null;
  }
  const valid = parsed !== null && typeof parsed === 'object' && typeof parsed.method === 'string';
  return valid && (typeof parsed.id === 'string' || Number.isSafeInteger(parsed.id)) ? parsed : null;
}

const noop = () => {};

function defaultKey(request) {
  return request.headers.get('mcp-session-id') ?? request.headers.get('x-tenant') ?? 'default';
}

/** An Error carrying a JSON-RPC error's `code` and `data`: what `execute` may throw to fail its task. */
function rpcError(code, message, data) {
  return Object.assign(new Error(message), { name: 'McpError', code }, data === undefined ? {} : { data });
}

/** The JSON-RPC error object a throw of the work fails its task with. */
function errorObjectOf(err) {
  // (a DOMException's `code` is no JSON-RPC code)
  if (!(err instanceof DOMException) && Number.isSafeInteger(err?.code) && typeof err.message === 'string') {
    return { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) };
  }
  return { code: INTERNAL_ERROR, message: String(err?.message ?? err) };
}

/** Outcome calls on a task that ended meanwhile (cancelled, expired): nothing to report. */
function endedMeanwhile(err) {
  return SETTLED_CODES.includes(err?.code);
}

/**
 * What the work of one task gets (second argument of `execute`). `signal` aborts when the task
 * is cancelled or expires; `setStatus` sets its status message; `requestInput` moves it to
 * `input_required` with a request for the client and resolves with the client's answer.
 */
class TaskContext {
  #host;

  /** `host`: the object's `setStatus(message)` and `requestInput(method, params)` for this task. */
  constructor(output, signal, host) {
    this.#host = host;
    this.taskId = output.taskId;
    this.context = output.context;
    this.request = JSON.parse(output.request);
    this.signal = signal;
  }

  /** Sets (or with null clears) the task's status message; resolves once it is stored. */
  setStatus(message) {
    return this.#host.setStatus(message ?? null);
  }

  /**
   * Asks the client (e.g. `'elicitation/create'`): resolves with its result, rejects with an
   * `McpError` for its error answer, with code -32021 when the client did not declare the
   * capability (nothing was sent), or with the abort reason when the task ends first.
   */
  requestInput(method, params) {
    return this.#host.requestInput(method, params);
  }

  elicit(params) {
    return this.requestInput('elicitation/create', params);
  }

  createMessage(params) {
    return this.requestInput('sampling/createMessage', params);
  }
}

export class TaskEngineObject extends DurableObject {
  /** The engine: the runtime's (it owns it), or null before the start. */
  get #engine() {
    return this.#runtime === null ? null : this.#runtime.engine;
  }
  /**
   * The runtime that drives the engine: its outputs, the running work, replies that come later
   * (by an id minted here per request, never the client's own, which clients of one object may
   * share); the alarm is its timer and SQLite its storage.
   */
  #runtime = null;
  /** The `forward` of the message handle() passes the engine now, when it has no request id. */
  #forwardedNow = null;
  /** The tools `tools/list` names, by name -> { policy, definition }. */
  #tools = new Map();
  /** The console route (taskConsole()), made on first use; null when there is none. */
  #console = undefined;

  constructor(ctx, env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => this.#boot());
  }

  // ---- Hooks for subclasses -----------------------------------------------------------------

  /** TaskEngine options (tools, ttl, limits, ...); `storage` is set here. */
  engineOptions() {
    return {};
  }

  /** Lease of running work, in ms (renewed by the alarm while the work runs here). */
  leaseMs() {
    return 30_000;
  }

  /**
   * OpenTelemetry: `{ api, tracer?, meter? }` with `api` the `@opentelemetry/api` module bundled
   * with the Worker (workerd does not resolve packages at run time), or `false`. Default:
   * undefined (none in workerd).
   */
  telemetry() {
    return undefined;
  }

  /**
   * The tools this server lists: name -> `{ taskSupport?, inputSchema?, description?, title?,
   * outputSchema?, annotations? }`. Their task policies are registered with the engine at start
   * (no `taskSupport`: never a task; its calls go to `forward()`), beside `engineOptions().tools`
   * (listed by name alone); naming a tool in both throws.
   */
  tools() {
    return {};
  }

  /** The server's name and version (`initialize` result, `server/discover` `_meta`). */
  serverInfo() {
    return { name: this.constructor.name, version: '1.0.0' };
  }

  /**
   * Runs the work of an `execute` output (`{ taskId, context, method, request }`) with its
   * `TaskContext`. A returned result object completes the task; a throw fails it (with the
   * thrown `code`, `message`, `data` when `code` is an integer, else -32603). Returning nothing
   * leaves the outcome to `this.complete()` / `this.fail()`. Default: fails the task (no executor).
   */
  async execute(task, _work) {
    await this.fail(task.taskId, JSON.stringify({ code: INTERNAL_ERROR, message: 'No executor for this task in this Durable Object' }));
  }

  /** Work of `taskId` must stop (cancelled, or ended elsewhere). */
  cancelled(_taskId) {}

  /**
   * A damaged row of `mcp_tasks` (unreadable, another task's record, a version that disagrees):
   * `detail` says what was found, for the operator's log, never for a client. Default:
   * `console.error`. The engine decides the outcome: a task held here fails with a
   * storage-corruption error written over the damage; one found damaged at start is left out.
   */
  damaged(detail, taskId) {
    console.error(`mcp-task-core: damaged task record ${taskId}: ${detail}`);
  }

  /** Each audit record of the engine (with `engineOptions().audit: true`). Default: none kept. */
  audit(_record) {}

  /**
   * A fault with no request to go to: outputs the engine dropped (its queue full; `code`
   * `'outputs_dropped'`, `count`), a message for another context, a hook that threw. Default:
   * `console.error`.
   */
  error(err) {
    console.error(`mcp-task-core: ${err?.message ?? err}`);
  }

  /**
   * A JSON-RPC message that is neither about tasks nor the handshake (`initialize`,
   * `server/discover`, `tools/list`, `ping`, which this class answers). Default: -32601.
   */
  async forward(message, _context) {
    const m = JSON.parse(message);
    if (m.id === undefined) return null;
    return JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${m.method}` } });
  }

  /**
   * The task console (mcp-task-core/console) as a route of this object, over `operatorView()`:
   * `{ authorize, basePath?, title?, pollMs? }` (see TaskConsoleOptions; `authorize` is required,
   * `basePath` defaults to `/console` and must not be the MCP endpoint's path), or null (the
   * default: no console). Requests under `basePath` go to the console, every other to MCP.
   */
  taskConsole() {
    return null;
  }

  /**
   * The trusted, server-side view of every task of this object, whatever context created it:
   * `list({ status? })`, `get`, `cancel` (the work's signal fires), `input` (a task's pending
   * input requests) and `answer` (reaches the work as its client's answer would). For the
   * console and other operator tools of the object; no request to the MCP endpoint reaches it.
   */
  operatorView() {
    return runtimeOperatorView(this.#runtime, async (taskId, message) => {
      this.#engine.cancel(taskId, message ?? null);
      await this.#settle();
    });
  }

  /** The console route, or null; `basePath` with it. */
  #consoleRoute() {
    if (this.#console !== undefined) return this.#console;
    const options = this.taskConsole();
    if (options === null || options === undefined) return (this.#console = null);
    if (typeof options !== 'object' || typeof options.authorize !== 'function') {
      throw new TypeError('taskConsole() must return null or { authorize(request), basePath?, title?, pollMs? }');
    }
    const basePath = options.basePath ?? '/console';
    if (basePath === '') throw new TypeError('taskConsole().basePath must be a path such as "/console": the MCP endpoint needs the others');
    this.#console = { basePath, handler: taskConsole(this.operatorView(), { onerror: (err) => this.error(err), ...options, basePath }) };
    return this.#console;
  }

  /** The engine context of a request: the routing key (one object per session or tenant). */
  contextOf(request) {
    return defaultKey(request);
  }

  // ---- The engine over ctx.storage -----------------------------------------------------------

  #boot() {
    const sql = this.ctx.storage.sql;
    sql.exec(SCHEMA);
    const options = this.#options();
    const engine = new TextTaskEngine({ ...options, storage: { instanceId: crypto.randomUUID(), leaseMs: this.#leaseMs() } });
    this.#runtime = new TaskRuntime(engine, {
      telemetry: this.telemetry(),
      rpcError,
      onAudit: (record) => this.audit(record),
      onError: (err) => this.error(err),
      onPersist: (p) => this.#write(p),
      schedule: (due) => (due === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(due)),
      onOutput: (o) => {
        // The work starts once this settle is done (its own calls settle again).
        if (o.kind === 'execute') this.ctx.waitUntil(Promise.resolve().then(() => this.#run(o)));
        else if (o.kind === 'cancelled') this.cancelled(o.taskId);
        // A message with no request id of ours (a notification): handle() picks it up below.
        else if (o.kind === 'forward') this.#forwardedNow = o;
      },
    });
    this.#registerTools(options.tools ?? {});
    // A damaged row is reported and left out: one bad record must not keep the object from starting.
    for (const row of sql.exec('SELECT id, version, record FROM mcp_tasks')) this.#restoreRow(row.id, row.record, row.version);
    return this.#settle();
  }

  /** engineOptions(), checked: the engine checks every key but `storage`, which is set here. */
  #options() {
    const options = this.engineOptions();
    if (options === null || typeof options !== 'object') throw new TypeError('engineOptions() must return an object (TaskEngine options)');
    if (options.storage !== undefined) throw new TypeError('engineOptions().storage is set by TaskEngineObject (its lease: override leaseMs())');
    return options;
  }

  /** tools(), checked and registered with the engine, with the tools of engineOptions(). */
  #registerTools(optionTools) {
    for (const [name, policy] of Object.entries(optionTools)) this.#tools.set(name, { policy, definition: {} });
    const tools = this.tools();
    if (tools === null || typeof tools !== 'object') throw new TypeError('tools() must return an object: tool name -> { taskSupport, inputSchema, ... }');
    for (const [name, { taskSupport, ...definition }] of Object.entries(tools)) {
      if (this.#tools.has(name)) throw new TypeError(`tools(): "${name}" is also in engineOptions().tools (name each tool once)`);
      try {
        this.#engine.registerTool(name, taskSupport ?? null);
      } catch (err) {
        throw new TypeError(`tools()["${name}"]: ${err.message}`);
      }
      this.#tools.set(name, { policy: taskSupport ?? null, definition });
    }
  }

  #leaseMs() {
    const ms = this.leaseMs();
    if (!Number.isSafeInteger(ms) || ms <= 0) throw new TypeError(`leaseMs() must return a positive integer number of milliseconds, got ${String(ms)}`);
    return ms;
  }

  /** The engine (restored from storage). */
  get engine() {
    return this.#engine;
  }

  /**
   * The figures a dashboard shows: tasks by status, running work, work waiting for input, and
   * since this instance started, expirations, lease failures and storage errors.
   */
  figures() {
    return this.#runtime.figures();
  }

  /** Writes the persists, delivers the rest, re-arms the alarm. */
  async #settle() {
    await this.#runtime.drain();
  }

  /** Runs one task's work with its TaskContext and reports its outcome. */
  async #run(output) {
    const { taskId } = output;
    const running = this.#runtime.track(taskId, output.context);
    const work = new TaskContext(output, running.controller.signal, {
      setStatus: (message) => this.#setStatus(taskId, message),
      requestInput: (method, params) => this.#runtime.requestInput(taskId, method, params),
    });
    try {
      const result = await this.execute(output, work);
      if (result !== undefined) await this.complete(taskId, JSON.stringify(result));
    } catch (err) {
      if (!endedMeanwhile(err)) await this.fail(taskId, JSON.stringify(errorObjectOf(err))).catch(() => {});
    } finally {
      this.#runtime.untrack(taskId, running);
    }
  }

  async #setStatus(taskId, message) {
    try {
      this.#engine.setStatusMessage(taskId, message);
    } catch (err) {
      if (!endedMeanwhile(err)) throw err;
    }
    await this.#settle();
  }

  /**
   * Compare-and-set of one persist (versions compared as text: a repair expects the damaged
   * version text it was told). This object is the only writer of its storage, so a mismatch is
   * damage, which the engine repairs (its persist follows in the same settle), or a bug: the
   * stored record is restored and the error reported.
   */
  #write(p) {
    const sql = this.ctx.storage.sql;
    const conflict = this.ctx.storage.transactionSync(() => {
      const rows = sql.exec('SELECT version, record FROM mcp_tasks WHERE id = ?', p.taskId).toArray();
      const current = rows.length ? rows[0] : null;
      const expected = p.expectedVersion === null ? null : String(p.expectedVersion);
      if ((current ? String(current.version) : null) !== expected) return { current };
      if (p.record === null) sql.exec('DELETE FROM mcp_tasks WHERE id = ?', p.taskId);
      else {
        sql.exec(
          'INSERT INTO mcp_tasks (id, version, record, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version, record = excluded.record, expires_at = excluded.expires_at',
          p.taskId,
          p.version,
          p.record,
          p.expiresAt,
        );
      }
      return null;
    });
    if (conflict === null) return;
    const { current } = conflict;
    if (current === null) {
      this.#engine.forgetTask(p.taskId);
    } else if (this.#restoreRow(p.taskId, current.record, current.version)) {
      return; // damage: the engine failed the task and its repair is the next persist
    }
    throw new Error(`mcp_tasks: version conflict on task ${p.taskId} (another writer?)`);
  }

  /** Restores one stored row through the engine's judgement; true when it found damage. */
  #restoreRow(taskId, record, version) {
    let found;
    try {
      found = this.#engine.restoreStored(String(taskId), record ?? null, version === null || version === undefined ? null : String(version));
    } catch (err) {
      if (err?.code !== 'damaged_record') throw err;
      found = err.detail ?? err.message;
    }
    if (found === null || found === undefined) return false;
    try {
      this.damaged(found, taskId);
    } catch {
      // a reporter's fault must not break the object
    }
    return true;
  }

  async #arm() {
    const next = this.#engine.nextDeadline();
    if (next === null || next === undefined) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }

  async alarm() {
    await this.#runtime.timeout();
  }

  /**
   * One JSON-RPC message from `context`: the reply text, or null (a notification, or nothing
   * to say). A `tasks/result` on a running task waits here for the task to end; requests it
   * carries meanwhile (2025-11-25 input) go to `options.onMessage`. `options.mcpName`: the
   * request's `Mcp-Name` header.
   */
  async handle(message, context = null, options = {}) {
    const engine = this.#engine;
    const request = requestOf(message);
    // A request goes to the engine under an id of ours; its replies get the client's id back.
    const minted = request === null ? undefined : `mcp-task-core/object:${crypto.randomUUID()}`;
    const text = minted === undefined ? message : JSON.stringify({ ...request, id: minted });
    const reply = (replyText) => (replyText === null || minted === undefined ? replyText : JSON.stringify({ ...JSON.parse(replyText), id: request.id }));
    const key = minted === undefined ? undefined : JSON.stringify(minted);
    // The task this request may create is traced from its request (and HTTP headers).
    const origin = key === undefined ? noop : this.#runtime.from(key, { requestId: request.id, headers: options.headers, sessionId: options.headers?.get?.('mcp-session-id') ?? undefined });
    const direct = engine.handle(text, context, options.mcpName === undefined ? null : { mcpName: options.mcpName });
    let forwarded = null;
    const pending = key === undefined || direct !== null ? null : new Promise((resolve) => this.#await(key, context, resolve, options.onMessage, (o) => (forwarded = o)));
    // The outputs are delivered at once (the alarm is set after): this message's forward is known.
    this.#forwardedNow = null;
    const armed = this.#runtime.drain();
    origin();
    forwarded ??= this.#forwardedNow;
    this.#forwardedNow = null;
    await armed;
    if (direct !== null) return reply(direct);
    if (forwarded !== null) {
      if (key !== undefined) this.#runtime.closeStream(key);
      if (request !== null) {
        const answer = this.#answer(request, context);
        if (answer !== undefined) return JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer });
      }
      return this.forward(minted === undefined ? forwarded.message : JSON.stringify({ ...JSON.parse(forwarded.message), id: request.id }), context);
    }
    return pending === null ? null : reply(await pending);
  }

  /**
   * Waits for the reply to request `key`: its response ends the wait (`resolve`); a request
   * before it (2025-11-25 input) travels on the request's stream (`onMessage`).
   */
  #await(key, context, resolve, onMessage, onForward) {
    const deliver = (message) => {
      if (message === null || JSON.parse(message).method === undefined) {
        this.#runtime.closeStream(key);
        resolve(message);
      } else onMessage?.(message);
    };
    this.#runtime.openStream(key, context, deliver, onForward);
  }

  /**
   * The handshake, from the registered tools: `{ result }` or `{ error }`, or undefined for a
   * method that is not one. A request with per-request `_meta` speaks 2026-07-28.
   */
  #answer(request, context) {
    const version = request.params?._meta?.[VERSION_META];
    const modern = typeof version === 'string';
    const methods = ['initialize', 'server/discover', 'tools/list', 'ping'];
    if (!methods.includes(request.method) || (request.method === 'initialize' && modern)) return undefined;
    if (modern && version !== MODERN) {
      return { error: { code: UNSUPPORTED_VERSION, message: `Unsupported protocol version ${version}: this server speaks ${MODERN} and ${LEGACY}`, data: { supported: [MODERN, LEGACY], requested: version } } };
    }
    const complete = modern ? { resultType: 'complete' } : {};
    switch (request.method) {
      case 'initialize': {
        const asked = request.params?.protocolVersion;
        return {
          result: {
            protocolVersion: LEGACY_VERSIONS.includes(asked) ? asked : LEGACY,
            capabilities: { tools: {}, tasks: JSON.parse(this.#engine.capabilitiesJson(context)) },
            serverInfo: this.serverInfo(),
          },
        };
      }
      case 'server/discover':
        return {
          result: {
            ...complete,
            supportedVersions: [MODERN, LEGACY],
            capabilities: { tools: {}, extensions: structuredClone(PROTOCOL.extensionCapability) },
            ttlMs: 0,
            cacheScope: 'private',
            _meta: { [SERVER_INFO_META]: this.serverInfo() },
          },
        };
      case 'tools/list':
        return { result: { ...complete, tools: [...this.#tools].map(([name, tool]) => this.#listed(name, tool, modern)), ...(modern ? { ttlMs: 0, cacheScope: 'public' } : {}) } };
      default:
        return { result: complete };
    }
  }

  /**
   * A tool as `tools/list` shows it. 2025-11-25: its `execution.taskSupport`, where the client
   * chooses (`perCall` acts as `optional` there). 2026-07-28: none, the server decides.
   */
  #listed(name, { policy, definition }, modern) {
    const tool = { name, inputSchema: { type: 'object' }, ...definition };
    if (modern || policy === null || policy === 'forbidden') return tool;
    return { ...tool, execution: { ...definition.execution, taskSupport: PROTOCOL.legacyTaskSupport[policy] } };
  }

  /** The work of `taskId` finished with `resultJson` (a JSON object text). */
  async complete(taskId, resultJson) {
    const task = this.#engine.complete(taskId, resultJson);
    this.#runtime.ended(taskId, task);
    await this.#settle();
    return task;
  }

  /** The work of `taskId` failed with JSON-RPC error object text `errorJson`. */
  async fail(taskId, errorJson) {
    const task = this.#engine.fail(taskId, errorJson);
    if (this.#runtime.tracing) this.#runtime.ended(taskId, task, String(JSON.parse(errorJson)?.code));
    await this.#settle();
    return task;
  }

  /**
   * POST: one JSON-RPC message (Streamable HTTP); the reply as JSON (202 and no body when there
   * is none). A waiting `tasks/result` that carries requests first (2025-11-25 input) answers
   * as an event stream when the client accepts one. Under the console's `basePath` (with
   * `taskConsole()`): the console. Other methods: 405 (no standalone stream).
   */
  async fetch(request) {
    const page = this.#consoleRoute();
    if (page !== null) {
      const { pathname } = new URL(request.url);
      if (pathname === page.basePath || pathname.startsWith(page.basePath + '/')) return page.handler.fetch(request);
    }
    if (request.method !== 'POST') return new Response('POST a JSON-RPC message\n', { status: 405, headers: { allow: 'POST' } });
    const body = await request.text();
    const mismatch = headerMismatch(request.headers, requestOf(body));
    if (mismatch !== null) return new Response(mismatch, { status: 400, headers: { 'content-type': 'application/json' } });
    const mcpName = request.headers.get('mcp-name') ?? undefined;
    const streams = (request.headers.get('accept') ?? '').includes('text/event-stream');
    let stream = null;
    let opened;
    const first = new Promise((resolve) => (opened = resolve));
    const onMessage = streams
      ? (text) => {
          stream ??= eventStream();
          stream.write(text);
          opened();
        }
      : undefined;
    const replied = this.handle(body, this.contextOf(request), { mcpName, onMessage, headers: request.headers });
    await Promise.race([replied, first]);
    if (stream === null) {
      const reply = await replied;
      if (reply === null) return new Response(null, { status: 202 });
      return new Response(reply, { status: httpStatus(body, reply), headers: { 'content-type': 'application/json' } });
    }
    replied.then(
      (reply) => stream.end(reply),
      () => stream.end(null),
    );
    return new Response(stream.readable, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
  }
}

/**
 * A 2026-07-28 request whose `MCP-Protocol-Version` or `Mcp-Method` header disagrees with its
 * body: the -32020 error response text (streamable-http.mdx, "Server Validation"), else null.
 * (`Mcp-Name` of `tasks/*` is the engine's check.)
 */
function headerMismatch(headers, request) {
  const version = request?.params?._meta?.[VERSION_META];
  if (typeof version !== 'string') return null;
  for (const [header, body] of [
    ['mcp-protocol-version', version],
    ['mcp-method', request.method],
  ]) {
    const value = headers.get(header);
    if (value !== null && value !== body) {
      const message = `Header mismatch: ${header} ${JSON.stringify(value)} does not match the body's ${JSON.stringify(body)}`;
      return JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: HEADER_MISMATCH, message } });
    }
  }
  return null;
}

/**
 * The HTTP status of a reply (streamable-http.mdx): 400 for a header mismatch or an unsupported
 * version; 404 for a method not found in 2026-07-28, which a client reads as "modern server".
 */
function httpStatus(body, reply) {
  const code = JSON.parse(reply).error?.code;
  if (BAD_REQUEST.has(code)) return 400;
  if (code === METHOD_NOT_FOUND && typeof requestOf(body)?.params?._meta?.[VERSION_META] === 'string') return 404;
  return 200;
}

/** An SSE response body: `write(text)` sends one message; `end(text)` sends the last (if any) and closes. */
function eventStream() {
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const write = (text) => writer.write(encoder.encode(`event: message\ndata: ${text}\n\n`)).catch(() => {});
  return {
    readable,
    write,
    end(text) {
      if (text !== null) write(text);
      writer.close().catch(() => {});
    },
  };
}
