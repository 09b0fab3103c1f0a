// A TypeScript user of mcp-task-core/server with @modelcontextprotocol/server 2.x: type-checked
// (tsc --noEmit, strict) by js-tests/sdk2/package.test.mjs against the packed package.
import { McpServer, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { TaskProtocolError, TasksExtension } from 'mcp-task-core/server';
import type { TaskContext, TaskCreatedResult, TaskHandle, TaskToolPolicy } from 'mcp-task-core/server';
import type { TaskStorage } from 'mcp-task-core/storage';
import * as z from 'zod';

const tasks = new TasksExtension({ engineOptions: { ttl: { defaultMs: 60_000 } }, principal: (auth) => auth?.clientId ?? null, onerror: () => {} });
new TasksExtension({ quotaKey: { addressHeader: 'x-forwarded-for' } });
new TasksExtension({ quotaKey: (ctx, principal) => ctx.sessionId ?? principal });
declare const storage: TaskStorage;
new TasksExtension({ storage, instanceId: 'web-1', leaseMs: 30_000, storageTimeoutMs: 5_000, onDamaged: (detail: string, taskId: string) => void [detail, taskId] });
// @ts-expect-error: a header name, not a function's answer
new TasksExtension({ quotaKey: 'x-forwarded-for' });
const policy: TaskToolPolicy = 'optional';
// A task tool of every server: typed arguments, nothing returned.
const none: void = tasks.registerTool('everywhere', { taskSupport: 'required', inputSchema: z.object({ topic: z.string() }) }, async ({ topic }, task: TaskContext) => ({
  content: [{ type: 'text', text: `${topic} for ${task.taskId ?? 'a plain call'}` }],
}));
void none;
// @ts-expect-error: the arguments follow the schema
tasks.registerTool('wrong', { taskSupport: 'required', inputSchema: z.object({ topic: z.string() }) }, async ({ title }) => ({ content: [{ type: 'text', text: title }] }));

const handler = tasks.withTaskListen(
  createMcpHandler(() => {
    const server = new McpServer({ name: 'typed', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'report', { taskSupport: policy, inputSchema: z.object({ format: z.string() }) }, async ({ format }, task: TaskContext) => {
      const id: string | undefined = task.taskId;
      task.setStatus(`rendering ${format} for ${id ?? 'a plain call'}`);
      const answer = await task.elicit({ mode: 'form', message: 'Title?', requestedSchema: { type: 'object', properties: { title: { type: 'string' } } } });
      if (task.signal.aborted) throw new TaskProtocolError(-32603, 'stopped');
      const result: CallToolResult = { content: [{ type: 'text', text: `${format}: ${String(answer.content?.['title'])}` }] };
      return result;
    });
    tasks.registerTool(server, 'maybe', { taskSupport: 'perCall', runAsTask: ({ n }) => n > 10, inputSchema: z.object({ n: z.number() }) }, async ({ n }) => ({
      content: [{ type: 'text', text: String(n) }],
    }));
    server.registerTool('later', { inputSchema: z.object({}) }, async (_args, ctx: ServerContext) => {
      if (ctx.mcpReq.inputResponses === undefined) return inputRequired({ requestState: 'r1' });
      const created: TaskCreatedResult = await tasks.create(ctx);
      const handle: TaskHandle = tasks.handle(created.taskId);
      handle.status('working');
      void handle.requireInput<{ action: string }>('elicitation/create', { mode: 'form', message: 'ok?', requestedSchema: { type: 'object', properties: {} } }).then((r) => {
        if (r.action === 'accept') handle.complete({ content: [] });
        else handle.fail({ code: -32603, message: 'declined' });
      });
      return created as unknown as CallToolResult;
    });
    return server;
  }),
);

const response: Promise<Response> = handler.fetch(new Request('http://127.0.0.1/mcp'));
void response;
tasks.cancel('id', 'why');
tasks.close();
const cap: Record<string, Record<string, never>> = TasksExtension.capability();
void cap;

// stdio: the server transport given to serveStdio, wrapped.
const wrapped: Transport = tasks.withTaskListen(new StdioServerTransport());
void wrapped;

// Node hosting: the fast path in front of the SDK's Node adapter.
const serve = toNodeHandler(handler);
const listener: typeof serve = tasks.fastPath(serve, { maxRequestBodySize: 1 << 20, responseMode: 'json' });
void listener;
// @ts-expect-error: only maxRequestBodySize and responseMode are options
tasks.fastPath(toNodeHandler(handler), { maxBodySize: 1 });
