// P6: many anonymous clients against examples/sdk2-server (SDK 2.x + mcp-task-core/server) over
// real HTTP, at the engine's default limits. Each client loops: a 2026-07-28 `slow_compute` task
// of 1 s, `tasks/get` at the interval the task advertises until it ends, then the next task.
// The example keys anonymous clients by address (the socket's, set as a header by the server):
// the clients bind distinct loopback addresses (127.0.0.2, ...) as distinct machines would, or
// share one. Then one client floods `tasks/get` while another polls. Figures only: refusals
// (-32000), other errors, tasks finished, latency.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PKG_DIR, REPO_ROOT } from './lib.mjs';

const LIMIT_EXCEEDED = -32000;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'p6-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The example server in a scratch project with the package and the SDK 2.x packages; resolves with its URL and a stop(). */
async function startExample() {
  process.env.PKG_DIR = PKG_DIR;
  const { installWithSdk2 } = await import('../sdk2/harness.mjs');
  const pkg = installWithSdk2('mcp-task-core-p6-');
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
  const child = spawn(process.execPath, ['server.mjs'], { cwd: pkg.dir, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const m = /listening on (\S+)/.exec(output);
      if (m) resolve(new URL(m[1]));
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => reject(new Error(`examples/sdk2-server exited (${code}): ${output}`)));
  });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    pkg.cleanup();
  };
  return { url, stop };
}

/** A 2026-07-28 client bound to `localAddress`: `call(method, params)` → the JSON-RPC response. */
function client(url, localAddress) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, localAddress });
  let seq = 0;
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } });
      const name = method === 'tools/call' ? params.name : params.taskId;
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': method,
            'mcp-name': name,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => {
            const messages = (res.headers['content-type'] ?? '').startsWith('text/event-stream')
              ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)))
              : text === '' ? [] : [JSON.parse(text)];
            const answer = messages.find((m) => m.id === id && m.method === undefined);
            answer ? resolve(answer) : reject(new Error(`${method}: no answer (HTTP ${res.statusCode}): ${text.slice(0, 200)}`));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}

/** Tallies of one run. */
function tally() {
  return { requests: 0, refused: 0, errors: 0, finished: 0, getMs: [], firstError: null };
}

function note(t, reply, ms, isGet) {
  t.requests += 1;
  if (isGet) t.getMs.push(ms);
  if (reply.error === undefined) return true;
  if (reply.error.code === LIMIT_EXCEEDED) t.refused += 1;
  else t.errors += 1;
  t.firstError ??= reply.error;
  return false;
}

/** One client's loop until `until`: a 1 s task, polled at its advertised interval, then the next. */
async function politeClient(c, t, until) {
  while (Date.now() < until) {
    const created = await c.call('tools/call', { name: 'slow_compute', arguments: { seconds: 1 } });
    if (!note(t, created, 0, false)) {
      await sleep(200);
      continue;
    }
    const taskId = created.result.taskId ?? created.result.task?.taskId;
    const interval = created.result.pollIntervalMs ?? created.result.task?.pollIntervalMs ?? 1000;
    t.interval = interval;
    for (;;) {
      await sleep(interval);
      const started = performance.now();
      const got = await c.call('tasks/get', { taskId });
      if (note(t, got, performance.now() - started, true) && ['completed', 'failed', 'cancelled'].includes(got.result.status)) {
        t.finished += 1;
        break;
      }
      if (Date.now() > until + 10_000) return;
    }
  }
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** `clients` polite clients for `seconds`, from `addresses(i)`. */
async function politeRun(url, { clients, seconds, address }) {
  const t = tally();
  const cs = Array.from({ length: clients }, (_, i) => client(url, address(i)));
  const started = Date.now();
  await Promise.all(cs.map((c) => politeClient(c, t, started + seconds * 1000)));
  for (const c of cs) c.close();
  const elapsed = (Date.now() - started) / 1000;
  return { ...t, getMs: undefined, clients, seconds, perSecond: t.requests / elapsed, getP50: quantile(t.getMs, 0.5), getP99: quantile(t.getMs, 0.99) };
}

/** One client sends `tasks/get` with 64 in flight for `seconds` while a polite client polls. */
async function floodRun(url, { seconds }) {
  const flooder = client(url, '127.0.0.250');
  const created = await flooder.call('tools/call', { name: 'slow_compute', arguments: { seconds: seconds + 5 } });
  const taskId = created.result.taskId ?? created.result.task?.taskId;
  const flood = tally();
  const other = tally();
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  const worker = async () => {
    while (Date.now() < until) note(flood, await flooder.call('tasks/get', { taskId }), 0, false);
  };
  const polite = client(url, '127.0.0.251');
  await Promise.all([...Array.from({ length: 64 }, worker), politeClient(polite, other, until)]);
  flooder.close();
  polite.close();
  return { flood: { ...flood, getMs: undefined, perSecond: flood.requests / ((Date.now() - started) / 1000) }, other: { ...other, getMs: undefined } };
}

export async function benchClients({ seconds = 60, sharedSeconds = 20, floodSeconds = 5 } = {}) {
  const { url, stop } = await startExample();
  try {
    const distinct = await politeRun(url, { clients: 100, seconds, address: (i) => `127.0.0.${2 + i}` });
    const shared = await politeRun(url, { clients: 100, seconds: sharedSeconds, address: () => '127.0.0.1' });
    const flood = await floodRun(url, { seconds: floodSeconds });
    return { distinct, shared, flood };
  } finally {
    await stop();
  }
}
