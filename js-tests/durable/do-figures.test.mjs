// The figures of TaskEngineObject (a Durable Object in workerd through Miniflare): tasks by
// status as the engine counts them, running work and work waiting for input, counted by the
// receiver runtime.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startWorker } from './fixtures/do-miniflare.mjs';

const SOURCE = `
import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';

export class Counted extends TaskEngineObject {
  tools() {
    return { quick: { taskSupport: 'required' }, refuse: { taskSupport: 'required' }, ask: { taskSupport: 'required' } };
  }
  async execute(task, work) {
    const tool = work.request.params.name;
    if (tool === 'refuse') throw Object.assign(new Error('quota exhausted'), { code: -32011 });
    if (tool === 'ask') await work.elicit({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: 'done' }] };
  }
  async fetch(request) {
    if (new URL(request.url).pathname === '/figures') return Response.json(this.figures());
    return super.fetch(request);
  }
}
export default { fetch: (request, env) => routeToTaskObject(request, env.COUNTED) };
`;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let worker;
before(async () => {
  worker = await startWorker({ prefix: 'mcp-task-core-do-figures-', source: SOURCE, bindings: { COUNTED: 'Counted' } });
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
const figures = async () => (await fetch(new URL('/figures', worker.url))).json();

test('figures(): tasks by status, running work, work waiting for input, and the counters', { timeout: 30_000 }, async () => {
  assert.deepEqual(await figures(), {
    tasks: { working: 0, input_required: 0, completed: 0, failed: 0, cancelled: 0 },
    running: 0,
    inputWaiting: 0,
    expirations: 0,
    leaseFailures: 0,
    storageErrors: 0,
  });
  for (const name of ['quick', 'refuse', 'ask']) assert.ok((await rpc('tools/call', { name, arguments: {} })).result.taskId, name);
  let got;
  for (const end = Date.now() + 5000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    got = await figures();
    if (got.tasks.completed === 1 && got.tasks.failed === 1 && got.tasks.input_required === 1) break;
  }
  assert.deepEqual(got, {
    tasks: { working: 0, input_required: 1, completed: 1, failed: 1, cancelled: 0 },
    running: 1,
    inputWaiting: 1,
    expirations: 0,
    leaseFailures: 0,
    storageErrors: 0,
  });
});
