// TasksExtension.fastPath, differentially: every request goes to two node:http servers on one
// runtime, one the SDK path (toNodeHandler(createMcpHandler(factory))), one the same wrapped by
// tasks.fastPath. Each gets the same status, the headers that matter and the same JSON body,
// good requests and bad (wrong Accept and Content-Type, bad JSON, unknown session, another
// principal's task, oversize and chunked bodies, notifications, batches, header mismatches). The
// factory counts its calls: the good task requests must be answered without one on the fast
// path, and two principals never see each other's tasks through it.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { installWithSdk2, envelope } from './harness.mjs';

let pkg;
let mod;
let sdk;
let node;
let z;
let tasks;
let slowUrl;
let fastUrl;
let factoryCalls = 0;
const servers = [];
const BODY_LIMIT = 8 * 1024;
const NOW = 1_800_000_000_000;
const IDENTITY = { name: 'fast-path-test', version: '1.2.3' };

// The host's authentication: a verified user from the x-test-user header, as req.auth.
const authOf = (req) => {
  const user = req.headers['x-test-user'];
  if (user === undefined) return undefined;
  if (user === 'nosub') return { token: 't', clientId: 'app', scopes: [], extra: {} };
  return { token: `${user}-token`, clientId: 'app', scopes: [], extra: { sub: user } };
};

async function listen(listener) {
  const server = http.createServer((req, res) => {
    const auth = authOf(req);
    if (auth !== undefined) req.auth = auth;
    req.headers['x-client-address'] = req.socket.remoteAddress;
    listener(req, res);
  });
  servers.push(server);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${server.address().port}/mcp`;
}

before(async () => {
  pkg = installWithSdk2('mcp-task-core-fast-path-');
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  node = await import('@modelcontextprotocol/node');
  z = await import('zod');
  tasks = new mod.TasksExtension({ engineOptions: { now: () => NOW }, quotaKey: { addressHeader: 'x-client-address' } });
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  // Task tools of every server (the fast path may create their tasks), registered once.
  tasks.registerTool('job', { description: 'A task', taskSupport: 'required', inputSchema: z.object({ mode: z.enum(['done', 'wait', 'ask']) }) }, async ({ mode }, task) => {
    if (mode === 'wait') await new Promise((resolve) => task.signal.addEventListener('abort', resolve, { once: true }));
    if (mode === 'ask') {
      const answer = await task.elicit({ mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } } });
      return text(`answered ${answer.action}`);
    }
    return text(`done for ${task.authInfo?.extra?.sub ?? 'anonymous'}`);
  });
  tasks.registerTool('maybe', { taskSupport: 'optional' }, async () => text('maybe done'));
  tasks.registerTool('sometimes', { taskSupport: 'perCall', runAsTask: () => true, inputSchema: z.object({}) }, async () => text('sometimes done'));
  tasks.registerTool('scoped', { taskSupport: 'required', scopeChallenge: sdk.requireScopes('admin') }, async () => text('scoped done'));
  tasks.registerTool('fails', { taskSupport: 'required' }, async () => {
    throw new Error('it broke');
  });
  const factory = () => {
    factoryCalls += 1;
    const server = new sdk.McpServer(IDENTITY);
    tasks.install(server);
    // A task tool of this server only, and a plain tool: their calls are the SDK's.
    tasks.registerTool(server, 'local', { taskSupport: 'required' }, async () => text('local done'));
    server.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => text(`Hello, ${name}`));
    return server;
  };
  const serve = node.toNodeHandler(tasks.withTaskListen(sdk.createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize: BODY_LIMIT })), { maxRequestBodySize: BODY_LIMIT });
  slowUrl = await listen(serve);
  fastUrl = await listen(tasks.fastPath(serve, { maxRequestBodySize: BODY_LIMIT }));
});

after(async () => {
  tasks?.close();
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  pkg?.cleanup();
});

let seq = 0;
/** A 2026-07-28 request as the SDK's client sends it; `edit` changes any part. */
function request(method, params, { user, headers = {}, id = ++seq, body, httpMethod = 'POST', meta = envelope() } = {}) {
  const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  const name = method === 'tools/call' ? params.name : params?.taskId;
  if (typeof name === 'string') h['mcp-name'] = name;
  if (user !== undefined) h['x-test-user'] = user;
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  const text = body ?? JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...params?._meta, ...meta } } });
  return { method: httpMethod, headers: h, body: httpMethod === 'GET' ? undefined : text };
}

const HEADERS = ['content-type', 'allow', 'connection', 'mcp-session-id', 'www-authenticate', 'cache-control'];

/** Sends `req` to `url`: status, the headers that matter, the body (parsed when JSON), and whether the factory ran. */
async function send(url, req) {
  const before = factoryCalls;
  const response = await fetch(url, req);
  const text = await response.text();
  let body = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: response.status, headers: Object.fromEntries(HEADERS.map((h) => [h, response.headers.get(h)])), body, factory: factoryCalls - before };
}

/** A task of `user` in `mode`, created on the SDK path, once it shows `status`. */
async function taskOf(user, mode, status) {
  const meta = envelope({ capabilities: mode === 'ask' ? { elicitation: { form: {} } } : {} });
  const created = await send(slowUrl, request('tools/call', { name: 'job', arguments: { mode } }, { user, meta }));
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const { taskId } = created.body.result;
  for (let i = 0; i < 200; i++) {
    const got = await send(slowUrl, request('tasks/get', { taskId }, { user }));
    if (got.body.result?.status === status) return taskId;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${taskId} never ${status}`);
}

/**
 * The same request on both paths: `make(taskId)` builds it for a task made fresh for each path
 * by `setup` (so a change on one path never shows on the other). Returns both answers, the
 * task IDs replaced by a placeholder.
 */
async function both(setup, make) {
  const answers = [];
  const first = seq;
  for (const url of [slowUrl, fastUrl]) {
    const taskId = setup === null ? 'no-such-task' : await setup();
    seq = first; // the same JSON-RPC id on both paths
    const answer = await send(url, await make(taskId));
    // What the request left behind: the task as its owner sees it next.
    const next = setup === null ? null : await send(slowUrl, request('tasks/get', { taskId }, { user: 'alice', id: 'next' }));
    answers.push(JSON.parse(JSON.stringify({ ...answer, next: next?.body }).replaceAll(taskId, '<task>')));
  }
  const [slow, fast] = answers;
  assert.deepEqual({ ...fast, factory: undefined }, { ...slow, factory: undefined });
  return { slow, fast };
}

/** The key of the input request a task waits on. */
async function inputKey(taskId) {
  const got = await send(slowUrl, request('tasks/get', { taskId }, { user: 'alice', id: 'key' }));
  return Object.keys(got.body.result.inputRequests)[0];
}

const done = (user) => () => taskOf(user, 'done', 'completed');
const waiting = (user) => () => taskOf(user, 'wait', 'working');
const asking = (user) => () => taskOf(user, 'ask', 'input_required');

test('good task requests: the same answers, without a server built for them', { timeout: 60_000 }, async () => {
  const cases = [
    ['tasks/get of a completed task', done('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice' })],
    ['tasks/get of a working task', waiting('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice' })],
    ['tasks/get of an input_required task', asking('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice' })],
    ['tasks/get, anonymous', done(undefined), (id) => request('tasks/get', { taskId: id })],
    ['tasks/get with a string id', done('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice', id: 'req-1' })],
    ['tasks/get with charset and other _meta', done('alice'), (id) => request('tasks/get', { taskId: id, _meta: { 'example.com/trace': 'x' } }, { user: 'alice', headers: { 'content-type': 'application/json; charset=utf-8' } })],
    ['tasks/get with a wrong Accept header', done('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice', headers: { accept: 'text/html' } })],
    ['tasks/get with no Accept header', done('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice', headers: { accept: undefined } })],
    ['tasks/get with an unknown session id', done('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-session-id': 'no-such-session' } })],
    ['tasks/get of an unknown task', null, (id) => request('tasks/get', { taskId: id }, { user: 'alice' })],
    ['tasks/get of an empty task ID', null, () => request('tasks/get', { taskId: '' }, { user: 'alice', headers: { 'mcp-name': '' } })],
    ['tasks/cancel of a working task', waiting('alice'), (id) => request('tasks/cancel', { taskId: id }, { user: 'alice' })],
    ['tasks/cancel of a completed task', done('alice'), (id) => request('tasks/cancel', { taskId: id }, { user: 'alice' })],
    ['tasks/update answering the input request', asking('alice'), (id) => request('tasks/update', { taskId: id, inputResponses: {} }, { user: 'alice' })],
    ['tasks/update with a wrapped answer (the SDK drops it)', asking('alice'), async (id) => request('tasks/update', { taskId: id, inputResponses: { [await inputKey(id)]: { method: 'elicitation/create', result: { action: 'accept' } } } }, { user: 'alice', id: 'update' })],
    ['tasks/update with requestState', asking('alice'), (id) => request('tasks/update', { taskId: id, requestState: 'opaque' }, { user: 'alice' })],
    ['tasks/update of a completed task', done('alice'), (id) => request('tasks/update', { taskId: id, inputResponses: {} }, { user: 'alice' })],
    ["tasks/get of another user's task", waiting('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'bob' })],
    ["tasks/cancel of another user's task", waiting('alice'), (id) => request('tasks/cancel', { taskId: id }, { user: 'bob' })],
    ["tasks/update of another user's task", asking('alice'), (id) => request('tasks/update', { taskId: id, inputResponses: {} }, { user: 'bob' })],
    ["tasks/get of a user's task, anonymous", done('alice'), (id) => request('tasks/get', { taskId: id })],
    ['a token with no subject', done('alice'), (id) => request('tasks/get', { taskId: id }, { user: 'nosub' })],
  ];
  for (const [name, setup, make] of cases) {
    const { slow, fast } = await both(setup, make);
    assert.equal(slow.factory, 1, `${name}: the SDK path builds a server`);
    assert.equal(fast.factory, 0, `${name}: answered on the fast path (${JSON.stringify(fast.body)})`);
  }
  // A task's input answered through the fast path: the answer reaches the work.
  const taskId = await asking('alice')();
  const got = await send(fastUrl, request('tasks/get', { taskId }, { user: 'alice' }));
  const [key] = Object.keys(got.body.result.inputRequests);
  const updated = await send(fastUrl, request('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { go: true } }, wrapped: { method: 'x', result: {} } } }, { user: 'alice' }));
  assert.deepEqual([updated.status, updated.factory, updated.body.error], [200, 0, undefined]);
  for (let i = 0; i < 200; i++) {
    const now = await send(fastUrl, request('tasks/get', { taskId }, { user: 'alice' }));
    if (now.body.result.status === 'completed') {
      assert.equal(now.body.result.result.content[0].text, 'answered accept');
      return;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail('the answered task never completed');
});

/** A tools/call on both paths: the answers, the created task's ID replaced, and that task once it is done. */
async function bothCreate(make) {
  const answers = [];
  const first = seq;
  for (const url of [slowUrl, fastUrl]) {
    seq = first;
    const req = make();
    const answer = await send(url, req);
    const taskId = answer.body?.result?.taskId;
    let done = null;
    if (taskId !== undefined) {
      const user = req.headers['x-test-user'];
      for (let i = 0; i < 200 && done === null; i++) {
        const got = await send(slowUrl, request('tasks/get', { taskId }, { user, id: 'next' }));
        if (got.body.result?.status !== 'working') done = got.body;
        else await new Promise((r) => setTimeout(r, 5));
      }
    }
    answers.push(JSON.parse(JSON.stringify({ ...answer, done }).replaceAll(taskId ?? '\u0000', '<task>')));
  }
  const [slow, fast] = answers;
  assert.deepEqual({ ...fast, factory: undefined }, { ...slow, factory: undefined });
  return { slow, fast };
}

test('task creation of a tool of every server: the same answers, without a server built for them', { timeout: 60_000 }, async () => {
  const call = (name, args, opts) => () => request('tools/call', { name, arguments: args }, opts);
  const good = [
    ['a task that completes', call('job', { mode: 'done' }, { user: 'alice' })],
    ['anonymous', call('job', { mode: 'done' })],
    ['a string id', call('job', { mode: 'done' }, { user: 'alice', id: 'create-1' })],
    ['other _meta and a charset', () => request('tools/call', { name: 'job', arguments: { mode: 'done' }, _meta: { 'example.com/trace': 'x' } }, { user: 'bob', headers: { 'content-type': 'application/json; charset=utf-8' } })],
    ['an optional task tool, extension declared', call('maybe', undefined, { user: 'alice' })],
    ['work that throws', call('fails', {}, { user: 'alice' })],
  ];
  for (const [name, make] of good) {
    const { slow, fast } = await bothCreate(make);
    assert.equal(slow.factory, 1, `${name}: the SDK path builds a server`);
    assert.equal(fast.factory, 0, `${name}: answered on the fast path (${JSON.stringify(fast.body)})`);
    assert.equal(fast.body.result.resultType, 'task', name);
    assert.notEqual(fast.done, null, `${name}: the work ran`);
  }
  const bad = [
    ['arguments the schema refuses', call('job', { mode: 'nope' }, { user: 'alice' })],
    ['arguments that are not an object', call('job', 'done', { user: 'alice' })],
    ['the extension not declared', () => request('tools/call', { name: 'job', arguments: { mode: 'done' } }, { user: 'alice', meta: envelope({ declared: false }) })],
    ['an optional tool, the extension not declared (a plain call)', () => request('tools/call', { name: 'maybe' }, { user: 'alice', meta: envelope({ declared: false }) })],
    ['an Mcp-Name header naming another tool', call('job', { mode: 'done' }, { user: 'alice', headers: { 'mcp-name': 'maybe' } })],
    ['no Mcp-Name header', call('job', { mode: 'done' }, { user: 'alice', headers: { 'mcp-name': undefined } })],
    ['an Mcp-Method header naming another method', call('job', { mode: 'done' }, { user: 'alice', headers: { 'mcp-method': 'tasks/get' } })],
    ['a task tool of each server', call('local', {}, { user: 'alice' })],
    ['a perCall tool', call('sometimes', {}, { user: 'alice' })],
    ['a tool with a scope challenge', call('scoped', {}, { user: 'alice' })],
    ['a plain tool', call('greet', { name: 'Ada' }, { user: 'alice' })],
    ['an unknown tool', call('nothing', {}, { user: 'alice' })],
    ['no MCP-Protocol-Version header', call('job', { mode: 'done' }, { user: 'alice', headers: { 'mcp-protocol-version': undefined } })],
    ['no envelope', call('job', { mode: 'done' }, { user: 'alice', meta: {} })],
  ];
  for (const [name, make] of bad) {
    const { slow, fast } = await bothCreate(make);
    assert.equal(fast.factory, slow.factory, `${name}: left to the SDK`);
    if (name.includes('scope challenge')) assert.equal(fast.status, 403, 'the scope challenge answered');
  }
  // A task created on the fast path is its creator's: another principal cannot reach it.
  const created = await send(fastUrl, request('tools/call', { name: 'job', arguments: { mode: 'wait' } }, { user: 'alice' }));
  assert.equal(created.factory, 0);
  const { taskId } = created.body.result;
  for (const user of ['bob', undefined]) {
    const other = await send(fastUrl, request('tasks/get', { taskId }, { user }));
    assert.equal(other.body.error?.code, -32602, `${user ?? 'anonymous'} reads alice's task: ${JSON.stringify(other.body)}`);
  }
  // Its work runs with the creator's identity, and a cancel reaches it.
  const cancelled = await send(fastUrl, request('tasks/cancel', { taskId }, { user: 'alice' }));
  assert.deepEqual([cancelled.status, cancelled.body.error], [200, undefined]);
  const after = await send(fastUrl, request('tasks/get', { taskId }, { user: 'alice' }));
  assert.equal(after.body.result.status, 'cancelled');
});

test('registerTool(name, …) is for before the first install, once per name', () => {
  assert.throws(() => tasks.registerTool('late', { taskSupport: 'required' }, async () => ({ content: [] })), /before the first install/);
  const fresh = new mod.TasksExtension();
  fresh.registerTool('twice', { taskSupport: 'required' }, async () => ({ content: [] }));
  assert.throws(() => fresh.registerTool('twice', { taskSupport: 'required' }, async () => ({ content: [] })), /already registered/);
  assert.throws(() => fresh.registerTool('bad', { taskSupport: 'sometimes' }, async () => ({ content: [] })), /taskSupport must be/);
  fresh.close();
});

test('bad requests: the fast path leaves them to the SDK, which answers as it always does', { timeout: 60_000 }, async () => {
  const id = await done('alice')();
  const good = () => request('tasks/get', { taskId: id }, { user: 'alice' });
  const body = (text) => request('tasks/get', { taskId: id }, { user: 'alice', body: text });
  const cases = [
    ['wrong Content-Type', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'content-type': 'text/plain' } })],
    ['no Content-Type', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'content-type': undefined } })],
    ['bad JSON', body('{"jsonrpc":"2.0","id":1,"method":"tasks/get"')],
    ['empty body', body('')],
    ['a UTF-8 byte order mark', body(`\ufeff${good().body}`)],
    ['a JSON-RPC batch', body(`[${good().body}]`)],
    ['a notification', body(JSON.stringify({ jsonrpc: '2.0', method: 'tasks/get', params: { taskId: id, _meta: envelope() } }))],
    ['not JSON-RPC', body(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tasks/get', params: { taskId: id, _meta: envelope() } }))],
    ['a null id', body(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tasks/get', params: { taskId: id, _meta: envelope() } }))],
    ['a fractional id', body(JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'tasks/get', params: { taskId: id, _meta: envelope() } }))],
    ['an id beyond the safe integers', body(`{"jsonrpc":"2.0","id":9007199254740993,"method":"tasks/get","params":${JSON.stringify({ taskId: id, _meta: envelope() })}}`)],
    ['an extra top-level member', body(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: id, _meta: envelope() }, extra: true }))],
    ['a progress token out of range', body(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"${id}","_meta":${JSON.stringify({ ...envelope(), progressToken: 0 }).replace('"progressToken":0', '"progressToken":1e400')}}}`)],
    ['no params', body(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get' }))],
    ['a numeric task ID', request('tasks/get', { taskId: 7 }, { user: 'alice', headers: { 'mcp-name': '7' } })],
    ['no MCP-Protocol-Version header', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-protocol-version': undefined } })],
    ['an older MCP-Protocol-Version header', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-protocol-version': '2025-11-25' } })],
    ['an unsupported protocol revision', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-protocol-version': '2099-01-01' }, meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } })],
    ['no envelope', request('tasks/get', { taskId: id }, { user: 'alice', meta: {} })],
    ['an invalid envelope', request('tasks/get', { taskId: id }, { user: 'alice', meta: { ...envelope(), 'io.modelcontextprotocol/clientInfo': 'me' } })],
    ['an Mcp-Method header naming another method', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-method': 'tasks/cancel' } })],
    ['no Mcp-Name header', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-name': undefined } })],
    ['an Mcp-Name header naming another task', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-name': 'other' } })],
    ['an Mcp-Name header in Base64', request('tasks/get', { taskId: id }, { user: 'alice', headers: { 'mcp-name': `=?base64?${Buffer.from(id).toString('base64')}?=` } })],
    ['a body over the limit', request('tasks/get', { taskId: id, pad: 'x'.repeat(BODY_LIMIT) }, { user: 'alice' })],
    ['GET', request('tasks/get', { taskId: id }, { user: 'alice', httpMethod: 'GET' })],
    ['DELETE', { ...request('tasks/get', { taskId: id }, { user: 'alice' }), method: 'DELETE', body: undefined }],
  ];
  for (const [name, req] of cases) {
    const { slow, fast } = await both(
      async () => id,
      () => req,
    );
    // Left to the SDK: it got as far (to building a server, or not) on both paths.
    assert.equal(fast.factory, slow.factory, name);
  }
  // A body sent in chunks (no Content-Length): the SDK's.
  const chunked = () => ({ ...good(), body: new Blob([good().body]).stream(), duplex: 'half' });
  const { slow, fast } = await both(async () => id, chunked);
  assert.deepEqual([slow.factory, fast.factory, fast.status], [1, 1, 200]);
});

test('two principals never see each other\'s tasks through the fast path', { timeout: 60_000 }, async () => {
  const alice = await waiting('alice')();
  const bob = await waiting('bob')();
  for (const [user, other] of [['bob', alice], ['alice', bob], [undefined, alice]]) {
    for (const make of [
      (taskId) => request('tasks/get', { taskId }, { user }),
      (taskId) => request('tasks/cancel', { taskId }, { user }),
      (taskId) => request('tasks/update', { taskId, inputResponses: {} }, { user }),
    ]) {
      const answer = await send(fastUrl, make(other));
      assert.equal(answer.factory, 0, 'answered on the fast path');
      assert.equal(answer.status, 200);
      assert.equal(answer.body.result, undefined, `${user ?? 'anonymous'} reads ${other}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.code, -32602);
    }
  }
  // Both tasks still run, each seen by its owner only.
  for (const [user, taskId] of [['alice', alice], ['bob', bob]]) {
    const own = await send(fastUrl, request('tasks/get', { taskId }, { user }));
    assert.deepEqual([own.factory, own.body.result.taskId, own.body.result.status], [0, taskId, 'working']);
  }
});

test('fastPath options are checked; before any server is installed, everything goes to the SDK', async () => {
  const fresh = new mod.TasksExtension();
  let calls = 0;
  const serve = (req, res) => {
    calls += 1;
    res.writeHead(204).end();
  };
  assert.throws(() => fresh.fastPath(serve, { maxBodySize: 1 }), /unknown option maxBodySize/);
  assert.throws(() => fresh.fastPath(null), /toNodeHandler/);
  const url = await listen(fresh.fastPath(serve));
  await new Promise((r) => setTimeout(r, 50));
  const response = await fetch(url, request('tasks/get', { taskId: 'x' }));
  assert.deepEqual([response.status, calls], [204, 1]);
  fresh.close();
});
