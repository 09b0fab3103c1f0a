// Object-taking conveniences on top of TaskEngine, shared by every entry point.
// The engine itself takes and returns JSON text (the hot path stays strings); these
// helpers only stringify and parse around it. No imports: scripts/build-pkg.sh turns
// this file into extras.cjs for the CommonJS entry.

/**
 * `engine.handle` with objects: `message` may be a JSON-RPC object (it is stringified) or
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
 * Drains `engine.pollOutput()` until it is empty and returns the outputs in order.
 * Messages stay JSON text (`output.message`, `output.request`, `output.response`);
 * parse the ones you need.
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
