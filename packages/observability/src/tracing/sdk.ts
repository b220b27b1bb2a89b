// Starting and stopping the OpenTelemetry SDK in a process.
import { createRequire } from 'node:module';
import { context, propagation, trace, type Attributes } from '@opentelemetry/api';
import type { Sampler, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../logger.ts';
import { runMain } from '../shutdown.ts';
import { linkCoalesced } from './coalesced.ts';
import { INSTRUMENTED, loadTracingConfig, type Instrumented, type TracingConfig } from './config.ts';
import { PooledIdGenerator, PresetIdGenerator } from './ids.ts';
import { guardedW3cPropagator } from './propagation.ts';
import { state } from './state.ts';

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
   */
  contextManager?: boolean;
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

/** The sampler OTEL_TRACES_SAMPLER names, with OTEL_TRACES_SAMPLER_ARG as its ratio. */
function samplerOf(base: typeof import('@opentelemetry/sdk-trace-base'), config: TracingConfig): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = base;
  const [parentBased, root] = config.OTEL_TRACES_SAMPLER.startsWith('parentbased_')
    ? [true, config.OTEL_TRACES_SAMPLER.slice('parentbased_'.length)]
    : [false, config.OTEL_TRACES_SAMPLER];
  const sampler =
    root === 'always_on'
      ? new AlwaysOnSampler()
      : root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG);
  return parentBased ? new ParentBasedSampler({ root: sampler }) : sampler;
}

/**
 * Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (or an exporter is given). A bad value of
 * an OTEL_* variable throws a ConfigError. Call it before importing the rest of the service.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const config = loadTracingConfig(opts.env ?? process.env);
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (state.started || (!endpoint && !opts.exporter))
    return { enabled: state.started, shutdown: async () => undefined };

  const instrumented = (opts.instrument ?? INSTRUMENTED).filter(
    (name) => !config.OTEL_NODE_DISABLED_INSTRUMENTATIONS.includes(name),
  );
  const [{ NodeTracerProvider }, traceBase, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  let processor: SpanProcessor;
  if (opts.exporter) processor = new traceBase.SimpleSpanProcessor(opts.exporter);
  else {
    const url = `${endpoint!.replace(/\/+$/, '')}/v1/traces`;
    const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
    const { OTLPTraceExporter } =
      protocol === 'http/json'
        ? await import('@opentelemetry/exporter-trace-otlp-http')
        : await import('@opentelemetry/exporter-trace-otlp-proto');
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
  // gateway), otherwise OpenTelemetry's own (AsyncLocalStorage, which costs nothing outside a context).
  const contextless = opts.contextManager === false;
  // Trace context goes out with every request but those run in withoutPropagation (propagation.ts).
  const propagator = await guardedW3cPropagator();
  provider.register(contextless ? { contextManager: null, propagator } : { propagator });
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
      instrumentations.push(
        new pg.PgInstrumentation({
          requireParentSpan: true,
          enhancedDatabaseReporting: false,
          requestHook: linkCoalesced,
        }),
      );
    }
    if (instrumented.includes('undici')) {
      // A request's query string may carry a customer's credential: spans keep only that it had one.
      const withoutQuery = (request: { origin: string; path: string }): Attributes => {
        const q = request.path.indexOf('?');
        return q === -1 ? {} : { 'url.full': `${request.origin}${request.path.slice(0, q)}?***`, 'url.query': '***' };
      };
      instrumentations.push(
        new (await import('@opentelemetry/instrumentation-undici')).UndiciInstrumentation({
          startSpanHook: withoutQuery,
        }),
      );
    }
    unregister = registerInstrumentations({ tracerProvider: provider, instrumentations });
  }
  state.started = true;
  state.contextless = contextless;
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
 * The main module of a service: starts tracing, then makes the service's app with `makeApp` (which
 * imports the service itself, so the instrumentations are in place before pg or undici load) and
 * starts it, as runMain does. Stopping the service flushes the spans still buffered.
 */
export async function runTracedMain(
  name: string,
  makeApp: () => Promise<{ logger: Logger; start: () => Promise<unknown>; stop: () => Promise<void> }>,
  options: Pick<TracingOptions, 'contextManager' | 'instrument'> = {},
): Promise<void> {
  await runMain(name, async () => {
    const tracing = await startTracing({ serviceName: name, ...options });
    const service = await makeApp();
    await service.start();
    return {
      logger: service.logger,
      async stop() {
        await service.stop();
        await tracing
          .shutdown()
          .catch((err: unknown) => service.logger.warn({ err: (err as Error)?.message }, 'could not flush traces'));
      },
    };
  });
}
