// OpenTelemetry tracing: one request or one event followed across the gateway, the gRPC services,
// Postgres, JetStream and the dispatcher's outgoing POSTs. Off unless OTEL_EXPORTER_OTLP_ENDPOINT
// is set: then spans go to that collector over OTLP/HTTP. When off, the SDK is not even loaded.
//
// A service starts tracing first thing in its main module, before it imports anything that loads
// node:http, pg or undici: the instrumentations patch those modules as they load. gRPC calls are
// traced by the platform's own client and server wrappers (grpc.ts), through the helpers at the end.
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
const INSTRUMENTED = ['pg', 'undici', 'node:http', 'node:https'];

/**
 * Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (or an exporter is given). A bad value of
 * an OTEL_* variable throws a ConfigError. Call it before importing the rest of the service.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const config = loadTracingConfig(opts.env ?? process.env);
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (state.started || (!endpoint && !opts.exporter)) return { enabled: state.started, shutdown: async () => undefined };

  const [{ NodeTracerProvider }, traceBase, { resourceFromAttributes }, { registerInstrumentations }, http, pg, undici] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  let processor;
  if (opts.exporter) processor = new traceBase.SimpleSpanProcessor(opts.exporter);
  else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const url = `${endpoint!.replace(/\/+$/, '')}/v1/traces`;
    processor = new traceBase.BatchSpanProcessor(new OTLPTraceExporter({ url }), {
      scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
      // A busy gateway finishes a few thousand spans a second: room for two seconds of them before
      // any is dropped, sent in batches of 1,024 (fewer, larger exports than the default 512).
      maxQueueSize: 8192,
      maxExportBatchSize: 1024,
    });
  }
  // The tracer provider, the AsyncLocalStorage context manager and the W3C propagator, and no more:
  // NodeSDK would also read the environment for metrics and logs exporters and detect resources.
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? opts.serviceName }),
    spanProcessors: [processor],
    sampler: new traceBase.ParentBasedSampler({ root: new traceBase.TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG) }),
  });
  provider.register();
  const ops = new Set(['/healthz', '/readyz', '/metrics']);
  // gRPC has no instrumentation: its spans are made by the platform's client and server wrappers
  // (grpcClientSpan, tracedGrpcCall below), which every call already goes through.
  const unregister = registerInstrumentations({
    tracerProvider: provider,
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
      // Only queries made within a traced request or event; the statement text, not its values.
      new pg.PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new undici.UndiciInstrumentation(),
    ],
  });
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
      state.started = false;
      unregister();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
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

// Trace context on gRPC calls (W3C traceparent/tracestate in the call metadata). Every call goes
// through the platform's promiseClient and GrpcServer handlers, which make these spans: one span a
// side per call, with none of the per-call patching of grpc-js an instrumentation needs.

/** Metadata of a gRPC call, as far as propagation needs it (grpc-js Metadata). */
interface RpcMetadata {
  get(key: string): unknown[];
  set(key: string, value: string): void;
  getMap(): Record<string, unknown>;
}

const rpcSetter: TextMapSetter<RpcMetadata> = { set: (m, k, v) => m.set(k, v) };
const rpcGetter: TextMapGetter<RpcMetadata> = {
  get: (m, k) => {
    const v = m.get(k)[0];
    return typeof v === 'string' ? v : undefined;
  },
  keys: (m) => Object.keys(m.getMap()),
};

/** Span name and attributes of a call to `path` ('/switchboard.applications.v1.ApplicationsService/GetApplication'). */
function rpcSpan(path: string): { name: string; attributes: Record<string, string> } {
  const name = path.startsWith('/') ? path.slice(1) : path;
  const slash = name.lastIndexOf('/');
  return { name, attributes: { 'rpc.system': 'grpc', 'rpc.service': name.slice(0, slash), 'rpc.method': name.slice(slash + 1) } };
}

/** Codes a server reports as its own failure (OpenTelemetry's gRPC conventions); the rest are the caller's. */
const SERVER_FAULTS = new Set([2, 4, 12, 13, 14, 15]); // UNKNOWN, DEADLINE_EXCEEDED, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS

/** Ends a gRPC span with the call's status code (a number of grpc.status). */
function endRpc(span: Span, code: number, failed: boolean, message?: string): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

/**
 * Starts the client span of a call to `path` within the active context and writes its context into
 * the call's `metadata`. Returns what ends the span with the call's status code; undefined (and
 * nothing done) without tracing.
 */
export function grpcClientSpan(path: string, metadata: RpcMetadata): ((code: number, message?: string) => void) | undefined {
  if (!state.started) return undefined;
  const { name, attributes } = rpcSpan(path);
  const active = context.active();
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes }, active);
  propagation.inject(trace.setSpan(active, span), metadata, rpcSetter);
  return (code, message) => endRpc(span, code, code !== 0, message);
}

/**
 * Runs a server handler of `path` in a server span whose parent is the trace context the call's
 * `metadata` carries; the handler calls the `end` it is given with the status code it answers.
 * Without tracing it just runs the handler.
 */
export function tracedGrpcCall<T>(path: string, metadata: RpcMetadata, handle: (end: (code: number, message?: string) => void) => T): T {
  if (!state.started) return handle(noEnd);
  const { name, attributes } = rpcSpan(path);
  const parent = propagation.extract(ROOT_CONTEXT, metadata, rpcGetter);
  const span = tracer().startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  return context.with(trace.setSpan(parent, span), handle, undefined, (code: number, message?: string) => endRpc(span, code, SERVER_FAULTS.has(code), message));
}

const noEnd = (): void => undefined;
