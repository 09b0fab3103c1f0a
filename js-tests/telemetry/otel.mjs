// Shared by the js-tests/telemetry tests: OpenTelemetry's SDK with in-memory exporters registered
// as the global providers (as an application's setup does), the packed package installed in a
// scratch project with `@opentelemetry/api` beside it (or without it), and reading back the
// spans and metric points.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as api from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { JS_TESTS_DIR, installPackage } from '../helpers/package.mjs';

export { api };

/** A client's trace context, as it would put it in `params._meta`. */
export const CLIENT_TRACE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
export const TRACEPARENT = `00-${CLIENT_TRACE.traceId}-${CLIENT_TRACE.spanId}-01`;

/** A metric reader the test collects from. */
class TestReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

/** An in-memory tracer provider and meter provider: `{ tracerProvider, meterProvider, spans(), metrics() }`. */
export function inMemoryOtel() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    /** Every span ended so far. */
    async spans() {
      await tracerProvider.forceFlush();
      return exporter.getFinishedSpans();
    },
    /** Metric name -> its data points (`{ attributes, value }`). */
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const out = {};
      for (const scope of resourceMetrics.scopeMetrics) for (const m of scope.metrics) out[m.descriptor.name] = m.dataPoints.map(({ attributes, value }) => ({ attributes, value }));
      return out;
    },
  };
}

/** inMemoryOtel(), registered as the global providers (once per process). */
export function globalOtel() {
  const otel = inMemoryOtel();
  if (!api.trace.setGlobalTracerProvider(otel.tracerProvider) || !api.metrics.setGlobalMeterProvider(otel.meterProvider)) {
    throw new Error('global OpenTelemetry providers were already set in this process');
  }
  return otel;
}

/**
 * The packed package in a scratch project with `links` (package names from js-tests/node_modules)
 * beside it: `import(entry)` imports `mcp-task-core/<entry>` from the project.
 */
export function installWith(links, prefix = 'mcp-task-core-otel-') {
  const pkg = installPackage({ prefix });
  for (const name of links) {
    const to = path.join(pkg.dir, 'node_modules', name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', name), to, 'dir');
  }
  return {
    ...pkg,
    async import(entry) {
      const probe = path.join(pkg.dir, `probe-${entry}.mjs`);
      fs.writeFileSync(probe, `export * from 'mcp-task-core/${entry}';\n`);
      return import(pathToFileURL(probe).href);
    },
  };
}

/** The spans of one task (by its `mcp.task.id`), by name. */
export function spansOf(spans, taskId) {
  const mine = spans.filter((s) => s.attributes['mcp.task.id'] === taskId);
  return Object.fromEntries(mine.map((s) => [s.name, s]));
}

/** The parent span id of a finished span. */
export const parentOf = (span) => span.parentSpanContext?.spanId;

/** Waits until `check()` is truthy (10 ms steps, at most `ms`). */
export async function until(check, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
