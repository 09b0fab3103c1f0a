// Object mode of the requestor: `TaskRequestor` takes and returns plain JS values (messages,
// tasks, ids, progress tokens) over the wasm `TextTaskRequestor`, which speaks JSON text.
// JSON.parse / JSON.stringify only: every protocol rule (statuses, polling, retries, both
// dialects) lives in the Rust requestor. `TaskClient` (task-client.js) runs one over an
// official MCP SDK transport.
import { refuseUnknownOptions } from '../core/errors.js';
import { taskClientClass } from './task-client.js';

/** `null` for `null`, and for text that is not JSON (a forwarded message may be anything the receiver sent). */
function parseOrNull(text) {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A text-mode output as plain JS values (see TaskRequestorOutput in requestor.d.ts): the JSON
 * fields the Rust outputs table names (`TextTaskRequestor.outputShapes()`) parsed, and the exact
 * text of the one it names kept as `text`.
 */
export function objectOutput(out, shapes) {
  const shape = shapes[out.kind];
  if (shape === undefined) return out;
  const o = { ...out };
  if (shape.text !== null) o.text = out[shape.text];
  for (const field of shape.json) o[field] = parseOrNull(out[field]);
  return o;
}

/** `{ task }` of `call()` as the text API's third argument: undefined (plain), null (no ttl) or the ttl. */
function textTaskArgument(task) {
  if (task === undefined || task === false) return undefined;
  if (task === true) return null;
  if (task !== null && typeof task === 'object') return task.ttl ?? null;
  const error = new TypeError('options.task must be true, false or { ttl?: number } (the ttl in ms)');
  error.code = 'invalid_argument';
  throw error;
}

const idText = (id) => JSON.stringify(id) ?? id;
const jsonText = (value) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * The requestor classes of one wasm instance: `TaskRequestor` (object mode) and `TaskClient`
 * over the given `TextTaskRequestor`. Each entry point calls this once.
 */
export function requestorClasses(TextTaskRequestor) {
  // Read on first use: a browser build has no wasm before `await init()`.
  let shapes;
  class TaskRequestor {
    #text;

    constructor(options) {
      this.#text = new TextTaskRequestor(options);
    }

    call(method, params, options = {}) {
      const { task, progressToken } = options ?? {};
      refuseUnknownOptions(options ?? {}, ['task', 'progressToken'], 'call() options.', 'invalid_argument');
      const callId = this.#text.call(method, jsonText(params), textTaskArgument(task), jsonText(progressToken));
      return JSON.parse(callId);
    }

    handle(message) {
      this.#text.handle(typeof message === 'string' ? message : JSON.stringify(message));
    }

    respond(requestId, result) {
      this.#text.respond(idText(requestId), JSON.stringify(result) ?? result);
    }

    respondError(requestId, error) {
      this.#text.respondError(idText(requestId), JSON.stringify(error) ?? error);
    }

    cancel(taskId) {
      return JSON.parse(this.#text.cancel(taskId));
    }

    list() {
      return JSON.parse(this.#text.list());
    }

    useServerInfo(result) {
      return this.#text.useServerInfo(typeof result === 'string' ? result : JSON.stringify(result));
    }

    get dialect() {
      return this.#text.dialect;
    }

    requestFailed(requestId) {
      return this.#text.requestFailed(idText(requestId));
    }

    pollOutput() {
      const out = this.#text.pollOutput();
      shapes ??= TextTaskRequestor.outputShapes();
      return out === null ? null : objectOutput(out, shapes);
    }

    nextDeadline() {
      return this.#text.nextDeadline();
    }

    handleTimeout() {
      this.#text.handleTimeout();
    }

    task(taskId) {
      const task = this.#text.task(taskId);
      return task === null ? null : JSON.parse(task);
    }

    tracked() {
      return this.#text.tracked();
    }

    forget(taskId) {
      this.#text.forget(taskId);
    }

    exportState() {
      return JSON.parse(this.#text.exportState());
    }

    importState(state) {
      return this.#text.importState(typeof state === 'string' ? state : JSON.stringify(state));
    }

    free() {
      this.#text.free();
    }
  }
  if (typeof Symbol.dispose === 'symbol') {
    TaskRequestor.prototype[Symbol.dispose] = TaskRequestor.prototype.free;
  }
  return { TaskRequestor, TaskClient: taskClientClass(TaskRequestor) };
}

/**
 * The requestor part of a browser entry: `TextTaskRequestor` and `shouldAugment` that refuse to
 * run before `init()` (see core/bindings.js `wasmLoader`), and the object-mode classes over them.
 * @param {{ TextTaskRequestor: any, shouldAugment: Function }} raw the wasm-bindgen module
 * @param {{ assertLoaded(what: string): void }} loader
 */
export function browserRequestor(raw, loader) {
  class TextTaskRequestor extends raw.TextTaskRequestor {
    constructor(options) {
      loader.assertLoaded('new TaskRequestor() / new TextTaskRequestor()');
      super(options);
    }
  }
  function shouldAugment(capabilitiesJson, method, taskSupport, preferTask) {
    loader.assertLoaded('shouldAugment()');
    return raw.shouldAugment(capabilitiesJson, method, taskSupport, preferTask);
  }
  return { TextTaskRequestor, shouldAugment, ...requestorClasses(TextTaskRequestor) };
}
