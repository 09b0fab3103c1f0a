// What each entry point does to the wasm-bindgen classes it exports: the hot methods that answer
// their errors, the guard against use after free(), and a browser build's init() and its
// "loaded yet?" check.
import { codedError } from './errors.js';

/**
 * `TextTaskEngine.handle`: the export answers its error in a one-element array instead of
 * throwing it, which keeps it to one return value (no return slot in wasm memory per message).
 * @this {{ __handleOrFault(message: unknown, context: unknown, inbound: unknown): string | null | [unknown] }}
 * @param {string} message
 * @param {string | null} [context]
 * @param {unknown} [inbound]
 */
function handle(message, context, inbound) {
  const answer = this.__handleOrFault(message, context, inbound);
  if (typeof answer === 'object' && answer !== null) throw answer[0];
  return answer;
}

/**
 * `TextTaskEngine.complete`, as `handle` above.
 * @this {{ __completeOrFault(taskId: unknown, resultJson: unknown): string | [unknown] }}
 * @param {string} taskId
 * @param {string} resultJson
 */
function complete(taskId, resultJson) {
  const answer = this.__completeOrFault(taskId, resultJson);
  if (typeof answer === 'object') throw answer[0];
  return answer;
}

/**
 * Adds the hot methods whose exports answer their errors (`handle`, `complete`) to a generated
 * class, then makes every method (TextTaskEngine, TaskRequestor) throw a clear error once
 * `free()` was called, instead of the bindings' "null pointer passed to rust". Called once per
 * class by each entry point.
 *
 * A freed object is moved onto a prototype whose methods and getters all throw `freed`; a live
 * object keeps the generated methods as they are. (Wrapping each method instead put one shared
 * wrapper in front of every call: V8 keeps one set of type feedback for all closures made at one
 * site, so that call site saw every method and inlined none of them.)
 * @param {Function} cls
 */
export function guardFreed(cls) {
  const proto = cls.prototype;
  if (proto.__mcpGuarded) return;
  for (const [name, method, raw] of /** @type {const} */ ([['handle', handle, '__handleOrFault'], ['complete', complete, '__completeOrFault']])) {
    if (typeof proto[raw] === 'function') Object.defineProperty(proto, name, { value: method, writable: true, configurable: true });
  }
  const freed = () => codedError('freed', `This ${cls.name} was freed (free() was called): create a new one`);
  const freedProto = Object.create(proto);
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor' || key === '__destroy_into_raw') continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (typeof d.value === 'function') {
      const thrower = function () {
        throw freed();
      };
      Object.defineProperty(thrower, 'name', { value: key });
      Object.defineProperty(freedProto, key, { value: thrower, writable: true, configurable: true });
    } else if (typeof d.get === 'function') {
      Object.defineProperty(freedProto, key, {
        get() {
          throw freed();
        },
        configurable: true,
      });
    }
  }
  if (typeof Symbol.dispose === 'symbol' && typeof proto[Symbol.dispose] === 'function') {
    Object.defineProperty(freedProto, Symbol.dispose, { value: freedProto.free, writable: true, configurable: true });
  }
  // free(), its Symbol.dispose alias and __destroy_into_raw (ownership moved into Rust) each
  // leave the pointer at 0: the object then takes the freed prototype (where free() throws too).
  const keys = ['free', '__destroy_into_raw', ...(typeof Symbol.dispose === 'symbol' ? [Symbol.dispose] : [])];
  for (const key of keys) {
    const f = proto[key];
    if (typeof f !== 'function') continue;
    const settle = function () {
      const result = f.apply(this, arguments);
      if (this.__wbg_ptr === 0 && Object.getPrototypeOf(this) !== freedProto) Object.setPrototypeOf(this, freedProto);
      return result;
    };
    Object.defineProperty(settle, 'name', { value: typeof key === 'symbol' ? '[Symbol.dispose]' : key });
    Object.defineProperty(proto, key, { value: settle, writable: true, configurable: true });
  }
  Object.defineProperty(proto, '__mcpGuarded', { value: true });
}

/**
 * `freshInstance()` of a receiver entry over its glue's `freshBindings()`: a new wasm instance's
 * TextTaskEngine class (guarded as the entry's own) and its linear memory.
 * @param {() => { TextTaskEngine: Function, memory: WebAssembly.Memory }} freshBindings
 */
export function freshInstances(freshBindings) {
  return () => {
    const { TextTaskEngine, memory } = freshBindings();
    guardFreed(TextTaskEngine);
    return { TextTaskEngine, memory };
  };
}

/** The error for a browser build used before `await init()`. */
export function notInitialized(what) {
  return codedError('not_initialized', `${what}: the WebAssembly module is not loaded yet. Call \`await init()\` (exported by mcp-task-core) once before using the package in a browser.`);
}

/**
 * A browser entry's `init()` and its "loaded yet?" check. `init(input)` loads and instantiates
 * the wasm once (later calls return the same promise; a failed load may be tried again);
 * `assertLoaded(what)` throws `not_initialized` until it has, instead of the bindings'
 * "Cannot read properties of undefined".
 * @param {(input?: { module_or_path: unknown }) => Promise<unknown>} initWasm wasm-bindgen's `web` init
 */
export function wasmLoader(initWasm) {
  /** @type {Promise<void> | undefined} */
  let ready;
  let loaded = false;
  return {
    /** @param {string} what */
    assertLoaded(what) {
      if (!loaded) throw notInitialized(what);
    },
    /** @param {unknown} [input] a URL or path, a Response, the module bytes or a WebAssembly.Module */
    init(input) {
      if (!ready) {
        ready = initWasm(input === undefined ? undefined : { module_or_path: input }).then(
          () => {
            loaded = true;
          },
          (err) => {
            ready = undefined;
            throw err;
          },
        );
      }
      return ready;
    },
  };
}
