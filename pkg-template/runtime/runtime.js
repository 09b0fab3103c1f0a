// The receiver host runtime (internal): the one loop that drives a receiver's TextTaskEngine for
// an adapter. It drains the engine's outputs, arms the one timer, runs each operation in memory
// (at once) or through a StorageLoop (load, decide, compare-and-set), catches replies the engine
// queues for a request id, starts work on `execute` and tracks it (its AbortSignal, its pending
// input requests), delivers sends to the stream that asked, and reports audit records, dropped
// outputs and storage errors to hooks. It counts the dashboard figures (`figures()`) and, with
// OpenTelemetry present, traces each task and reports the figures as metrics (telemetry.js).
// Adapters turn SDK or platform calls into its calls and keep no task state of their own.
//
// The CommonJS twin runtime.cjs is generated from this file by scripts/package-table.mjs.
import { drainOutputs } from '../core/engine.js';
import { PROTOCOL } from '../core/protocol.js';
import { telemetryOf } from './telemetry.js';

const { missingCapability: MISSING_CAPABILITY, invalidParams: INVALID_PARAMS } = PROTOCOL.errors;
const CLIENT_CAPABILITIES_META = PROTOCOL.meta.clientCapabilities;

/** Engine error codes of an outcome that lost a race (the task ended meanwhile): not a fault. */
const SETTLED_CODES = ['task_cancelled', 'unknown_task', 'already_terminal'];

/** The `reason` of a storage error (the StorageLoop's and the adapters' errors carry one). */
const STORAGE_REASONS = ['storage_unavailable', 'storage_conflict', 'damaged_record'];

const TERMINAL = ['completed', 'failed', 'cancelled'];

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

/**
 * The running work of a task: its AbortController and pending input requests, each made on
 * first use (a WasmTaskStore tracks every task it creates, and most never need them).
 */
class Work {
  #controller = null;
  #inputs = null;
  /** Why the work was stopped before its controller was made. */
  #stopped = null;
  /** A WasmTaskStore's task in `input_required` (its input travels through the SDK's queue). */
  awaiting = false;
  /**
   * Work the host runs and reports through its own calls (`began`/`moved`: the SDK 1.x store):
   * it holds no engine of its own, so an engine swap does not disturb it.
   */
  hosted = false;

  constructor(context) {
    this.context = context;
  }

  get controller() {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#stopped !== null) this.#controller.abort(this.#stopped);
    }
    return this.#controller;
  }

  /** Input requests of the work waiting for their answer: rawId -> { resolve, reject }. */
  get inputs() {
    return (this.#inputs ??= new Map());
  }

  /** Whether the work waits for an answer to an input request. */
  get waiting() {
    return this.awaiting || (this.#inputs !== null && this.#inputs.size > 0);
  }

  /** Aborts the work's signal with `error`. */
  stop(error) {
    if (this.#controller !== null) this.#controller.abort(error);
    else this.#stopped ??= error;
  }
}

class TaskRuntime {
  /**
   * @param {object} engine a TextTaskEngine
   * @param {{ loop?: object | null, clock?: (() => number) | null, timer?: boolean,
   *           schedule?: Function, onPersist?: Function, rpcError?: Function,
   *           onError?: Function, onAudit?: Function, onStorageError?: Function,
   *           onOutput?: Function, telemetry?: object | false,
   *           recycler?: object | null }} [options]
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
   *   `telemetry`: OpenTelemetry (see telemetry.js; default: `@opentelemetry/api` if installed).
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
    this.#telemetry = telemetryOf(options.telemetry);
    this.#unwatch = this.#telemetry === null ? noop : this.#telemetry.watch(() => this.figures());
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
  #telemetry;
  #unwatch;
  /** Counters since start, for figures(). */
  #expirations = 0;
  #storageErrors = 0;
  /** Where each launching request came from, for its trace: rawId -> origin (see launching). */
  #origins = new Map();
  /** Running work: taskId -> Work. */
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
    return this.loop
      .run(this.engine, plan, fn)
      .catch((err) => {
        if (STORAGE_REASONS.includes(err?.reason)) this.#storageErrors++;
        throw err;
      })
      .finally(() => this.arm());
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
   * written. `origin`: what the adapter knows of the request for its trace: `{ requestId,
   * headers }` (the client's id, the HTTP request's headers).
   */
  async launching(rawId, context, launch, create, origin) {
    let queued = null;
    this.#launches.set(rawId, launch);
    if (this.#telemetry !== null) this.#origins.set(rawId, { ...origin, startTime: Date.now() });
    if (this.loop !== null) this.#streams.set(rawId, { context, deliver: (message) => (queued = message ?? queued) });
    try {
      return (await this.op({ write: true }, create)) ?? queued;
    } finally {
      this.#launches.delete(rawId);
      this.#streams.delete(rawId);
      this.#origins.delete(rawId);
    }
  }

  /** Whether the runtime traces (an adapter then gives it each request's `origin`). */
  get tracing() {
    return this.#telemetry !== null;
  }

  /** `origin` of the request the engine knows as `rawId`, for the task it may create (see launching). */
  from(rawId, origin) {
    if (this.#telemetry === null) return noop;
    this.#origins.set(rawId, { ...origin, startTime: Date.now() });
    return () => this.#origins.delete(rawId);
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
      entry = new Work(context);
      this.#work.set(taskId, entry);
    }
    return entry;
  }

  /**
   * A task created by a host call (not by a request the runtime routed, e.g. WasmTaskStore's
   * createTask) whose work runs here: tracked until `moved` ends it. `request`: the request that
   * created it (its `params._meta` carries the trace context).
   */
  began(taskId, context, request, origin) {
    this.track(taskId, context).hosted = true;
    this.#telemetry?.begin(taskId, request, context, origin);
  }

  /**
   * A host call moved a task to `status` (see `began`): `input_required` opens an input round
   * trip, `working` closes it, a terminal status ends the work (`errorType` of a failure, as in
   * `finish`).
   */
  moved(taskId, status, errorType) {
    const entry = this.#work.get(taskId);
    if (TERMINAL.includes(status)) {
      if (entry !== undefined) this.#work.delete(taskId);
      this.#telemetry?.end(taskId, status, errorType);
      return;
    }
    if (entry === undefined || entry.awaiting === (status === 'input_required')) return;
    entry.awaiting = status === 'input_required';
    if (entry.awaiting) this.#telemetry?.asked(taskId, 'input_required');
    else this.#telemetry?.answered(taskId, 'input_required');
  }

  /**
   * The work of `taskId` reported its outcome outside `finish` (the Durable Object's
   * `complete`/`fail`): `task` is the engine's answer (the task, as JSON text or an object).
   */
  ended(taskId, task, errorType) {
    if (this.#telemetry === null) return;
    const status = (typeof task === 'string' ? JSON.parse(task) : task)?.status;
    if (TERMINAL.includes(status)) this.#telemetry.end(taskId, status, errorType);
  }

  /**
   * The figures a dashboard shows: the live tasks the engine holds by status, the work running
   * here and how much of it waits for input, and since start the expirations, lease failures
   * (the tasks this engine failed because their worker's lease ran out) and storage errors.
   */
  figures() {
    const count = (which) => this.engine.figure(which);
    let running = 0;
    let inputWaiting = 0;
    for (const entry of this.#work.values()) {
      running++;
      if (entry.waiting) inputWaiting++;
    }
    return {
      tasks: { working: count(0), input_required: count(1), completed: count(2), failed: count(3), cancelled: count(4) },
      running,
      inputWaiting,
      expirations: this.#expirations,
      leaseFailures: count(5),
      storageErrors: this.#storageErrors,
    };
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
      if (asked !== undefined) this.#telemetry?.answered(taskId, asked);
      asked = rawId;
      entry.inputs.set(rawId, pending);
      this.#telemetry?.asked(taskId, rawId, method, rawId);
    };
    try {
      return Promise.resolve(this.op({ taskId, write: true }, ask)).then(() => answer);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Operator: a task's pending input, answered as its client would answer it

  /**
   * The input requests a task waits on, from its stored record: `[{ requestId, method, params }]`
   * (`requestId`: the request's raw JSON id), or null when no live task has this ID. A promise.
   */
  pendingInput(taskId) {
    return this.#opAsync({ taskId }, (engine) => {
      const record = engine.exportTask(taskId);
      if (record === null || record === undefined) return null;
      const { inputs = [] } = JSON.parse(record);
      return inputs.map(({ id, request }) => ({ requestId: id, method: request.method, params: request.params ?? {} }));
    });
  }

  /**
   * Answers input request `requestId` (its raw JSON id) of a task with `result`: the engine gets
   * the message the task's client would send (2026-07-28: `tasks/update` with `inputResponses`;
   * 2025-11-25: the JSON-RPC response), in the task's context, so the waiting work resumes as
   * for a client's answer. Rejects when the task does not wait on that request. A promise.
   */
  answerInput(taskId, requestId, result) {
    return this.#opAsync({ taskId, write: true }, (engine) => {
      const record = engine.exportTask(taskId);
      if (record === null || record === undefined) throw this.#rpcError(INVALID_PARAMS, `No task ${taskId}`);
      const { context = null, dialect, inputs = [] } = JSON.parse(record);
      if (!inputs.some((input) => input.id === requestId)) throw this.#rpcError(INVALID_PARAMS, `Task ${taskId} does not wait on input request ${requestId}`);
      const id = JSON.parse(requestId);
      const message =
        dialect === PROTOCOL.versions.legacy
          ? { jsonrpc: '2.0', id, result }
          : {
              jsonrpc: '2.0',
              id: `mcp-task-core/operator:${requestId}`,
              method: 'tasks/update',
              // As the client that speaks the extension sends it (the engine names the extension).
              params: { taskId, inputResponses: { [String(id)]: result }, _meta: { [CLIENT_CAPABILITIES_META]: { extensions: structuredClone(PROTOCOL.extensionCapability) } } },
            };
      const reply = engine.handle(JSON.stringify(message), context, { dialect });
      const error = reply === null || reply === undefined ? undefined : JSON.parse(reply).error;
      if (error !== undefined) throw this.#rpcError(error.code, error.message, error.data);
    });
  }

  /** `op` as a promise, in memory too. */
  #opAsync(plan, fn) {
    try {
      return Promise.resolve(this.op(plan, fn));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * Reports an outcome; a task that was cancelled or expired meanwhile keeps its state. With
   * storage, tried again while the storage is unavailable: an outcome is never dropped.
   */
  finish(taskId, report, errorType) {
    const entry = this.#work.get(taskId);
    const settle = () => entry !== undefined && this.#settle(taskId, entry);
    if (this.loop === null) {
      try {
        this.ended(taskId, report(this.engine), errorType);
      } catch (err) {
        this.#fault(err);
      }
      settle();
      this.drain();
      return undefined;
    }
    const attempt = (n) =>
      this.op({ taskId, write: true }, report).then((task) => {
        settle();
        this.ended(taskId, task, errorType);
      }, (err) => {
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
      entry.stop(abortError(reason));
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
      entry.stop(abortError('cancelled'));
      this.#work.delete(taskId);
    }
    this.#unwatch();
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
    const busy = () => {
      if (this.#launches.size > 0 || this.#streams.size > 0 || this.engine.pendingOutputs > 0) return true;
      for (const work of this.#work.values()) if (!work.hosted) return true;
      return false;
    };
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
        const request = JSON.parse(out.request);
        const rawId = JSON.stringify(request.id);
        this.#telemetry?.begin(out.taskId, request, out.context, this.#origins.get(rawId));
        const launch = this.#launches.get(rawId);
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
        if (out.kind === 'expired') this.#expirations++;
        this.#telemetry?.end(out.taskId, out.kind);
        this.#onOutput(out);
        break;
      }
      case 'inputResponse': {
        const inputs = this.#work.get(out.taskId)?.inputs;
        const pending = inputs?.get(out.requestId);
        if (pending !== undefined) {
          inputs.delete(out.requestId);
          const response = JSON.parse(out.response);
          this.#telemetry?.answered(out.taskId, out.requestId, response.error);
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
          this.#storageErrors++;
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
