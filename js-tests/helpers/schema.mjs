// Validation of every message the engine emits against the official MCP 2025-11-25 JSON
// Schema (JSON Schema 2020-12, types under `$defs`).
//
// The schema is read from $MCP_SPEC_DIR/2025-11-25/schema.json, by default
// <repo>/tests/spec/2025-11-25/schema.json (verbatim copies of the official schemas, see
// tests/spec/README.md). A missing schema fails loudly.
//
//   const v = new ExchangeValidator();
//   v.incoming(text, context);            // every message given to engine.handle
//   v.outgoing(text, { inReplyTo });      // the reply, and every pollOutput 'send' message
//
// The validator infers the `$defs` type of each outgoing message from the exchange so far:
// the reply to `tasks/get` is a GetTaskResult, a deferred `tasks/result` answer is a
// GetTaskPayloadResult and (for a tools/call task) a CallToolResult, and so on.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './package.mjs';

export const SPEC_DIR = process.env.MCP_SPEC_DIR || path.join(REPO_ROOT, 'tests', 'spec');
export const SCHEMA_PATH = path.join(SPEC_DIR, '2025-11-25', 'schema.json');

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let compiled;

function loadAjv() {
  if (compiled) return compiled;
  if (!fs.existsSync(SCHEMA_PATH)) {
    throw new Error(
      `MCP schema not found at ${SCHEMA_PATH}. Set MCP_SPEC_DIR to the folder holding 2025-11-25/schema.json ` +
        '(default: <repo>/tests/spec). The tests validate every emitted message against it and cannot run without it.',
    );
  }
  const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8'));
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', 'expected a JSON Schema 2020-12 document');
  assert.ok(schema.$defs?.CreateTaskResult, `${SCHEMA_PATH} has no $defs.CreateTaskResult: not the 2025-11-25 schema?`);
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  (addFormatsModule.default ?? addFormatsModule)(ajv);
  ajv.addSchema(schema, 'mcp');
  compiled = { ajv, schema, cache: new Map() };
  return compiled;
}

/** The compiled validator of `$defs[name]`. */
export function validatorFor(name) {
  const { ajv, schema, cache } = loadAjv();
  if (!cache.has(name)) {
    assert.ok(schema.$defs[name], `the schema has no $defs.${name}`);
    cache.set(name, ajv.getSchema(`mcp#/$defs/${name}`));
  }
  return cache.get(name);
}

/** Asserts that `value` is a valid `$defs[name]`. */
export function assertValid(name, value, what = '') {
  const validate = validatorFor(name);
  if (!validate(value)) {
    const errors = validate.errors.map((e) => `  ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
    assert.fail(`${what ? what + ': ' : ''}not a valid ${name}:\n${errors}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`);
  }
}

const otherSchemas = new Map();

/**
 * Asserts that `value` is a valid `$defs[name]` of another official schema: `'extension'`
 * (tasks-extension/schema.json, the tasks extension) or `'2026-07-28'` (the base protocol's).
 */
export function assertValidIn(which, name, value, what = '') {
  const file = { extension: 'tasks-extension/schema.json', '2026-07-28': '2026-07-28/schema.json' }[which];
  assert.ok(file, `no schema called ${which}`);
  if (!otherSchemas.has(which)) {
    const schema = JSON.parse(fs.readFileSync(path.join(SPEC_DIR, file), 'utf8'));
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    (addFormatsModule.default ?? addFormatsModule)(ajv);
    ajv.addSchema(schema, which);
    otherSchemas.set(which, { ajv, schema });
  }
  const { ajv, schema } = otherSchemas.get(which);
  assert.ok(schema.$defs[name], `${file} has no $defs.${name}`);
  const validate = ajv.getSchema(`${which}#/$defs/${name}`);
  if (!validate(value)) {
    const errors = validate.errors.map((e) => `  ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
    assert.fail(`${what ? what + ': ' : ''}not a valid ${name} (${file}):\n${errors}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/** Extra checks the schema leaves out: ISO timestamps, integer TTLs, no related-task _meta. */
function checkTask(task, where) {
  assert.match(task.createdAt, ISO_TIMESTAMP, `${where}: createdAt is not ISO 8601`);
  assert.match(task.lastUpdatedAt, ISO_TIMESTAMP, `${where}: lastUpdatedAt is not ISO 8601`);
  assert.ok(Date.parse(task.lastUpdatedAt) >= Date.parse(task.createdAt), `${where}: lastUpdatedAt before createdAt`);
}

const UNDERLYING_RESULT = {
  'tools/call': 'CallToolResult',
  'sampling/createMessage': 'CreateMessageResult',
  'elicitation/create': 'ElicitResult',
};
const OUTGOING_REQUEST = {
  'elicitation/create': 'ElicitRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
  ping: 'PingRequest',
};
const OUTGOING_NOTIFICATION = {
  'notifications/tasks/status': 'TaskStatusNotification',
  'notifications/progress': 'ProgressNotification',
};

/** Follows one side of a JSON-RPC exchange and validates what the engine sends. */
export class ExchangeValidator {
  constructor() {
    loadAjv();
    /** raw JSON id -> { method, params, context } of requests the peer sent */
    this.requests = new Map();
    /** taskId -> method of the task-augmented request */
    this.taskMethods = new Map();
    /** how many messages were validated, by $defs name */
    this.counts = {};
    this.total = 0;
  }

  count(name) {
    this.counts[name] = (this.counts[name] ?? 0) + 1;
    this.total += 1;
  }

  validate(name, value, what) {
    assertValid(name, value, what);
    this.count(name);
  }

  /** A message the peer sent to the engine (valid or not: only requests are remembered). */
  incoming(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg && typeof msg === 'object' && typeof msg.method === 'string' && (typeof msg.id === 'string' || Number.isInteger(msg.id))) {
      this.requests.set(JSON.stringify(msg.id), { method: msg.method, params: msg.params ?? {} });
    }
  }

  /**
   * A message the engine emitted (a reply of handle, or a pollOutput 'send' message).
   * Returns the parsed message.
   */
  outgoing(text, { inReplyTo = null } = {}) {
    assert.equal(typeof text, 'string', 'emitted messages are JSON text');
    const msg = JSON.parse(text);
    const where = `emitted ${text.slice(0, 300)}`;
    assert.equal(msg.jsonrpc, '2.0', `${where}: jsonrpc`);
    if ('method' in msg) {
      if ('id' in msg) {
        this.validate('JSONRPCRequest', msg, where);
        const def = OUTGOING_REQUEST[msg.method];
        if (def) this.validate(def, msg, where);
        assert.ok(msg.params?._meta?.[RELATED_TASK]?.taskId, `${where}: a task's request carries related-task _meta`);
      } else {
        this.validate('JSONRPCNotification', msg, where);
        const def = OUTGOING_NOTIFICATION[msg.method];
        if (def) this.validate(def, msg, where);
        if (msg.method === 'notifications/tasks/status') {
          checkTask(msg.params, where);
          assert.equal(msg.params._meta?.[RELATED_TASK], undefined, `${where}: status notifications carry no related-task _meta`);
        }
      }
      return msg;
    }
    if ('error' in msg) {
      this.validate('JSONRPCErrorResponse', msg, where);
      this.validate('JSONRPCMessage', msg, where);
      if ('id' in msg && inReplyTo !== null) assert.equal(JSON.stringify(msg.id), inReplyTo, `${where}: inReplyTo`);
      return msg;
    }
    this.validate('JSONRPCResultResponse', msg, where);
    this.validate('JSONRPCMessage', msg, where);
    const rawId = JSON.stringify(msg.id);
    if (inReplyTo !== null) assert.equal(rawId, inReplyTo, `${where}: a deferred response travels with its own request`);
    const request = this.requests.get(rawId);
    assert.ok(request, `${where}: a result for id ${rawId}, which no request of the peer had`);
    const { result } = msg;
    switch (request.method) {
      case 'tools/call':
      case 'sampling/createMessage':
      case 'elicitation/create':
        // The engine answers these itself only when they run as tasks.
        assert.ok(request.params.task, `${where}: the engine answered a ${request.method} without task`);
        this.validate('CreateTaskResult', result, where);
        checkTask(result.task, where);
        this.taskMethods.set(result.task.taskId, request.method);
        break;
      case 'tasks/get':
        this.validate('GetTaskResult', result, where);
        checkTask(result, where);
        assert.equal(result._meta?.[RELATED_TASK], undefined, `${where}: tasks/get carries no related-task _meta`);
        break;
      case 'tasks/cancel':
        this.validate('CancelTaskResult', result, where);
        checkTask(result, where);
        assert.equal(result.status, 'cancelled', `${where}: tasks/cancel result status`);
        assert.equal(result._meta?.[RELATED_TASK], undefined, `${where}: tasks/cancel carries no related-task _meta`);
        break;
      case 'tasks/list':
        this.validate('ListTasksResult', result, where);
        for (const t of result.tasks) checkTask(t, where);
        assert.equal(result._meta?.[RELATED_TASK], undefined, `${where}: tasks/list carries no related-task _meta`);
        break;
      case 'tasks/result': {
        this.validate('GetTaskPayloadResult', result, where);
        const taskId = request.params.taskId;
        assert.deepEqual(result._meta?.[RELATED_TASK], { taskId }, `${where}: tasks/result carries related-task _meta`);
        const def = UNDERLYING_RESULT[this.taskMethods.get(taskId)];
        assert.ok(def, `${where}: tasks/result for task ${taskId}, whose request this validator never saw`);
        this.validate(def, result, where);
        break;
      }
      default:
        assert.fail(`${where}: the engine answered ${request.method}, which it should forward`);
    }
    return msg;
  }

  /**
   * Replays a transcript recorded elsewhere (browser, worker): entries
   * `{ dir: 'in', message }` and `{ dir: 'out', message, inReplyTo? }`.
   */
  replay(transcript) {
    for (const entry of transcript) {
      if (entry.dir === 'in') this.incoming(entry.message);
      else if (entry.dir === 'out') this.outgoing(entry.message, { inReplyTo: entry.inReplyTo ?? null });
    }
    return this;
  }
}
