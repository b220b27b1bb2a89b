import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { readContext, rpcGetter, rpcSetter, writeContext, type RpcMetadata } from './carriers.ts';
import type { TraceContext } from './http.ts';
import { handlerSpan, incomingContext, inject, inTrace, unrecordedTrace } from './sampling.ts';
import { noEnd, state, tracer } from './state.ts';

// Trace context on gRPC calls (W3C traceparent/tracestate in the call metadata). Every call goes
// through the platform's promiseClient and GrpcServer handlers, which make these spans: one span a
// side per call, with none of the per-call patching of grpc-js an instrumentation needs.

const rpcSpans = new Map<string, { name: string; attributes: Attributes }>();

/** Span name and attributes of a call to `path` ('/switchboard.applications.v1.ApplicationsService/GetApplication'), made once a method. */
function rpcSpan(path: string): { name: string; attributes: Attributes } {
  let known = rpcSpans.get(path);
  if (!known) {
    const name = path.startsWith('/') ? path.slice(1) : path;
    const slash = name.lastIndexOf('/');
    known = {
      name,
      attributes: { 'rpc.system': 'grpc', 'rpc.service': name.slice(0, slash), 'rpc.method': name.slice(slash + 1) },
    };
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
export function grpcClientSpan(
  path: string,
  metadata: RpcMetadata,
  parent?: TraceContext,
): ((code: number, message?: string) => void) | undefined {
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
  writeContext(trace.setSpan(active, span), metadata, rpcSetter);
  return (code, message) => endRpc(span, code, code !== 0, message);
}

/**
 * Runs a server handler of `path` in a server span whose parent is the trace context the call's
 * `metadata` carries; the handler calls the `end` it is given with the status code it answers.
 * Without tracing it just runs the handler.
 */
export function tracedGrpcCall<T>(
  path: string,
  metadata: RpcMetadata,
  handle: (end: (code: number, message?: string) => void) => T,
): T {
  if (!state.started) return handle(noEnd);
  const { name, attributes } = rpcSpan(path);
  const parent = incomingContext(
    (key) => rpcGetter.get(metadata, key) as string | undefined,
    () => readContext(metadata, rpcGetter),
  );
  // A call outside any trace (its caller's was not sampled where it started, or it has none): a
  // service starts no trace of its own, and the handler runs with no context to keep.
  if (!inTrace(parent)) return handle(noEnd);
  const { ctx, span } = handlerSpan(name, SpanKind.SERVER, attributes, parent)!;
  if (!span) return context.with(ctx, handle, undefined, noEnd);
  return context.with(ctx, handle, undefined, (code: number, message?: string) =>
    endRpc(span, code, SERVER_FAULTS.has(code), message),
  );
}
