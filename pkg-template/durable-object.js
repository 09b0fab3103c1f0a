// mcp-task-core/durable-object (Cloudflare Workers only): a Durable Object that holds the task
// engine for one session or tenant. Glue only: the engine decides, this class moves records.
//
//   import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';
//   export class Tasks extends TaskEngineObject {
//     engineOptions() { return { tools: { slow: 'required' } }; }
//     async execute(task) { ... await this.complete(task.taskId, JSON.stringify(result)); }
//   }
//   export default { fetch: (request, env) => routeToTaskObject(request, env.TASKS) };
//   // wrangler: a durable_objects binding TASKS -> Tasks, with a new_sqlite_classes migration
//
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

const SCHEMA = 'CREATE TABLE IF NOT EXISTS mcp_tasks (id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL, expires_at INTEGER)';

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

function defaultKey(request) {
  return request.headers.get('mcp-session-id') ?? request.headers.get('x-tenant') ?? 'default';
}

export class TaskEngineObject extends DurableObject {
  #engine = null;
  /**
   * Requests whose reply comes later (a waiting tasks/result), by the id the engine knows them
   * by: one minted here per request, never the client's own, which clients of one object may
   * share. -> { context, resolve }
   */
  #waiting = new Map();

  constructor(ctx, env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => this.#boot());
  }

  // ---- Hooks for subclasses -----------------------------------------------------------------

  /** TaskEngine options (tools, ttl, limits, ...); `store` is set here. */
  engineOptions() {
    return {};
  }

  /** Lease of running work, in ms (renewed by the alarm while the work runs here). */
  leaseMs() {
    return 30_000;
  }

  /**
   * Runs the work of an `execute` output (`{ taskId, context, method, request }`), then calls
   * `this.complete()` or `this.fail()`. Default: fails the task (no executor).
   */
  async execute(task) {
    await this.fail(task.taskId, JSON.stringify({ code: -32603, message: 'No executor for this task in this Durable Object' }));
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

  /** A JSON-RPC message that is not about tasks (the engine forwards it). Default: -32601. */
  async forward(message, _context) {
    const m = JSON.parse(message);
    if (m.id === undefined) return null;
    return JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }

  /** The engine context of a request: the routing key (one object per session or tenant). */
  contextOf(request) {
    return defaultKey(request);
  }

  // ---- The engine over ctx.storage -----------------------------------------------------------

  #boot() {
    const sql = this.ctx.storage.sql;
    sql.exec(SCHEMA);
    this.#engine = new TextTaskEngine({ ...this.#options(), storage: { instanceId: crypto.randomUUID(), leaseMs: this.#leaseMs() } });
    // A damaged row is reported and left out: one bad record must not keep the object from starting.
    for (const row of sql.exec('SELECT id, version, record FROM mcp_tasks')) this.#restoreRow(row.id, row.record, row.version);
    return this.#settle();
  }

  /** engineOptions(), checked: the engine checks every key but `store`, which is set here. */
  #options() {
    const options = this.engineOptions();
    if (options === null || typeof options !== 'object') throw new TypeError('engineOptions() must return an object (TaskEngine options)');
    if (options.storage !== undefined) throw new TypeError('engineOptions().storage is set by TaskEngineObject (its lease: override leaseMs())');
    return options;
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

  /** Writes the persists, delivers the rest, re-arms the alarm. */
  async #settle() {
    const engine = this.#engine;
    const later = [];
    for (let o = engine.pollOutput(); o !== null && o !== undefined; o = engine.pollOutput()) {
      if (o.kind === 'persist') this.#write(o);
      else later.push(o);
    }
    for (const o of later) {
      if (o.kind === 'execute') {
        this.ctx.waitUntil(
          Promise.resolve()
            .then(() => this.execute(o))
            .catch((err) => this.fail(o.taskId, JSON.stringify({ code: -32603, message: String(err?.message ?? err) })).catch(() => {})),
        );
      } else if (o.kind === 'cancelled') this.cancelled(o.taskId);
      else if (o.kind === 'send' && o.inReplyTo !== null) {
        const waiting = this.#waiting.get(o.inReplyTo);
        // Only to the request of the message's own context (principal).
        if (waiting !== undefined && waiting.context === o.context) {
          this.#waiting.delete(o.inReplyTo);
          waiting.resolve(o.message);
        }
      }
    }
    await this.#arm();
    return later;
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
    this.#engine.handleTimeout();
    await this.#settle();
  }

  /**
   * One JSON-RPC message from `context`: the reply text, or null (a notification, or nothing
   * to say). A `tasks/result` on a running task waits here for the task to end.
   */
  async handle(message, context = null) {
    const engine = this.#engine;
    const request = requestOf(message);
    // A request goes to the engine under an id of ours; its replies get the client's id back.
    const minted = request === null ? undefined : `mcp-task-core/object:${crypto.randomUUID()}`;
    const text = minted === undefined ? message : JSON.stringify({ ...request, id: minted });
    const reply = (replyText) => (replyText === null || minted === undefined ? replyText : JSON.stringify({ ...JSON.parse(replyText), id: request.id }));
    const direct = engine.handle(text, context);
    const key = minted === undefined ? undefined : JSON.stringify(minted);
    const pending = key === undefined || direct !== null ? null : new Promise((resolve) => this.#waiting.set(key, { context, resolve }));
    const outs = await this.#settle();
    if (direct !== null) return reply(direct);
    const forwarded = outs.find((o) => o.kind === 'forward');
    if (forwarded) {
      if (key !== undefined) this.#waiting.delete(key);
      return this.forward(minted === undefined ? forwarded.message : JSON.stringify({ ...JSON.parse(forwarded.message), id: request.id }), context);
    }
    return pending === null ? null : reply(await pending);
  }

  /** The work of `taskId` finished with `resultJson` (a JSON object text). */
  async complete(taskId, resultJson) {
    const task = this.#engine.complete(taskId, resultJson);
    await this.#settle();
    return task;
  }

  /** The work of `taskId` failed with JSON-RPC error object text `errorJson`. */
  async fail(taskId, errorJson) {
    const task = this.#engine.fail(taskId, errorJson);
    await this.#settle();
    return task;
  }

  /** POST: one JSON-RPC message; the reply as JSON (202 and no body when there is none). */
  async fetch(request) {
    if (request.method !== 'POST') return new Response('POST a JSON-RPC message\n', { status: 405 });
    const reply = await this.handle(await request.text(), this.contextOf(request));
    return reply === null ? new Response(null, { status: 202 }) : new Response(reply, { headers: { 'content-type': 'application/json' } });
  }
}
