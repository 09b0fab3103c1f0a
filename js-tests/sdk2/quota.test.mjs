// Per-client limits on mcp-task-core/server (SDK 2.4, createMcpHandler, in process), at the
// engine's default limits: anonymous 2026-07-28 clients told apart by their address (the
// `quotaKey: { addressHeader }` option) each spend their own allowance. A hundred of them creating
// and polling at the advertised interval are never refused; a flood from one client still is
// (-32000), without starving the others; finished tasks count by their size, not as running work.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { installWithSdk2, modernClient, responseBody, sessionful, sleep, terminal } from './harness.mjs';

const ADDRESS = 'x-client-address';
const POLL_MS = 200;
const LIMIT_EXCEEDED = -32000;

let pkg;
let sdk;
let mod;
let z;

before(async () => {
  pkg = installWithSdk2();
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => pkg?.cleanup());

/** A server whose tools finish after `ms` (`work`) or when released (`hold`); `now` is the engine's clock. */
function setup({ now } = {}) {
  const tasks = new mod.TasksExtension({
    engineOptions: { pollIntervalMs: POLL_MS, ...(now === undefined ? {} : { now }) },
    quotaKey: { addressHeader: ADDRESS },
  });
  const release = new AbortController();
  const factory = () => {
    const server = new sdk.McpServer({ name: 'quota-test', version: '1.0.0' });
    tasks.install(server);
    const wait = (ms, signal) => new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    tasks.registerTool(server, 'work', { taskSupport: 'required', inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, task) => {
      await wait(ms, task.signal);
      return { content: [{ type: 'text', text: 'done' }] };
    });
    tasks.registerTool(server, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      await wait(60_000, AbortSignal.any([task.signal, release.signal]));
      return { content: [{ type: 'text', text: 'released' }] };
    });
    return server;
  };
  const handler = tasks.withTaskListen(sdk.createMcpHandler(factory));
  return { tasks, client: modernClient(handler), close: () => (release.abort(), tasks.close()) };
}

/** Request options of the client at `address`. */
const from = (address) => ({ headers: { [ADDRESS]: address } });

/** Creates a task; its ID, or the JSON-RPC error. */
async function create(client, address, name, args = {}) {
  const reply = await client.call('tools/call', { name, arguments: args }, from(address));
  return reply.error === undefined ? { taskId: reply.result.taskId ?? reply.result.task?.taskId } : { error: reply.error };
}

test('a hundred anonymous clients creating and polling at the advertised interval are never refused', async () => {
  const { client, close } = setup();
  const until = Date.now() + 4_000;
  const refusals = [];
  let polls = 0;
  let finished = 0;
  const run = async (address) => {
    while (Date.now() < until) {
      const created = await create(client, address, 'work', { ms: 1_000 });
      if (created.error !== undefined) {
        refusals.push(created.error);
        await sleep(POLL_MS);
        continue;
      }
      for (;;) {
        await sleep(POLL_MS);
        const reply = await client.call('tasks/get', { taskId: created.taskId }, from(address));
        polls += 1;
        if (reply.error !== undefined) {
          refusals.push(reply.error);
          if (Date.now() > until + 5_000) return;
        } else if (terminal(reply.result)) {
          finished += 1;
          break;
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: 100 }, (_, i) => run(`10.0.${i >> 8}.${i & 255}`)));
  } finally {
    close();
  }
  assert.ok(polls >= 500 && finished >= 100, `the clients ran (${polls} polls, ${finished} tasks finished)`);
  assert.deepEqual(refusals.slice(0, 3), [], `${refusals.length} requests refused`);
});

test('a flood from one client is refused (-32000) and does not starve another client', async () => {
  // The engine's clock stands still: no token comes back, so the burst is all a client gets.
  const now = Date.now();
  const { client, close } = setup({ now: () => now });
  try {
    const { taskId } = await create(client, '10.0.0.1', 'hold');
    const other = await create(client, '10.0.0.2', 'hold');
    const flood = await Promise.all(Array.from({ length: 1_200 }, () => client.call('tasks/get', { taskId }, from('10.0.0.1'))));
    const refused = flood.filter((r) => r.error !== undefined);
    assert.ok(refused.length >= 150, `the flood is refused past its burst (${refused.length} of 1200)`);
    assert.ok(refused.every((r) => r.error.code === LIMIT_EXCEEDED && /Too many tasks\/\* requests/.test(r.error.message)), JSON.stringify(refused[0]));
    const answer = await client.call('tasks/get', { taskId: other.taskId }, from('10.0.0.2'));
    assert.equal(answer.error, undefined, `another client is still served: ${JSON.stringify(answer.error)}`);
    assert.equal(answer.result.status, 'working');
  } finally {
    close();
  }
});

test('finished tasks do not count as running work; a flood of running tasks is refused per client', async () => {
  const { client, close } = setup();
  try {
    // 1,000 tasks that finish at once, kept for their TTL: the next one is still accepted.
    for (let i = 0; i < 1_000; i += 1) {
      const created = await create(client, '10.0.1.1', 'work', { ms: 0 });
      assert.equal(created.error, undefined, `task ${i}: ${JSON.stringify(created.error)}`);
    }
    await sleep(50);
    const next = await create(client, '10.0.1.1', 'work', { ms: 0 });
    assert.equal(next.error, undefined, `finished tasks count by their size only: ${JSON.stringify(next.error)}`);
    // 1,000 running tasks from one client: the next is refused, another client's is not.
    for (let i = 0; i < 1_000; i += 1) assert.equal((await create(client, '10.0.2.2', 'hold')).error, undefined);
    const refused = await create(client, '10.0.2.2', 'hold');
    assert.equal(refused.error?.code, LIMIT_EXCEEDED);
    assert.match(refused.error.message, /Too many running tasks for this client \(limit 1000\)/);
    assert.equal((await create(client, '10.0.3.3', 'hold')).error, undefined, 'another client still creates');
  } finally {
    close();
  }
});

test('the quotaKey option: refused when malformed; a function decides the key', async () => {
  assert.throws(() => new mod.TasksExtension({ quotaKey: 'x-forwarded-for' }), TypeError);
  assert.throws(() => new mod.TasksExtension({ quotaKey: { header: 'x-forwarded-for' } }), TypeError);
  const seen = [];
  const tasks = new mod.TasksExtension({
    engineOptions: { limits: { maxRunningTasksPerKey: 1 } },
    quotaKey: (ctx, principal) => (seen.push(principal), ctx.http?.req?.headers.get('x-tenant')),
  });
  const handler = tasks.withTaskListen(
    sdk.createMcpHandler(() => {
      const server = new sdk.McpServer({ name: 'quota-fn', version: '1.0.0' });
      tasks.install(server);
      tasks.registerTool(server, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
        await new Promise((resolve) => task.signal.addEventListener('abort', resolve, { once: true }));
        return { content: [] };
      });
      return server;
    }),
  );
  const client = modernClient(handler);
  const tenant = (t) => ({ headers: { 'x-tenant': t } });
  try {
    assert.equal((await client.call('tools/call', { name: 'hold', arguments: {} }, tenant('a'))).error, undefined);
    assert.equal((await client.call('tools/call', { name: 'hold', arguments: {} }, tenant('a'))).error?.code, LIMIT_EXCEEDED);
    assert.equal((await client.call('tools/call', { name: 'hold', arguments: {} }, tenant('b'))).error, undefined, "tenant b's own allowance");
    assert.deepEqual(seen, [null, null, null], 'the function gets the principal (none here)');
  } finally {
    tasks.close();
  }
});

test('by default, a 2025-11-25 session is its own quota key', async () => {
  const tasks = new mod.TasksExtension({ engineOptions: { limits: { maxRunningTasksPerKey: 1 } } });
  const factory = () => {
    const server = new sdk.McpServer({ name: 'quota-sessions', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      await new Promise((resolve) => task.signal.addEventListener('abort', resolve, { once: true }));
      return { content: [] };
    });
    return server;
  };
  // Sessions as examples/sdk2-server keeps them: one transport (and McpServer) per session.
  const { fetch, sessions } = sessionful(sdk, factory);
  const session = async () => {
    let sid = null;
    let seq = 0;
    const post = async (body) => {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
      if (sid !== null) headers['mcp-session-id'] = sid;
      const response = await fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
      sid ??= response.headers.get('mcp-session-id');
      return body.id === undefined ? null : responseBody(response, body.id);
    };
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'quota-test', version: '1.0.0' } };
    assert.equal((await post({ jsonrpc: '2.0', id: ++seq, method: 'initialize', params: init })).error, undefined);
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return () => post({ jsonrpc: '2.0', id: ++seq, method: 'tools/call', params: { name: 'hold', arguments: {}, task: { ttl: 60_000 } } });
  };
  try {
    const a = await session();
    const b = await session();
    assert.equal((await a()).result?.task?.status, 'working');
    const refused = await a();
    assert.equal(refused.error?.code, LIMIT_EXCEEDED, JSON.stringify(refused));
    assert.equal((await b()).result?.task?.status, 'working', 'another anonymous session has its own allowance');
  } finally {
    tasks.close();
    await Promise.all([...sessions.values()].map((t) => t.close()));
  }
});
