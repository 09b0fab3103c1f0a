// An MCP server on the official TypeScript SDK 2.x (`@modelcontextprotocol/server`), served by
// `createMcpHandler` over Streamable HTTP on 127.0.0.1, whose task runtime is
// `mcp-task-core/server`: the tasks extension (io.modelcontextprotocol/tasks, protocol
// 2026-07-28) for clients that declare it, MCP 2025-11-25 tasks for older sessions, both from
// one engine.
//
// Routing: 2026-07-28 requests go to `createMcpHandler` (a fresh McpServer per request), wrapped
// by `tasks.withTaskListen` for `subscriptions/listen` task notifications; their tasks/get,
// tasks/update and tasks/cancel, and the calls that create tasks of the task tools (registered
// once, for every server), are answered ahead of it by `tasks.fastPath`. 2025-11-25 traffic
// goes to sessionful Streamable HTTP transports (the SDK's `isLegacyRequest` pattern): a
// 2025-11-25 task that asks for input sends the request on the client's `tasks/result` stream,
// and the client's answer must come back to the same server instance, which the entry's
// default stateless legacy serving (a fresh instance per POST) cannot do.
//
// The tools are the fixtures the conformance suite's `tasks-*` scenarios call (greet,
// slow_compute, failing_job, protocol_error_job, confirm_delete, multi_input,
// test_tool_with_task) plus `plan_trip`, the demo's tool.
//
//   PORT=3000 node server.mjs        (PORT=0 or unset: a free port; prints "listening on <url>")
//   STEP_MS=n                         the demo tools' step (default 150)
//   TIME_SCALE=x                      slow_compute sleeps seconds * x (default 1; tests speed it up)
//   REDIS_URL=redis://127.0.0.1:6379  durable tasks: kept in Redis (mcp-task-core/redis, needs
//                                     `ioredis`), so they survive a restart and every instance on
//                                     the same Redis serves them; unset: in this process's memory
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { McpServer, WebStandardStreamableHTTPServerTransport, createMcpHandler, inputRequired, isLegacyRequest } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { TaskProtocolError, TasksExtension } from 'mcp-task-core/server';
import * as z from 'zod';

const STEP_MS = Number(process.env.STEP_MS ?? 150);
const TIME_SCALE = Number(process.env.TIME_SCALE ?? 1);
const log = (line) => console.log(`[server] ${line}`);

/** Waits `ms`, or rejects as soon as `signal` fires (a cancelled or expired task). */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

const text = (value) => ({ content: [{ type: 'text', text: value }] });

// The client's address, set by this server from the socket (see below): the quota key of an
// anonymous 2026-07-28 request, so each client has its own allowance (rate, running tasks, bytes).
const ADDRESS_HEADER = 'x-client-address';

// Durable tasks: the storage every instance on the same Redis shares (see REDIS_URL above).
async function redisOption(url) {
  if (!url) return {};
  const [{ default: Redis }, { redisStorage }] = await Promise.all([import('ioredis'), import('mcp-task-core/redis')]);
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  redis.on('error', (err) => log(`redis: ${err.message}`)); // it reconnects; requests meanwhile get -32603
  return { storage: redisStorage(redis) };
}

// One runtime (one engine) for the process; every per-request McpServer shares it.
const tasks = new TasksExtension({
  ...(await redisOption(process.env.REDIS_URL)),
  engineOptions: { ttl: { defaultMs: 600_000, maxMs: 3_600_000 }, pollIntervalMs: 200 },
  onerror: (err) => log(`error: ${err?.stack ?? err}`),
  quotaKey: { addressHeader: ADDRESS_HEADER },
});

// The task tools, registered once for every server the runtime is installed on: the same for
// every request, so `tasks.fastPath` also creates their tasks without building a server.
tasks.registerTool(
  'slow_compute',
  {
    description: 'Sleeps `seconds`, then answers (a task when the client declares the extension)',
    taskSupport: 'optional',
    inputSchema: z.object({ seconds: z.number().min(0), label: z.string().optional() }),
  },
  async ({ seconds, label }, task) => {
    task.setStatus(`computing ${label ?? ''} for ${seconds} s`.replace('  ', ' '));
    await sleep(seconds * 1000 * TIME_SCALE, task.signal);
    return text(`computed ${label ?? 'result'} after ${seconds} s`);
  },
);

tasks.registerTool(
  'failing_job',
  { description: 'Always ends with a tool error (isError: true); runs only as a task', taskSupport: 'required', inputSchema: z.object({}) },
  async (_args, task) => {
    await sleep(Math.min(1000, STEP_MS * 4), task.signal);
    return { content: [{ type: 'text', text: 'the job failed: disk quota exceeded' }], isError: true };
  },
);

tasks.registerTool(
  'protocol_error_job',
  { description: 'Ends with a JSON-RPC error (the task fails)', taskSupport: 'required', inputSchema: z.object({}) },
  async (_args, task) => {
    await sleep(STEP_MS, task.signal);
    throw new TaskProtocolError(-32603, 'Simulated protocol failure', { reason: 'backend_unavailable' });
  },
);

tasks.registerTool(
  'confirm_delete',
  { description: 'Asks for confirmation, then deletes', taskSupport: 'required', inputSchema: z.object({ filename: z.string() }) },
  async ({ filename }, task) => {
    const answer = await task.elicit({
      mode: 'form',
      message: `Delete ${filename}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
    return text(confirmed ? `deleted ${filename}` : `kept ${filename}`);
  },
);

tasks.registerTool(
  'multi_input',
  { description: 'Asks two questions at once', taskSupport: 'required', inputSchema: z.object({}) },
  async (_args, task) => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } };
    const [first, second] = await Promise.all([
      task.elicit({ mode: 'form', message: 'First question', requestedSchema: schema }),
      task.elicit({ mode: 'form', message: 'Second question', requestedSchema: schema }),
    ]);
    return text(`answers: ${first.content?.name}, ${second.content?.name}`);
  },
);

// The demo's tool: asks a question, works in steps (status messages), honours cancellation.
tasks.registerTool(
  'plan_trip',
  {
    description: 'Plans a trip in steps; asks which pace the traveller prefers',
    taskSupport: 'optional',
    inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(14) }),
  },
  async ({ city, days }, task) => {
    log(`task ${task.taskId ?? '(no task)'}: plan_trip ${city} for ${days} days`);
    task.setStatus(`looking up ${city}`);
    await sleep(STEP_MS, task.signal);
    const pace = task.isTask
      ? await task.elicit({
          mode: 'form',
          message: `Which pace for ${days} days in ${city}?`,
          requestedSchema: { type: 'object', properties: { pace: { type: 'string', enum: ['relaxed', 'packed'] } }, required: ['pace'] },
        })
      : { action: 'accept', content: { pace: 'relaxed' } };
    if (pace.action !== 'accept') return { ...text(`no plan: the traveller answered ${pace.action}`), isError: true };
    for (let day = 1; day <= days; day += 1) {
      task.setStatus(`planning day ${day} of ${days}`);
      await sleep(STEP_MS, task.signal);
    }
    return text(`${days}-day ${pace.content.pace} plan for ${city} ready`);
  },
);

function createServer() {
  const server = new McpServer({ name: 'mcp-task-core-sdk2-example', version: '1.0.0' });
  tasks.install(server);

  server.registerTool(
    'greet',
    { description: 'Says hello (never a task)', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => text(`Hello, ${name}!`),
  );

  // Multi round-trip first (SEP-2322), then a task: a plain tool that asks synchronously and
  // turns the final round into a task with tasks.create(ctx).
  server.registerTool('test_tool_with_task', { description: 'Asks for a name, then greets as a task', inputSchema: z.object({}) }, async (_args, ctx) => {
    const reply = ctx.mcpReq.inputResponses?.user_name;
    if (reply?.action !== 'accept' || typeof reply.content?.name !== 'string') {
      return inputRequired({
        inputRequests: {
          user_name: inputRequired.elicit({
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }),
        },
      });
    }
    const created = await tasks.create(ctx); // with storage, once the task is written
    const handle = tasks.handle(created.taskId);
    sleep(STEP_MS, handle.signal).then(
      () => handle.complete(text(`Hello, ${reply.content.name}!`)),
      () => {},
    );
    return created;
  });

  return server;
}

const modern = tasks.withTaskListen(createMcpHandler(createServer, { legacy: 'reject', onerror: (err) => log(`sdk: ${err.message}`) }));

/** 2025-11-25 sessions: one McpServer and transport per session, as in SDK 1.x. */
const sessions = new Map();
async function legacy(request, options) {
  const sessionId = request.headers.get('mcp-session-id');
  let transport = sessionId === null ? undefined : sessions.get(sessionId);
  if (transport === undefined) {
    if (sessionId !== null) return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
      onsessionclosed: (id) => sessions.delete(id),
    });
    await createServer().connect(transport);
  }
  return transport.handleRequest(request, options);
}

const handler = {
  fetch: async (request, options) => ((await isLegacyRequest(request)) ? legacy(request, options) : modern.fetch(request, options)),
  close: async () => {
    await modern.close();
    await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
  },
};
// tasks/get, tasks/update and tasks/cancel of 2026-07-28 clients (their polls), and the calls
// that create tasks, answered from the engine in the listener, with the SDK's checks; everything
// else goes to the handler.
const serve = tasks.fastPath(toNodeHandler(handler));
const httpServer = http.createServer((req, res) => {
  req.headers[ADDRESS_HEADER] = req.socket.remoteAddress; // replaces whatever the client sent
  serve(req, res);
});
httpServer.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
});

const stop = async () => {
  tasks.close();
  await handler.close();
  httpServer.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
