// P8: what an HTTP request costs. The SDK 2.x server hosted as the README recommends
// (createMcpHandler + TasksExtension, served by tasks.fastPath(toNodeHandler(...)) over node:http),
// and without the fast path, against the floor: a
// bare node:http server answering the same JSON bytes. One client (fetch, keep-alive), sequential
// round trips, the hostings measured in turn within each round. Per op: a task `tools/call`
// (create), `tasks/get` of a completed task, a plain `tools/call`. Servers: p8-server.mjs, and
// examples/sdk2-server as it ships (seven tools registered per request, the engine's default
// limits: the run stays far below its rate limit), each in its own process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_DIR, PKG_DIR, REPO_ROOT, quantile } from './lib.mjs';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'p7-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
export const P7_OPS = ['create', 'get', 'plain'];

async function start(dir, env, script = 'p8-server.mjs') {
  const child = spawn(process.execPath, [script], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const m = /listening on (\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => reject(new Error(`p8-server ${env.MODE} exited (${code}): ${output}`)));
  });
  const stop = () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')));
  return { url, stop };
}

/** `call(method, params)` → { text, reply } over fetch, with the 2026-07-28 headers. */
function client(url) {
  let seq = 0;
  return async (method, params) => {
    const id = ++seq;
    const name = method === 'tools/call' ? params.name : params.taskId;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': name,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } }),
    });
    const text = await response.text();
    const reply = JSON.parse(text);
    if (reply.id !== id || reply.error !== undefined) throw new Error(`${method}: HTTP ${response.status} ${text.slice(0, 300)}`);
    return { text, reply };
  };
}

const OPS = {
  create: (target) => (target.mode === 'example' ? ['tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }] : ['tools/call', { name: 'report', arguments: { topic: 'q3' } }]),
  get: (target) => ['tasks/get', { taskId: target.taskId }],
  plain: () => ['tools/call', { name: 'greet', arguments: { name: 'Ada' } }],
};

/** A completed task of the server behind `call`, to poll. */
async function completedTask(call, mode) {
  const { reply } = await call(...OPS.create({ mode }));
  const { taskId } = reply.result;
  for (;;) {
    const got = await call(...OPS.get({ taskId }));
    if (got.reply.result.status === 'completed') return taskId;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** `n` sequential round trips of `op`: the ms of each, pushed to `into`. */
async function timeOp(target, op, n, into = []) {
  const [method, params] = OPS[op](target);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await target.call(method, params);
    into.push(performance.now() - t);
  }
  return into;
}

/**
 * The hostings of a run (p8-server.mjs's modes, and `example`: examples/sdk2-server). `reused`,
 * `light` and `engine-only` are left out by default (figures in pkg-template/README.md);
 * BENCH_P8_MODES=a,b,... picks.
 */
export const P7_MODES = (process.env.BENCH_P8_MODES ?? 'floor,floor-web,per-request,fast,fast-reused,example,node-engine').split(',');
/** Ops measured per hosting (the engine-only bounds answer tasks/get only). */
const opsOf = (mode) => (mode === 'engine-only' || mode === 'node-engine' ? ['get'] : P7_OPS);

export async function benchHttp({ n = 10, rounds = 16, warmup = 30, modes = P7_MODES } = {}) {
  process.env.PKG_DIR = PKG_DIR;
  const { installWithSdk2 } = await import('../sdk2/harness.mjs');
  const pkg = installWithSdk2('mcp-task-core-p7-');
  const servers = [];
  const launch = async (mode, env = {}) => {
    const s = { mode, ...(await (mode === 'example' ? start(pkg.dir, { PORT: '0' }, 'server.mjs') : start(pkg.dir, { MODE: mode, ...env }))) };
    servers.push(s);
    return s;
  };
  try {
    fs.copyFileSync(path.join(BENCH_DIR, 'p8-server.mjs'), path.join(pkg.dir, 'p8-server.mjs'));
    fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
    if (!modes.includes('floor') || !modes.includes('per-request')) throw new Error('P8 needs the floor and per-request modes');
    const floors = modes.filter((m) => m.startsWith('floor'));
    const hosted = await Promise.all(modes.filter((m) => !m.startsWith('floor')).map((m) => launch(m)));
    const targets = [];
    for (const s of hosted) {
      const call = client(s.url);
      targets.push({ mode: s.mode, call, taskId: await completedTask(call, s.mode) });
    }
    // The floors answer the bytes the README hosting answered, each under the request's id.
    const first = targets.find((t) => t.mode === 'per-request');
    const replies = {};
    for (const op of P7_OPS) {
      const [method, params] = OPS[op](first);
      const { reply } = await first.call(method, params);
      replies[method === 'tools/call' ? `tools/call:${params.name}` : method] = JSON.stringify({ ...reply, id: 0 });
    }
    const floorServers = await Promise.all(floors.map((m) => launch(m, { FLOOR_REPLIES: JSON.stringify(replies) })));
    targets.unshift(...floorServers.map((s) => ({ mode: s.mode, call: client(s.url), taskId: first.taskId })));

    for (const t of targets) for (const op of opsOf(t.mode)) await timeOp(t, op, warmup);
    const samples = Object.fromEntries(targets.map((t) => [t.mode, Object.fromEntries(opsOf(t.mode).map((op) => [op, []]))]));
    for (let r = 0; r < rounds; r++) {
      // Short blocks of each op on every hosting in turn, so load drift hits all alike.
      for (const op of P7_OPS) for (const t of targets) if (opsOf(t.mode).includes(op)) await timeOp(t, op, n, samples[t.mode][op]);
    }
    // Per hosting and op: the median round trip (ms) and the 90th percentile.
    const stat = (q) => Object.fromEntries(Object.entries(samples).map(([mode, byOp]) => [mode, Object.fromEntries(Object.entries(byOp).map(([op, xs]) => [op, quantile(xs, q)]))]));
    return { n, rounds, warmup, modes: targets.map((t) => t.mode), ms: stat(0.5), p90: stat(0.9) };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    pkg.cleanup();
  }
}
