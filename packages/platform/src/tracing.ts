// OpenTelemetry tracing: one request or one event followed across the gateway, the gRPC services,
// Postgres, JetStream and the dispatcher's outgoing POSTs. Off unless OTEL_EXPORTER_OTLP_ENDPOINT
// is set: then sampled traces go to that collector over OTLP/HTTP. When off, the SDK is not even loaded.
//
// A service starts tracing first thing in its main module, before it imports anything that loads
// pg or undici: their instrumentations patch those modules as they load. HTTP requests to the
// gateway and gRPC calls are traced by our own code (tracedHttpRequest, used by the gateway's
// server; the gRPC client and server wrappers of grpc.ts), through the helpers below.
// This module imports nothing of the platform but its config helpers (and the leaf modules
// random-hex and shutdown) for that reason.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { context, createContextKey, isSpanContextValid, propagation, ROOT_CONTEXT, SamplingDecision, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span, type SpanContext, type TextMapGetter, type TextMapPropagator, type TextMapSetter, type Tracer } from '@opentelemetry/api';
import type { IdGenerator, Sampler, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { parseConfig } from './config';
import type { Logger } from './logger';
import { randomHex } from './random-hex';
import { runMain } from './shutdown';
import type { OnDemandContextManager } from './context-manager';

/** The samplers of OTEL_TRACES_SAMPLER that need no remote configuration. */
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/**
 * The libraries whose calls the instrumentations turn into spans: Postgres queries (`pg`) and
 * outgoing HTTP requests (`undici`), by OpenTelemetry's names for their instrumentations.
 */
const INSTRUMENTED = ['pg', 'undici'] as const;
export type Instrumented = (typeof INSTRUMENTED)[number];

/**
 * Fraction of new traces recorded when OTEL_TRACES_SAMPLER_ARG is not set (OpenTelemetry's own
 * default is 1): one request in ten is enough to see where the time goes, and exports a tenth.
 */
export const DEFAULT_SAMPLED_RATIO = 0.1;

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
  /**
   * Which traces are recorded (OpenTelemetry's names). The parentbased_* samplers follow the decision
   * of a trace started upstream (the sampled flag of its traceparent) and apply the rest to new traces.
   */
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).default('parentbased_traceidratio'),
  /** Fraction of new traces recorded (0..1) by the *traceidratio samplers. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(DEFAULT_SAMPLED_RATIO),
  /** OTLP/HTTP encoding of the exports: protobuf (the smaller and cheaper) or JSON. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
  /** The same for traces alone; overrides OTEL_EXPORTER_OTLP_PROTOCOL. */
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  /** Milliseconds between batch exports. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(60_000).default(1000),
  /**
   * Instrumentations not loaded (OpenTelemetry's variable: names without the
   * `@opentelemetry/instrumentation-` prefix, comma-separated): `pg` for no Postgres query spans,
   * `undici` for no spans of outgoing HTTP requests (the dispatcher's POSTs then carry no
   * traceparent either). Any other name is refused, so that a misspelt one does not go unnoticed.
   */
  OTEL_NODE_DISABLED_INSTRUMENTATIONS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    )
    .pipe(z.array(z.enum(INSTRUMENTED, { error: (issue) => `unknown instrumentation ${JSON.stringify(issue.input)}: known are ${INSTRUMENTED.join(', ')}` }))),
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
  /**
   * Whether the process keeps the active trace context across its asynchronous work with the
   * AsyncLocalStorage context manager (default true). Without it (false) context.active() is always
   * empty, and nothing pays for carrying a context through every promise: for a process that hands
   * each request's context to what it calls itself, as the gateway does (requestTrace, the `trace`
   * of its gRPC calls' options). Instrumentations (pg, undici) then see no parent.
   * `on-demand`: the manager is switched off whenever no work runs in a context (context-manager.ts),
   * for a process whose work in a trace ends when its handlers answer, as the applications and
   * webhooks services' does; not for one that goes on with a message's work after its handler has
   * returned (the dispatcher's queued POSTs), which would lose its context.
   */
  contextManager?: boolean | 'on-demand';
  /**
   * The libraries whose calls make spans (default both): Postgres queries (`pg`) and outgoing HTTP
   * requests (`undici`). A process that uses neither names none, and loads no instrumentation: an
   * instrumentation hooks every require() of the process from its construction on (each one then
   * resolves its module again, and under tsx reads a stack trace, which parses source maps).
   * OTEL_NODE_DISABLED_INSTRUMENTATIONS takes names off this list.
   */
  instrument?: readonly Instrumented[];
}

export interface Tracing {
  enabled: boolean;
  /** Exports what is buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

const STATE = Symbol.for('switchboard.tracing');
type State = {
  started: boolean;
  followsParent: boolean;
  /** The SDK's sampler and id generator, for the traces that start here (startTrace). */
  sampler?: Sampler;
  ids?: PresetIdGenerator;
  tracer?: Tracer;
  /** No context manager: context.active() is always the empty context. */
  contextless?: boolean;
  /** The context manager when it is switched on only while work runs in a context (holdContext). */
  onDemand?: OnDemandContextManager;
};
const state: State = ((globalThis as Record<symbol, State | undefined>)[STATE] ??= { started: false, followsParent: false });

/**
 * Keeps the active context carried across the asynchronous work that follows (see
 * context-manager.ts) until the returned function is called: for work that goes on in a context
 * after the function run in it has returned (a gRPC handler until it answers, a request until its
 * response closes). Does nothing with any other context manager.
 */
function holdContext(): () => void {
  return state.onDemand ? state.onDemand.hold() : noEnd;
}

/** True once startTracing installed the SDK in this process. */
export function tracingEnabled(): boolean {
  return state.started;
}

/**
 * The SDK's random ids, except that a trace id drawn by startTrace before the span exists is the
 * one the span then takes: the sampler decides on it first, and only a sampled trace gets a span.
 */
class PresetIdGenerator implements IdGenerator {
  /** The trace id the next root span takes; cleared as soon as it is taken. */
  next: string | undefined;
  constructor(readonly random: IdGenerator) {}
  generateTraceId = (): string => {
    const id = this.next ?? this.random.generateTraceId();
    this.next = undefined;
    return id;
  };
  generateSpanId = (): string => this.random.generateSpanId();
}

/**
 * Random trace and span ids (lowercase hex, never all zeros) cut from the platform's pool of random
 * hex (random-hex.ts), where the SDK's generator makes four Math.random() calls and a hex
 * conversion per id. Every request draws a trace id and a span id, sampled or not.
 */
class PooledIdGenerator implements IdGenerator {
  private take(chars: number): string {
    for (;;) {
      const id = randomHex(chars);
      if (!ALL_ZEROS.test(id)) return id;
    }
  }
  generateTraceId = (): string => this.take(32);
  generateSpanId = (): string => this.take(16);
}

const ALL_ZEROS = /^0+$/;

/** The sampler OTEL_TRACES_SAMPLER names, with OTEL_TRACES_SAMPLER_ARG as its ratio. */
function samplerOf(base: typeof import('@opentelemetry/sdk-trace-base'), config: TracingConfig): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = base;
  const [parentBased, root] = config.OTEL_TRACES_SAMPLER.startsWith('parentbased_')
    ? [true, config.OTEL_TRACES_SAMPLER.slice('parentbased_'.length)]
    : [false, config.OTEL_TRACES_SAMPLER];
  const sampler = root === 'always_on' ? new AlwaysOnSampler() : root === 'always_off' ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG);
  return parentBased ? new ParentBasedSampler({ root: sampler }) : sampler;
}

/**
 * Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (or an exporter is given). A bad value of
 * an OTEL_* variable throws a ConfigError. Call it before importing the rest of the service.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const config = loadTracingConfig(opts.env ?? process.env);
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (state.started || (!endpoint && !opts.exporter)) return { enabled: state.started, shutdown: async () => undefined };

  const instrumented = (opts.instrument ?? INSTRUMENTED).filter((name) => !config.OTEL_NODE_DISABLED_INSTRUMENTATIONS.includes(name));
  const [{ NodeTracerProvider }, traceBase, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  let processor;
  if (opts.exporter) processor = new traceBase.SimpleSpanProcessor(opts.exporter);
  else {
    const url = `${endpoint!.replace(/\/+$/, '')}/v1/traces`;
    const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
    const { OTLPTraceExporter } = protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto');
    processor = new traceBase.BatchSpanProcessor(new OTLPTraceExporter({ url }), {
      scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
      // A busy gateway finishes a few thousand spans a second: room for two seconds of them before
      // any is dropped, sent in batches of 1,024 (fewer, larger exports than the default 512).
      maxQueueSize: 8192,
      maxExportBatchSize: 1024,
    });
  }
  // The tracer provider, the AsyncLocalStorage context manager (unless the process does without)
  // and the W3C propagator, and no more: NodeSDK would also read the environment for metrics and
  // logs exporters and detect resources.
  const sampler = samplerOf(traceBase, config);
  const ids = new PresetIdGenerator(new PooledIdGenerator());
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? opts.serviceName }),
    spanProcessors: [processor],
    sampler,
    idGenerator: ids,
  });
  // The context manager: none where the process hands each request's context on itself (the
  // gateway); on demand, where AsyncLocalStorage is built on async hooks, one switched on only while
  // some work runs in a context (context-manager.ts); otherwise OpenTelemetry's own.
  let contextManager: OnDemandContextManager | null | undefined;
  if (opts.contextManager === false) contextManager = null;
  else if (opts.contextManager === 'on-demand') {
    const { OnDemandContextManager, storageUsesAsyncHooks } = await import('./context-manager');
    if (storageUsesAsyncHooks()) contextManager = new OnDemandContextManager();
  }
  // The W3C trace context and baggage propagators (the SDK's default), except into what runs in
  // withoutPropagation (requests to customers' hosts).
  const core = await import('@opentelemetry/core');
  const propagator = new Guarded(new core.CompositePropagator({ propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()] }));
  provider.register(contextManager === undefined ? { propagator } : { contextManager, propagator });
  // HTTP and gRPC have no instrumentation: their spans are made by the gateway's server
  // (tracedHttpRequest) and the platform's gRPC client and server wrappers (grpcClientSpan,
  // tracedGrpcCall), which every request and call already goes through.
  // Only the libraries the process uses: an instrumentation hooks every require() of the process
  // from its construction on.
  let unregister = (): void => undefined;
  if (instrumented.length > 0) {
    const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
    const instrumentations = [];
    if (instrumented.includes('pg')) {
      const pg = await import('@opentelemetry/instrumentation-pg');
      // Only queries made within a traced request or event; the statement text, not its values.
      // A query made for several traced calls at once (coalescer.ts) is linked to the others' spans.
      instrumentations.push(new pg.PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false, requestHook: linkCoalesced }));
    }
    if (instrumented.includes('undici')) {
      // A request's query string may carry a customer's credential: spans keep only that it had one.
      const withoutQuery = (request: { origin: string; path: string }): Attributes => {
        const q = request.path.indexOf('?');
        return q === -1 ? {} : { 'url.full': `${request.origin}${request.path.slice(0, q)}?***`, 'url.query': '***' };
      };
      instrumentations.push(new (await import('@opentelemetry/instrumentation-undici')).UndiciInstrumentation({ startSpanHook: withoutQuery }));
    }
    unregister = registerInstrumentations({ tracerProvider: provider, instrumentations });
  }
  state.started = true;
  state.onDemand = contextManager ?? undefined;
  state.contextless = contextManager === null;
  state.followsParent = config.OTEL_TRACES_SAMPLER.startsWith('parentbased_');
  state.sampler = sampler;
  state.ids = ids;
  // The packages the instrumentations patch are CommonJS. Our modules are ESM, and an `import` of a
  // CommonJS package does not pass through require(), where the instrumentations hook in. So they
  // are required here once the instrumentations are enabled: the patches change the packages'
  // objects in place, and the later `import` gets the same, already loaded and patched, module.
  const require = createRequire(import.meta.url);
  for (const name of instrumented) {
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
      state.sampler = undefined;
      state.ids = undefined;
      state.onDemand = undefined;
      state.tracer = undefined;
      state.contextless = undefined;
      unregister();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * The main module of a service: starts tracing, then `start` (which imports the service itself,
 * so the instrumentations are in place before pg or undici load), as runMain does.
 * Stopping the service flushes the spans still buffered.
 */
export async function runTracedMain(
  name: string,
  start: () => Promise<{ logger: Logger; stop: () => Promise<void> }>,
  options: Pick<TracingOptions, 'contextManager' | 'instrument'> = {},
): Promise<void> {
  await runMain(name, async () => {
    const tracing = await startTracing({ serviceName: name, ...options });
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

// Traces start at the edges only: a request to the gateway (tracedHttpRequest), a publish outside
// any trace, a message without trace context. A gRPC service never starts one (tracedGrpcCall), so
// a new trace the gateway's sampler turns down goes no further: its calls carry no traceparent,
// and nothing behind does any tracing work for it (nine requests in ten at the default sampling).
// Traces not recorded that do travel (a client's traceparent with flag 00, an unsampled event):
// the processes after follow the decision the traceparent carries, and within such a trace our
// code makes no spans (no names or attributes computed, no span objects) and passes only the trace
// context on. That path is kept short: a traceparent of an unsampled trace is read and passed on as
// the string it is (unsampledParent, inject), and the propagators run only for what that path does
// not cover (tracestate, baggage, other versions).

/** An unrecorded trace as a process passes it on: its span context and the traceparent that says so. */
interface Unrecorded {
  spanContext: SpanContext;
  traceparent: string;
}

/** Where a handler of an unrecorded trace keeps the trace (see unrecordedContext). */
const UNRECORDED = createContextKey('@switchboard/platform unrecorded trace');

const NO_PROPAGATION = createContextKey('@switchboard/platform no propagation');

/** A propagator that injects nothing into what runs in withoutPropagation; otherwise `inner`. */
class Guarded implements TextMapPropagator {
  constructor(private readonly inner: TextMapPropagator) {}
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    if (ctx.getValue(NO_PROPAGATION) !== true) this.inner.inject(ctx, carrier, setter);
  }
  extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
    return this.inner.extract(ctx, carrier, getter);
  }
  fields(): string[] {
    return this.inner.fields();
  }
}

/**
 * Runs `fn` so that the requests it makes carry no trace context (no traceparent): for requests to
 * customers' hosts, which have no business with our trace ids. Their spans are still recorded.
 */
export function withoutPropagation<T>(fn: () => T): T {
  if (!state.started) return fn();
  return context.with(context.active().setValue(NO_PROPAGATION, true), fn);
}

/** An unrecorded trace of `spanContext`, with the traceparent (W3C, version 00) the W3C propagator would write for it. */
function unrecorded(spanContext: SpanContext): Unrecorded {
  return { spanContext, traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags.toString(16)}` };
}

/**
 * A W3C traceparent of version 00 whose sampled flag is off (the last hex digit even), with a trace
 * id and a parent id not all zeros: what the W3C propagator accepts as an unsampled parent.
 */
const UNSAMPLED_TRACEPARENT = /^00-(?!0{32}-)[0-9a-f]{32}-(?!0{16}-)[0-9a-f]{16}-[0-9a-f][02468ace]$/;

/**
 * The unrecorded trace a `traceparent` header names when the sampler follows the parent's decision
 * and that decision was not to sample; otherwise (a sampled parent, another form) undefined, and
 * the propagator reads it.
 */
function unsampledParent(traceparent: string): Unrecorded | undefined {
  if (!state.followsParent || !UNSAMPLED_TRACEPARENT.test(traceparent)) return undefined;
  const spanContext = { traceId: traceparent.slice(3, 35), spanId: traceparent.slice(36, 52), traceFlags: parseInt(traceparent.slice(53), 16), isRemote: true };
  return { spanContext, traceparent };
}

/**
 * The context a request or a call carries in its headers (`get` reads one): for a traceparent alone
 * (no tracestate, no baggage) of an unsampled trace, that trace kept aside with no span; with
 * no trace context at all, the empty context; otherwise what the propagator extracts.
 */
function incomingContext(get: (key: string) => string | undefined, extract: () => Context): Context {
  if (get('tracestate') === undefined && get('baggage') === undefined) {
    const traceparent = get('traceparent');
    if (traceparent === undefined) return ROOT_CONTEXT;
    const parent = unsampledParent(traceparent);
    if (parent) return ROOT_CONTEXT.setValue(UNRECORDED, parent);
  }
  return extract();
}

/** The unrecorded trace `ctx` is in when that trace is not recorded and the sampler follows it; otherwise undefined. */
function unrecordedTrace(ctx: Context): Unrecorded | undefined {
  const kept = ctx.getValue(UNRECORDED) as Unrecorded | undefined;
  if (kept) return kept;
  if (!state.followsParent) return undefined;
  const parent = trace.getSpanContext(ctx);
  return parent !== undefined && isSpanContextValid(parent) && (parent.traceFlags & TraceFlags.SAMPLED) === 0 ? unrecorded(parent) : undefined;
}

/**
 * Whether `ctx` is in a trace: it has a span (recorded or not) or keeps an unrecorded trace aside.
 * Outside any trace a gRPC call or handler starts none of its own.
 */
function inTrace(ctx: Context): boolean {
  return trace.getSpanContext(ctx) !== undefined || ctx.getValue(UNRECORDED) !== undefined;
}

/**
 * The context a handler of an unrecorded trace runs in: `ctx` without a span, so that the pg
 * instrumentation (which needs a parent span) does nothing for its queries, and the trace kept
 * aside, which the platform's gRPC calls and NATS publishes pass on (unrecordedTrace).
 */
function unrecordedContext(ctx: Context, kept: Unrecorded): Context {
  const spanless = trace.getSpan(ctx) === undefined;
  if (spanless && ctx.getValue(UNRECORDED) === kept) return ctx;
  return (spanless ? ctx : trace.deleteSpan(ctx)).setValue(UNRECORDED, kept);
}

/**
 * A trace that starts here, under `parent` (a context with no span): the sampler decides on a new
 * trace id first, as the SDK would when starting the span; a sampled trace gets its span (with that
 * trace id), one not sampled only the trace id the sampler turned down.
 */
function startTrace(name: string, kind: SpanKind, attributes: Attributes | undefined, parent: Context): { span: Span } | { notSampled: string } {
  const { sampler, ids } = state;
  if (sampler && ids) {
    const traceId = ids.random.generateTraceId();
    if (sampler.shouldSample(parent, traceId, name, kind, attributes ?? NO_ATTRIBUTES, NO_LINKS).decision === SamplingDecision.NOT_RECORD) return { notSampled: traceId };
    ids.next = traceId;
  }
  try {
    return { span: tracer().startSpan(name, { kind, attributes }, parent) };
  } finally {
    // Taken by the span, unless the SDK made none (tracing suppressed in `parent`).
    if (ids) ids.next = undefined;
  }
}

const NO_ATTRIBUTES: Attributes = Object.freeze({});
const NO_LINKS: [] = Object.freeze([]) as unknown as [];

/**
 * The span of `name` under `parent` when its trace is recorded; otherwise the unrecorded trace it is
 * in, or, when that trace would have started here (`parent` has no trace context) and the sampler
 * did not record it, the trace id it turned down (`turnedDown`: ids are made only to pass it on).
 */
function spanOrUnrecorded(name: string, kind: SpanKind, attributes: Attributes | undefined, parent: Context): { span: Span } | { notRecorded: Unrecorded } | { turnedDown: string } {
  const kept = unrecordedTrace(parent);
  if (kept) return { notRecorded: kept };
  // A trace that starts here is decided on before it has a span; one that continues a parent's
  // gets its span (recording or not, as the sampler says) from the SDK.
  const started = trace.getSpanContext(parent) === undefined ? startTrace(name, kind, attributes, parent) : { span: tracer().startSpan(name, { kind, attributes }, parent) };
  if ('notSampled' in started) return { turnedDown: started.notSampled };
  if (started.span.isRecording()) return { span: started.span };
  return { notRecorded: unrecorded(started.span.spanContext()) };
}

/** The unrecorded trace of a new trace id the sampler turned down (turnedDown), as it is passed on. */
function turnedDownTrace(traceId: string): Unrecorded {
  return unrecorded({ traceId, spanId: state.ids!.generateSpanId(), traceFlags: TraceFlags.NONE });
}

/**
 * A server-side span (a request, a call) under `parent` when its trace is recorded: the context to
 * run the handler in, with the span. For a trace not recorded, the context without a span that
 * passes the trace on; undefined when the trace would have started here (`parent` carries no trace
 * context at all) and the sampler does not record it: the handler then runs outside any trace.
 */
function handlerSpan(name: string, kind: SpanKind, attributes: Attributes | undefined, parent: Context): { ctx: Context; span?: Span } | undefined {
  const decided = spanOrUnrecorded(name, kind, attributes, parent);
  if ('span' in decided) return { ctx: trace.setSpan(parent, decided.span), span: decided.span };
  if ('notRecorded' in decided) return { ctx: unrecordedContext(parent, decided.notRecorded) };
  // With nothing else to carry on (no baggage), no trace at all (and no ids made for it); a baggage
  // goes on in the trace the sampler turned down, flagged 00.
  if (parent === ROOT_CONTEXT) return undefined;
  return { ctx: unrecordedContext(parent, turnedDownTrace(decided.turnedDown)) };
}

/**
 * Writes the trace context of `ctx` into a carrier: its span's, or that of the unrecorded trace it
 * is in (with no baggage to add, the traceparent as is).
 */
function inject<C>(ctx: Context, carrier: C, setter: TextMapSetter<C>): void {
  const kept = ctx.getValue(UNRECORDED) as Unrecorded | undefined;
  if (kept && kept.spanContext.traceState === undefined && propagation.getBaggage(ctx) === undefined) return setter.set(carrier, 'traceparent', kept.traceparent);
  propagation.inject(kept ? trace.setSpanContext(ctx, kept.spanContext) : ctx, carrier, setter);
}

// HTTP requests to the gateway: a server span per request, made by the server itself (an
// instrumentation of node:http would wrap every request and response and compute its attributes).

/** The trace context of a request, as tracedHttpRequest keeps it for the request (see requestTrace). */
export type TraceContext = Context;

/**
 * The trace of each request tracedHttpRequest runs in one (not those it runs outside any trace). Kept
 * beside the requests rather than on them: a property added to some requests and not others gives
 * Node's and Express's code two shapes of request to handle, and a look-up of one a request lacks
 * walks its prototype chain (in-process: 0.9 against 1.3 us of tracing a request the sampler turns down).
 */
const requestTraces = new WeakMap<IncomingMessage, TraceContext>();

/**
 * The trace context tracedHttpRequest runs `req` in (its span's, or the unrecorded trace it is in):
 * what the request's own gRPC calls continue when they are given it (ClientCallOptions.trace), with
 * or without a context manager. Undefined without tracing.
 */
export function requestTrace(req: IncomingMessage): TraceContext | undefined {
  if (!state.started) return undefined;
  return requestTraces.get(req);
}

/**
 * Runs `handle` (the server's handler of the request) in a SERVER span whose parent is the trace
 * context the request's headers carry (W3C traceparent); the span ends when the response closes,
 * named by the Express route that answered (`GET /v1/applications/:id`) and with its status code.
 * The request keeps that context (requestTrace), and `handle` runs in it as the active context too
 * (where a context manager keeps one). `redact` masks credentials in the URL (path and query)
 * before it is recorded. `trustParent` says whether the request's own trace context (traceparent
 * and its sampled flag) is believed: when it says no (an internet client, not a trusted proxy),
 * the request starts a new trace that the root sampler decides on. Without tracing it just runs `handle`.
 */
export function tracedHttpRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => void,
  redact: (url: string) => string = (url) => url,
  trustParent: (req: IncomingMessage) => boolean = () => true,
): void {
  if (!state.started) return handle();
  const { headers } = req;
  const parent = !trustParent(req) ? ROOT_CONTEXT : incomingContext(
    (key) => {
      const value = headers[key];
      return typeof value === 'string' ? value : value === undefined ? undefined : value.join(',');
    },
    () => propagation.extract(ROOT_CONTEXT, headers),
  );
  const handler = handlerSpan(req.method ?? 'GET', SpanKind.SERVER, undefined, parent);
  // A new trace the sampler turned down: the request runs outside any trace, and its calls carry none.
  if (!handler) return handle();
  const { ctx, span } = handler;
  if (span) recordHttpRequest(span, req, res, redact);
  requestTraces.set(req, ctx);
  // With a context manager, the request's context is carried until its response closes.
  if (state.onDemand) res.once('close', state.onDemand.hold());
  // Express reads bodies with raw-body, which calls back in the context it was called in: what
  // follows the body (the routes) stays in the trace with no binding of the request's events.
  context.with(ctx, handle);
}

/** The attributes of the request on its span (OpenTelemetry's HTTP conventions), and its end with the response. */
function recordHttpRequest(span: Span, req: IncomingMessage, res: ServerResponse, redact: (url: string) => string): void {
  const method = req.method ?? 'GET';
  const url = redact(req.url ?? '/');
  const q = url.indexOf('?');
  const attributes: Attributes = {
    'http.request.method': method,
    'url.scheme': (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
    'url.path': q === -1 ? url : url.slice(0, q),
    'network.protocol.version': req.httpVersion,
  };
  if (q !== -1) attributes['url.query'] = url.slice(q + 1);
  if (req.socket.remoteAddress) attributes['client.address'] = req.socket.remoteAddress;
  const agent = req.headers['user-agent'];
  if (agent) attributes['user_agent.original'] = agent;
  span.setAttributes(attributes);
  res.once('close', () => {
    // Express leaves the route that answered on the request (`req.route`, relative to the router it
    // is in) and the router's mount path (`req.baseUrl`); requests no route matched keep the method as name.
    const { route, baseUrl } = req as { route?: { path?: unknown }; baseUrl?: unknown };
    if (typeof route?.path === 'string') {
      const template = `${typeof baseUrl === 'string' ? baseUrl : ''}${route.path}`;
      span.setAttribute('http.route', template);
      span.updateName(`${method} ${template}`);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    // A server span is an error on a 5xx answer (the client's mistakes are not the server's), or
    // when the connection closed before the answer was complete.
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    else if (!res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the response was complete' });
    span.end();
  });
}

// Work done once for several callers (the platform's Coalescer: one query for the reads of a gRPC
// batch) runs in the trace of one of them that is recorded; the spans it makes there (the query's)
// link to the others' spans, so that each recorded caller's trace leads to the query that served it.

/** The calls a coalesced piece of work also serves, as its spans should link to them. */
const COALESCED = createContextKey('@switchboard/platform coalesced callers');

interface Coalesced {
  /** The other recorded callers' spans. */
  links: SpanContext[];
  /** How many callers the work serves, recorded or not. */
  callers: number;
}

/**
 * The active context when it holds a recording span (what coalescedWork may run in), otherwise
 * undefined; undefined without tracing, at the cost of a flag test.
 */
export function recordedContext(): TraceContext | undefined {
  if (!state.started) return undefined;
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : undefined;
}

/**
 * Runs `work`, done once for several callers (their recordedContext, undefined for those outside a
 * recorded trace), in the first recorded caller's context, with the other recorded callers' spans
 * kept for links (linkCoalesced). With no recorded caller it just runs `work`.
 */
export function coalescedWork<T>(callers: readonly (TraceContext | undefined)[], work: () => T): T {
  let parent: Context | undefined;
  const links: SpanContext[] = [];
  for (const ctx of callers) {
    if (!ctx) continue;
    if (!parent) parent = ctx;
    else links.push(trace.getSpanContext(ctx)!);
  }
  if (!parent) return work();
  return context.with(parent.setValue(COALESCED, { links, callers: callers.length } satisfies Coalesced), work);
}

/**
 * Links a span started in coalesced work to the other recorded callers' spans, and records how many
 * callers it served when they were several (OpenTelemetry's conventions: a batch is two or more).
 */
function linkCoalesced(span: Span): void {
  const coalesced = context.active().getValue(COALESCED) as Coalesced | undefined;
  if (!coalesced) return;
  if (coalesced.callers > 1) span.setAttribute('db.operation.batch.size', coalesced.callers);
  if (coalesced.links.length > 0) span.addLinks(coalesced.links.map((spanContext) => ({ context: spanContext, attributes: { 'switchboard.link': 'coalesced' } })));
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

/** The platform's tracer, looked up once per start of tracing (the provider makes a key and a map look-up per getTracer). */
const tracer = (): Tracer => (state.tracer ??= trace.getTracer('@switchboard/platform'));

/**
 * Runs `publish` in a producer span for `subject` whose context is written into headers it creates
 * with `makeHeaders` (or adds to `existing`), when the trace is recorded; in a trace not recorded
 * (or a new one the sampler turns down) it makes no span and only writes the trace's `00` context.
 * Without tracing it calls `publish(existing)` as is.
 */
export async function tracedPublish<T, H extends Headers>(subject: string, existing: H | undefined, makeHeaders: () => H, publish: (headers: H | undefined) => Promise<T>): Promise<T> {
  if (!state.started) return publish(existing);
  const active = context.active();
  // Outside any trace one starts here, decided on before it has a span (spanOrUnrecorded): one the
  // sampler turns down gets none, and no context is entered for it (on Node 20, entering one makes
  // every later promise of the process call back into JavaScript).
  const decided = spanOrUnrecorded(`publish ${subject}`, SpanKind.PRODUCER, { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject }, active);
  const headers = existing ?? makeHeaders();
  if (!('span' in decided)) {
    // No span, but the decision travels on, so that the consumers do not start traces of their own.
    inject(unrecordedContext(active, 'notRecorded' in decided ? decided.notRecorded : turnedDownTrace(decided.turnedDown)), headers, setter);
    return publish(headers);
  }
  const { span } = decided;
  return context.with(trace.setSpan(active, span), () => {
    propagation.inject(context.active(), headers, setter);
    return settle(span, () => publish(headers));
  });
}

/** Runs a consumer's handler in a span whose parent is the trace context the message carries. */
export async function tracedConsume<T>(subject: string, headers: Headers | undefined, attributes: Record<string, string | number>, handle: () => Promise<T>): Promise<T> {
  if (!state.started) return handle();
  const parent: Context = propagation.extract(ROOT_CONTEXT, headers, getter);
  // An unrecorded trace keeps its span here: the dispatcher's POSTs (the undici instrumentation)
  // then carry its traceparent to the receiver, as they do in a recorded trace.
  if (unrecordedTrace(parent)) return context.with(parent, handle);
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

const rpcSpans = new Map<string, { name: string; attributes: Attributes }>();

/** Span name and attributes of a call to `path` ('/switchboard.applications.v1.ApplicationsService/GetApplication'), made once a method. */
function rpcSpan(path: string): { name: string; attributes: Attributes } {
  let known = rpcSpans.get(path);
  if (!known) {
    const name = path.startsWith('/') ? path.slice(1) : path;
    const slash = name.lastIndexOf('/');
    known = { name, attributes: { 'rpc.system': 'grpc', 'rpc.service': name.slice(0, slash), 'rpc.method': name.slice(slash + 1) } };
    rpcSpans.set(path, known);
  }
  return known;
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
 * Starts the client span of a call to `path` within `parent` (by default the active context) and
 * writes its context into the call's `metadata`. Returns what ends the span with the call's status
 * code; undefined (and nothing done) without tracing.
 */
export function grpcClientSpan(path: string, metadata: RpcMetadata, parent?: TraceContext): ((code: number, message?: string) => void) | undefined {
  if (!state.started) return undefined;
  // Given no trace in a process without a context manager (the gateway's calls for a request the
  // sampler turned down): outside any trace, where a call starts none.
  if (parent === undefined && state.contextless) return undefined;
  const active = parent ?? context.active();
  if (unrecordedTrace(active)) {
    inject(active, metadata, rpcSetter);
    return undefined;
  }
  // Outside any trace (a request whose new trace was not sampled, work that is no request's): a
  // call starts no trace of its own.
  if (!inTrace(active)) return undefined;
  const { name, attributes } = rpcSpan(path);
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
  const parent = incomingContext(
    (key) => rpcGetter.get(metadata, key) as string | undefined,
    () => propagation.extract(ROOT_CONTEXT, metadata, rpcGetter),
  );
  // A call outside any trace (its caller's was not sampled where it started, or it has none): a
  // service starts no trace of its own, and the handler runs with no context to keep.
  if (!inTrace(parent)) return handle(noEnd);
  const { ctx, span } = handlerSpan(name, SpanKind.SERVER, attributes, parent)!;
  // The handler answers through a callback, after its function has returned: its context is kept
  // carried until it does.
  const release = holdContext();
  if (!span) return context.with(ctx, handle, undefined, release);
  return context.with(ctx, handle, undefined, (code: number, message?: string) => {
    endRpc(span, code, SERVER_FAULTS.has(code), message);
    release();
  });
}

const noEnd = (): void => undefined;
