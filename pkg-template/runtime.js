// The receiver host runtime (internal): the one loop that drives a receiver's TextTaskEngine for
// an adapter. It drains the engine's outputs, arms the one timer, runs each operation in memory
// (at once) or through a StorageLoop (load, decide, compare-and-set), catches replies the engine
// queues for a request id, starts work on `execute` and tracks it (its AbortSignal, its pending
// input requests), delivers sends to the stream that asked, and reports audit records, dropped
// outputs and storage errors to hooks. Adapters turn SDK or platform calls into its calls and
// keep no task state of their own.
//
// The CommonJS twin runtime.cjs is generated from this file by scripts/build-pkg.sh.
import { drainOutputs } from './extras.js';

const MISSING_CAPABILITY = -32021;
const INVALID_PARAMS = -32602;

/** Engine error codes of an outcome that lost a race (the task ended meanwhile): not a fault. */
const SETTLED_CODES = ['task_cancelled', 'unknown_task', 'already_terminal'];

/** setTimeout's largest delay. */
const MAX_DELAY = 2 ** 31 - 1;

const noop = () => {};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a task's `signal` aborts with (and its pending input requests reject with). */
function abortError(reason) {
  const err = new Error(reason === 'expired' ? 'The task expired' : 'The task was cancelled');
  err.name = 'AbortError';
  err.reason = reason;
  return err;
}

function defaultRpcError(code, message, data) {
  return Object.assign(new Error(message), data === undefined ? { code } : { code, data });
}

class TaskRuntime {
  /**
   * @param {object} engine a TextTaskEngine
   * @param {{ loop?: object | null, clock?: (() => number) | null, timer?: boolean,
   *           schedule?: Function, onPersist?: Function, rpcError?: Function,
   *           onError?: Function, onAudit?: Function, onStorageError?: Function,
   *           onOutput?: Function, recycler?: object | null }} [options]
   *   `loop`: the StorageLoop of a storage-mode engine (null: memory); `clock`: the engine's
   *   clock (read at each use, so the timer follows fake clocks); `timer: false`: no timer (the
   *   host calls `handleTimeout` itself); `schedule(deadline | null)`: the platform's timer in
   *   place of setTimeout (a Durable Object's alarm; its promise is what `arm` returns), which
   *   calls `timeout()`; `onPersist(persist)`: a synchronous storage (memory mode), each batch's
   *   `persist` outputs written before the rest of the batch is delivered; `rpcError(code, message,
   *   data)`: the adapter's JSON-RPC error; `onError`: faults and dropped outputs; `onAudit`:
   *   every audit record; `onStorageError`: the storage errors no caller sees (the timer's, an
   *   outcome waiting to be written);
   *   `onOutput`: `expired`, `cancelled` (after their work is stopped) and the outputs the
   *   runtime does not route itself (`forward` no stream asked for, `execute` of no launch);
   *   `recycler`: an EngineRecycler (recycle.js, memory mode) that may move the tasks into an
   *   engine of a fresh wasm instance after an expiry: `engine` then changes, so adapters read
   *   it at each use.
   */
  constructor(engine, options = {}) {
    this.engine = engine;
    this.loop = options.loop ?? null;
    this.#clock = options.clock ?? null;
    this.#schedule = options.schedule ?? null;
    this.#useTimer = options.timer !== false && (this.#schedule !== null || typeof setTimeout === 'function');
    this.#onPersist = options.onPersist ?? null;
    this.#rpcError = options.rpcError ?? defaultRpcError;
    this.#onError = options.onError ?? noop;
    this.#onAudit = options.onAudit ?? noop;
    this.#onStorageError = options.onStorageError ?? noop;
    this.#onOutput = options.onOutput ?? noop;
    this.#recycler = options.recycler ?? null;
  }

  #clock;
  #schedule;
  #onPersist;
  #useTimer;
  #rpcError;
  #onError;
  #onAudit;
  #onStorageError;
  #onOutput;
  #recycler;
  /** Running work: taskId -> { controller, inputs: Map<rawId, { resolve, reject }>, context }. */
  #work = new Map();
  /** Work to start on the engine's `execute`, by the raw id of the request that creates the task. */
  #launches = new Map();
  /** Open streams by the raw id the engine knows them by, each with the context it serves. */
  #streams = new Map();
  #timer = undefined;
  #timerAt = null;
  #timerFailures = 0;
  #closed = false;

  // ------------------------------------------------------------------------------------------
  // Operations

  /**
   * One engine operation: `fn(engine)`, then its outputs delivered and the timer armed. In
   * memory, at once (its value, or its throw). With storage, through the StorageLoop (a
   * promise): `plan` names the task to load first and whether `fn` changes it (see
   * StorageLoop.run); the outputs are delivered once the change is written.
   */
  op(plan, fn) {
    if (this.loop === null) {
      try {
        return fn(this.engine);
      } finally {
        this.drain();
      }
    }
    return this.loop.run(this.engine, plan, fn).finally(() => this.arm());
  }

  /** `op` for its effect: errors go to `onError` (those of a task that ended meanwhile to none). */
  quietly(plan, fn) {
    const report = (err) => this.#fault(err);
    try {
      const done = this.op(plan, fn);
      return this.loop === null ? undefined : done.then(noop, report);
    } catch (err) {
      report(err);
      return undefined;
    }
  }

  /**
   * `create(engine)`, which may create a task for the request `rawId` (the engine's reply text,
   * or null): `launch(taskId)` starts its work on the task's `execute`. With storage the engine
   * queues its reply behind the writes (a `send` in reply to `rawId`): it is caught here, once
   * written.
   */
  async launching(rawId, context, launch, create) {
    let queued = null;
    this.#launches.set(rawId, launch);
    if (this.loop !== null) this.#streams.set(rawId, { context, deliver: (message) => (queued = message ?? queued) });
    try {
      return (await this.op({ write: true }, create)) ?? queued;
    } finally {
      this.#launches.delete(rawId);
      this.#streams.delete(rawId);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Streams: where the engine's sends go

  /**
   * Opens the stream the engine knows as `rawId`: `deliver(messageText)`, `deliver(null)` on
   * close; `onForward(output)`: the engine's `forward` of that request (not a task's).
   */
  openStream(rawId, context, deliver, onForward) {
    this.#streams.set(rawId, { context, deliver, onForward });
  }

  /** Closes a stream; false when it was not open. */
  closeStream(rawId) {
    return this.#streams.delete(rawId);
  }

  /** How many streams are open. */
  get streamCount() {
    return this.#streams.size;
  }

  // ------------------------------------------------------------------------------------------
  // Running work

  /** The running work of a task, created on first use: its AbortController and input requests. */
  track(taskId, context) {
    let entry = this.#work.get(taskId);
    if (entry === undefined) {
      entry = { controller: new AbortController(), inputs: new Map(), context };
      this.#work.set(taskId, entry);
    }
    return entry;
  }

  /** The running work of a task, or undefined. */
  running(taskId) {
    return this.#work.get(taskId);
  }

  /** Forgets the running work `entry` of a task once it is done (its outcome reported elsewhere). */
  untrack(taskId, entry) {
    if (this.#work.get(taskId) === entry) this.#work.delete(taskId);
  }

  /** Asks the client for input on a running task; resolves with its answer. */
  requestInput(taskId, method, params) {
    const entry = this.#work.get(taskId);
    if (entry === undefined || entry.controller.signal.aborted) {
      return Promise.reject(entry?.controller.signal.reason ?? this.#rpcError(INVALID_PARAMS, `No running task ${taskId}`));
    }
    let pending;
    const answer = new Promise((resolve, reject) => (pending = { resolve, reject }));
    let asked;
    const ask = (engine) => {
      let rawId;
      try {
        rawId = engine.requestInput(taskId, method, params === undefined ? null : JSON.stringify(params));
      } catch (err) {
        // Input the client did not declare (mrtr.mdx): the JSON-RPC error the work may catch, or
        // throw on to fail the task with.
        if (err?.code === 'capability_not_declared') {
          throw this.#rpcError(MISSING_CAPABILITY, err.message, { requiredCapabilities: err.requiredCapabilities });
        }
        throw err;
      }
      // Asked again (the stored task had changed meanwhile): the answer is to the latest request.
      if (asked !== undefined) entry.inputs.delete(asked);
      asked = rawId;
      entry.inputs.set(rawId, pending);
    };
    try {
      return Promise.resolve(this.op({ taskId, write: true }, ask)).then(() => answer);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * Reports an outcome; a task that was cancelled or expired meanwhile keeps its state. With
   * storage, tried again while the storage is unavailable: an outcome is never dropped.
   */
  finish(taskId, report) {
    const entry = this.#work.get(taskId);
    const settle = () => entry !== undefined && this.#settle(taskId, entry);
    if (this.loop === null) {
      try {
        report(this.engine);
      } catch (err) {
        this.#fault(err);
      }
      settle();
      this.drain();
      return undefined;
    }
    const attempt = (n) =>
      this.op({ taskId, write: true }, report).then(settle, (err) => {
        if (err?.reason === 'storage_unavailable' && !this.#closed) {
          this.#storageFault(err);
          return sleep(Math.min(100 * n, 1000)).then(() => attempt(n + 1));
        }
        settle();
        this.#fault(err);
        return undefined;
      });
    return attempt(1);
  }

  #settle(taskId, entry, reason) {
    this.#work.delete(taskId);
    if (reason !== undefined) {
      entry.controller.abort(abortError(reason));
      for (const pending of entry.inputs.values()) pending.reject(abortError(reason));
    }
    entry.inputs.clear();
  }

  /** Stops the timer, aborts every running work and closes every stream. The engine stays usable. */
  close() {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const [taskId, entry] of this.#work) {
      entry.controller.abort(abortError('cancelled'));
      this.#work.delete(taskId);
    }
    for (const stream of this.#streams.values()) stream.deliver(null);
    this.#streams.clear();
  }

  // ------------------------------------------------------------------------------------------
  // Outputs

  /**
   * Delivers the engine's outputs (in storage mode the StorageLoop drains them, through
   * `output`), then arms the timer. `rearm: false` skips the deadline look-up unless a task
   * expired: for an operation that cannot move the next deadline (the hot path of reads).
   */
  drain(rearm = true) {
    let expired = 0;
    if (this.loop === null && this.#onPersist !== null) expired = Number(this.#drainWritten());
    else if (this.loop === null) {
      for (let out = this.engine.pollOutput(); out != null; out = this.engine.pollOutput()) {
        if (out.kind === 'expired') expired++;
        this.output(out);
      }
    }
    if (expired > 0 && this.#recycler !== null) this.#recycle(expired);
    return rearm || expired ? this.arm() : undefined;
  }

  /**
   * After `expired` tasks expired: the engine swapped for the recycler's fresh one when it finds
   * that worth it, never with anything in flight (running work, a launch, an open stream, a
   * pending output).
   */
  #recycle(expired) {
    const busy = this.#work.size > 0 || this.#launches.size > 0 || this.#streams.size > 0 || this.engine.pendingOutputs > 0;
    try {
      this.engine = this.#recycler.next(this.engine, { expired, busy }) ?? this.engine;
    } catch (err) {
      this.#onError(err);
    }
  }

  /** `drain` over a synchronous storage: each batch's persists written first (a throw stops it). */
  #drainWritten() {
    let expired = false;
    for (;;) {
      const batch = drainOutputs(this.engine);
      if (batch.length === 0) return expired;
      for (const out of batch) if (out.kind === 'persist') this.#onPersist(out);
      for (const out of batch) {
        if (out.kind === 'persist') continue;
        if (out.kind === 'expired') expired = true;
        this.output(out);
      }
    }
  }

  /** The timer's round (memory): `handleTimeout()`, then its outputs; what `arm` returns. */
  timeout() {
    this.engine.handleTimeout();
    return this.drain();
  }

  /** One output of the engine (the StorageLoop's `onOutput`). */
  output(out) {
    switch (out.kind) {
      case 'execute': {
        // The launch waits under the id of the request that created the task.
        const launch = this.#launches.get(JSON.stringify(JSON.parse(out.request).id));
        if (launch !== undefined) launch(out.taskId);
        else this.#onOutput(out);
        break;
      }
      case 'forward': {
        const stream = this.#streams.get(JSON.stringify(JSON.parse(out.message).id));
        if (stream?.onForward !== undefined) stream.onForward(out);
        else this.#onOutput(out);
        break;
      }
      case 'cancelled':
      case 'expired': {
        const entry = this.#work.get(out.taskId);
        if (entry !== undefined) this.#settle(out.taskId, entry, out.kind);
        this.#onOutput(out);
        break;
      }
      case 'inputResponse': {
        const inputs = this.#work.get(out.taskId)?.inputs;
        const pending = inputs?.get(out.requestId);
        if (pending !== undefined) {
          inputs.delete(out.requestId);
          const response = JSON.parse(out.response);
          if (response.error !== undefined) pending.reject(this.#rpcError(response.error.code, response.error.message, response.error.data));
          else pending.resolve(response.result);
        }
        break;
      }
      case 'send':
        this.#deliver(out);
        break;
      case 'audit':
        this.#report(this.#onAudit, out);
        break;
      case 'outputsDropped':
        this.#onError(Object.assign(new Error(`The engine's output queue was full: ${out.count} notifications or audit records were dropped`), { code: 'outputs_dropped', count: out.count }));
        break;
      default:
        this.#onOutput(out);
        break;
    }
  }

  /**
   * A message for the stream that asked for it. Only to a stream of the message's own context;
   * messages for no open stream are dropped (the task is still there to poll).
   */
  #deliver(out) {
    if (out.inReplyTo === null) return;
    const stream = this.#streams.get(out.inReplyTo);
    if (stream === undefined) return;
    if (stream.context !== out.context) {
      this.#onError(new Error(`A task message for another principal reached stream ${out.inReplyTo}: not delivered`));
      return;
    }
    stream.deliver(out.message);
  }

  #report(hook, value) {
    try {
      hook(value);
    } catch (err) {
      this.#onError(err);
    }
  }

  /** An operation's error for `onError`, unless its task had ended meanwhile. */
  #fault(err) {
    if (!SETTLED_CODES.includes(err?.code)) this.#onError(err);
  }

  #storageFault(err) {
    this.#report(this.#onStorageError, err);
  }

  // ------------------------------------------------------------------------------------------
  // The timer

  /** The deadline the timer is armed for (-1: a storage retry), or null. */
  get armedAt() {
    return this.#timer === undefined ? null : this.#timerAt;
  }

  /** Arms the one timer at the engine's next deadline. */
  arm() {
    if (this.#closed || !this.#useTimer) return undefined;
    const due = this.engine.nextDeadline() ?? null;
    if (this.#schedule !== null) return this.#schedule(due);
    if (due === this.#timerAt) return undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = due;
    if (due === null) return undefined;
    return this.#setTimer(Math.min(MAX_DELAY, Math.max(0, due - this.#now())));
  }

  /** Now as the engine reads it; a clock that fails (the engine reports it) reads as Date.now(). */
  #now() {
    let now;
    try {
      now = Number(this.#clock === null ? Date.now() : this.#clock());
    } catch {
      now = NaN;
    }
    return Number.isFinite(now) ? now : Date.now();
  }

  #setTimer(delay) {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = null;
      if (this.loop === null) {
        this.timeout();
        return;
      }
      // Lease renewals and checks, expiry, written; while the storage does not answer, again
      // soon (a lease outlives a few misses).
      this.loop.tick(this.engine).then(
        () => {
          this.#timerFailures = 0;
          this.arm();
        },
        (err) => {
          this.#timerFailures++;
          this.#storageFault(err);
          if (this.#closed || this.#timer !== undefined) return;
          this.#timerAt = -1;
          this.#setTimer(Math.min(100 * 2 ** this.#timerFailures, 2000));
        },
      );
    }, delay);
    this.#timer.unref?.();
  }
}

export { TaskRuntime, SETTLED_CODES };
