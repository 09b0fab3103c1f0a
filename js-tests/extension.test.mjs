// Node, ES modules: the tasks extension (io.modelcontextprotocol/tasks, MCP 2026-07-28) through the
// wasm package, beside a 2025-11-25 session on the same engine. Every message the engine emits in
// the new dialect is checked against tasks-extension/schema.json (errors against the 2026-07-28 schema).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertEngineError, manualClock, sequentialIds } from './helpers/checked.mjs';
import { installPackage } from './helpers/package.mjs';
import { assertValidIn } from './helpers/schema.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
});
after(() => pkg?.cleanup());

const META = (declared = true) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: declared ? { 'io.modelcontextprotocol/tasks': {} } : {} },
});

function setup() {
  const clock = manualClock();
  const engine = new mod.TextTaskEngine({ now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required', decide: 'perCall' } });
  let id = 0;
  const call = (method, params, { context = 'alice', declared = true, inbound } = {}) => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META(declared) } });
    const reply = engine.handle(text, context, inbound);
    if (reply === null) return null;
    const parsed = JSON.parse(reply);
    if (parsed.error) assertValidIn('2026-07-28', 'JSONRPCErrorResponse', parsed);
    return parsed;
  };
  const drain = () => {
    const outs = [];
    for (let o; (o = engine.pollOutput()) !== null; ) outs.push(o);
    for (const o of outs.filter((o) => o.kind === 'send')) {
      const m = JSON.parse(o.message);
      if (m.method === 'notifications/tasks') assertValidIn('extension', 'TaskStatusNotification', m);
    }
    return outs;
  };
  return { engine, clock, call, drain, text: (method, params, declared = true) => JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META(declared) } }) };
}

test('extension lifecycle: create, input via tasks/update, inlined result', () => {
  const { engine, call, drain } = setup();
  assert.deepEqual(JSON.parse(mod.TextTaskRequestor.protocolJson()).extensionCapability, { 'io.modelcontextprotocol/tasks': {} });
  const created = call('tools/call', { name: 'slow', arguments: {} }).result;
  assertValidIn('extension', 'CreateTaskResult', created);
  assert.equal(created.resultType, 'task');
  const [execute] = drain();
  assert.equal(execute.kind, 'execute');
  const requestId = engine.requestInput(created.taskId, 'elicitation/create', JSON.stringify({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }));
  const key = JSON.parse(requestId);
  const waiting = call('tasks/get', { taskId: created.taskId }).result;
  assertValidIn('extension', 'GetTaskResult', waiting);
  assert.equal(waiting.status, 'input_required');
  assert.deepEqual(Object.keys(waiting.inputRequests), [key]);
  const ack = call('tasks/update', { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Luca' } } } }).result;
  assertValidIn('extension', 'UpdateTaskResult', ack);
  const [answer] = drain().filter((o) => o.kind === 'inputResponse');
  assert.equal(answer.requestId, requestId);
  assert.deepEqual(JSON.parse(answer.response).result, { action: 'accept', content: { name: 'Luca' } });
  engine.complete(created.taskId, JSON.stringify({ content: [{ type: 'text', text: 'Hello, Luca!' }], isError: true }));
  const done = call('tasks/get', { taskId: created.taskId }).result;
  assertValidIn('extension', 'GetTaskResult', done);
  assert.equal(done.status, 'completed', 'isError: true is completed in the extension');
  assert.equal(done.result.content[0].text, 'Hello, Luca!');
  assert.equal(call('tasks/result', { taskId: created.taskId }).error.code, -32601);
});

test('negotiation: -32021 for non-declaring clients; Mcp-Name; forced dialect', () => {
  const { engine, call, text } = setup();
  const refused = call('tools/call', { name: 'slow' }, { declared: false });
  assert.equal(refused.error.code, -32021);
  assertValidIn('2026-07-28', 'MissingRequiredClientCapabilityError', refused);
  const { taskId } = call('tools/call', { name: 'slow' }).result;
  assert.equal(call('tasks/get', { taskId }, { declared: false }).error.code, -32021);
  const mismatch = call('tasks/get', { taskId }, { inbound: { mcpName: 'someone-else' } });
  assert.equal(mismatch.error.code, -32020);
  assert.equal(call('tasks/get', { taskId }, { inbound: { mcpName: taskId } }).result.taskId, taskId);
  // The host can say which dialect a session speaks.
  const legacy = JSON.parse(engine.handle(text('tasks/list', {}), 'alice', { dialect: '2025-11-25' }));
  assert.ok(Array.isArray(legacy.result.tasks));
  assertEngineError(() => engine.handle('{}', 'alice', { dialect: '2027-01-01' }), 'invalid_argument', { type: TypeError });
});

test('perCall tools: forwarded, startTask turns one into a task', () => {
  const { engine, call, drain } = setup();
  assert.equal(call('tools/call', { name: 'decide' }), null);
  const [forward] = drain();
  assert.equal(forward.kind, 'forward');
  const response = JSON.parse(engine.startTask(forward.message, 'alice'));
  assertValidIn('extension', 'CreateTaskResult', response.result);
  assert.equal(drain()[0].kind, 'execute');
  assert.equal(call('tasks/get', { taskId: response.result.taskId }).result.status, 'working');
  assertEngineError(() => engine.registerTool('x', 'sometimes'), 'invalid_argument', { type: TypeError });
});

test('cancel is an idempotent ack; notifications/tasks go to subscribed streams only', () => {
  const { engine, call, drain } = setup();
  const { taskId } = call('tools/call', { name: 'slow' }).result;
  drain();
  const listen = JSON.stringify({ jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { _meta: META(), notifications: { taskIds: [taskId] } } });
  assert.deepEqual(engine.listenTasks(listen, 'alice'), { taskIds: [taskId] });
  const undeclared = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: { _meta: META(false), notifications: { taskIds: [taskId] } } });
  assert.equal(JSON.parse(engine.listenTasks(undeclared, 'alice').error).error.code, -32021);
  const ack = call('tasks/cancel', { taskId }).result;
  assertValidIn('extension', 'CancelTaskResult', ack);
  const outs = drain();
  const pushed = outs.filter((o) => o.kind === 'send').map((o) => [o.inReplyTo, JSON.parse(o.message).params.status]);
  assert.deepEqual(pushed, [['"sub-1"', 'cancelled']]);
  assert.ok(outs.some((o) => o.kind === 'cancelled'));
  assert.deepEqual(call('tasks/cancel', { taskId }).result, { resultType: 'complete' });
  assert.equal(call('tasks/get', { taskId }).result.status, 'cancelled');
});

test('a 2025-11-25 session and a 2026-07-28 client share one engine', () => {
  const { engine, call, drain } = setup();
  const old = JSON.parse(engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 'o1', method: 'tools/call', params: { name: 'slow', task: { ttl: 60000 } } }), 'alice'));
  const oldId = old.result.task.taskId;
  drain();
  const seen = call('tasks/get', { taskId: oldId }).result;
  assertValidIn('extension', 'GetTaskResult', seen);
  assert.equal(seen.status, 'working');
  assert.equal(call('tasks/get', { taskId: oldId }, { context: 'bob' }).error.code, -32602);
  assert.deepEqual(call('tasks/cancel', { taskId: oldId }).result, { resultType: 'complete' });
  const after = JSON.parse(engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 'o2', method: 'tasks/get', params: { taskId: oldId } }), 'alice'));
  assert.equal(after.result.status, 'cancelled');
});
