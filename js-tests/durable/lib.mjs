// Shared pieces of the durable-storage tests: a real redis-server (Debian's, installed by
// scripts/setup.sh) on 127.0.0.1 with AOF fsync always, MCP server processes on it
// (fixtures/redis-server.mjs), our round-robin proxy, and a small JSON-RPC client.
// Every process started here is stopped by its PID.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SERVER_FIXTURE = path.join(HERE, 'fixtures', 'redis-server.mjs');
/** The SDK 2.x server (TasksExtension on Redis, 2026-07-28): `startServer({ fixture: SDK2_FIXTURE })`. */
export const SDK2_FIXTURE = path.join(HERE, 'fixtures', 'sdk2-redis-server.mjs');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TCP port free right now on 127.0.0.1, for a process started next that binds it itself
 * (redis-server). Chosen below the kernel's ephemeral range: a port the kernel hands out for
 * `listen(0)` is also what it hands the many outgoing connections of the tests running
 * alongside, and one of them can take it before the server binds (seen in CI as a cluster
 * node's "Address already in use").
 */
export async function freePort() {
  const [low] = ephemeralRange();
  const from = 10_000;
  const span = Math.max(1000, low - from);
  for (let tries = 0; ; tries++) {
    const port = from + Math.floor(Math.random() * span);
    if (await canBind(port)) return port;
    if (tries > 200) throw new Error(`no free TCP port found in ${from}..${from + span} after 200 tries`);
  }
}

function ephemeralRange() {
  try {
    return fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    return [32768, 60999];
  }
}

function canBind(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Waits until `check()` is truthy (polling), or fails naming `what` (or `what()`) after `ms`. */
export async function until(check, what, ms = 10_000, every = 25) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await sleep(every);
  }
}

function waitForLine(child, pattern, what, ms = 15_000) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what}: no line matching ${pattern} within ${ms} ms; output:\n${seen}`)), ms);
    const onData = (d) => {
      seen += d;
      const m = seen.match(pattern);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}) before ${pattern}; output:\n${seen}`));
    });
  });
}

/**
 * After an instance was killed at `killedAt`: waits until every task of `ids` is failed by its
 * lease, as `read(id)` shows it (until then each keeps the status `wasStatus(id)`), and checks
 * when: not before the lease could have run out (`leaseMs - pollMs`, the last renewal), at most
 * 1 s after it. `check(task)` looks at each failed task too. Returns `{ min, max }` ms after the kill.
 */
export async function untilFailedByLease({ ids, read, wasStatus, killedAt, leaseMs, pollMs, check = () => {} }) {
  const failedAfter = new Map();
  await until(
    async () => {
      for (const id of ids) {
        if (failedAfter.has(id)) continue;
        const task = await read(id);
        if (task.status === 'failed') {
          failedAfter.set(id, Date.now() - killedAt);
          assert.match(task.statusMessage, /lease ran out/, `${id}: ${task.statusMessage}`);
          check(task);
        } else assert.equal(task.status, wasStatus(id), `${id} before its lease ran out`);
      }
      return failedAfter.size === ids.length;
    },
    'the lease to fail the dead worker’s tasks',
    leaseMs + 3000,
    50,
  );
  const times = [...failedAfter.values()];
  const [min, max] = [Math.min(...times), Math.max(...times)];
  assert.ok(min >= leaseMs - pollMs - 50, `failed ${min} ms after the kill: before the lease could have run out`);
  assert.ok(max <= leaseMs + 1000, `failed ${max} ms after the kill: later than leaseMs (${leaseMs}) + 1 s`);
  return { min, max };
}

/**
 * redis-server on 127.0.0.1 with a free port, AOF on (appendfsync always), RDB off, data in a
 * fresh temp dir. `restart()` starts it again on the same port and dir (the AOF is replayed).
 */
export async function startRedis() {
  const bin = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(bin, 'redis-server not found: run scripts/setup.sh (it installs Debian redis-server)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-redis-'));
  const port = await freePort();
  const r = {
    port,
    dir,
    child: null,
    async start() {
      const child = spawn(
        bin,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir, '--daemonize', 'no', '--protected-mode', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout.setEncoding('utf8');
      r.child = child;
      await waitForLine(child, /Ready to accept connections/, 'redis-server');
    },
    /** SIGKILL (nothing flushed beyond what fsync already wrote). */
    async kill(signal = 'SIGKILL') {
      const child = r.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, signal);
      await exited;
    },
    async restart() {
      await r.kill();
      await r.start();
    },
    async stop() {
      await r.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await r.start();
  return r;
}

/**
 * One MCP server process on Redis (`fixture`: fixtures/redis-server.mjs, the SDK 1.x store, or
 * SDK2_FIXTURE). `events` collects its JSON lines.
 */
export async function startServer({ fixture = SERVER_FIXTURE, redisPort, name, leaseMs = 3000, pollMs = 200, storageTimeoutMs = 1500, port = 0, cursorKey, pageSize }) {
  const child = spawn(
    process.execPath,
    [
      fixture,
      ...['--redis-port', redisPort, '--name', name, '--lease-ms', leaseMs, '--poll-ms', pollMs, '--storage-timeout-ms', storageTimeoutMs, '--port', port].map(String),
      ...(pageSize !== undefined ? ['--page-size', String(pageSize)] : []),
      ...(cursorKey ? ['--cursor-key', cursorKey] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: process.env },
  );
  child.stdout.setEncoding('utf8');
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const events = [];
  let buffered = '';
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line));
    }
  });
  const [, listening] = await waitForLine(child, /LISTENING (\d+)/, `server ${name}`);
  return {
    name,
    port: Number(listening),
    url: `http://127.0.0.1:${listening}/mcp`,
    child,
    events,
    stderr: () => stderr,
    eventsOf: (taskId) => events.filter((e) => e.taskId === taskId),
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, signal);
      await exited;
    },
  };
}

/**
 * Our round-robin HTTP proxy on 127.0.0.1: request n goes to backends[n % backends.length];
 * the reply carries `x-served-by` (the backend's name).
 */
export async function startProxy(backends) {
  let n = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const backend = backends[n++ % backends.length];
    const upstream = http.request(
      { host: '127.0.0.1', port: backend.port, path: req.url, method: req.method, headers: req.headers, agent },
      (up) => {
        res.writeHead(up.statusCode, { ...up.headers, 'x-served-by': backend.name });
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'x-served-by': backend.name });
      res.end(`proxy: ${backend.name} unreachable: ${err.message}`);
    });
    req.pipe(upstream);
  });
  // Idle keep-alive sockets outlive any pause of a test, so a reused socket is never one the
  // server is closing (that race shows up as ECONNRESET).
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve), agent.destroy())),
  };
}

let nextId = 1;
const clientAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** The `_meta` envelope of a 2026-07-28 request: the tasks extension and form elicitation declared. */
const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'durable-tests', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** The JSON-RPC message answering `id` in a JSON or SSE body. */
function messageOf(text, id) {
  if (!text.startsWith('event:') && !text.startsWith('data:')) return JSON.parse(text);
  const found = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)))
    .find((m) => m.id === id && m.method === undefined);
  if (found === undefined) throw new Error('no response in the SSE stream');
  return found;
}

/**
 * One JSON-RPC request over Streamable HTTP (JSON response mode). Returns
 * `{ result?, error?, servedBy, status }`; `timeoutMs` bounds the wait. `modern`: a 2026-07-28
 * request (the envelope, Mcp-Method and Mcp-Name headers), as the SDK 2.x server takes it.
 */
export function rpc(url, method, params, { timeoutMs = 10_000, modern = false } = {}) {
  const id = nextId++;
  const headers = { 'mcp-protocol-version': '2025-11-25' };
  if (modern) {
    params = { ...params, _meta: { ...params?._meta, ...MODERN_ENVELOPE } };
    const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
    Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method }, typeof name === 'string' ? { 'mcp-name': name } : {});
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent: clientAgent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
          'content-length': Buffer.byteLength(body),
        },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const servedBy = res.headers['x-served-by'];
          let msg;
          try {
            msg = messageOf(text, id);
          } catch {
            return resolve({ status: res.statusCode, servedBy, raw: text });
          }
          resolve({ ...msg, status: res.statusCode, servedBy });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** tools/call as a task; returns the CreateTaskResult's task (asserting there is one). */
export async function createTask(url, name, args, ttl = 600_000) {
  const r = await rpc(url, 'tools/call', { name, arguments: args, task: { ttl } });
  assert.ok(r.result?.task?.taskId, `tools/call ${name} did not create a task: ${JSON.stringify(r)}`);
  return { task: r.result.task, servedBy: r.servedBy };
}
