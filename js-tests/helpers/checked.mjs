// A TextTaskEngine wrapper for Node tests: every message the engine emits (replies of `handle`
// and 'send' outputs of `pollOutput`) is validated against the MCP schema as it appears.
//
//   const e = new CheckedEngine(mod, { now: clock.now, tools: { slow: 'required' } });
//   const reply = e.request('tools/call', { name: 'slow', task: {} }, 'alice');  // parsed or null
//   const outs = e.drain();          // outputs; 'send' ones also carry `json` (parsed message)
import assert from 'node:assert/strict';
import { ExchangeValidator } from './schema.mjs';

export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** A settable clock for the `now` option. */
export function manualClock(start = Date.UTC(2025, 10, 25, 10, 30)) {
  const clock = {
    ms: start,
    now: () => clock.ms,
    advance: (ms) => (clock.ms += ms),
    set: (ms) => (clock.ms = ms),
  };
  return clock;
}

/** Sequential task IDs for the `newTaskId` option. */
export function sequentialIds(prefix = 'task-') {
  let n = 0;
  return () => `${prefix}${++n}`;
}

export class CheckedEngine {
  constructor(mod, options) {
    this.engine = new mod.TextTaskEngine(options);
    this.validator = new ExchangeValidator();
    this.nextId = 1;
  }

  /** Feeds raw text; validates and returns the parsed reply, or null. */
  handleText(text, context) {
    this.validator.incoming(text);
    const reply = this.engine.handle(text, context);
    if (reply === null) return null;
    return this.validator.outgoing(reply);
  }

  /** Feeds a message object. */
  handle(message, context) {
    return this.handleText(JSON.stringify(message), context);
  }

  /** Sends a request with a fresh numeric id (or `id`); returns the parsed reply or null. */
  request(method, params, context, id = this.nextId++) {
    return this.handle({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }, context);
  }

  /** The `result` of a request that must succeed at once. */
  result(method, params, context) {
    const reply = this.request(method, params, context);
    assert.ok(reply, `${method}: expected an immediate reply`);
    assert.ok('result' in reply, `${method}: expected a result, got ${JSON.stringify(reply)}`);
    return reply.result;
  }

  /** The `error` of a request that must fail at once. */
  error(method, params, context) {
    const reply = this.request(method, params, context);
    assert.ok(reply, `${method}: expected an immediate reply`);
    assert.ok('error' in reply, `${method}: expected an error, got ${JSON.stringify(reply)}`);
    return reply.error;
  }

  /** Drains every output; validates 'send' messages and adds `json` (the parsed message). */
  drain() {
    const outputs = [];
    for (let o = this.engine.pollOutput(); o !== null; o = this.engine.pollOutput()) {
      if (o.kind === 'send') o.json = this.validator.outgoing(o.message, { inReplyTo: o.inReplyTo });
      outputs.push(o);
    }
    assert.equal(this.engine.pendingOutputs, 0);
    return outputs;
  }

  /** Creates a task through a task-augmented tools/call; returns { task, execute }. */
  startTool(name, context, task = {}, extra = {}) {
    const created = this.result('tools/call', { name, arguments: {}, task, ...extra }, context);
    const outs = this.drain();
    const execute = outs.find((o) => o.kind === 'execute');
    assert.ok(execute, 'an execute output follows a CreateTaskResult');
    assert.equal(execute.taskId, created.task.taskId);
    return { task: created.task, execute, outputs: outs };
  }
}

/** Asserts `fn` throws an engine error with this code (and returns the error). */
export function assertEngineError(fn, code, { type = Error } = {}) {
  let thrown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  assert.ok(thrown, `expected an error with code ${code}`);
  assert.ok(thrown instanceof type, `expected a ${type.name}, got ${thrown?.constructor?.name}: ${thrown?.message}`);
  assert.notEqual(thrown.constructor.name, 'RuntimeError', `a wasm trap: ${thrown.message}`);
  assert.equal(thrown.code, code, `error code (message: ${thrown.message})`);
  assert.equal(typeof thrown.message, 'string');
  return thrown;
}

/**
 * Validates a transcript of helpers/scenario.mjs runLifecycle (from any runtime) against the
 * schema and asserts what it observed. Returns the validator (for its counts).
 */
export async function checkLifecycle({ transcript, facts }) {
  const { expectedFacts } = await import('./scenario.mjs');
  const validator = new ExchangeValidator().replay(transcript);
  const expected = expectedFacts();
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(facts[key], value, `lifecycle fact ${key}`);
  const taskId = facts.created.taskId;
  // execute carries the original request, untouched.
  assert.equal(facts.execute.taskId, taskId);
  assert.equal(facts.execute.method, 'tools/call');
  assert.equal(facts.execute.context, 'session-a');
  assert.equal(JSON.parse(facts.execute.request).params.arguments.city, 'New York');
  assert.equal(facts.get1.status, 'working');
  // The elicitation travels on the stream of the waiting tasks/result (id 3).
  assert.equal(facts.elicitation.inReplyTo, '3');
  assert.equal(facts.elicitation.context, 'session-a');
  assert.equal(facts.elicitation.message.method, 'elicitation/create');
  assert.equal(JSON.stringify(facts.elicitation.message.id), facts.inputRequestId);
  assert.deepEqual(facts.elicitation.message.params._meta[RELATED_TASK], { taskId });
  // The answer reaches the host.
  assert.equal(facts.inputResponse.taskId, taskId);
  assert.equal(facts.inputResponse.requestId, facts.inputRequestId);
  assert.deepEqual(facts.inputResponse.response.result, { action: 'accept', content: { units: 'F' } });
  // The deferred tasks/result gets the result with related-task _meta, on its own stream.
  assert.equal(facts.completedTask.status, 'completed');
  assert.equal(facts.deferredResult.inReplyTo, '3');
  assert.equal(facts.deferredResult.message.id, 3);
  assert.deepEqual(facts.deferredResult.message.result._meta[RELATED_TASK], { taskId });
  assert.equal(facts.deferredResult.message.result.content[0].text, 'New York: 72°F, partly cloudy');
  assert.deepEqual(facts.resultAgain.result, facts.deferredResult.message.result);
  assert.equal(facts.resultAgain.id, 4);
  assert.deepEqual(
    facts.list.tasks.map((t) => [t.taskId, t.status]),
    [[taskId, 'completed']],
  );
  assert.equal(facts.outcome.kind, 'result');
  assert.deepEqual(JSON.parse(facts.outcome.json).content, facts.deferredResult.message.result.content);
  // TTL expiry.
  assert.deepEqual(facts.afterTimeout, [{ kind: 'expired', taskId, context: 'session-a', wasTerminal: true }]);
  assert.equal(facts.getExpired.error.code, -32602);
  assert.match(facts.getExpired.error.message, /expired/);
  // Every kind of message was validated.
  for (const def of ['CreateTaskResult', 'GetTaskResult', 'TaskStatusNotification', 'ElicitRequest', 'GetTaskPayloadResult', 'CallToolResult', 'ListTasksResult', 'JSONRPCErrorResponse']) {
    assert.ok(validator.counts[def] > 0, `no ${def} was validated`);
  }
  return validator;
}
