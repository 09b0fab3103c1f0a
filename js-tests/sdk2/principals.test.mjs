// Two authenticated users of one SDK 2.x server (the same OAuth client application, bearer tokens
// checked by the SDK's own requireBearerAuth): each sees only their own tasks on every path a task
// can be reached by, with the official @modelcontextprotocol/client numbering its listens as it
// does (`listen:0`, `listen:1`, ... per client instance, so two users' ids are the same).
// Streams are identified by ids the runtime mints, and every message is checked against the
// principal of the stream it would go to.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertValid, assertValidIn } from '../helpers/schema.mjs';
import { EXTENSION_ID, installWithSdk2, modernClient, sleep } from './harness.mjs';

let pkg;
let mod;
let sdk;
let clientSdk;
let z;

before(async () => {
  pkg = installWithSdk2('mcp-task-core-principals-');
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  clientSdk = await import('@modelcontextprotocol/client');
  z = await import('zod');
});
after(() => pkg?.cleanup());

const URL_ = 'http://127.0.0.1/mcp';
const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** Tokens name their user: `<sub>-token`; `anonymous-app` carries no subject. */
const verifier = {
  async verifyAccessToken(token) {
    const sub = token.endsWith('-token') ? token.slice(0, -'-token'.length) : undefined;
    return { token, clientId: 'shared-app', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: sub === undefined ? {} : { sub } };
  },
};

/**
 * A server whose `gated` tool (a task, always) finishes when the test opens its gate, answering
 * with the subject of the user who called it. `serve(request)` is the HTTP entry: bearer auth,
 * then the handler with the verified authInfo.
 */
function setup(options = {}) {
  const tasks = new mod.TasksExtension({ engineOptions: { pollIntervalMs: 50 }, ...options });
  const gates = new Map();
  const release = (label) => gates.get(label)?.();
  const factory = () => {
    const server = new sdk.McpServer({ name: 'principals-test', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'gated', { taskSupport: 'required', inputSchema: z.object({ label: z.string() }) }, async ({ label }, task) => {
      await new Promise((resolve) => gates.set(label, resolve));
      return text(`${label} done for ${task.authInfo?.extra?.sub}`);
    });
    return server;
  };
  const handler = tasks.withTaskListen(sdk.createMcpHandler(factory));
  const gate = sdk.requireBearerAuth({ verifier });
  const serve = async (input, init) => {
    const request = new Request(input, init);
    const auth = await gate(request);
    if (auth instanceof Response) return auth;
    return handler.fetch(request, { authInfo: auth });
  };
  return { tasks, handler, serve, release };
}

/**
 * A user with `token`: an official SDK 2.x client (for listens; `seen` collects the task
 * notifications it gets) and raw 2026-07-28 requests through the same gate (`call`), since the
 * 2.4 client does not take a `resultType: "task"` answer to tools/call.
 */
async function officialClient(serve, token) {
  const client = new clientSdk.Client(
    { name: `client-of-${token}`, version: '1.0.0' },
    { capabilities: { extensions: { [EXTENSION_ID]: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const seen = [];
  client.fallbackNotificationHandler = async (notification) => {
    if (notification.method === 'notifications/tasks') seen.push(notification);
  };
  const transport = new clientSdk.StreamableHTTPClientTransport(new URL(URL_), { fetch: serve, requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  const raw = modernClient({ fetch: (request) => serve(request) }, { url: URL_ });
  const call = (method, params) => raw.call(method, params, { headers: { authorization: `Bearer ${token}` } });
  const startTask = async (label) => {
    const created = await call('tools/call', { name: 'gated', arguments: { label } });
    assert.equal(created.result?.resultType, 'task', JSON.stringify(created));
    return created.result.taskId;
  };
  return { client, seen, call, startTask };
}

/** Streams are told apart by the runtime whatever the principal rule: these tests name the user explicitly. */
const BY_SUBJECT = { principal: (authInfo) => authInfo?.extra?.sub ?? null };

async function until(predicate, what, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

test('2026-07-28: two users whose official clients both open listen:0 each hear only their own task', { timeout: 30_000 }, async () => {
  const { serve, release, handler } = setup(BY_SUBJECT);
  const alice = await officialClient(serve, 'alice-token');
  const bob = await officialClient(serve, 'bob-token');
  try {
    const aliceTask = await alice.startTask('a');
    const bobTask = await bob.startTask('b');

    const aliceSub = await alice.client.listen({ taskIds: [aliceTask] });
    const bobSub = await bob.client.listen({ taskIds: [bobTask] });
    // Bob names Alice's task: not his, so nothing to follow (an empty acknowledgement), and his
    // stream ending must not end or take over Alice's.
    const probe = await bob.client.listen({ taskIds: [aliceTask] });
    assert.equal(await Promise.race([probe.closed, sleep(2000).then(() => 'still open')]), 'graceful', 'nothing to follow: the stream ends');

    release('a');
    await until(() => alice.seen.some((n) => n.params.status === 'completed'), "Alice's completion on her stream");
    release('b');
    await until(() => bob.seen.some((n) => n.params.status === 'completed'), "Bob's completion on his stream");
    await sleep(100);

    for (const [who, { seen }, own] of [['alice', alice, aliceTask], ['bob', bob, bobTask]]) {
      for (const n of seen) {
        assertValidIn('extension', 'TaskStatusNotification', n);
        assert.equal(n.params.taskId, own, `${who} got a notification of another user's task`);
        assert.equal(n.params._meta['io.modelcontextprotocol/subscriptionId'], 'listen:0', 'the client sees its own subscription id');
      }
    }
    assert.equal(alice.seen.at(-1).params.result.content[0].text, 'a done for alice');
    assert.equal(bob.seen.at(-1).params.result.content[0].text, 'b done for bob');
    await aliceSub.close();
    await bobSub.close();
  } finally {
    await alice.client.close();
    await bob.client.close();
    await handler.close?.();
  }
});

test("2025-11-25: a user's waiting tasks/result is answered to them, whatever ids another user's listens carry", { timeout: 30_000 }, async () => {
  const { serve, release, handler } = setup(BY_SUBJECT);
  // Alice on 2025-11-25 (createMcpHandler serves it statelessly), through the same bearer gate.
  const legacyPost = (id, method, params) =>
    serve(URL_, {
      method: 'POST',
      headers: { authorization: 'Bearer alice-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  const answerOf = async (response, id) => {
    for (const line of (await response.text()).split('\n')) {
      if (!line.startsWith('data:')) continue;
      const m = JSON.parse(line.slice(5));
      if (m.id === id && m.method === undefined) return m;
    }
    return null;
  };
  const created = await answerOf(await legacyPost(1, 'tools/call', { name: 'gated', arguments: { label: 'legacy' }, task: { ttl: 60_000 } }), 1);
  const aliceTask = created.result.task.taskId;
  const waiting = legacyPost(2, 'tasks/result', { taskId: aliceTask }).then((r) => answerOf(r, 2));
  await sleep(100);

  // Bob opens listens on his own task under the ids the runtime's internal requests once had.
  const bob = await officialClient(serve, 'bob-token');
  const bobTask = await bob.startTask('mine');
  const raw = modernClient({ fetch: (request) => serve(request) }, { url: URL_ });
  const streams = [];
  for (let n = 1; n <= 40; n++) {
    const { request } = raw.request('subscriptions/listen', { notifications: { taskIds: [bobTask] } }, { id: `mcp-task-core/server:${n}`, headers: { authorization: 'Bearer bob-token' } });
    streams.push(await serve(request));
  }
  release('legacy');
  const answer = await Promise.race([waiting, sleep(5000).then(() => null)]);
  assert.ok(answer, "Alice's tasks/result was never answered");
  assertValid('CallToolResult', answer.result);
  assert.equal(answer.result.content[0].text, 'legacy done for alice');
  release('mine');
  // What Bob's streams carried: only his own task.
  for (const response of streams) {
    const body = response.body.getReader();
    const chunk = await Promise.race([body.read(), sleep(50).then(() => ({ value: new Uint8Array() }))]);
    const textSeen = new TextDecoder().decode(chunk.value ?? new Uint8Array());
    assert.equal(textSeen.includes(aliceTask), false, "a listen stream of Bob's carried Alice's task");
    assert.equal(textSeen.includes('legacy done'), false, "a listen stream of Bob's carried Alice's result");
    await body.cancel();
  }
  await bob.client.close();
  await handler.close?.();
});

test('the default principal is the token subject: the same OAuth client never merges two users; a token with no subject is refused', { timeout: 30_000 }, async () => {
  const { serve, handler } = setup();
  const alice = await officialClient(serve, 'alice-token');
  const bob = await officialClient(serve, 'bob-token');
  const taskId = await alice.startTask('private');
  assert.equal((await alice.call('tasks/get', { taskId })).result.taskId, taskId);
  assert.equal((await bob.call('tasks/get', { taskId })).error?.code, -32602, 'the same clientId, another subject: not found');
  const nobody = await officialClient(serve, 'anonymous-app');
  const refused = await nobody.call('tools/call', { name: 'gated', arguments: { label: 'x' } });
  assert.equal(refused.error?.code, -32603, 'a token that names no user is refused');
  assert.match(refused.error.message, /names no subject/);
  assert.equal((await nobody.call('tasks/get', { taskId })).error?.code, -32603);
  await nobody.client.close();
  await alice.client.close();
  await bob.client.close();
  await handler.close?.();
});

test('TasksExtension options: unknown keys, a storage that is not one, storage options without it and audit without a hook are refused; audit records reach onaudit', async () => {
  assert.throws(() => new mod.TasksExtension({ principle: () => null }), /options\.principle is not an option \(known here: engine, engineOptions, principal, quotaKey, onerror, onaudit/);
  assert.throws(() => new mod.TasksExtension({ storage: {} }), /options\.storage\.load must be a function/);
  assert.throws(() => new mod.TasksExtension({ leaseMs: 3000 }), /options\.leaseMs is an option of the storage mode: it needs options\.storage/);
  assert.throws(() => new mod.TasksExtension({ engineOptions: { storage: { leaseMs: 3000 } } }), /give options\.storage/);
  const storage = { load: async () => null, loadContext: async () => [], write: async (ps) => ps.map(() => null) };
  const { TextTaskEngine } = await pkg.importEsm();
  assert.throws(() => new mod.TasksExtension({ storage, engine: new TextTaskEngine() }), /give storage or engine, not both/);
  assert.throws(() => new mod.TasksExtension({ storage, cursorKey: 'short' }), /cursorKey must be 32 hexadecimal digits/);
  assert.throws(() => new mod.TasksExtension({ engineOptions: { audit: true } }), /audit needs onaudit/);
  const records = [];
  const { serve } = setup({ onaudit: (record) => records.push(record) });
  const alice = await officialClient(serve, 'alice-token');
  const bob = await officialClient(serve, 'bob-token');
  const taskId = await alice.startTask('audited');
  await bob.call('tasks/get', { taskId });
  assert.ok(records.some((r) => r.kind === 'audit' && r.action === 'created' && r.taskId === taskId), JSON.stringify(records));
  assert.ok(records.some((r) => r.taskId === taskId && r.context !== records.find((c) => c.action === 'created').context), 'the refused access of another principal is recorded');
  await alice.client.close();
  await bob.client.close();
});

test('2025-11-25: a tasks/result the client abandons stops holding one of the task\'s waiter places', { timeout: 30_000 }, async () => {
  const { serve, release, handler } = setup({ ...BY_SUBJECT, engineOptions: { pollIntervalMs: 50, limits: { maxWaitersPerTask: 1 } } });
  const post = (id, method, params, signal) =>
    serve(URL_, {
      method: 'POST',
      signal,
      headers: { authorization: 'Bearer alice-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  const created = await post(1, 'tools/call', { name: 'gated', arguments: { label: 'held' }, task: { ttl: 60_000 } });
  const taskId = JSON.parse((await created.text()).split('\n').find((l) => l.startsWith('data:')).slice(5)).result.task.taskId;
  for (let n = 0; n < 3; n++) {
    const controller = new AbortController();
    const waiting = post(10 + n, 'tasks/result', { taskId }, controller.signal).then((r) => r.text()).catch((err) => err);
    await sleep(100);
    controller.abort();
    await waiting;
    await sleep(50);
  }
  const last = post(20, 'tasks/result', { taskId }).then((r) => r.text());
  await sleep(100);
  release('held');
  const answered = await Promise.race([last, sleep(5000).then(() => '')]);
  assert.match(answered, /held done for alice/, `the fourth tasks/result is served, not refused: ${answered}`);
  await handler.close?.();
});
