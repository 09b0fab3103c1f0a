// Traces and metrics of WasmTaskStore on the official SDK 1.x McpServer, with OpenTelemetry's SDK
// registered globally and `@opentelemetry/api` installed beside the package: a client's
// `traceparent` in `params._meta` parents the task's creation, its work, its input round trip
// and its outcome; the figures come back as metrics. Without the API installed (or with
// `telemetry: false`) nothing is traced and the tasks run the same.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CallToolResultSchema, Control, CreateTaskResultSchema, connectInMemory, waitForTask } from '../sdk/harness.mjs';
import { CLIENT_TRACE, TRACEPARENT, api, globalOtel, inMemoryOtel, installWith, parentOf, spansOf, until } from './otel.mjs';

const otel = globalOtel();
let withApi;
let withoutApi;
before(() => {
  withApi = installWith(['@opentelemetry/api']);
  withoutApi = installWith([]);
});
after(() => {
  withApi?.cleanup();
  withoutApi?.cleanup();
});

/** An SDK 1.x server and client over the store of `mod` (an installed mcp-task-core/sdk). */
async function serve(mod, options = {}) {
  const taskStore = new mod.WasmTaskStore(options);
  const taskMessageQueue = new mod.WasmTaskMessageQueue({ taskStore });
  const ctl = new Control();
  const conn = await connectInMemory({ taskStore, taskMessageQueue }, ctl);
  return { ...conn, taskStore, ctl };
}

/** A task-augmented tools/call carrying the client's trace context. */
async function call(client, name, meta = { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' }) {
  const r = await client.request({ method: 'tools/call', params: { name, arguments: {}, task: { ttl: 60_000 }, _meta: meta } }, CreateTaskResultSchema);
  return r.task.taskId;
}

test('a task is one trace under the client\'s traceparent: creation, work, input round trip, outcome; named and attributed after the MCP conventions', { timeout: 20_000 }, async () => {
  const mod = await withApi.import('sdk');
  const { client, taskStore, ctl, close } = await serve(mod);
  const taskId = await call(client, 'ask');
  ctl.open(taskId, 1);
  await waitForTask(client, taskId, (t) => t.status === 'input_required');
  // The client answers (tasks/result carries the elicitation), and the task completes.
  const result = await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
  assert.equal(result.content[0].text, 'Hello, Ada!');
  await waitForTask(client, taskId, (t) => t.status === 'completed');

  const spans = spansOf(await until(async () => ((s) => (spansOf(s, taskId)['task completed'] ? s : null))(await otel.spans())), taskId);
  assert.deepEqual(Object.keys(spans).sort(), ['execute_tool ask', 'input_required', 'task completed', 'tools/call ask']);
  for (const span of Object.values(spans)) assert.equal(span.spanContext().traceId, CLIENT_TRACE.traceId, span.name);
  const creation = spans['tools/call ask'];
  assert.equal(creation.kind, api.SpanKind.SERVER);
  assert.equal(parentOf(creation), CLIENT_TRACE.spanId);
  assert.equal(creation.parentSpanContext.isRemote, true);
  assert.equal(creation.parentSpanContext.traceState.get('rojo'), '00f067aa0ba902b7');
  assert.equal(creation.attributes['mcp.method.name'], 'tools/call');
  assert.equal(creation.attributes['gen_ai.tool.name'], 'ask');
  assert.equal(typeof creation.attributes['jsonrpc.request.id'], 'string');
  const work = spans['execute_tool ask'];
  assert.equal(parentOf(work), creation.spanContext().spanId);
  assert.equal(work.attributes['gen_ai.operation.name'], 'execute_tool');
  assert.equal(work.attributes['mcp.task.status'], 'completed');
  const input = spans.input_required;
  assert.equal(input.kind, api.SpanKind.CLIENT);
  assert.equal(input.attributes['mcp.method.name'], undefined, 'the SDK 1.x store does not see which request waits');
  assert.equal(parentOf(input), work.spanContext().spanId);
  assert.ok(input.endTime[0] * 1e9 + input.endTime[1] <= work.endTime[0] * 1e9 + work.endTime[1], 'the round trip ends before the work');
  const outcome = spans['task completed'];
  assert.equal(parentOf(outcome), creation.spanContext().spanId);
  assert.equal(outcome.attributes['mcp.task.status'], 'completed');
  taskStore.cleanup();
  await close();
});

test('a failed task: error.type is the JSON-RPC code, or tool_error for an isError result; spans in error', { timeout: 20_000 }, async () => {
  const mod = await withApi.import('sdk');
  const { client, taskStore, ctl, close } = await serve(mod);
  const rpc = await call(client, 'rpc_err');
  const tool = await call(client, 'tool_err');
  ctl.open(rpc, 1);
  ctl.open(tool, 1);
  await waitForTask(client, rpc, (t) => t.status === 'failed');
  await waitForTask(client, tool, (t) => t.status === 'failed');
  const all = await until(async () => ((s) => (spansOf(s, rpc)['task failed'] && spansOf(s, tool)['task failed'] ? s : null))(await otel.spans()));
  const failed = spansOf(all, rpc);
  assert.equal(failed['task failed'].attributes['error.type'], '-32011');
  assert.equal(failed['execute_tool rpc_err'].attributes['error.type'], '-32011');
  assert.equal(failed['execute_tool rpc_err'].status.code, api.SpanStatusCode.ERROR);
  assert.equal(spansOf(all, tool)['task failed'].attributes['error.type'], 'tool_error');
  taskStore.cleanup();
  await close();
});

test('metrics: tasks by status, running work, input waiting and the counters, read back from the meter', { timeout: 20_000 }, async () => {
  const mod = await withApi.import('sdk');
  const { client, taskStore, ctl, close } = await serve(mod);
  const before = (await otel.metrics())['mcp.tasks'] ?? [];
  assert.ok(before.every((p) => p.value === 0), JSON.stringify(before));
  const done = await call(client, 'quick');
  await waitForTask(client, done, (t) => t.status === 'completed');
  const asking = await call(client, 'ask');
  ctl.open(asking, 1);
  await waitForTask(client, asking, (t) => t.status === 'input_required');
  const m = await otel.metrics();
  const byStatus = Object.fromEntries(m['mcp.tasks'].map((p) => [p.attributes['mcp.task.status'], p.value]));
  assert.deepEqual(byStatus, { working: 0, input_required: 1, completed: 1, failed: 0, cancelled: 0 });
  assert.equal(m['mcp.tasks.running'][0].value, 1);
  assert.equal(m['mcp.tasks.input_waiting'][0].value, 1);
  assert.equal(m['mcp.tasks.expirations'][0].value, 0);
  assert.equal(m['mcp.tasks.lease_failures'][0].value, 0);
  assert.equal(m['mcp.tasks.storage_errors'][0].value, 0);
  assert.deepEqual(taskStore.figures().tasks, byStatus);
  taskStore.cleanup();
  // A store cleaned up reports nothing more.
  assert.ok((await otel.metrics())['mcp.tasks'].every((p) => p.value === 0));
  await close();
});

test('telemetry: { api, tracer, meter } uses the tracer and meter given (hosts that cannot resolve the package)', { timeout: 20_000 }, async () => {
  const mod = await withoutApi.import('sdk');
  const own = inMemoryOtel();
  const { client, taskStore, close } = await serve(mod, {
    telemetry: { api, tracer: own.tracerProvider.getTracer('mine'), meter: own.meterProvider.getMeter('mine') },
  });
  const taskId = await call(client, 'quick');
  await waitForTask(client, taskId, (t) => t.status === 'completed');
  const spans = spansOf(await until(async () => ((s) => (spansOf(s, taskId)['task completed'] ? s : null))(await own.spans())), taskId);
  assert.equal(spans['tools/call quick'].spanContext().traceId, CLIENT_TRACE.traceId);
  assert.deepEqual(spansOf(await otel.spans(), taskId), {}, 'nothing reaches the global provider');
  const completed = (await own.metrics())['mcp.tasks'].find((p) => p.attributes['mcp.task.status'] === 'completed');
  assert.equal(completed.value, 1);
  assert.throws(() => new mod.WasmTaskStore({ telemetry: { tracer: {} } }), /^TypeError: options\.telemetry must be false or \{ api, tracer\?, meter\? \}/);
  taskStore.cleanup();
  await close();
});

test('without @opentelemetry/api installed, or with telemetry: false, nothing is traced or measured and the task runs the same', { timeout: 20_000 }, async () => {
  const outcomes = [];
  for (const [mod, options] of [
    [await withoutApi.import('sdk'), {}],
    [await withApi.import('sdk'), { telemetry: false }],
  ]) {
    const { client, taskStore, close } = await serve(mod, options);
    const taskId = await call(client, 'quick');
    await waitForTask(client, taskId, (t) => t.status === 'completed');
    outcomes.push(await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema));
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(spansOf(await otel.spans(), taskId), {});
    const points = (await otel.metrics())['mcp.tasks'] ?? [];
    assert.ok(points.every((p) => p.value === 0), JSON.stringify(points));
    taskStore.cleanup();
    await close();
  }
  assert.equal(outcomes[0].content[0].text, 'quick');
  assert.deepEqual(outcomes[0].content, outcomes[1].content);
});

test('a tracer that throws loses its spans, never a task', { timeout: 20_000 }, async () => {
  const mod = await withoutApi.import('sdk');
  const broken = { startSpan() { throw new Error('exporter down'); } };
  const { client, taskStore, close } = await serve(mod, { telemetry: { api, tracer: broken } });
  const taskId = await call(client, 'quick');
  const done = await waitForTask(client, taskId, (t) => t.status === 'completed');
  assert.equal(done.status, 'completed');
  assert.equal(taskStore.figures().tasks.completed, 1);
  taskStore.cleanup();
  await close();
});
