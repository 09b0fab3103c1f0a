// Engine recycling (internal, used by the receiver runtime): a wasm instance's linear memory
// grows for a burst of tasks and never shrinks, so a process holds its peak long after the
// burst expired. An engine that recycles lives in a wasm instance of its own; once its memory is
// large and its live tasks take a small part of it, its tasks move (a snapshot, with their list
// places; every engine made here has one cursor key) into an engine of a fresh instance, and the
// old instance is dropped, memory and all.
//
// The CommonJS twin recycle.cjs is generated from this file by scripts/build-pkg.sh.

const MIB = 1024 * 1024;

/** A random cursor key (32 hex digits). */
function randomKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The defaults of the `recycle` option. */
const RECYCLE_DEFAULTS = Object.freeze({ minBytes: 16 * MIB, ratio: 4 });

/**
 * The `recycle` option of an adapter, checked: `false` (never), `true` or `undefined` (the
 * defaults), or `{ minBytes?, ratio? }`. Returns null for never.
 * @param {unknown} value
 * @param {string} name  the option's name as the caller wrote it
 * @returns {{ minBytes: number, ratio: number } | null}
 */
function recycleOptions(value, name) {
  if (value === false) return null;
  if (value === undefined || value === true) return { ...RECYCLE_DEFAULTS };
  if (value === null || typeof value !== 'object') throw new TypeError(`${name} must be false, true or { minBytes, ratio }`);
  const out = { ...RECYCLE_DEFAULTS };
  for (const [key, v] of Object.entries(value)) {
    if (!(key in out)) throw new TypeError(`${name}.${key} is not an option (known: minBytes, ratio)`);
    if (v === undefined) continue;
    if (typeof v !== 'number' || !(v >= (key === 'ratio' ? 1 : 0)) || v === Infinity) {
      throw new TypeError(`${name}.${key} must be a finite number${key === 'ratio' ? ' of at least 1' : ' of bytes'}`);
    }
    out[key] = v;
  }
  return out;
}

/**
 * Makes the engines of one adapter, each in a wasm instance of its own, and moves the tasks into
 * a fresh one when it is worth it.
 */
class EngineRecycler {
  #instance;
  #create;
  #minBytes;
  #ratio;
  /** The key of every engine made here, so each accepts the cursors of the one before. */
  #cursorKey;
  /** @type {WebAssembly.Memory | null} the current engine's memory */
  #memory = null;
  /**
   * The memory of the instance dropped last, held weakly: it goes at the next major GC. While it
   * is there, only an engine with no tasks left is moved, so bursts that keep coming do not pile
   * up dropped instances (each as large as the peak) faster than the GC takes them.
   * @type {WeakRef<WebAssembly.Memory> | null}
   */
  #dropped = null;
  /** The most tasks the current engine held, as seen after each expiry (its memory grew for them). */
  #peak = 0;

  /**
   * @param {{ instance: () => { TextTaskEngine: any, memory: WebAssembly.Memory },
   *           create: (TextTaskEngine: any, cursorKey: string) => any,
   *           minBytes: number, ratio: number, cursorKey?: string }} options
   *   `instance`: the receiver entry's `freshInstance`; `create(TextTaskEngine, cursorKey)`: an
   *   engine of that class set up as the adapter sets up its own (options, tools), with that
   *   cursor key; `minBytes`, `ratio`: see `next`; `cursorKey`: the adapter's own (default random).
   */
  constructor({ instance, create, minBytes, ratio, cursorKey }) {
    this.#cursorKey = cursorKey ?? randomKey();
    this.#instance = instance;
    this.#create = create;
    this.#minBytes = minBytes;
    this.#ratio = ratio;
  }

  /** The first engine, in an instance of its own (so the memory it grows goes with it). */
  first() {
    const { TextTaskEngine, memory } = this.#instance();
    const engine = this.#create(TextTaskEngine, this.#cursorKey);
    this.#memory = memory;
    return engine;
  }

  /** The linear memory of the current engine's instance. */
  get memory() {
    return this.#memory;
  }

  /**
   * After an expiry of `expired` tasks: `engine`'s tasks in an engine of a fresh instance
   * (`engine` is freed), or null when that is not worth it or not safe. Worth it: the memory is
   * at least `minBytes` and the engine holds at most a `ratio`th of the most tasks it held (no
   * snapshot is taken to judge: a snapshot of a large live set would itself grow the memory).
   * Safe: nothing in flight (`busy()`: outputs, work, streams, which the caller knows; asked only
   * once the move is worth it, since it may look at every running task), no queued
   * message (a snapshot does not carry it), and, while the instance dropped before is not
   * collected yet, no task left.
   * @param {any} engine
   * @param {{ expired: number, busy: () => boolean }} state
   */
  next(engine, { expired, busy }) {
    const tasks = engine.taskCount;
    this.#peak = Math.max(this.#peak, tasks + expired);
    if (this.#memory.buffer.byteLength < this.#minBytes || tasks * this.#ratio > this.#peak || busy()) return null;
    if (engine.queuedMessageCount(null) > 0 || (tasks > 0 && this.#dropped?.deref() !== undefined)) return null;
    const snapshot = engine.snapshot();
    const { TextTaskEngine, memory } = this.#instance();
    const fresh = this.#create(TextTaskEngine, this.#cursorKey);
    try {
      fresh.restoreSnapshot(snapshot);
    } catch (err) {
      fresh.free();
      throw err;
    }
    engine.free();
    if (typeof WeakRef === 'function') this.#dropped = new WeakRef(this.#memory);
    this.#memory = memory;
    this.#peak = tasks;
    return fresh;
  }
}

export { EngineRecycler, recycleOptions };
