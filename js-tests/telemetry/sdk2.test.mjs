// Traces and metrics of TasksExtension on the official SDK 2.x McpServer (createMcpHandler, the
// 2026-07-28 dialect), with OpenTelemetry's SDK registered globally and `@opentelemetry/api`
// installed beside the package: the trace context of `params._meta` (or of the HTTP
// `traceparent` header) parents the creation; the work, its input round trips and its outcome
// follow in the same trace; the runtime's figures come back as metrics.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR } from '../helpers/package.mjs';
import { installWithSdk2, modernClient, terminal, waitFor } from '../sdk2/harness.mjs';
import { CLIENT_TRACE, TRACEPARENT, api, globalOtel, parentOf, spansOf, until } from './otel.mjs';

const otel = globalOtel();
let withApi;
let withoutApi;
let sdk;
let z;

before(async () => {
  withApi = installWithSdk2('mcp-task-core-otel-sdk2-');
  const link = path.join(withApi.dir, 'node_modules', '@opentelemetry', 'api');
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', '@opentelemetry', 'api'), link, 'dir');
  withoutApi = installWithSdk2('mcp-task-core-no-otel-sdk2-');
  sdk = await import('@modelcontextprotocol/server');
  z = await import('zod');
});
after(() => {
  withApi?.cleanup();
  withoutApi?.cleanup();
});

const ASKING = { capabilities: { elicitation: { form: {} } } };
const FORM = { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
const HTTP_TRACE = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

/** A TasksExtension of the installed package `mod` with an `ask` tool (one elicitation) and a `hold` tool (runs until released). */
function setup(mod, options = {}) {
  const tasks = new mod.TasksExtension(options);
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const handler = sdk.createMcpHandler(() => {
    const server = new sdk.McpServer({ name: 'otel-test', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'ask', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      const answer = await task.elicit(FORM);
      return { content: [{ type: 'text', text: `Hello, ${answer.content.name}!` }] };
    });
    tasks.registerTool(server, 'hold', { taskSupport: 'required', inputSchema: z.object({}) }, async () => {
      await released;
      return { content: [{ type: 'text', text: 'released' }] };
    });
    tasks.registerTool(server, 'refuse', { taskSupport: 'required', inputSchema: z.object({}) }, async () => {
      throw new mod.TaskProtocolError(-32011, 'quota exhausted');
    });
    return server;
  });
  return { tasks, client: modernClient(handler), release };
}

async function create(client, name, meta, opts = {}) {
  const reply = await client.call('tools/call', { name, arguments: {}, _meta: meta }, { id: `req-${name}`, ...opts });
  assert.equal(reply.error, undefined, JSON.stringify(reply.error));
  return reply.result.taskId;
}

const finished = (taskId, name) => until(async () => ((s) => (spansOf(s, taskId)[name] ? spansOf(s, taskId) : null))(await otel.spans()));

test('one trace per task under the traceparent of params._meta: creation, work, the elicitation round trip, the outcome', { timeout: 20_000 }, async () => {
  const { tasks, client } = setup(await withApi.importServer());
  const taskId = await create(client, 'ask', { traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE' }, ASKING);
  const waiting = await waitFor(client, taskId, (t) => t.status === 'input_required');
  const [key] = Object.keys(waiting.inputRequests);
  await client.result('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } });
  const done = await waitFor(client, taskId, terminal);
  assert.equal(done.result.content[0].text, 'Hello, Ada!');

  const spans = await finished(taskId, 'task completed');
  assert.deepEqual(Object.keys(spans).sort(), ['elicitation/create', 'execute_tool ask', 'task completed', 'tools/call ask']);
  for (const span of Object.values(spans)) assert.equal(span.spanContext().traceId, CLIENT_TRACE.traceId, span.name);
  const creation = spans['tools/call ask'];
  assert.equal(creation.kind, api.SpanKind.SERVER);
  assert.equal(parentOf(creation), CLIENT_TRACE.spanId);
  assert.equal(creation.parentSpanContext.traceState.get('congo'), 't61rcWkgMzE');
  assert.deepEqual(
    { ...creation.attributes },
    { 'mcp.method.name': 'tools/call', 'mcp.task.id': taskId, 'gen_ai.tool.name': 'ask', 'jsonrpc.request.id': 'req-ask', 'mcp.protocol.version': '2026-07-28' },
  );
  const work = spans['execute_tool ask'];
  assert.equal(parentOf(work), creation.spanContext().spanId);
  assert.equal(work.kind, api.SpanKind.INTERNAL);
  assert.equal(work.attributes['gen_ai.operation.name'], 'execute_tool');
  const input = spans['elicitation/create'];
  assert.equal(input.kind, api.SpanKind.CLIENT);
  assert.equal(parentOf(input), work.spanContext().spanId);
  assert.equal(input.attributes['mcp.method.name'], 'elicitation/create');
  assert.equal(typeof input.attributes['jsonrpc.request.id'], 'string');
  assert.equal(parentOf(spans['task completed']), creation.spanContext().spanId);
  tasks.close();
});

test('the HTTP traceparent header parents a task whose message carries none; with both, the message wins and the HTTP context is a link', { timeout: 20_000 }, async () => {
  const { tasks, client } = setup(await withApi.importServer());
  const headers = { traceparent: `00-${HTTP_TRACE.traceId}-${HTTP_TRACE.spanId}-01` };
  const fromHttp = await create(client, 'refuse', undefined, { headers });
  const both = await create(client, 'refuse', { traceparent: TRACEPARENT }, { id: 'req-both', headers });
  const plain = await create(client, 'refuse', undefined, { id: 'req-plain' });
  for (const taskId of [fromHttp, both, plain]) await waitFor(client, taskId, terminal);

  const http = await finished(fromHttp, 'task failed');
  assert.equal(http['tools/call refuse'].spanContext().traceId, HTTP_TRACE.traceId);
  assert.equal(parentOf(http['tools/call refuse']), HTTP_TRACE.spanId);
  assert.equal(http['task failed'].attributes['error.type'], '-32011');
  assert.equal(http['execute_tool refuse'].status.code, api.SpanStatusCode.ERROR);
  const linked = (await finished(both, 'task failed'))['tools/call refuse'];
  assert.equal(linked.spanContext().traceId, CLIENT_TRACE.traceId);
  assert.deepEqual(linked.links.map((l) => [l.context.traceId, l.context.spanId]), [[HTTP_TRACE.traceId, HTTP_TRACE.spanId]]);
  // No trace context at all: a new trace, with its work and outcome in it.
  const own = await finished(plain, 'task failed');
  assert.equal(own['tools/call refuse'].parentSpanContext, undefined);
  assert.equal(own['task failed'].spanContext().traceId, own['tools/call refuse'].spanContext().traceId);
  tasks.close();
});

test('figures() and metrics: tasks by status, running work, input waiting; a cancel is the outcome span `task cancelled`', { timeout: 20_000 }, async () => {
  const { tasks, client, release } = setup(await withApi.importServer());
  const held = await create(client, 'hold', undefined, { id: 'h1' });
  const asking = await create(client, 'ask', undefined, { id: 'a1', ...ASKING });
  const refused = await create(client, 'refuse', undefined, { id: 'r1' });
  await waitFor(client, asking, (t) => t.status === 'input_required');
  await waitFor(client, refused, terminal);
  const figures = tasks.figures();
  assert.deepEqual(figures, {
    tasks: { working: 1, input_required: 1, completed: 0, failed: 1, cancelled: 0 },
    running: 2,
    inputWaiting: 1,
    expirations: 0,
    leaseFailures: 0,
    storageErrors: 0,
  });
  const m = await otel.metrics();
  assert.deepEqual(Object.fromEntries(m['mcp.tasks'].map((p) => [p.attributes['mcp.task.status'], p.value])), figures.tasks);
  assert.equal(m['mcp.tasks.running'][0].value, 2);
  assert.equal(m['mcp.tasks.input_waiting'][0].value, 1);
  await client.result('tasks/cancel', { taskId: asking });
  const cancelled = await finished(asking, 'task cancelled');
  assert.equal(cancelled['task cancelled'].attributes['mcp.task.status'], 'cancelled');
  assert.equal(cancelled['elicitation/create'].status.code, api.SpanStatusCode.ERROR, 'the round trip ended by the cancel');
  release();
  await waitFor(client, held, terminal);
  assert.deepEqual(tasks.figures().tasks, { working: 0, input_required: 0, completed: 1, failed: 1, cancelled: 1 });
  assert.equal(tasks.figures().running, 0);
  tasks.close();
});

test('without @opentelemetry/api installed nothing is traced, and the figures are there all the same', { timeout: 20_000 }, async () => {
  const mod = await withoutApi.importServer();
  const { tasks, client } = setup(mod);
  const taskId = await create(client, 'refuse', { traceparent: TRACEPARENT });
  assert.equal((await waitFor(client, taskId, terminal)).status, 'failed');
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(spansOf(await otel.spans(), taskId), {});
  assert.equal(tasks.figures().tasks.failed, 1);
  assert.throws(() => new mod.TasksExtension({ telemetry: 'on' }), /^TypeError: TasksExtension options\.telemetry must be false or \{ api, tracer\?, meter\? \}/);
  tasks.close();
});
