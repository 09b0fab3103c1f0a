// Interop with the official Rust SDK, the other way round from js-tests/sdk2/rmcp.test.mjs: an
// rmcp 3.11 task server (interop/rmcp-client's second binary, rmcp-task-server: rmcp's own
// TaskManager behind its Streamable HTTP service) driven by OUR TaskRequestor speaking the tasks
// extension (2026-07-28) over fetch. Each request carries the 2026-07-28 standard headers
// (MCP-Protocol-Version, Mcp-Method, and Mcp-Name from the `send` output), which rmcp checks
// against the body. A task with a delay runs to `completed` through tasks/get; a task asks for
// input (inputRequests) answered by tasks/update; a plain call is answered at once; an operation
// error ends `failed`; a cancelled task ends `cancelled`. scripts/test-all.sh builds the crate
// first; `cargo build` is a no-op then.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { installPackage, REPO_ROOT } from '../helpers/package.mjs';

const run = promisify(execFile);
const CRATE = path.join(REPO_ROOT, 'interop', 'rmcp-client');
const BINARY = path.join(CRATE, 'target', 'debug', 'rmcp-task-server');
const VERSION = '2026-07-28';

/** The `data` of each event of a text/event-stream body, or the JSON body. */
async function messagesOf(res) {
  const body = await res.text();
  if (!(res.headers.get('content-type') || '').includes('text/event-stream')) return body ? [body] : [];
  return body
    .replace(/\r\n/g, '\n')
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter(Boolean);
}

/** POSTs one JSON-RPC request with the 2026-07-28 standard headers. */
function post(url, message, mcpName) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': JSON.parse(message).method,
  };
  if (mcpName != null) headers['mcp-name'] = mcpName;
  return fetch(url, { method: 'POST', headers, body: message });
}

/** A TaskRequestor pumped over fetch: every send goes out, every answer comes back in. */
class Driver {
  constructor(mcp, url) {
    this.url = url;
    this.requestor = new mcp.TextTaskRequestor({ dialect: VERSION, pollFloorMs: 20 });
    this.sent = []; // { method, mcpName, status }
    this.events = [];
    this.waiters = [];
    this.timer = null;
  }

  /** Resolves with the first event (already seen or to come) matching `pred`. */
  next(pred) {
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  pump() {
    for (let out; (out = this.requestor.pollOutput()); ) {
      if (out.kind === 'send') {
        const record = { method: JSON.parse(out.message).method, mcpName: out.mcpName, message: out.message };
        this.sent.push(record);
        if (process.env.RMCP_SERVER_LOG) console.error(`-> ${record.method} [Mcp-Name: ${out.mcpName}]`);
        post(this.url, out.message, out.mcpName)
          .then(async (res) => {
            record.status = res.status;
            for (const m of await messagesOf(res)) this.requestor.handle(m);
          })
          .catch(() => this.requestor.requestFailed(out.requestId))
          .finally(() => this.pump());
        continue;
      }
      this.events.push(out);
      if (process.env.RMCP_SERVER_LOG) console.error(`${out.kind} ${out.taskId ?? out.callId} ${out.status ?? ''} ${out.task ?? out.response ?? out.request ?? ''}`);
      this.waiters = this.waiters.filter((w) => !(w.pred(out) && (w.resolve(out), true)));
    }
    clearTimeout(this.timer);
    const due = this.requestor.nextDeadline();
    if (due !== null) {
      this.timer = setTimeout(() => {
        this.requestor.handleTimeout();
        this.pump();
      }, Math.max(0, due - Date.now()));
    }
  }

  /** Calls `name` as a task (the extension is declared; rmcp decides); returns the call id. */
  call(name, args, meta) {
    const id = this.requestor.call('tools/call', JSON.stringify({ name, arguments: args, ...(meta && { _meta: meta }) }), true);
    this.pump();
    return id;
  }

  close() {
    clearTimeout(this.timer);
  }
}

let mcp;
let pkg;
let server;
let url;
let serverOut = '';

before(async () => {
  await run('cargo', ['build', '--locked', '--quiet', '--manifest-path', path.join(CRATE, 'Cargo.toml')], { timeout: 900_000, maxBuffer: 1 << 24 });
  assert.ok(fs.existsSync(BINARY), `${BINARY} built`);
  pkg = installPackage({ prefix: 'mcp-task-core-rmcp-server-' });
  mcp = await pkg.importEsm();
  server = spawn(BINARY, ['0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (serverOut += d));
  server.stderr.on('data', (d) => (serverOut += d));
  server.exited = new Promise((resolve) => server.on('exit', resolve));
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`rmcp-task-server did not listen:\n${serverOut}`)), 20_000);
    server.stdout.on('data', () => {
      const m = /^listening on (http:\S+)$/m.exec(serverOut);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.exited.then(() => reject(new Error(`rmcp-task-server exited:\n${serverOut}`)));
  });
});

after(async () => {
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
  pkg?.cleanup();
});

const find = (calls, kind) => (o) => o.kind === kind && (calls.includes(o.callId) || calls.includes(o.taskId));

test('rmcp 3.11 (the Rust SDK) as a 2026-07-28 task server, driven by TaskRequestor: completed, input, plain, failed, cancelled', { timeout: 60_000 }, async () => {
  // server/discover picks the dialect: rmcp lists 2026-07-28 and the tasks extension.
  const discover = JSON.stringify({
    jsonrpc: '2.0',
    id: 'discover',
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const [answer] = await messagesOf(await post(url, discover));
  const d = new Driver(mcp, url);
  try {
    assert.equal(d.requestor.useServerInfo(JSON.stringify(JSON.parse(answer).result)), VERSION);

    // 1. A task with a delay: created, polled with tasks/get, completed with the tool's result.
    const echo = d.call('slow_echo', { text: 'hi from mcp-task-core', delayMs: 300 });
    const created = await d.next(find([echo], 'created'));
    assert.equal(JSON.parse(created.task).status, 'working');
    assert.equal(JSON.parse(created.task).pollIntervalMs, 50);
    const done = await d.next(find([created.taskId], 'finished'));
    assert.equal(done.status, 'completed');
    const response = JSON.parse(done.response);
    assert.equal(response.id, JSON.parse(echo));
    assert.equal(response.result.content[0].text, 'echo: hi from mcp-task-core');
    const gets = d.sent.filter((s) => s.method === 'tasks/get' && s.mcpName === created.taskId);
    assert.ok(gets.length >= 2, `polled with tasks/get: ${gets.length}`);

    // 2. A task that asks for input (inputRequests), answered through tasks/update. rmcp may ask
    // only a client that declared elicitation (mrtr.mdx): the requestor adds the extension to the
    // capabilities the host declares; without elicitation the tool refuses at once.
    const refused = d.call('ask_name', {});
    assert.equal(JSON.parse((await d.next(find([refused], 'plainResponse'))).response).result.isError, true);
    const ask = d.call('ask_name', {}, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } });
    const asked = await d.next(find([ask], 'created')).then((c) => d.next(find([c.taskId], 'inputRequest')));
    const request = JSON.parse(asked.request);
    assert.equal(request.method, 'elicitation/create');
    assert.equal(request.params.message, 'What is your name?');
    d.requestor.respond(asked.requestId, JSON.stringify({ action: 'accept', content: { name: 'Ferris' } }));
    d.pump();
    const greeted = await d.next(find([asked.taskId], 'finished'));
    assert.equal(greeted.status, 'completed');
    assert.equal(JSON.parse(greeted.response).result.content[0].text, 'Hello, Ferris!');
    assert.ok(d.sent.some((s) => s.method === 'tasks/update' && s.mcpName === asked.taskId && s.status === 200));
    const askSent = JSON.parse(d.sent.find((s) => s.method === 'tools/call' && s.message.includes('elicitation')).message);
    assert.deepEqual(askSent.params._meta['io.modelcontextprotocol/clientCapabilities'], {
      elicitation: { form: {} },
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });

    // 3. A plain call (no declaration): rmcp runs the tool and answers at once. Every 2026-07-28
    // request carries clientCapabilities (rmcp answers -32602 without), here without the extension.
    const plain = d.requestor.call('tools/call', JSON.stringify({ name: 'slow_echo', arguments: { text: 'plain', delayMs: 10 } }));
    d.pump();
    const answered = await d.next(find([plain], 'plainResponse'));
    assert.equal(JSON.parse(answered.response).result.content[0].text, 'echo: plain');
    const plainSent = JSON.parse(d.sent.find((s) => s.message.includes('"text":"plain"')).message);
    assert.deepEqual(plainSent.params._meta['io.modelcontextprotocol/clientCapabilities'], {});

    // 4. An operation error: the task ends failed with the JSON-RPC error.
    const failing = d.call('failing_job', {});
    const failedTask = await d.next(find([failing], 'created'));
    const failed = await d.next(find([failedTask.taskId], 'finished'));
    assert.equal(failed.status, 'failed');
    const error = JSON.parse(failed.response).error;
    assert.equal(error.code, -32603);
    assert.match(error.message, /disk quota exceeded/);

    // 5. Cancel: acknowledged, then (eventually consistent) the task ends cancelled.
    const long = d.call('slow_echo', { text: 'never', delayMs: 30_000 });
    const second = await d.next(find([long], 'created'));
    d.requestor.cancel(second.taskId);
    d.pump();
    const ack = await d.next(find([second.taskId], 'cancelAnswered'));
    assert.equal(JSON.parse(ack.response).error, undefined, `tasks/cancel acknowledged: ${ack.response}`);
    const cancelled = await d.next(find([second.taskId], 'finished'));
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(d.requestor.tracked(), []);

    // Every request named its method (and task or tool) in headers rmcp checks; all were taken.
    for (const s of d.sent) {
      assert.equal(s.status, 200, `${s.method} accepted: ${s.message}`);
      assert.equal(s.mcpName, s.method === 'tools/call' ? JSON.parse(s.message).params.name : JSON.parse(s.message).params.taskId);
    }
    assert.deepEqual([...new Set(d.sent.map((s) => s.method))].sort(), ['tasks/cancel', 'tasks/get', 'tasks/update', 'tools/call']);
  } finally {
    d.close();
  }
});

test('rmcp rejects a 2026-07-28 request whose Mcp-Name header is missing or disagrees with the body', async () => {
  const requestor = new mcp.TextTaskRequestor({ dialect: VERSION });
  requestor.call('tools/call', JSON.stringify({ name: 'slow_echo', arguments: { text: 'x' } }), true);
  const out = requestor.pollOutput();
  assert.equal(out.mcpName, 'slow_echo');
  for (const name of [null, 'other_tool']) {
    const res = await post(url, out.message, name);
    assert.equal(res.status, 400, `Mcp-Name ${name}`);
    await res.text();
  }
});
