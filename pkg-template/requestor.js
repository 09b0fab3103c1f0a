// Object mode of the requestor: `TaskRequestor` takes and returns plain JS values (messages,
// tasks, ids, progress tokens) over the wasm `TextTaskRequestor`, which speaks JSON text.
// JSON.parse / JSON.stringify only: every protocol rule (statuses, polling, retries, both
// dialects) lives in the Rust requestor. `TaskClient` (task-client.js) runs one over an
// official MCP SDK transport.
import { taskClientClass } from './task-client.js';

/** Output fields that hold JSON text in text mode (parsed here when present). */
const JSON_FIELDS = ['callId', 'requestId', 'task', 'request', 'notification', 'response', 'error', 'tasks'];
/** Outputs whose message or response may be replayed byte for byte: they keep the text. */
const KEEPS_RESPONSE_TEXT = new Set(['plainResponse', 'callRefused', 'finished']);

function parseOrNull(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A text-mode output as plain JS values (see TaskRequestorOutput in requestor.d.ts). */
export function objectOutput(out) {
  const o = { ...out };
  for (const key of JSON_FIELDS) if (typeof out[key] === 'string') o[key] = JSON.parse(out[key]);
  if (typeof out.message === 'string') {
    // A forwarded message may be anything the receiver sent, even text that is not JSON.
    o.message = out.kind === 'forward' ? parseOrNull(out.message) : JSON.parse(out.message);
    o.text = out.message;
  } else if (KEEPS_RESPONSE_TEXT.has(out.kind)) {
    o.text = out.response;
  }
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
  class TaskRequestor {
    #text;

    constructor(options) {
      this.#text = new TextTaskRequestor(options);
    }

    call(method, params, options = {}) {
      const { task, progressToken, ...rest } = options ?? {};
      const unknown = Object.keys(rest);
      if (unknown.length > 0) {
        const error = new TypeError(`call() options.${unknown[0]} is not an option (known here: task, progressToken)`);
        error.code = 'invalid_argument';
        throw error;
      }
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
      return out === null ? null : objectOutput(out);
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
