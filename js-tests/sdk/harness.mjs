// Shared harness for the SDK tests: the official McpServer / Client of @modelcontextprotocol/sdk
// (js-tests/node_modules, pinned in js-tests/package.json) with a task store under test, over
// InMemoryTransport or real Streamable HTTP on 127.0.0.1 (random port, sessions on).
//
// Deterministic by construction: tools wait on gates the test opens after it has observed the
// state it wants to see, tasks poll every 5 ms, and TTLs run on an injected clock.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  isInitializeRequest,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PKG_DIR = process.env.PKG_DIR || path.join(REPO_ROOT, 'pkg');
if (!fs.existsSync(path.join(PKG_DIR, 'adapters/sdk-v1.js'))) {
  throw new Error(`${PKG_DIR}/sdk.js missing: run scripts/build-pkg.sh`);
}
/** The package's `mcp-task-core/sdk` entry (ESM), loaded from the built pkg/. */
export const ours = await import(pathToFileURL(path.join(PKG_DIR, 'adapters/sdk-v1.js')).href);
export { CallToolResultSchema, CreateTaskResultSchema, McpError, InMemoryTaskStore, InMemoryTaskMessageQueue };

export const POLL_MS = 5;
export const T0 = Date.parse('2025-11-25T00:00:00.000Z');

/** A clock that moves only when told to. */
export function manualClock(start = T0) {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms), set: (ms) => (t = ms) };
}

/**
 * Store factories. `kind`: 'wasm' (ours) or 'sdk' (InMemoryTaskStore). Both get a queue;
 * ours runs on an injected clock (timer off), so TTL tests need no sleeps.
 */
export function makeStores(kind, options = {}) {
  if (kind === 'sdk') {
    const taskStore = new InMemoryTaskStore();
    return { kind, taskStore, taskMessageQueue: new InMemoryTaskMessageQueue(), clock: null, close: () => taskStore.cleanup() };
  }
  const clock = manualClock();
  const taskStore = new ours.WasmTaskStore({ now: clock.now, ...options });
  const taskMessageQueue = new ours.WasmTaskMessageQueue({ taskStore });
  return { kind, taskStore, taskMessageQueue, clock, close: () => (taskStore.cleanup(), taskMessageQueue.cleanup()) };
}

function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Test control shared by the tools of every server instance: gates (a tool awaits
 * `gate(taskId, n)`, the test calls `open(taskId, n)`), notes of what the background work did,
 * and a promise per task that settles when its background work ends.
 */
export class Control {
  #gates = new Map();
  #done = new Map();
  notes = [];
  #d(map, key) {
    let d = map.get(key);
    if (!d) map.set(key, (d = deferred()));
    return d;
  }
  gate(taskId, n) {
    return this.#d(this.#gates, `${taskId}#${n}`).promise;
  }
  open(taskId, n) {
    this.#d(this.#gates, `${taskId}#${n}`).resolve();
  }
  openAll(taskId, upTo = 8) {
    for (let n = 1; n <= upTo; n++) this.open(taskId, n);
  }
  note(taskId, what) {
    this.notes.push({ taskId, what });
  }
  notesOf(taskId) {
    return this.notes.filter((n) => n.taskId === taskId).map((n) => n.what);
  }
  finished(taskId) {
    this.#d(this.#done, taskId).resolve();
  }
  done(taskId) {
    return this.#d(this.#done, taskId).promise;
  }
}

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/**
 * An McpServer with the task tools of the scenarios (`onServer(server)`, if given, is called
 * with it once built):
 *   work      required  gated steps, a status message per step, then completes
 *   quick     required  completes at once
 *   maybe     optional  completes at once
 *   plain     forbidden (registerTool)
 *   ask       required  asks the user's name by elicitation mid-task (input_required)
 *   tool_err  required  fails with a tool error (isError: true)
 *   rpc_err   required  fails with a JSON-RPC error (McpError -32011 with data)
 *   rpc_opt   optional  same failure, for plain (non-task) calls
 */
export function buildServer({ taskStore, taskMessageQueue, ctl, onServer }) {
  const server = new McpServer(
    { name: 'sdk-test-server', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue,
      defaultTaskPollInterval: POLL_MS,
    },
  );
  const tasks = server.experimental.tasks;
  const handlers = (start) => ({
    createTask: async (args, extra) => {
      // registerToolTask passes (args, extra) with an inputSchema, else (extra).
      if (extra === undefined) [args, extra] = [{}, args];
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl, pollInterval: POLL_MS });
      const id = task.taskId;
      Promise.resolve()
        .then(() => start(id, args, extra))
        .catch((err) => ctl.note(id, `background error: ${err?.message ?? err}`))
        .finally(() => ctl.finished(id));
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  });

  tasks.registerToolTask(
    'work',
    { description: 'Gated steps', inputSchema: { steps: z.number().int().min(0) }, execution: { taskSupport: 'required' } },
    handlers(async (id, { steps }, extra) => {
      try {
        for (let i = 1; i <= steps; i++) {
          await ctl.gate(id, i);
          await extra.taskStore.updateTaskStatus(id, 'working', `step ${i}/${steps}`);
        }
        await ctl.gate(id, steps + 1);
        await extra.taskStore.storeTaskResult(id, 'completed', text(`done after ${steps} steps`));
        ctl.note(id, 'stored');
      } catch (err) {
        ctl.note(id, 'refused');
        // A cancelled task stays cancelled: a late result must be refused as well.
        try {
          await extra.taskStore.storeTaskResult(id, 'completed', text('late'));
          ctl.note(id, 'late result stored');
        } catch {
          ctl.note(id, 'late result refused');
        }
      }
    }),
  );
  tasks.registerToolTask(
    'quick',
    { description: 'Completes at once', inputSchema: { n: z.number().optional() } },
    handlers(async (id, { n }, extra) => {
      try {
        await extra.taskStore.storeTaskResult(id, 'completed', text(`quick ${n ?? ''}`.trim()));
        ctl.note(id, 'stored');
      } catch (err) {
        ctl.note(id, `store refused: ${err.code}`);
      }
    }),
  );
  tasks.registerToolTask(
    'maybe',
    { description: 'Optional task', inputSchema: { word: z.string() }, execution: { taskSupport: 'optional' } },
    handlers(async (id, { word }, extra) => {
      await extra.taskStore.storeTaskResult(id, 'completed', text(`maybe: ${word}`));
    }),
  );
  server.registerTool('plain', { description: 'Never a task', inputSchema: { word: z.string() } }, async ({ word }) => text(`plain: ${word}`));
  tasks.registerToolTask(
    'ask',
    { description: 'Asks a name', inputSchema: {} },
    handlers(async (id, _args, extra) => {
      await ctl.gate(id, 1);
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
        ElicitResultSchema,
        { relatedTask: { taskId: id } },
      );
      ctl.note(id, `answer: ${JSON.stringify(answer.content ?? null)}`);
      await extra.taskStore.updateTaskStatus(id, 'working', 'got the answer');
      await extra.taskStore.storeTaskResult(id, 'completed', text(`Hello, ${answer.content?.name}!`));
    }),
  );
  tasks.registerToolTask(
    'tool_err',
    { description: 'Fails with isError', inputSchema: {} },
    handlers(async (id, _args, extra) => {
      await ctl.gate(id, 1);
      await extra.taskStore.storeTaskResult(id, 'failed', { content: [{ type: 'text', text: 'disk full' }], isError: true });
    }),
  );
  const rpcFail = async (id, gated, extra) => {
    if (gated) await ctl.gate(id, 1);
    try {
      throw new McpError(-32011, 'Quota exceeded', { retryAfterMs: 30000 });
    } catch (err) {
      // The error itself is what the tool stores; see mcp-task-core/sdk on how it is replayed.
      await extra.taskStore.storeTaskResult(id, 'failed', err);
    }
  };
  tasks.registerToolTask('rpc_err', { description: 'Fails with a JSON-RPC error', inputSchema: {} }, handlers((id, _a, extra) => rpcFail(id, true, extra)));
  tasks.registerToolTask(
    'rpc_opt',
    { description: 'Fails with a JSON-RPC error (optional)', inputSchema: {}, execution: { taskSupport: 'optional' } },
    handlers((id, _a, extra) => rpcFail(id, false, extra)),
  );
  // A hook for tests, given every McpServer built (e.g. propagateTaskCreationErrors).
  onServer?.(server);
  return server;
}

/** An official Client that answers elicitations with name "Ada" and records them. */
export function buildClient(label = 'client') {
  const client = new Client({ name: `sdk-test-${label}`, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.elicitations = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    client.elicitations.push(request.params);
    return { action: 'accept', content: { name: 'Ada' } };
  });
  return client;
}

/** Server + client over InMemoryTransport (no session ID). */
export async function connectInMemory(stores, ctl) {
  const server = buildServer({ ...stores, ctl });
  const client = buildClient('mem');
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  await client.connect(ct);
  return {
    client,
    server,
    async close() {
      await client.close().catch(() => {});
      await server.close().catch(() => {});
    },
  };
}

/**
 * A Streamable HTTP server on 127.0.0.1 (random port), one McpServer per session, all sharing
 * `stores`. `connect(label)` makes a new session with a new Client.
 */
export async function startHttp(stores, ctl) {
  const sessions = new Map();
  const app = createMcpExpressApp();
  app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    const s = sid && sessions.get(sid);
    if (s) return s.transport.handleRequest(req, res, req.body);
    if (sid) return res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    if (!isInitializeRequest(req.body)) {
      return res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'No session' }, id: null });
    }
    const server = buildServer({ ...stores, ctl });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, { transport, server }),
    });
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const bySession = async (req, res) => {
    const s = sessions.get(req.headers['mcp-session-id']);
    if (!s) return res.status(404).send('Session not found');
    await s.transport.handleRequest(req, res);
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);
  const httpServer = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const url = new URL(`http://127.0.0.1:${httpServer.address().port}/mcp`);
  const clients = [];
  return {
    url,
    sessions,
    async connect(label = 'http') {
      const client = buildClient(label);
      const transport = new StreamableHTTPClientTransport(url);
      await client.connect(transport);
      clients.push({ client, transport });
      return { client, sessionId: transport.sessionId };
    },
    async close() {
      for (const { client, transport } of clients) {
        await transport.terminateSession().catch(() => {});
        await client.close().catch(() => {});
      }
      for (const { server } of sessions.values()) await server.close().catch(() => {});
      httpServer.closeAllConnections?.();
      await new Promise((r) => httpServer.close(() => r()));
    },
  };
}

/** `{ code }` of a rejected promise, or `{ ok: value }`. */
export async function outcome(promise) {
  try {
    return { ok: await promise };
  } catch (err) {
    return { code: err?.code, message: err?.message, data: err?.data };
  }
}

/** Creates a task with a raw task-augmented tools/call; returns the CreateTaskResult's task. */
export async function createTask(client, name, args = {}, task = { ttl: 60_000 }) {
  const r = await client.request({ method: 'tools/call', params: { name, arguments: args, task } }, CreateTaskResultSchema);
  return r.task;
}

/** Polls `tasks/get` until `pred(task)` (5 ms steps, bounded). */
export async function waitForTask(client, taskId, pred, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const t = await client.experimental.tasks.getTask(taskId);
    if (pred(t)) return t;
    if (Date.now() > end) throw new Error(`task ${taskId} still ${t.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Removes consecutive duplicates. */
export const dedupe = (xs) => xs.filter((x, i) => i === 0 || JSON.stringify(x) !== JSON.stringify(xs[i - 1]));

export const textOf = (result) => result?.content?.map((c) => c.text).join('') ?? null;
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
