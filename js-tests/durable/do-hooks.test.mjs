// The hooks of TaskEngineObject that the receiver runtime (runtime.js) feeds, in workerd through
// Miniflare: every audit record reaches audit(), outputs the engine dropped reach error() with
// their count.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startWorker } from './fixtures/do-miniflare.mjs';

const SOURCE = `
import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';

export class Hooked extends TaskEngineObject {
  #records = [];
  #errors = [];
  engineOptions() {
    return { audit: true, limits: { maxPendingOutputs: 3, rateLimit: null } };
  }
  tools() {
    return { quick: { taskSupport: 'required' } };
  }
  audit(record) {
    this.#records.push(record);
  }
  error(err) {
    this.#errors.push({ message: err.message, code: err.code, count: err.count });
  }
  async execute() {
    return { content: [{ type: 'text', text: 'done' }] };
  }
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/seen') return Response.json({ records: this.#records, errors: this.#errors });
    if (pathname === '/flood') {
      // Messages the engine forwards, more than its queue holds, before anything drains it.
      for (let i = 0; i < 10; i++) this.engine.handle(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } }), 'default');
      return new Response(null, { status: 204 });
    }
    return super.fetch(request);
  }
}
export default { fetch: (request, env) => routeToTaskObject(request, env.HOOKED) };
`;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let worker;
before(async () => {
  worker = await startWorker({ prefix: 'mcp-task-core-do-hooks-', source: SOURCE, bindings: { HOOKED: 'Hooked' } });
});
after(async () => {
  await worker?.dispose();
});

const rpc = async (method, params) => {
  const res = await fetch(new URL('/mcp', worker.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-name': params.taskId ?? params.name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  });
  return res.json();
};
const seen = async () => (await fetch(new URL('/seen', worker.url))).json();

test('audit(): the creation and completion of a task, as the engine records them; error() hears nothing', { timeout: 30_000 }, async () => {
  const { taskId } = (await rpc('tools/call', { name: 'quick', arguments: {} })).result;
  let got;
  for (const end = Date.now() + 5000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    got = await seen();
    if (got.records.some((r) => r.taskId === taskId && r.action === 'transitioned' && r.to === 'completed')) break;
  }
  const actions = got.records.filter((r) => r.taskId === taskId).map((r) => r.action);
  assert.equal(actions[0], 'created', JSON.stringify(got.records));
  assert.ok(got.records.some((r) => r.taskId === taskId && r.action === 'transitioned' && r.to === 'completed'), JSON.stringify(got.records));
  assert.deepEqual(got.errors, []);
});

test('error(): outputs the engine dropped, with their count, reported at the next drain', { timeout: 30_000 }, async () => {
  await fetch(new URL('/flood', worker.url), { method: 'POST' });
  // The next request drains the queue (the engine may refuse it as overloaded meanwhile).
  assert.equal((await rpc('tools/list', {})).id, 1);
  const { errors } = await seen();
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0].code, 'outputs_dropped');
  assert.ok(errors[0].count > 0);
  assert.match(errors[0].message, /output queue was full: \d+ notifications or audit records were dropped/);
});
