// Traces and metrics of TaskEngineObject in workerd (Miniflare), where packages are not
// resolved at run time: the Worker bundles OpenTelemetry's API and SDK and gives them to the
// object through its telemetry() hook. A request's traceparent (params._meta, or the HTTP
// header) parents the task's creation, work, input round trip and outcome.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR } from '../helpers/package.mjs';
import { startWorker } from '../durable/fixtures/do-miniflare.mjs';
import { CLIENT_TRACE, TRACEPARENT } from './otel.mjs';

const esbuild = createRequire(path.join(JS_TESTS_DIR, 'package.json'))('esbuild');

/** OpenTelemetry's API and SDK in one ES module, as a Worker's bundler would include them. */
function otelBundle() {
  const { outputFiles } = esbuild.buildSync({
    stdin: {
      contents: `export * as api from '@opentelemetry/api';
export { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
export { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';`,
      resolveDir: JS_TESTS_DIR,
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
  });
  return outputFiles[0].text;
}

const SOURCE = `
import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';
import { api, TracerProvider, InMemorySpanExporter, SimpleSpanProcessor, MeterProvider, MetricReader } from 'otel-bundle';

const exporter = new InMemorySpanExporter();
const tracing = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
class Reader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}
const reader = new Reader();
const metering = new MeterProvider({ readers: [reader] });

export class Traced extends TaskEngineObject {
  telemetry() {
    return { api, tracer: tracing.getTracer('do-test'), meter: metering.getMeter('do-test') };
  }
  tools() {
    return { ask: { taskSupport: 'required' } };
  }
  async execute(task, work) {
    const answer = await work.elicit({ mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: 'Hello, ' + answer.content.name + '!' }] };
  }
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/spans') {
      await tracing.forceFlush();
      return Response.json(exporter.getFinishedSpans().map((s) => ({
        name: s.name, kind: s.kind, traceId: s.spanContext().traceId, spanId: s.spanContext().spanId,
        parent: s.parentSpanContext?.spanId ?? null, attributes: s.attributes,
      })));
    }
    if (pathname === '/metrics') {
      const { resourceMetrics } = await reader.collect();
      const out = {};
      for (const scope of resourceMetrics.scopeMetrics) for (const m of scope.metrics) out[m.descriptor.name] = m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value }));
      return Response.json(out);
    }
    return super.fetch(request);
  }
}
export default { fetch: (request, env) => routeToTaskObject(request, env.TRACED) };
`;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let worker;
before(async () => {
  worker = await startWorker({ prefix: 'mcp-task-core-do-otel-', source: SOURCE, bindings: { TRACED: 'Traced' }, modules: { 'otel-bundle': otelBundle() } });
});
after(async () => {
  await worker?.dispose();
});

const rpc = async (method, params, { id = 1, headers = {}, meta = {} } = {}) => {
  const res = await fetch(new URL('/mcp', worker.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-name': params.taskId ?? params.name, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META, ...meta } } }),
  });
  return res.json();
};
const read = async (what) => (await fetch(new URL(`/${what}`, worker.url))).json();

async function settled(check) {
  for (const end = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 20))) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
  }
}

test('a task in a Durable Object is one trace: creation under the traceparent of params._meta, work, the elicitation round trip, the outcome', { timeout: 30_000 }, async () => {
  const { taskId } = (await rpc('tools/call', { name: 'ask', arguments: {} }, { id: 'c-1', meta: { traceparent: TRACEPARENT } })).result;
  const waiting = await settled(async () => ((t) => (t.status === 'input_required' ? t : null))((await rpc('tasks/get', { taskId })).result));
  const [key] = Object.keys(waiting.inputRequests);
  await rpc('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } });
  const spans = await settled(async () => ((all) => (all.some((s) => s.name === 'task completed') ? all : null))((await read('spans')).filter((s) => s.attributes['mcp.task.id'] === taskId)));
  const by = Object.fromEntries(spans.map((s) => [s.name, s]));
  assert.deepEqual(Object.keys(by).sort(), ['elicitation/create', 'execute_tool ask', 'task completed', 'tools/call ask']);
  for (const s of spans) assert.equal(s.traceId, CLIENT_TRACE.traceId, s.name);
  assert.equal(by['tools/call ask'].parent, CLIENT_TRACE.spanId);
  assert.equal(by['tools/call ask'].attributes['jsonrpc.request.id'], 'c-1');
  assert.equal(by['tools/call ask'].attributes['gen_ai.tool.name'], 'ask');
  assert.equal(by['execute_tool ask'].parent, by['tools/call ask'].spanId);
  assert.equal(by['elicitation/create'].parent, by['execute_tool ask'].spanId);
  assert.equal(by['task completed'].parent, by['tools/call ask'].spanId);
});

test('the HTTP traceparent header parents a task whose message has none; the figures come back as metrics', { timeout: 30_000 }, async () => {
  const http = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };
  const { taskId } = (await rpc('tools/call', { name: 'ask', arguments: {} }, { id: 'c-2', headers: { traceparent: `00-${http.traceId}-${http.spanId}-01` } })).result;
  await settled(async () => (await rpc('tasks/get', { taskId })).result.status === 'input_required');
  const creation = await settled(async () => (await read('spans')).find((s) => s.attributes['mcp.task.id'] === taskId && s.name === 'tools/call ask'));
  assert.equal(creation.traceId, http.traceId);
  assert.equal(creation.parent, http.spanId);
  const metrics = await read('metrics');
  const byStatus = Object.fromEntries(metrics['mcp.tasks'].map((p) => [p.attributes['mcp.task.status'], p.value]));
  assert.deepEqual(byStatus, { working: 0, input_required: 1, completed: 1, failed: 0, cancelled: 0 });
  assert.equal(metrics['mcp.tasks.running'][0].value, 1);
  assert.equal(metrics['mcp.tasks.input_waiting'][0].value, 1);
});
