// Shared by the js-tests/sdk2 tests: the packed package installed next to the SDK 2.x packages
// (as a user's project has them), and an in-process client for a `createMcpHandler` handler
// (web-standard `fetch(Request)`: no sockets) that speaks 2026-07-28 or 2025-11-25.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { JS_TESTS_DIR, installPackage } from '../helpers/package.mjs';

export const EXTENSION_ID = 'io.modelcontextprotocol/tasks';
const PEERS = ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/node', '@modelcontextprotocol/ext-tasks', '@modelcontextprotocol/core', 'zod'];

/** The packed package in a scratch project with the SDK 2.x packages linked beside it. */
export function installWithSdk2(prefix = 'mcp-task-core-sdk2-') {
  const pkg = installPackage({ prefix });
  for (const name of PEERS) {
    const from = path.join(JS_TESTS_DIR, 'node_modules', name);
    if (!fs.existsSync(from)) continue;
    const to = path.join(pkg.dir, 'node_modules', name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(from, to, 'dir');
  }
  fs.writeFileSync(path.join(pkg.dir, 'probe-server.mjs'), "export * from 'mcp-task-core/server';\n");
  return { ...pkg, importServer: () => import(pathToFileURL(path.join(pkg.dir, 'probe-server.mjs')).href) };
}

/** The per-request `_meta` envelope of a 2026-07-28 request. */
export function envelope({ declared = true, capabilities = {} } = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'sdk2-tests', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': { ...capabilities, extensions: declared ? { [EXTENSION_ID]: {} } : {} },
  };
}

/** Reads a JSON-RPC response from a JSON or SSE body (the message that answers `id`). */
export async function responseBody(response, id) {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return text === '' ? null : JSON.parse(text);
  let found = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const message = JSON.parse(line.slice(5));
    if (message.id === id && message.method === undefined) found = message;
  }
  return found;
}

/**
 * A 2026-07-28 client of `handler` (anything with `fetch(Request)`): `call(method, params,
 * opts)` sends one request with the envelope and the standard headers and returns the parsed
 * JSON-RPC response; `opts.declared` (default true) puts the extension in the request's
 * client capabilities; `opts.headers` adds or overrides headers; `opts.authInfo` is passed to
 * the handler.
 */
export function modernClient(handler, { url = 'http://127.0.0.1/mcp' } = {}) {
  let seq = 0;
  const request = (method, params = {}, { declared = true, capabilities, headers = {}, id = ++seq, meta } = {}) => {
    const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
    const h = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method });
    if (typeof name === 'string') h.set('mcp-name', name);
    for (const [k, v] of Object.entries(headers)) h.set(k, v);
    const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...params._meta, ...(meta ?? envelope({ declared, capabilities })) } } };
    return { id, request: new Request(url, { method: 'POST', headers: h, body: JSON.stringify(body) }) };
  };
  return {
    request,
    async call(method, params, opts = {}) {
      const { id, request: req } = request(method, params, opts);
      const response = await handler.fetch(req, opts.authInfo === undefined ? undefined : { authInfo: opts.authInfo });
      const body = await responseBody(response, id);
      assert.ok(body, `${method}: no JSON-RPC response (HTTP ${response.status})`);
      return Object.assign(body, { httpStatus: response.status });
    },
    async result(method, params, opts) {
      const body = await this.call(method, params, opts);
      assert.equal(body.error, undefined, `${method}: ${JSON.stringify(body.error)}`);
      return body.result;
    },
  };
}

/** Polls `tasks/get` until `predicate(task)` holds (or throws after `ms`). */
export async function waitFor(client, taskId, predicate, { ms = 5_000, opts } = {}) {
  const until = Date.now() + ms;
  for (;;) {
    const task = await client.result('tasks/get', { taskId }, opts);
    if (predicate(task)) return task;
    if (Date.now() > until) assert.fail(`task ${taskId} never reached the expected state; last: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * `node file` in `dir` (a scratch project) with `env` added: `{ child, out, exit }`, `out`
 * collecting stdout and stderr, `exit` resolving to `{ code, signal }`.
 */
export function runNode(dir, file, env) {
  const child = spawn(process.execPath, [file], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const state = { out: '' };
  child.stdout.on('data', (d) => (state.out += d));
  child.stderr.on('data', (d) => (state.out += d));
  state.exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return Object.assign(state, { child });
}

/** The URL a `runNode` server prints (`listening on <url>`, as examples/sdk2-server does). */
export function listeningUrl(server, ms = 20_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not listen:\n${server.out}`)), ms);
    server.child.stdout.on('data', () => {
      const m = /^listening on (http:\S+)$/m.exec(server.out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.exit.then(() => reject(new Error(`server exited:\n${server.out}`)));
  });
}

export const terminal = (task) => ['completed', 'failed', 'cancelled'].includes(task.status);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A fetch handler with 2025-11-25 sessions, as examples/sdk2-server keeps them: one
 * `WebStandardStreamableHTTPServerTransport` (and McpServer from `factory`) per session.
 * `sdk` is `@modelcontextprotocol/server`; `fetch(request, { authInfo })` passes the verified token on.
 */
export function sessionful(sdk, factory) {
  const sessions = new Map();
  return {
    sessions,
    async fetch(request, options) {
      const id = request.headers.get('mcp-session-id');
      let transport = id === null ? undefined : sessions.get(id);
      if (transport === undefined) {
        transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, transport) });
        await factory().connect(transport);
      }
      return transport.handleRequest(request, options);
    },
    close: () => Promise.all([...sessions.values()].map((t) => t.close().catch(() => {}))),
  };
}
