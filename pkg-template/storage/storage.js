// mcp-task-core/storage (ESM): the host loop of a TextTaskEngine in storage mode over a TaskStorage
// ({ load, loadContext, write }, e.g. redisStorage from mcp-task-core/redis). WasmTaskStore
// (mcp-task-core/sdk) and TasksExtension (mcp-task-core/server) run on it; a custom host can too.
// Glue only: the engine decides every status; this loads records, writes the engine's
// `persist` outputs with a compare-and-set before anything after them is delivered, restores
// the stored record on a conflict and runs the operation again.
//
//   const engine = new TextTaskEngine({ ..., storage: { instanceId, leaseMs } });
//   const loop = new StorageLoop(storage, { onOutput: (o) => deliver(o) });
//   const task = await loop.run(engine, { taskId, write: true }, (e) => e.complete(taskId, json));
//   setTimeout(() => loop.tick(engine), engine.nextDeadline() - Date.now());   // heartbeats, expiry
//
// Operations of one loop run one at a time, so every write's outcome is known before the next
// operation reads the engine (and a conflict's stored record is never older than the copy here).
// The CommonJS twin storage.cjs is generated from this file by scripts/build-pkg.sh.
import { drainOutputs } from '../core/engine.js';
import { refuseUnknownOptions } from '../core/errors.js';
import { PROTOCOL } from '../core/protocol.js';

/** Attempts of one operation that meet compare-and-set conflicts before it gives up. */
const MAX_ATTEMPTS = 16;

/** Damage findings remembered so that each is reported once. */
const MAX_REPORTED = 1024;

const noop = () => {};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function defaultStorageError(why) {
  return Object.assign(new Error(`Task storage unavailable: ${why}`), { code: PROTOCOL.errors.internalError, reason: 'storage_unavailable' });
}

/** The default report of damage found in the storage: the operator's log (stderr). */
function defaultOnDamaged(detail) {
  console.error(`mcp-task-core: ${detail}`);
}

function defaultConflictError(n) {
  return Object.assign(new Error(`Task storage: the task kept changing under this operation (${n} compare-and-set conflicts in a row)`), {
    code: PROTOCOL.errors.internalError,
    reason: 'storage_conflict',
  });
}

class StorageLoop {
  #storage;
  #queue = Promise.resolve();
  #timeoutMs;
  #onOutput;
  #engineError;
  #storageError;
  #conflictError;
  #onDamaged;
  /** Damage already reported (see #report). */
  #reported = new Set();

  /**
   * @param {{ load: Function, loadContext: Function, write: Function }} storage
   * @param {{ timeoutMs?: number, onOutput?: (output: object) => void, engineError?: (err: any) => any,
   *           storageError?: (why: string) => Error, conflictError?: (attempts: number) => Error,
   *           onDamaged?: (detail: string, taskId: string) => void }} [options]
   *   `timeoutMs` (default 5000): a caller waits at most this long for the storage;
   *   `onOutput`: every output except `persist`, once its task's write landed (in order);
   *   `engineError`: maps an error thrown by the engine; `storageError` / `conflictError`: the
   *   errors thrown when the storage does not answer / the task keeps changing; `onDamaged`:
   *   told about every record found damaged (what the key holds, for the operator; default:
   *   `console.error`). The engine decides what damage means (see `restoreStored`): the task
   *   is failed and its work stopped where a copy is held, it is left out of list pages, and
   *   a request for it gets a -32603 `damaged_record` error.
   */
  constructor(storage, options = {}) {
    for (const m of ['load', 'loadContext', 'write']) {
      if (!storage || typeof storage[m] !== 'function') {
        throw new TypeError(`options.storage.${m} must be a function (see redisStorage in mcp-task-core/redis)`);
      }
    }
    if (options === null || typeof options !== 'object') throw new TypeError('StorageLoop options must be an object');
    refuseUnknownOptions(options, ['timeoutMs', 'onOutput', 'engineError', 'storageError', 'conflictError', 'onDamaged'], 'StorageLoop options.');
    const timeoutMs = options.timeoutMs ?? 5000;
    if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0)) throw new TypeError('StorageLoop options.timeoutMs must be a non-negative number of milliseconds');
    for (const key of ['onOutput', 'engineError', 'storageError', 'conflictError', 'onDamaged']) {
      if (options[key] !== undefined && typeof options[key] !== 'function') throw new TypeError(`StorageLoop options.${key} must be a function`);
    }
    this.#storage = storage;
    this.#timeoutMs = Math.max(1, timeoutMs);
    this.#onOutput = options.onOutput ?? noop;
    this.#engineError = options.engineError ?? ((err) => err);
    this.#storageError = options.storageError ?? defaultStorageError;
    this.#conflictError = options.conflictError ?? defaultConflictError;
    this.#onDamaged = options.onDamaged ?? defaultOnDamaged;
  }

  /**
   * Queues `work` behind earlier operations. The caller gets the storage error after
   * `timeoutMs`; work still waiting then never runs, and work that started finishes in the
   * background (a write's outcome is always settled before the next operation).
   */
  #serial(work) {
    const timeoutMs = this.#timeoutMs;
    const queuedAt = Date.now();
    const run = this.#queue.then(() => {
      if (Date.now() - queuedAt >= timeoutMs) {
        throw this.#storageError(`no answer within ${timeoutMs} ms (earlier storage operations are still waiting for the storage)`);
      }
      return work();
    });
    this.#queue = run.then(noop, noop);
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(this.#storageError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
  }

  #call(fn) {
    try {
      return fn();
    } catch (err) {
      throw this.#engineError(err);
    }
  }

  /**
   * One operation: `fn(engine)` on fresh state, its changes written. `plan.taskId`: load that
   * task first (a write on a task held here goes straight to its compare-and-set, which catches
   * a stale copy); `plan.context`: load that context's tasks (for listing); `plan.write`: the
   * operation changes its task (`plan.taskId`, or the `taskId` of what `fn` returns). A write
   * runs again only when its own task's write conflicted; a read runs again after any conflict.
   */
  run(engine, plan, fn) {
    return this.#serial(async () => {
      if (typeof plan.taskId === 'string') {
        if (!(plan.write && engine.taskContext(plan.taskId) !== undefined)) await this.#loadTask(engine, plan.taskId);
      } else if (typeof plan.context === 'string' || plan.context === null) {
        const entries = await this.#storageCall(() => this.#storage.loadContext(plan.context));
        // A damaged entry is reported and left out: it never fails the page.
        for (const { taskId, record, version } of entries) this.#restore(engine, taskId, record, version, false);
      }
      for (let attempt = 1; ; attempt++) {
        let value;
        let error;
        let failed = false;
        try {
          value = this.#call(() => fn(engine));
        } catch (err) {
          error = err;
          failed = true;
        }
        const lost = await this.#flush(engine);
        // A change of this operation's own task that did not land is decided again on the
        // stored record; a conflict elsewhere (say a lease renewal the tick made for another
        // task) is settled by its restore and leaves this operation's outcome as it is.
        const target = typeof plan.taskId === 'string' ? plan.taskId : value && typeof value.taskId === 'string' ? value.taskId : undefined;
        if (lost.size === 0 || (plan.write && !lost.has(target))) {
          if (failed) throw error;
          return value;
        }
        if (attempt >= MAX_ATTEMPTS) throw this.#conflictError(attempt);
      }
    });
  }

  /** The timer's round: `handleTimeout()` (lease renewals and checks, expiry), written. */
  tick(engine) {
    return this.#serial(async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        engine.handleTimeout();
        if ((await this.#flush(engine)).size === 0) return;
      }
    });
  }

  async #loadTask(engine, taskId) {
    const stored = await this.#storageCall(() => this.#storage.load(taskId));
    if (stored === null || stored === undefined) engine.forgetTask(taskId);
    else if (typeof stored === 'string') this.#restore(engine, taskId, stored, null, true);
    else this.#restore(engine, taskId, stored.record, stored.version, true);
  }

  /**
   * `engine.restoreStored(...)`: damage is reported; for a task not held here it is the
   * operation's error when `strict` (a read of that task), else the task is left out.
   */
  #restore(engine, taskId, record, version, strict) {
    let found;
    try {
      found = engine.restoreStored(String(taskId), record ?? null, version === null || version === undefined ? null : String(version));
    } catch (err) {
      if (!(err && err.code === 'damaged_record')) throw this.#engineError(err);
      this.#report(err.detail ?? err.message, taskId);
      if (strict) throw this.#engineError(err);
      return;
    }
    if (found !== null && found !== undefined) this.#report(found, taskId);
  }

  #report(detail, taskId) {
    // Each finding once (list pages meet the same damage again and again), the latest kept.
    const seen = `${taskId}\0${detail}`;
    if (this.#reported.has(seen)) return;
    this.#reported.add(seen);
    if (this.#reported.size > MAX_REPORTED) this.#reported.delete(this.#reported.values().next().value);
    try {
      this.#onDamaged(detail, taskId);
    } catch {
      // A listener's fault must not break the loop.
    }
  }

  async #storageCall(fn) {
    try {
      return await fn();
    } catch (err) {
      throw this.#storageError(err && err.message ? err.message : String(err));
    }
  }

  /**
   * Drains the engine: writes its `persist` outputs (one `storage.write` per batch), restores
   * the stored record of each that conflicted, delivers the other outputs except those of a
   * conflicting task, and goes on while restores produce more. Returns the IDs that conflicted.
   */
  async #flush(engine) {
    const conflicts = new Set();
    for (;;) {
      const outs = drainOutputs(engine);
      if (outs.length === 0) return conflicts;
      const persists = outs.filter((o) => o.kind === 'persist');
      const lost = new Set();
      if (persists.length > 0) {
        for (const p of persists) if (p.record !== null) p.context = engine.taskContext(p.taskId) ?? null;
        const results = await this.#writeUntilKnown(persists);
        persists.forEach((p, i) => {
          const r = results[i];
          if (!r) return;
          lost.add(p.taskId);
          const gone = (r.conflict === null || r.conflict === undefined) && (r.version === null || r.version === undefined);
          if (gone) engine.forgetTask(p.taskId);
          else this.#restore(engine, p.taskId, r.conflict ?? null, r.version ?? null, false);
        });
        for (const id of lost) conflicts.add(id);
      }
      for (const o of outs) {
        if (o.kind === 'persist' || lost.has(o.taskId)) continue;
        try {
          this.#onOutput(o);
        } catch {
          // A listener's fault must not break the loop.
        }
      }
    }
  }

  /**
   * `storage.write(persists)`, again and again while it fails: a write whose outcome is unknown
   * must be settled before anything else reads the engine. On a retry, a conflict with exactly
   * what was written is this write having landed the first time.
   */
  async #writeUntilKnown(persists) {
    for (let attempt = 1; ; attempt++) {
      let results;
      try {
        results = await this.#storage.write(persists);
      } catch {
        await sleep(Math.min(25 * 2 ** attempt, 1000));
        continue;
      }
      if (!Array.isArray(results) || results.length !== persists.length) {
        throw new TypeError('storage.write(persists) must resolve to one result per persist (null when written, { conflict } when not)');
      }
      if (attempt === 1) return results;
      return results.map((r, i) => {
        if (!r) return r;
        const landed = persists[i].record === null ? r.conflict === null || r.conflict === undefined : r.conflict === persists[i].record;
        return landed ? null : r;
      });
    }
  }
}

export { StorageLoop };
