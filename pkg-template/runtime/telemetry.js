// OpenTelemetry traces and metrics of the receiver runtime (internal), after OpenTelemetry's
// semantic conventions for MCP (gen-ai/mcp.md) where they name a thing:
//   `tools/call {tool}` (SERVER)       the request that created the task, parented to the W3C
//                                      `traceparent`/`tracestate` of its `params._meta` (else the
//                                      HTTP request's `traceparent` header, else a new trace)
//   `execute_tool {tool}` (INTERNAL)   the task's work, a child of the creation
//   `{method}` (CLIENT)                each input round trip (elicitation/create, ...), a child
//                                      of the work
//   `task {status}` (INTERNAL)         the outcome (completed, failed, cancelled, expired), a
//                                      child of the creation
// and the runtime's figures as observable instruments (`mcp.tasks` by `mcp.task.status`, ...).
// `@opentelemetry/api` is an optional peer: looked up once, when a runtime is made, only where
// the host resolves packages synchronously (Node); elsewhere (workerd, browsers, bundles) the
// host passes it in the `telemetry` option. Without it there is nothing here to run.
//
// The CommonJS twin telemetry.cjs is generated from this file by scripts/package-table.mjs.

import { PROTOCOL } from '../core/protocol.js';

const NAME = 'mcp-task-core';
/** Task spans kept for tasks that never end here (their work moved, or the host forgot them). */
const MAX_TRACED = 10_000;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/** undefined: not looked for yet; null: not installed. */
let installed;

/** `@opentelemetry/api` as installed next to this package (Node), or null. */
function installedApi() {
  if (installed !== undefined) return installed;
  installed = null;
  try {
    const load = globalThis.process?.getBuiltinModule?.('node:module')?.createRequire(import.meta.url);
    if (typeof load === 'function') installed = load('@opentelemetry/api');
  } catch {
    // not installed: no telemetry
  }
  return installed;
}

/**
 * The runtime's telemetry for its `telemetry` option, or null (none): `false` turns it off;
 * `{ api, tracer?, meter? }` uses that `@opentelemetry/api` (and its global providers unless a
 * tracer or meter is given); undefined looks for an installed `@opentelemetry/api`.
 */
function telemetryOf(option) {
  if (option === false || option === null) return null;
  const api = option === undefined ? installedApi() : option.api;
  if (api === null || api === undefined) return null;
  const telemetry = new Telemetry(api, option?.tracer ?? api.trace.getTracer(NAME), option?.meter ?? api.metrics.getMeter(NAME));
  // A tracer's fault must never fail a task: its spans are lost, the task goes on.
  for (const name of ['begin', 'asked', 'answered', 'end']) {
    const traced = telemetry[name].bind(telemetry);
    telemetry[name] = (...args) => {
      try {
        traced(...args);
      } catch {
        // the span is lost
      }
    };
  }
  return telemetry;
}

/** The `telemetry` option, checked (adapters call this where they check their options). */
function checkTelemetryOption(option, where) {
  if (option === undefined || option === false) return;
  if (option === null || typeof option !== 'object' || typeof option.api?.trace?.getTracer !== 'function' || typeof option.api?.metrics?.getMeter !== 'function') {
    throw new TypeError(`${where}telemetry must be false or { api, tracer?, meter? } with api the @opentelemetry/api module`);
  }
}

/** The parent context of W3C trace context `traceparent` (and `tracestate`), or null. */
function remoteParent(api, traceparent, tracestate) {
  const m = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (m === null || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return null;
  const spanContext = { traceId: m[2], spanId: m[3], traceFlags: parseInt(m[4], 16) & 1, isRemote: true };
  if (!api.trace.isSpanContextValid(spanContext)) return null;
  if (typeof tracestate === 'string' && typeof api.createTraceState === 'function') spanContext.traceState = api.createTraceState(tracestate);
  return api.trace.setSpanContext(api.ROOT_CONTEXT, spanContext);
}

/** The header `name` of a fetch `Headers`, a Node headers object or a plain object, or undefined. */
function header(headers, name) {
  if (headers === null || typeof headers !== 'object') return undefined;
  const value = typeof headers.get === 'function' ? headers.get(name) : headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** A request id's JSON text as the conventions write it (a string's text without its quotes). */
function idText(rawId) {
  try {
    const id = JSON.parse(rawId);
    return typeof id === 'string' || typeof id === 'number' ? String(id) : rawId;
  } catch {
    return rawId;
  }
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The metric instruments of one meter, and the runtimes whose figures they sum. */
const meters = new WeakMap();

function instrumentsOf(meter) {
  let entry = meters.get(meter);
  if (entry !== undefined) return entry;
  const sources = new Set();
  const tasks = meter.createObservableGauge('mcp.tasks', { description: 'Live tasks held, by status (mcp.task.status)', unit: '{task}' });
  const running = meter.createObservableGauge('mcp.tasks.running', { description: 'Tasks whose work runs in this process', unit: '{task}' });
  const inputWaiting = meter.createObservableGauge('mcp.tasks.input_waiting', { description: 'Running work waiting for an answer to an input request', unit: '{task}' });
  const expirations = meter.createObservableCounter('mcp.tasks.expirations', { description: 'Tasks deleted because their TTL ran out', unit: '{task}' });
  const leaseFailures = meter.createObservableCounter('mcp.tasks.lease_failures', { description: "Tasks failed because their worker's lease ran out", unit: '{task}' });
  const storageErrors = meter.createObservableCounter('mcp.tasks.storage_errors', { description: 'Errors of the task storage', unit: '{error}' });
  meter.addBatchObservableCallback(
    (result) => {
      if (sources.size === 0) return;
      const sum = { running: 0, inputWaiting: 0, expirations: 0, leaseFailures: 0, storageErrors: 0, tasks: Object.fromEntries(STATUSES.map((s) => [s, 0])) };
      for (const figures of sources) {
        let f;
        try {
          f = figures();
        } catch {
          continue; // an engine freed meanwhile
        }
        for (const key of ['running', 'inputWaiting', 'expirations', 'leaseFailures', 'storageErrors']) sum[key] += f[key];
        for (const s of STATUSES) sum.tasks[s] += f.tasks[s];
      }
      for (const s of STATUSES) result.observe(tasks, sum.tasks[s], { 'mcp.task.status': s });
      result.observe(running, sum.running);
      result.observe(inputWaiting, sum.inputWaiting);
      result.observe(expirations, sum.expirations);
      result.observe(leaseFailures, sum.leaseFailures);
      result.observe(storageErrors, sum.storageErrors);
    },
    [tasks, running, inputWaiting, expirations, leaseFailures, storageErrors],
  );
  entry = { sources };
  meters.set(meter, entry);
  return entry;
}

class Telemetry {
  #api;
  #tracer;
  #meter;
  /** taskId -> { creation: Context, work: Span, tool, inputs: Map<key, Span> } */
  #tasks = new Map();

  constructor(api, tracer, meter) {
    this.#api = api;
    this.#tracer = tracer;
    this.#meter = meter;
  }

  /** Reports `figures()` (the runtime's) through the meter's instruments; returns the undo. */
  watch(figures) {
    const { sources } = instrumentsOf(this.#meter);
    sources.add(figures);
    return () => sources.delete(figures);
  }

  /**
   * A task was created and its work starts here. `request`: the JSON-RPC request that created
   * it (its `params._meta` carries the trace context); `origin`: `{ requestId, headers,
   * startTime }` the adapter knows (the client's request id where the engine saw one of ours,
   * the HTTP request's headers, when the request arrived); `context`: the session or principal.
   */
  begin(taskId, request, context, origin) {
    const api = this.#api;
    const params = isObject(request?.params) ? request.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const method = typeof request?.method === 'string' ? request.method : 'tools/call';
    const tool = typeof params.name === 'string' ? params.name : undefined;
    const fromMeta = remoteParent(api, meta.traceparent, meta.tracestate);
    const fromHttp = remoteParent(api, header(origin?.headers, 'traceparent'), header(origin?.headers, 'tracestate'));
    const parent = fromMeta ?? fromHttp ?? api.ROOT_CONTEXT;
    const attributes = { 'mcp.method.name': method, 'mcp.task.id': taskId };
    if (tool !== undefined) attributes['gen_ai.tool.name'] = tool;
    const requestId = origin?.requestId ?? request?.id;
    if (typeof requestId === 'string' || typeof requestId === 'number') attributes['jsonrpc.request.id'] = String(requestId);
    const version = meta[PROTOCOL.meta.protocolVersion];
    if (typeof version === 'string') attributes['mcp.protocol.version'] = version;
    if (typeof origin?.sessionId === 'string') attributes['mcp.session.id'] = origin.sessionId;
    // The transport's context is recorded as a link when the message carried its own parent.
    const links = fromMeta !== null && fromHttp !== null ? [{ context: api.trace.getSpanContext(fromHttp) }] : undefined;
    const creation = this.#tracer.startSpan(
      tool === undefined ? method : `${method} ${tool}`,
      { kind: api.SpanKind.SERVER, attributes, links, startTime: origin?.startTime },
      parent,
    );
    creation.end();
    const created = api.trace.setSpan(parent, creation);
    const workAttributes = { 'gen_ai.operation.name': 'execute_tool', 'mcp.task.id': taskId };
    if (tool !== undefined) workAttributes['gen_ai.tool.name'] = tool;
    const work = this.#tracer.startSpan(tool === undefined ? 'execute_tool' : `execute_tool ${tool}`, { kind: api.SpanKind.INTERNAL, attributes: workAttributes }, created);
    if (this.#tasks.size >= MAX_TRACED) this.end(this.#tasks.keys().next().value, 'unknown');
    this.#tasks.set(taskId, { created, work, inputs: new Map() });
  }

  /**
   * An input round trip of the task's work starts: `key` names it until it is answered,
   * `method` and `rawId` (the JSON text of its id) are those of the request sent to the client;
   * no `method`: the request is not known here (an SDK 1.x task waiting in `input_required`).
   */
  asked(taskId, key, method, rawId) {
    const traced = this.#tasks.get(taskId);
    if (traced === undefined) return;
    const api = this.#api;
    const attributes = { 'mcp.task.id': taskId };
    if (method !== undefined) attributes['mcp.method.name'] = method;
    if (rawId !== undefined) attributes['jsonrpc.request.id'] = idText(rawId);
    traced.inputs.get(key)?.end();
    const name = method ?? 'input_required';
    const span = this.#tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, api.trace.setSpan(traced.created, traced.work));
    traced.inputs.set(key, span);
  }

  /** The input round trip `key` ended: answered, or `error` (a JSON-RPC error or an abort). */
  answered(taskId, key, error) {
    const traced = this.#tasks.get(taskId);
    const span = traced?.inputs.get(key);
    if (span === undefined) return;
    traced.inputs.delete(key);
    if (error !== undefined) this.#failed(span, error);
    span.end();
  }

  /**
   * The task reached `status` (completed, failed, cancelled, expired; `unknown`: forgotten):
   * its work's span ends, and the outcome's span records it. `errorType` for a failure: the
   * JSON-RPC error code, or `tool_error` for a tool result with `isError`.
   */
  end(taskId, status, errorType) {
    const traced = this.#tasks.get(taskId);
    if (traced === undefined) return;
    this.#tasks.delete(taskId);
    const api = this.#api;
    // Round trips still open are abandoned: the task ended before the client answered.
    for (const span of traced.inputs.values()) {
      this.#failed(span, { name: 'AbortError', message: `The task ended (${status}) before the answer` });
      span.end();
    }
    const attributes = { 'mcp.task.id': taskId, 'mcp.task.status': status };
    if (status === 'failed') attributes['error.type'] = errorType ?? 'tool_error';
    traced.work.setAttribute('mcp.task.status', status);
    if (status === 'failed') this.#failed(traced.work, { code: attributes['error.type'] });
    traced.work.end();
    const outcome = this.#tracer.startSpan(`task ${status}`, { kind: api.SpanKind.INTERNAL, attributes }, traced.created);
    if (status === 'failed') outcome.setStatus({ code: api.SpanStatusCode.ERROR });
    outcome.end();
  }

  #failed(span, error) {
    const code = error?.code;
    span.setAttribute('error.type', code === undefined ? String(error?.name ?? 'Error') : String(code));
    if (typeof code === 'number') span.setAttribute('rpc.response.status_code', String(code));
    span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: typeof error?.message === 'string' ? error.message : undefined });
  }
}

export { telemetryOf, checkTelemetryOption };
