// An MCP server on the official TypeScript SDK (@modelcontextprotocol/sdk 1.x) whose task
// runtime is mcp-task-core. The only change from the SDK's own task examples is the store:
//
//   - const taskStore = new InMemoryTaskStore();
//   - const taskMessageQueue = new InMemoryTaskMessageQueue();
//   + const taskStore = new WasmTaskStore({ ...policy });
//   + const taskMessageQueue = new WasmTaskMessageQueue({ taskStore });
//
// Streamable HTTP on http://127.0.0.1:$PORT/mcp (default 3000), one McpServer per session, all
// sessions sharing one store (each session sees only its own tasks; the server's own code uses
// taskStore.allSessions() to act on any of them, see shutdown()).
//
// Tools:
//   process_files  taskSupport "required"   long-running; a status message and a progress
//                                           notification per file; stops when cancelled
//   word_count     taskSupport "optional"   as a task or as a plain call
//   echo           taskSupport "forbidden"  (registerTool)
//   book_table     taskSupport "required"   asks the user (elicitation) mid-task: input_required
//   read_config    taskSupport "required"   fails with a tool error (isError: true)
//   charge_card    taskSupport "required"   fails with a JSON-RPC error (code -32010, with data)
//
//   PORT=3000 node server.mjs
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { ElicitResultSchema, McpError, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { WasmTaskMessageQueue, WasmTaskStore, propagateTaskCreationErrors } from 'mcp-task-core/sdk';

const PORT = Number(process.env.PORT || 3000);
const HOST = '127.0.0.1';
const STEP_MS = Number(process.env.STEP_MS || 150);
const POLL_MS = 100;

// One store for every session: TTL policy, poll interval, list page size, and a cap on live tasks
// per session (by default there is none, as with InMemoryTaskStore).
const taskStore = new WasmTaskStore({
  defaultTtlMs: 10 * 60_000,
  maxTtlMs: 60 * 60_000,
  pollIntervalMs: POLL_MS,
  pageSize: 4,
  limits: { maxRunningTasksPerKey: 200 },
});
const taskMessageQueue = new WasmTaskMessageQueue({ taskStore });

const log = (...a) => console.error('[server]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const short = (id) => id.slice(0, 8);

/** The usual task-tool boilerplate: create the task, run `work` in the background, return at once. */
function taskTool(work) {
  return {
    createTask: async (args, extra) => {
      if (extra === undefined) [args, extra] = [{}, args]; // tools without inputSchema get (extra)
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl, pollInterval: POLL_MS });
      work(task.taskId, args, extra).catch(async (err) => {
        log(`task ${short(task.taskId)}: ${err.message}`);
        // Store the failure unless the task already ended (e.g. it was cancelled).
        await extra.taskStore.storeTaskResult(task.taskId, 'failed', err).catch(() => {});
      });
      return { task };
    },
    // Never called by SDK 1.x over the wire (tasks/get and tasks/result are answered from the store).
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  };
}

function buildServer() {
  // With limits set: a refused task reaches the client as "-32603 Too many live tasks ...", not
  // as McpServer's "-32602 Invalid task creation result".
  const server = propagateTaskCreationErrors(new McpServer(
    { name: 'mcp-task-core-sdk-demo', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue,
      defaultTaskPollInterval: POLL_MS,
    },
  ));
  const tasks = server.experimental.tasks;

  tasks.registerToolTask(
    'process_files',
    {
      description: 'Processes N files, one step per file, reporting progress',
      inputSchema: { files: z.number().int().min(1).max(100) },
      execution: { taskSupport: 'required' },
    },
    taskTool(async (id, { files }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let i = 1; i <= files; i++) {
        await sleep(STEP_MS);
        const now = await extra.taskStore.getTask(id).catch(() => null);
        if (!now || now.status === 'cancelled') {
          log(`task ${short(id)}: cancelled by the client after ${i - 1}/${files} files; stopping`);
          return;
        }
        await extra.taskStore.updateTaskStatus(id, 'working', `processed ${i}/${files} files`);
        if (progressToken !== undefined) {
          // Not extra.sendNotification: that is tied to the tools/call request, whose HTTP stream
          // closed with the CreateTaskResult. The session's standalone stream carries it.
          await server.server
            .notification({ method: 'notifications/progress', params: { progressToken, progress: i, total: files, message: `file ${i}` } })
            .catch(() => {});
        }
      }
      await extra.taskStore.storeTaskResult(id, 'completed', text(`Processed ${files} files`));
    }),
  );

  tasks.registerToolTask(
    'word_count',
    { description: 'Counts words', inputSchema: { text: z.string() }, execution: { taskSupport: 'optional' } },
    taskTool(async (id, { text: input }, extra) => {
      await sleep(STEP_MS);
      const n = input.split(/\s+/).filter(Boolean).length;
      await extra.taskStore.storeTaskResult(id, 'completed', text(`${n} words`));
    }),
  );

  server.registerTool('echo', { description: 'Echoes at once; never a task', inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));

  tasks.registerToolTask(
    'book_table',
    { description: 'Books a table; asks for the name and party size', inputSchema: { restaurant: z.string() } },
    taskTool(async (id, { restaurant }, extra) => {
      await sleep(STEP_MS);
      // A request with relatedTask: the SDK sets input_required and queues it in the task message
      // queue; the client gets it on its tasks/result stream, and its answer comes back here.
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: `Booking at ${restaurant}: under which name, and for how many?`,
            requestedSchema: {
              type: 'object',
              properties: { name: { type: 'string' }, partySize: { type: 'integer', minimum: 1 } },
              required: ['name', 'partySize'],
            },
          },
        },
        ElicitResultSchema,
        { relatedTask: { taskId: id }, timeout: 120_000 },
      );
      if (answer.action !== 'accept') {
        await extra.taskStore.storeTaskResult(id, 'completed', text(`No booking: the user chose "${answer.action}"`));
        return;
      }
      await extra.taskStore.updateTaskStatus(id, 'working', 'confirming with the restaurant');
      await sleep(STEP_MS);
      const { name, partySize } = answer.content;
      await extra.taskStore.storeTaskResult(id, 'completed', text(`Table for ${partySize} at ${restaurant}, under "${name}", 19:30`));
    }),
  );

  tasks.registerToolTask(
    'read_config',
    { description: 'Reads a config file (fails: a tool error)', inputSchema: { path: z.string() } },
    taskTool(async (id, { path }, extra) => {
      await sleep(STEP_MS);
      await extra.taskStore.storeTaskResult(id, 'failed', { content: [{ type: 'text', text: `${path}: no such file` }], isError: true });
    }),
  );

  tasks.registerToolTask(
    'charge_card',
    { description: 'Charges a card (fails: a JSON-RPC error)', inputSchema: { amount: z.number() } },
    taskTool(async (id, { amount }) => {
      await sleep(STEP_MS);
      // Thrown here, stored by taskTool's catch as `storeTaskResult(id, 'failed', err)`: the
      // store keeps {code, message, data} and tasks/result answers with this JSON-RPC error.
      // (In TypeScript, pass jsonRpcErrorResult(err) from 'mcp-task-core/sdk' instead.)
      throw new McpError(-32010, `Payment of ${amount} declined`, { reason: 'insufficient_funds', retryable: false });
    }),
  );
  return server;
}

// Streamable HTTP, sessions on: one transport + McpServer per session.
const sessions = new Map();
const app = createMcpExpressApp({ host: HOST });
app.post('/mcp', async (req, res) => {
  const sid = req.headers['mcp-session-id'];
  const session = sid && sessions.get(sid);
  if (session) return session.transport.handleRequest(req, res, req.body);
  if (sid) return res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
  if (!isInitializeRequest(req.body)) {
    return res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no session' }, id: null });
  }
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, server });
      log(`session ${short(id)} opened`);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId && sessions.delete(transport.sessionId)) log(`session ${short(transport.sessionId)} closed`);
  };
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
const bySession = async (req, res) => {
  const session = sessions.get(req.headers['mcp-session-id']);
  if (!session) return res.status(404).send('Session not found');
  await session.transport.handleRequest(req, res);
};
app.get('/mcp', bySession); // standalone SSE stream (status and progress notifications)
app.delete('/mcp', bySession); // session termination

const httpServer = app.listen(PORT, HOST, () => {
  console.log(`listening on http://${HOST}:${httpServer.address().port}/mcp`);
});
httpServer.on('error', (err) => {
  console.error(`[server] ${err.message}`);
  process.exit(1);
});

/** Server code outside any request: cancels every running task, whatever session it belongs to. */
async function cancelRunningTasks(reason) {
  const all = taskStore.allSessions(); // taskStore.getTask(id) / listTasks() would see no session's task
  let cursor;
  let n = 0;
  do {
    const page = await all.listTasks(cursor);
    for (const task of page.tasks) {
      if (task.status !== 'working' && task.status !== 'input_required') continue;
      await all.updateTaskStatus(task.taskId, 'cancelled', reason).then(() => n++, () => {});
    }
    cursor = page.nextCursor;
  } while (cursor);
  return n;
}

async function shutdown(signal) {
  log(`${signal}: shutting down`);
  const cancelled = await cancelRunningTasks('The server is shutting down').catch(() => 0);
  if (cancelled > 0) log(`cancelled ${cancelled} running task(s)`);
  for (const { transport, server } of sessions.values()) {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
  taskStore.cleanup();
  taskMessageQueue.cleanup();
  httpServer.closeAllConnections?.();
  httpServer.close(() => process.exit(0));
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
