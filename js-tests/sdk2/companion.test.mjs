// Companion tools (TasksExtension({ companionTools })): an official SDK 2.x client that does not
// speak tasks calls a task tool, gets the task named at once, and follows it with the status and
// cancel tools, scoped like tasks/get (another user's task is not found). Clients that speak tasks
// never see the companion tools; without the option nothing changes (-32021).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertValid } from '../helpers/schema.mjs';
import { EXTENSION_ID, installWithSdk2, modernClient, sessionful, sleep } from './harness.mjs';

let pkg;
let mod;
let sdk;
let clientSdk;
let z;

before(async () => {
  pkg = installWithSdk2('mcp-task-core-companion-');
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  clientSdk = await import('@modelcontextprotocol/client');
  z = await import('zod');
});
after(() => pkg?.cleanup());

const URL_ = 'http://127.0.0.1/mcp';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const BY_SUBJECT = { principal: (authInfo) => authInfo?.extra?.sub ?? null };
const verifier = {
  async verifyAccessToken(token) {
    return { token, clientId: 'app', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: token.replace(/-token$/, '') } };
  },
};

/** A server whose `gated` task tool finishes when the test opens its gate; `aborted` collects cancelled labels. */
function setup(options) {
  const tasks = new mod.TasksExtension({ engineOptions: { pollIntervalMs: 50 }, ...BY_SUBJECT, ...options });
  const gates = new Map();
  const aborted = [];
  const factory = () => {
    const server = new sdk.McpServer({ name: 'companion-test', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'gated', { taskSupport: 'required', inputSchema: z.object({ label: z.string() }) }, async ({ label }, task) => {
      task.signal.addEventListener('abort', () => aborted.push(label));
      await task.setStatus(`waiting on ${label}`);
      await new Promise((resolve) => gates.set(label, resolve));
      return { content: [{ type: 'text', text: `${label} done` }] };
    });
    // Asks for input: a client with no task support could never answer, so nothing is asked.
    tasks.registerTool(server, 'asks', { taskSupport: 'required' }, async (_args, task) => {
      const answer = await task.elicit({ mode: 'form', message: 'Which?', requestedSchema: { type: 'object', properties: {} } }).then(
        () => 'answered',
        (err) => `not asked: ${err.code}`,
      );
      return { content: [{ type: 'text', text: answer }] };
    });
    return server;
  };
  const gate = sdk.requireBearerAuth({ verifier });
  const auth = (handler) => async (input, init) => {
    const request = new Request(input, init);
    const info = await gate(request);
    return info instanceof Response ? info : handler.fetch(request, { authInfo: info });
  };
  const release = (label) => gates.get(label)?.();
  return { tasks, factory, auth, release, aborted, gates };
}

/** An official client with no task support, as `token`'s user, on `mode` ('modern' or 'legacy'). */
async function plainClient(serve, token, mode) {
  const versionNegotiation = { mode: mode === 'modern' ? { pin: '2026-07-28' } : 'legacy' };
  const client = new clientSdk.Client({ name: `plain-${token}`, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation });
  await client.connect(new clientSdk.StreamableHTTPClientTransport(new URL(URL_), { fetch: serve, requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const textOf = (result) => result.content.map((c) => c.text).join('\n');

async function until(predicate, what, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The companion flow for `alice` (and `bob`, another user of the same server). */
async function followAndCancel(alice, bob, { release, aborted, gates }) {
  const listed = await alice.listTools();
  assertValid('ListToolsResult', listed);
  assert.deepEqual(listed.tools.map((t) => t.name).sort(), ['asks', 'gated', 'task_cancel', 'task_status']);
  assert.ok(listed.tools.every((t) => t.execution?.taskSupport === undefined || t.execution.taskSupport === 'forbidden'), 'task tools are plain tools to this client');

  const started = await alice.callTool({ name: 'gated', arguments: { label: 'a' } });
  assert.notEqual(started.isError, true, textOf(started));
  assertValid('CallToolResult', started);
  const taskId = started._meta?.[RELATED_TASK]?.taskId;
  assert.equal(typeof taskId, 'string', JSON.stringify(started));
  assert.match(textOf(started), new RegExp(`task_status.*${taskId}`));

  await until(() => gates.has('a'), 'the work to start');
  const working = await alice.callTool({ name: 'task_status', arguments: { taskId } });
  assert.match(textOf(working), /is working/);
  assert.match(textOf(working), /waiting on a/);

  // Bob, another user, can neither see nor cancel Alice's task.
  const peek = await bob.callTool({ name: 'task_status', arguments: { taskId } });
  assert.equal(peek.isError, true, textOf(peek));
  assert.doesNotMatch(textOf(peek), /working|waiting on a/);
  const theft = await bob.callTool({ name: 'task_cancel', arguments: { taskId } });
  assert.equal(theft.isError, true, textOf(theft));
  assert.deepEqual(aborted, []);

  release('a');
  const done = await until(async () => {
    const status = await alice.callTool({ name: 'task_status', arguments: { taskId } });
    return /is completed/.test(textOf(status)) && status;
  }, 'the outcome');
  assertValid('CallToolResult', done);
  assert.match(textOf(done), /a done/);
  assert.notEqual(done.isError, true);

  const other = await alice.callTool({ name: 'gated', arguments: { label: 'b' } });
  const otherId = other._meta[RELATED_TASK].taskId;
  await until(() => gates.has('b'), 'the second work to start');
  const cancelled = await alice.callTool({ name: 'task_cancel', arguments: { taskId: otherId } });
  assert.notEqual(cancelled.isError, true, textOf(cancelled));
  assert.match(textOf(cancelled), /cancelled/);
  assert.deepEqual(aborted, ['b']);
  assert.match(textOf(await alice.callTool({ name: 'task_status', arguments: { taskId: otherId } })), /is cancelled/);

  // A task's input request is refused to such a client (-32021, nothing sent), even one that
  // declared elicitation: it has no way to answer it.
  const asking = (await alice.callTool({ name: 'asks', arguments: {} }))._meta[RELATED_TASK].taskId;
  const asked = await until(async () => {
    const status = await alice.callTool({ name: 'task_status', arguments: { taskId: asking } });
    return /is completed/.test(textOf(status)) && status;
  }, 'the asking task to finish');
  assert.match(textOf(asked), /not asked: -32021/);
}

test('2026-07-28: a client without the tasks extension follows a task with the companion tools', { timeout: 15_000 }, async () => {
  const ctx = setup({ companionTools: true });
  const serve = ctx.auth(ctx.tasks.withTaskListen(sdk.createMcpHandler(ctx.factory)));
  const alice = await plainClient(serve, 'alice-token', 'modern');
  const bob = await plainClient(serve, 'bob-token', 'modern');
  try {
    await followAndCancel(alice, bob, ctx);
  } finally {
    await Promise.all([alice.close(), bob.close()]);
    ctx.tasks.close();
  }
});

test('2025-11-25: a session without the tasks capability follows a task with the companion tools', { timeout: 15_000 }, async () => {
  const ctx = setup({ companionTools: true });
  const handler = sessionful(sdk, ctx.factory);
  const serve = ctx.auth(handler);
  const alice = await plainClient(serve, 'alice-token', 'legacy');
  const bob = await plainClient(serve, 'bob-token', 'legacy');
  try {
    await followAndCancel(alice, bob, ctx);
  } finally {
    await Promise.all([alice.close(), bob.close()]);
    await handler.close();
    ctx.tasks.close();
  }
});

test('a client that speaks tasks never sees the companion tools and gets a task', { timeout: 15_000 }, async () => {
  const ctx = setup({ companionTools: { status: 'job_status', cancel: 'job_cancel' } });
  const handler = ctx.tasks.withTaskListen(sdk.createMcpHandler(ctx.factory));
  const raw = modernClient({ fetch: ctx.auth(handler) }, { url: URL_ });
  const headers = { authorization: 'Bearer alice-token' };
  const listed = await raw.result('tools/list', {}, { headers });
  assert.deepEqual(listed.tools.map((t) => t.name), ['gated', 'asks']);
  const created = await raw.result('tools/call', { name: 'gated', arguments: { label: 'x' } }, { headers });
  assert.equal(created.resultType, 'task', JSON.stringify(created));
  // Without the extension, the configured names are listed.
  const plain = await raw.result('tools/list', {}, { headers, declared: false });
  assert.deepEqual(plain.tools.map((t) => t.name), ['gated', 'asks', 'job_status', 'job_cancel']);
  ctx.release('x');
  ctx.tasks.close();
});

test('off by default: a client without task support gets -32021 and no companion tools', { timeout: 15_000 }, async () => {
  const ctx = setup({});
  const serve = ctx.auth(ctx.tasks.withTaskListen(sdk.createMcpHandler(ctx.factory)));
  const alice = await plainClient(serve, 'alice-token', 'modern');
  try {
    assert.deepEqual((await alice.listTools()).tools.map((t) => t.name), ['gated', 'asks']);
    await assert.rejects(alice.callTool({ name: 'gated', arguments: { label: 'a' } }), (err) => err.code === -32021);
    assert.throws(() => new mod.TasksExtension({ companionTools: { status: 'same', cancel: 'same' } }), /two different names/);
  } finally {
    await alice.close();
    ctx.tasks.close();
  }
});
