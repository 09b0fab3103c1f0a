// TaskEngine: the engine with plain JS values in and out, over the wasm-built TextTaskEngine
// (JSON text in and out). Only JSON.stringify on the way in and JSON.parse on the way out:
// every rule stays in the core. Each entry point passes its own TextTaskEngine to
// objectTaskEngine(); scripts/build-pkg.sh turns this file into engine.cjs.
import { codedError } from './extras.js';

/** JSON text of a JS value; a value JSON cannot hold is an `invalid_argument` TypeError. */
function toJson(value, name) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw invalidArgument(`${name} cannot be written as JSON: ${err.message}`);
  }
  if (typeof text !== 'string') throw invalidArgument(`${name} must be a JSON value, got ${typeof value}`);
  return text;
}

/** A message: an object is stringified; a string is JSON text as received (so bad JSON gets the spec's parse error). */
function messageText(message, name) {
  return typeof message === 'string' ? message : toJson(message, name);
}

/** `undefined` and `null` stay `null`; anything else becomes its JSON text. */
function optionalJson(value, name) {
  return value == null ? null : toJson(value, name);
}

const parseOrNull = (text) => (text == null ? null : JSON.parse(text));

/** A TaskOutcome (`{ kind: 'result', result }` or `{ kind: 'error', error }`) as the TextTaskOutcome the text engine takes. */
function outcomeText(outcome) {
  if (outcome.kind === 'result') return { kind: 'result', json: toJson(outcome.result, 'outcome.result') };
  if (outcome.kind === 'error') return { kind: 'error', json: toJson(outcome.error, 'outcome.error') };
  return outcome; // the text engine names what is wrong
}

function invalidArgument(message) {
  const err = new TypeError(message);
  err.code = 'invalid_argument';
  return err;
}

/**
 * The `TaskEngine` class over one wasm build's `TextTaskEngine`.
 * @param {any} Text  the TextTaskEngine class of the entry point's wasm bindings
 */
export function objectTaskEngine(Text) {
  // Read on first use: a browser build has no wasm before `await init()`.
  let shapes;
  /** Parses the JSON-text fields of an output in place and keeps the exact text (see outputShapes). */
  function toObject(output) {
    shapes ??= Text.outputShapes();
    const shape = shapes[output.kind];
    if (shape === undefined || shape.json.length === 0) return output;
    if (shape.text !== null) output.text = output[shape.text];
    for (const field of shape.json) output[field] = parseOrNull(output[field]);
    return output;
  }

  class TaskEngine {
    #text;
    #freed = false;

    constructor(options) {
      this.#text = new Text(options);
    }

    /** The TextTaskEngine underneath (same tasks and outputs), for calls that need exact text. */
    get textEngine() {
      return this.#live();
    }

    #live() {
      if (this.#freed) throw codedError('freed', 'This TaskEngine was freed (free() was called): create a new one');
      return this.#text;
    }

    static extensionCapability() {
      return JSON.parse(Text.extensionCapabilityJson());
    }

    handle(message, context, inbound) {
      return parseOrNull(this.#live().handle(messageText(message, 'message'), context, inbound));
    }

    startTask(request, context, inbound) {
      return JSON.parse(this.#live().startTask(messageText(request, 'request'), context, inbound));
    }

    listenTasks(request, context) {
      const answer = this.#live().listenTasks(messageText(request, 'request'), context);
      return answer.error === undefined ? answer : { error: JSON.parse(answer.error), text: answer.error };
    }

    unlistenTasks(subscriptionId, context) {
      return this.#live().unlistenTasks(toJson(subscriptionId, 'subscriptionId'), context);
    }

    restore(record) {
      this.#live().restore(record);
    }

    restoreStored(taskId, record, version) {
      return this.#live().restoreStored(taskId, record, version);
    }

    restoreSnapshot(snapshot) {
      return this.#live().restoreSnapshot(snapshot);
    }

    snapshot() {
      return this.#live().snapshot();
    }

    exportTask(taskId) {
      return this.#live().exportTask(taskId);
    }

    forgetTask(taskId) {
      return this.#live().forgetTask(taskId);
    }

    pollOutput() {
      const output = this.#live().pollOutput();
      return output === null ? null : toObject(output);
    }

    get pendingOutputs() {
      return this.#live().pendingOutputs;
    }

    nextDeadline() {
      return this.#live().nextDeadline();
    }

    handleTimeout() {
      this.#live().handleTimeout();
    }

    capabilities(context) {
      return JSON.parse(this.#live().capabilitiesJson(context));
    }

    registerTool(name, taskSupport) {
      this.#live().registerTool(name, taskSupport);
    }

    complete(taskId, result) {
      return JSON.parse(this.#live().complete(taskId, toJson(result, 'result')));
    }

    fail(taskId, error) {
      return JSON.parse(this.#live().fail(taskId, toJson(error, 'error')));
    }

    requestInput(taskId, method, params) {
      return JSON.parse(this.#live().requestInput(taskId, method, optionalJson(params, 'params')));
    }

    resume(taskId) {
      return JSON.parse(this.#live().resume(taskId));
    }

    setStatusMessage(taskId, message) {
      return JSON.parse(this.#live().setStatusMessage(taskId, message));
    }

    reportProgress(taskId, progress, total, message) {
      return this.#live().reportProgress(taskId, progress, total, message);
    }

    cancel(taskId, message) {
      return JSON.parse(this.#live().cancel(taskId, message));
    }

    taskContext(taskId) {
      return this.#live().taskContext(taskId);
    }

    createTask(context, method, ttl, progressToken, pollIntervalMs) {
      const token = optionalJson(progressToken, 'progressToken');
      return JSON.parse(this.#live().createTask(context, method, ttl, token, pollIntervalMs));
    }

    getTask(taskId, context) {
      return parseOrNull(this.#live().getTask(taskId, context));
    }

    listTasks(context, cursor) {
      return JSON.parse(this.#live().listTasks(context, cursor));
    }

    cancelTask(taskId, context, message) {
      return JSON.parse(this.#live().cancelTask(taskId, context, message));
    }

    updateTaskStatus(taskId, context, status, message) {
      this.#live().updateTaskStatus(taskId, context, status, message);
    }

    storeTaskResult(taskId, context, status, outcome) {
      const text = outcome === null || typeof outcome !== 'object' ? outcome : outcomeText(outcome);
      this.#live().storeTaskResult(taskId, context, status, text);
    }

    getTaskResult(taskId, context) {
      const outcome = this.#live().getTaskResult(taskId, context);
      return outcome.kind === 'result'
        ? { kind: 'result', result: JSON.parse(outcome.json), text: outcome.json }
        : { kind: 'error', error: JSON.parse(outcome.json), text: outcome.json };
    }

    get taskCount() {
      return this.#live().taskCount;
    }

    free() {
      if (this.#freed) return;
      this.#freed = true;
      this.#text.free();
    }
  }
  if (typeof Symbol.dispose === 'symbol') {
    Object.defineProperty(TaskEngine.prototype, Symbol.dispose, { value: TaskEngine.prototype.free, writable: true, configurable: true });
  }
  return TaskEngine;
}

/**
 * A browser entry's engine exports over its wasm bindings (`raw`): used before `await init()`,
 * each throws `not_initialized` (see wasmLoader) instead of the bindings' "Cannot read
 * properties of undefined".
 * @param {any} raw  the entry point's wasm bindings (wasm-bindgen `web` target)
 * @param {{ assertLoaded(what: string): void }} loader
 */
export function browserEngine(raw, loader) {
  class TextTaskEngine extends raw.TextTaskEngine {
    constructor(options) {
      loader.assertLoaded('new TextTaskEngine()');
      super(options);
    }
  }
  /** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
  class TaskEngine extends objectTaskEngine(TextTaskEngine) {
    constructor(options) {
      loader.assertLoaded('new TaskEngine()');
      super(options);
    }
  }
  /** @param {((bytes: Uint8Array) => void) | undefined} fill */
  function setRandomSource(fill) {
    loader.assertLoaded('setRandomSource()');
    raw.setRandomSource(fill);
  }
  return { TextTaskEngine, TaskEngine, setRandomSource };
}
