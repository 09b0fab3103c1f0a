// The task console as a route of a Durable Object (TaskEngineObject#taskConsole), in workerd
// through Miniflare, in headless Chromium: clients of two contexts create tasks over the MCP
// endpoint (2026-07-28), the page shows them live, answers an input request (which completes the
// task) and cancels one (its work's signal fires); a request without the cookie is refused. The
// operator view is no part of the MCP endpoint: an object without taskConsole() serves no page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withChromium } from './helpers/browser.mjs';
import { ASK, until, walkThroughConsole } from './helpers/console-browser.mjs';
import { startWorker } from './durable/fixtures/do-miniflare.mjs';

// One object ("default") holds every task; the context is the caller's x-user header. The work
// of `hold` notes its abort, which the plain tool `aborted` reports.
const WORKER = `
import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';
const ASK = ${JSON.stringify(ASK)};
export class Tasks extends TaskEngineObject {
  aborted = new Set();
  engineOptions() { return { ttl: { defaultMs: 60_000 }, pollIntervalMs: 50 }; }
  tools() { return { hold: { taskSupport: 'required' }, ask: { taskSupport: 'required' }, aborted: {} }; }
  contextOf(request) { return request.headers.get('x-user') ?? 'anonymous'; }
  taskConsole() {
    return { title: 'durable object', pollMs: 100, authorize: (request) => (request.headers.get('cookie') ?? '').split(/;\\s*/).includes('ops=opensesame') };
  }
  async execute(task, work) {
    if (work.request.params.name === 'ask') {
      const answer = await work.elicit(ASK);
      return { content: [{ type: 'text', text: 'Hello, ' + answer.content.name + '!' }] };
    }
    await work.setStatus('holding until cancelled');
    await new Promise((resolve) => work.signal.addEventListener('abort', resolve, { once: true }));
    this.aborted.add(task.taskId);
  }
  async forward(message) {
    const m = JSON.parse(message);
    if (m.method === 'tools/call' && m.params.name === 'aborted') return JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify([...this.aborted]) }] } });
    return super.forward(message);
  }
}
export class Plain extends TaskEngineObject {}
// Lists only every minute: what the page sees after its snapshot comes from the cancel's own refresh.
export class Slow extends Tasks {
  taskConsole() {
    return { ...super.taskConsole(), basePath: '/slow/console', pollMs: 60_000 };
  }
}
const BINDINGS = { plain: 'PLAIN', slow: 'SLOW' };
export default {
  fetch: (request, env) => routeToTaskObject(request, env[BINDINGS[new URL(request.url).pathname.split('/')[1]] ?? 'TASKS'], () => 'default'),
};
`;

let worker;
before(async () => {
  worker = await startWorker({ prefix: 'mcp-task-core-console-do-', source: WORKER, bindings: { TASKS: 'Tasks', PLAIN: 'Plain', SLOW: 'Slow' } });
});
after(async () => {
  await worker?.dispose();
});

const CAPABILITIES = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };
let seq = 0;
/** One 2026-07-28 request to the MCP endpoint (`path`) as `user`: its result. */
async function rpc(user, method, params, path = '/mcp') {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: user, version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': CAPABILITIES };
  const name = method === 'tools/call' ? params.name : params.taskId;
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'x-user': user, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name };
  const res = await fetch(new URL(path, worker.url), { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++seq, method, params: { ...params, _meta: meta } }) });
  const body = await res.json();
  assert.equal(body.error, undefined, `${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

test('chromium, a Durable Object in Miniflare: the console route shows tasks of every context live, answers an input request, cancels a task', { timeout: 90_000 }, async () => {
  const users = new Map();
  const host = {
    origin: new URL(worker.url).origin,
    consolePath: '/console',
    // Two callers (two contexts) of the one object.
    start: async (tool) => {
      const user = tool === 'hold' ? 'alice' : 'bob';
      const { taskId } = await rpc(user, 'tools/call', { name: tool, arguments: {} });
      users.set(taskId, user);
      return taskId;
    },
    status: async (taskId) => (await rpc(users.get(taskId), 'tasks/get', { taskId })).status,
    aborted: async (taskId) => JSON.parse((await rpc('alice', 'tools/call', { name: 'aborted', arguments: {} })).content[0].text).includes(taskId),
  };
  await withChromium(async (page) => {
    const { held, asking } = await walkThroughConsole(page, host);
    assert.equal(await page.locator('h1').innerText(), 'durable object');
    // Each task in its own context, listed together.
    await page.selectOption('#f-context', 'alice');
    assert.deepEqual(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.taskId)), [held]);
    await page.selectOption('#f-context', 'bob');
    assert.deepEqual(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.taskId)), [asking]);
  });
  // An object without taskConsole() has no console: the path is the MCP endpoint's (POST only).
  const plain = await fetch(new URL('/plain/console/tasks', worker.url), { headers: { cookie: 'ops=opensesame' } });
  assert.equal(plain.status, 405);
  assert.doesNotMatch(await plain.text(), /taskId/);
});

test('the console answers a 2025-11-25 task’s input request as the client’s JSON-RPC response would; a wrong request or body is refused', { timeout: 30_000 }, async () => {
  const legacy = async (method, params) => {
    const res = await fetch(new URL('/mcp', worker.url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'x-user': 'carol' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++seq, method, params }) });
    const body = await res.json();
    assert.equal(body.error, undefined, `${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  };
  const ops = (route, init = {}) => fetch(new URL(`/console${route}`, worker.url), { ...init, headers: { cookie: 'ops=opensesame', 'content-type': 'application/json', ...init.headers } });
  const { taskId } = (await legacy('tools/call', { name: 'ask', arguments: {}, task: { ttl: 60_000 } })).task;
  const waiting = await until(async () => {
    const task = await (await ops(`/tasks/${taskId}`)).json();
    return task.status === 'input_required' && task;
  }, 'the task to wait on input');
  assert.equal(waiting.context, 'carol');
  // The view's status filter, across the object's contexts.
  const listed = await (await ops('/tasks?status=input_required')).json();
  assert.deepEqual(listed.tasks.map((t) => [t.taskId, t.context]), [[taskId, 'carol']]);
  assert.equal(waiting.inputRequests.length, 1, JSON.stringify(waiting));
  const [request] = waiting.inputRequests;
  assert.equal(request.method, 'elicitation/create');
  assert.equal(request.params.message, ASK.message);
  const answer = (body) => ops(`/tasks/${taskId}/answer`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal((await answer({ requestId: '"not-asked"', result: { action: 'decline' } })).status, 409);
  assert.equal((await answer({ requestId: request.requestId, result: 'yes' })).status, 400);
  assert.equal((await answer({ requestId: request.requestId, result: { action: 'accept', content: { name: 'Grace' } } })).status, 200);
  await until(async () => (await legacy('tasks/get', { taskId })).status === 'completed', 'the task to complete');
  const result = await legacy('tasks/result', { taskId });
  assert.equal(result.content[0].text, 'Hello, Grace!');
});

test("a change made by another request (a cancel) reaches the open event stream: each stream is written from its own request", { timeout: 30_000 }, async () => {
  const ops = (route, init = {}) => fetch(new URL(`/slow/console${route}`, worker.url), { ...init, headers: { cookie: 'ops=opensesame', ...init.headers } });
  const { taskId } = await rpc('dave', 'tools/call', { name: 'hold', arguments: {} }, '/slow/mcp');
  const controller = new AbortController();
  const stream = await ops('/events', { signal: controller.signal });
  assert.equal(stream.status, 200);
  const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const read = async (pattern) => {
    const end = Date.now() + 5_000;
    while (!pattern.test(text)) {
      const left = end - Date.now();
      assert.ok(left > 0, `no ${pattern} in the stream: ${text}`);
      const chunk = await Promise.race([reader.read(), new Promise((resolve) => setTimeout(() => resolve(null), left))]);
      if (chunk === null) continue;
      assert.equal(chunk.done, false, `the stream ended: ${text}`);
      text += chunk.value;
    }
  };
  try {
    await read(new RegExp(`event: snapshot\\ndata: .*"taskId":"${taskId}"`));
    const cancel = await ops(`/tasks/${taskId}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(cancel.status, 200);
    await read(new RegExp(`event: task\\ndata: \\{"taskId":"${taskId}","status":"cancelled"`));
  } finally {
    controller.abort();
  }
});
