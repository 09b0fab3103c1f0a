// Shared by every entry point: the free/init guards, and two conveniences for
// TextTaskEngine (TaskEngine itself takes and returns objects). No imports:
// scripts/build-pkg.sh turns this file into extras.cjs for the CommonJS entry.

/**
 * `TextTaskEngine.handle` with objects (TaskEngine's own `handle` does this): `message` may be a JSON-RPC object (it is stringified) or
 * JSON text; the reply is parsed. Returns `null` when there is no immediate reply
 * (a notification, a response, a forwarded request or a deferred `tasks/result`).
 * @param {{ handle(message: string, context?: string | null): string | null }} engine
 * @param {object | string} message
 * @param {string | null} [context]
 * @returns {object | null}
 */
export function handleObject(engine, message, context) {
  const text = typeof message === 'string' ? message : JSON.stringify(message);
  if (typeof text !== 'string') {
    throw new TypeError(`handleObject: message must be a JSON-RPC object or JSON text, got ${typeof message}`);
  }
  const reply = engine.handle(text, context);
  return reply == null ? null : JSON.parse(reply);
}

/**
 * Drains `engine.pollOutput()` until it is empty and returns the outputs in order (of a
 * TaskEngine: parsed; of a TextTaskEngine: messages stay JSON text).
 * @param {{ pollOutput(): object | null }} engine
 * @returns {object[]}
 */
export function drainOutputs(engine) {
  const outputs = [];
  for (let output = engine.pollOutput(); output != null; output = engine.pollOutput()) {
    outputs.push(output);
  }
  return outputs;
}

/** A `TaskEngineError`-shaped error: an `Error` with a `code`. */
export function codedError(code, message) {
  const err = new Error(message);
  err.code = code;
  return err;
}

/**
 * Makes every method of a generated class (TextTaskEngine, TaskRequestor) throw a clear error once
 * `free()` was called, instead of the bindings' "null pointer passed to rust". Called once per
 * class by each entry point.
 * @param {Function} cls
 */
export function guardFreed(cls) {
  const proto = cls.prototype;
  if (proto.__mcpGuarded) return;
  const freed = () => codedError('freed', `This ${cls.name} was freed (free() was called): create a new one`);
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor' || key === 'free' || key === '__destroy_into_raw') continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (typeof d.value === 'function') {
      const f = d.value;
      // Fixed arity (no rest arguments) where it fits: the hot path stays allocation-free.
      d.value =
        f.length <= 4
          ? function (a, b, c, e) {
              if (this.__wbg_ptr === 0) throw freed();
              return f.call(this, a, b, c, e);
            }
          : function (...args) {
              if (this.__wbg_ptr === 0) throw freed();
              return f.apply(this, args);
            };
      Object.defineProperty(d.value, 'name', { value: key });
    } else if (typeof d.get === 'function') {
      const g = d.get;
      d.get = function () {
        if (this.__wbg_ptr === 0) throw freed();
        return g.call(this);
      };
    } else continue;
    Object.defineProperty(proto, key, d);
  }
  Object.defineProperty(proto, '__mcpGuarded', { value: true });
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
