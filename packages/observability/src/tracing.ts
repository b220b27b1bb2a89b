// OpenTelemetry tracing: one request or one event followed across the gateway, the gRPC services,
// Postgres, JetStream and the dispatcher's outgoing POSTs. Off unless OTEL_EXPORTER_OTLP_ENDPOINT
// is set: then sampled traces go to that collector over OTLP/HTTP. When off, the SDK is not even loaded.
//
// A service starts tracing first thing in its main module, before it imports anything that loads
// pg or undici: their instrumentations patch those modules as they load. HTTP requests to the
// gateway and gRPC calls are traced by our own code (tracedHttpRequest, used by the gateway's
// server; the gRPC client and server wrappers of grpc.ts), through the modules of tracing/:
//   config.ts     the OTEL_* environment
//   sdk.ts        starting and stopping the SDK (startTracing, runTracedMain)
//   state.ts      what a process's tracing keeps: whether it runs, its sampler, ids and tracer
//   ids.ts        trace and span ids
//   sampling.ts   where traces start, and traces not recorded passed on without spans
//   http.ts       requests to the gateway
//   propagation.ts  what outgoing requests carry of a trace (none to customers' hosts)
//   grpc.ts       gRPC calls, client and server side
//   nats.ts       NATS messages, published and consumed
//   coalesced.ts  work done once for several traced callers
// None imports anything of the platform but its config helpers (and the leaf modules random-hex,
// logger and shutdown) for that reason.
export {
  DEFAULT_SAMPLED_RATIO,
  loadTracingConfig,
  tracingConfigSchema,
  type Instrumented,
  type TracingConfig,
} from './tracing/config.ts';
export { runTracedMain, startTracing, type Tracing, type TracingOptions } from './tracing/sdk.ts';
export { tracingEnabled } from './tracing/state.ts';
export { requestTrace, tracedHttpRequest, type TraceContext } from './tracing/http.ts';
export { withoutPropagation } from './tracing/propagation.ts';
export { grpcClientSpan, tracedGrpcCall } from './tracing/grpc.ts';
export { tracedConsume, tracedPublish } from './tracing/nats.ts';
export { coalescedWork, recordedContext } from './tracing/coalesced.ts';
