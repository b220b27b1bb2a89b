// OpenTelemetry tracing: one request or one event followed across the gateway, the gRPC services,
// Postgres, JetStream and the dispatcher's outgoing POSTs. Off unless OTEL_EXPORTER_OTLP_ENDPOINT
// is set: then spans go to that collector over OTLP/HTTP. When off, the SDK is not even loaded.
//
// A service starts tracing first thing in its main module, before it imports anything that loads
// node:http, pg, @grpc/grpc-js or undici: the instrumentations patch those modules as they load.
// This module imports nothing of the platform but its config helpers for that reason.
import { createRequire } from 'node:module';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { parseConfig } from './config';
import type { Logger } from './logger';
import { runMain } from './shutdown';

/** Environment of tracing (the standard OTEL_* names). */
export const tracingConfigSchema = z.object({
  /** Collector base URL; traces go to `${endpoint}/v1/traces`. Unset: tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .optional()
    .refine((v) => {
      if (v === undefined) return true;
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an http or https URL'),
  /** Overrides the service name the process reports. */
  OTEL_SERVICE_NAME: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores').optional(),
  /** Fraction of new traces recorded (0..1); a trace started elsewhere follows its parent's decision. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  /** Milliseconds between batch exports. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(60_000).default(1000),
});
export type TracingConfig = z.output<typeof tracingConfigSchema>;

export function loadTracingConfig(env: Record<string, string | undefined> = process.env): TracingConfig {
  return parseConfig(tracingConfigSchema, env);
}

export interface TracingOptions {
  /** service.name of the spans (OTEL_SERVICE_NAME overrides it). */
  serviceName: string;
  env?: Record<string, string | undefined>;
  /**
   * For tests: every finished span goes to this exporter at once (for example the SDK's
   * InMemorySpanExporter), whatever the environment says; the OTLP exporter is not created.
   */
  exporter?: SpanExporter;
}

export interface Tracing {
  enabled: boolean;
  /** Exports what is buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

const STATE = Symbol.for('switchboard.tracing');
type State = { started: boolean };
const state: State = ((globalThis as Record<symbol, State | undefined>)[STATE] ??= { started: false });

/** True once startTracing installed the SDK in this process. */
export function tracingEnabled(): boolean {
  return state.started;
}

/**
 * CommonJS packages the instrumentations patch. Our modules are ESM, and an `import` of a CommonJS
 * package does not pass through require(), where the instrumentations hook in. So they are
 * required here once the instrumentations are enabled: the patches change the packages' objects
 * in place, and the later `import` gets the same, already loaded and patched, module.
 */
const INSTRUMENTED = ['pg', '@grpc/grpc-js', 'undici', 'node:http', 'node:https'];

/**
 * Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (or an exporter is given). A bad value of
 * an OTEL_* variable throws a ConfigError. Call it before importing the rest of the service.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const config = loadTracingConfig(opts.env ?? process.env);
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (state.started || (!endpoint && !opts.exporter)) return { enabled: state.started, shutdown: async () => undefined };

  const [{ NodeSDK }, traceBase, { resourceFromAttributes }, http, grpc, pg, undici] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-grpc'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  let processor;
  if (opts.exporter) processor = new traceBase.SimpleSpanProcessor(opts.exporter);
  else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const url = `${endpoint!.replace(/\/+$/, '')}/v1/traces`;
    processor = new traceBase.BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY });
  }
  const ops = new Set(['/healthz', '/readyz', '/metrics']);
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? opts.serviceName }),
    autoDetectResources: false,
    spanProcessors: [processor],
    // Traces only: without these the SDK would set up OTLP metrics and logs from the environment.
    metricReaders: [],
    logRecordProcessors: [],
    sampler: new traceBase.ParentBasedSampler({ root: new traceBase.TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG) }),
    instrumentations: [
      new http.HttpInstrumentation({
        // Probes and scrapes of the ops endpoint are not requests worth a trace.
        ignoreIncomingRequestHook: (req) => ops.has((req.url ?? '').split('?')[0]!),
        // Nothing of ours goes out over node:http but the OTLP exporter (whose requests are not
        // traced anyway); the dispatcher's POSTs go through undici, which has its own instrumentation.
        ignoreOutgoingRequestHook: () => true,
        // The Session API's credential travels in the query: its value never goes into url.query.
        redactedQueryParamsServer: ['token'],
        // The route, from what Express left on the request once it answered: the Express
        // instrumentation, which would otherwise provide it, wraps every middleware of every request.
        applyCustomAttributesOnSpan: nameByRoute,
      }),
      // grpc.health.v1 (the only Check and Watch methods): probes, like the HTTP ones.
      new grpc.GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      new pg.PgInstrumentation({ requireParentSpan: true }),
      new undici.UndiciInstrumentation(),
    ],
  });
  sdk.start();
  state.started = true;
  const require = createRequire(import.meta.url);
  for (const name of INSTRUMENTED) {
    try {
      require(name);
    } catch {
      // Not installed where this service runs: nothing to patch.
    }
  }
  return {
    enabled: true,
    async shutdown() {
      await sdk.shutdown();
      state.started = false;
    },
  };
}

/**
 * Names an HTTP server span by the Express route that answered (`GET /v1/applications/:id`) and
 * sets http.route. Called as the span ends: Express leaves the route (`req.route`, relative to the
 * router it is in) and the router's mount path (`req.baseUrl`) on the request. Client spans and
 * requests no route matched keep the method as name.
 */
function nameByRoute(span: Span, request: object): void {
  const req = request as { route?: { path?: unknown }; baseUrl?: unknown; method?: string };
  const path = req.route?.path;
  if (typeof path !== 'string') return;
  const route = `${typeof req.baseUrl === 'string' ? req.baseUrl : ''}${path}`;
  span.setAttribute('http.route', route);
  span.updateName(`${req.method ?? 'GET'} ${route}`);
}

/**
 * The main module of a service: starts tracing, then `start` (which imports the service itself,
 * so the instrumentations are in place before node:http, pg, gRPC or undici load), as runMain does.
 * Stopping the service flushes the spans still buffered.
 */
export async function runTracedMain(name: string, start: () => Promise<{ logger: Logger; stop: () => Promise<void> }>): Promise<void> {
  await runMain(name, async () => {
    const tracing = await startTracing({ serviceName: name });
    const service = await start();
    return {
      logger: service.logger,
      async stop() {
        await service.stop();
        await tracing.shutdown().catch((err: unknown) => service.logger.warn({ err: (err as Error)?.message }, 'could not flush traces'));
      },
    };
  });
}

// Trace context in NATS message headers (W3C traceparent/tracestate), through the global propagator.

/** Headers of a NATS message, as far as propagation needs them. */
interface Headers {
  get(key: string): string;
  set(key: string, value: string): void;
  keys(): string[];
}

const setter: TextMapSetter<Headers> = { set: (h, k, v) => h.set(k, v) };
const getter: TextMapGetter<Headers | undefined> = {
  get: (h, k) => h?.get(k) || undefined,
  keys: (h) => h?.keys() ?? [],
};

const tracer = () => trace.getTracer('@switchboard/platform');

/**
 * Runs `publish` in a producer span for `subject` whose context is written into headers it creates
 * with `makeHeaders` (or adds to `existing`). Without tracing it calls `publish(existing)` as is.
 */
export async function tracedPublish<T, H extends Headers>(subject: string, existing: H | undefined, makeHeaders: () => H, publish: (headers: H | undefined) => Promise<T>): Promise<T> {
  if (!state.started) return publish(existing);
  return tracer().startActiveSpan(
    `publish ${subject}`,
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject } },
    async (span) => {
      const headers = existing ?? makeHeaders();
      propagation.inject(context.active(), headers, setter);
      return settle(span, () => publish(headers));
    },
  );
}

/** Runs a consumer's handler in a span whose parent is the trace context the message carries. */
export async function tracedConsume<T>(subject: string, headers: Headers | undefined, attributes: Record<string, string | number>, handle: () => Promise<T>): Promise<T> {
  if (!state.started) return handle();
  const parent: Context = propagation.extract(ROOT_CONTEXT, headers, getter);
  return tracer().startActiveSpan(
    `process ${subject}`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'process', 'messaging.destination.name': subject, ...attributes } },
    parent,
    (span) => settle(span, handle),
  );
}

async function settle<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    span.end();
  }
}
