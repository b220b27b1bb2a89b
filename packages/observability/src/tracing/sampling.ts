import {
  createContextKey,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SamplingDecision,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type SpanKind,
  type TextMapSetter,
} from '@opentelemetry/api';
import { state, tracer } from './state.ts';

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
export interface Unrecorded {
  spanContext: SpanContext;
  traceparent: string;
}

/** Where a handler of an unrecorded trace keeps the trace (see unrecordedContext). */
export const UNRECORDED = createContextKey('@switchboard/observability unrecorded trace');

/** An unrecorded trace of `spanContext`, with the traceparent (W3C, version 00) the W3C propagator would write for it. */
export function unrecorded(spanContext: SpanContext): Unrecorded {
  return {
    spanContext,
    traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags.toString(16)}`,
  };
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
  const spanContext = {
    traceId: traceparent.slice(3, 35),
    spanId: traceparent.slice(36, 52),
    traceFlags: parseInt(traceparent.slice(53), 16),
    isRemote: true,
  };
  return { spanContext, traceparent };
}

/**
 * The context a request or a call carries in its headers (`get` reads one): for a traceparent alone
 * (no tracestate, no baggage) of an unsampled trace, that trace kept aside with no span; with
 * no trace context at all, the empty context; otherwise what the propagator extracts.
 */
export function incomingContext(get: (key: string) => string | undefined, extract: () => Context): Context {
  if (get('tracestate') === undefined && get('baggage') === undefined) {
    const traceparent = get('traceparent');
    if (traceparent === undefined) return ROOT_CONTEXT;
    const parent = unsampledParent(traceparent);
    if (parent) return ROOT_CONTEXT.setValue(UNRECORDED, parent);
  }
  return extract();
}

/** The unrecorded trace `ctx` is in when that trace is not recorded and the sampler follows it; otherwise undefined. */
export function unrecordedTrace(ctx: Context): Unrecorded | undefined {
  const kept = ctx.getValue(UNRECORDED) as Unrecorded | undefined;
  if (kept) return kept;
  if (!state.followsParent) return undefined;
  const parent = trace.getSpanContext(ctx);
  return parent !== undefined && isSpanContextValid(parent) && (parent.traceFlags & TraceFlags.SAMPLED) === 0
    ? unrecorded(parent)
    : undefined;
}

/**
 * Whether `ctx` is in a trace: it has a span (recorded or not) or keeps an unrecorded trace aside.
 * Outside any trace a gRPC call or handler starts none of its own.
 */
export function inTrace(ctx: Context): boolean {
  return trace.getSpanContext(ctx) !== undefined || ctx.getValue(UNRECORDED) !== undefined;
}

/**
 * The context a handler of an unrecorded trace runs in: `ctx` without a span, so that the pg
 * instrumentation (which needs a parent span) does nothing for its queries, and the trace kept
 * aside, which the platform's gRPC calls and NATS publishes pass on (unrecordedTrace).
 */
export function unrecordedContext(ctx: Context, kept: Unrecorded): Context {
  const spanless = trace.getSpan(ctx) === undefined;
  if (spanless && ctx.getValue(UNRECORDED) === kept) return ctx;
  return (spanless ? ctx : trace.deleteSpan(ctx)).setValue(UNRECORDED, kept);
}

/**
 * A trace that starts here, under `parent` (a context with no span): the sampler decides on a new
 * trace id first, as the SDK would when starting the span; a sampled trace gets its span (with that
 * trace id), one not sampled only the trace id the sampler turned down.
 */
function startTrace(
  name: string,
  kind: SpanKind,
  attributes: Attributes | undefined,
  parent: Context,
): { span: Span } | { notSampled: string } {
  const { sampler, ids } = state;
  if (sampler && ids) {
    const traceId = ids.random.generateTraceId();
    if (
      sampler.shouldSample(parent, traceId, name, kind, attributes ?? NO_ATTRIBUTES, NO_LINKS).decision ===
      SamplingDecision.NOT_RECORD
    )
      return { notSampled: traceId };
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
export function spanOrUnrecorded(
  name: string,
  kind: SpanKind,
  attributes: Attributes | undefined,
  parent: Context,
): { span: Span } | { notRecorded: Unrecorded } | { turnedDown: string } {
  const kept = unrecordedTrace(parent);
  if (kept) return { notRecorded: kept };
  // A trace that starts here is decided on before it has a span; one that continues a parent's
  // gets its span (recording or not, as the sampler says) from the SDK.
  const started =
    trace.getSpanContext(parent) === undefined
      ? startTrace(name, kind, attributes, parent)
      : { span: tracer().startSpan(name, { kind, attributes }, parent) };
  if ('notSampled' in started) return { turnedDown: started.notSampled };
  if (started.span.isRecording()) return { span: started.span };
  return { notRecorded: unrecorded(started.span.spanContext()) };
}

/** The unrecorded trace of a new trace id the sampler turned down (turnedDown), as it is passed on. */
export function turnedDownTrace(traceId: string): Unrecorded {
  return unrecorded({ traceId, spanId: state.ids!.generateSpanId(), traceFlags: TraceFlags.NONE });
}

/**
 * A server-side span (a request, a call) under `parent` when its trace is recorded: the context to
 * run the handler in, with the span. For a trace not recorded, the context without a span that
 * passes the trace on; undefined when the trace would have started here (`parent` carries no trace
 * context at all) and the sampler does not record it: the handler then runs outside any trace.
 */
export function handlerSpan(
  name: string,
  kind: SpanKind,
  attributes: Attributes | undefined,
  parent: Context,
): { ctx: Context; span?: Span } | undefined {
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
export function inject<C>(ctx: Context, carrier: C, setter: TextMapSetter<C>): void {
  const kept = ctx.getValue(UNRECORDED) as Unrecorded | undefined;
  if (kept && kept.spanContext.traceState === undefined && propagation.getBaggage(ctx) === undefined) {
    setter.set(carrier, 'traceparent', kept.traceparent);
    return;
  }
  propagation.inject(kept ? trace.setSpanContext(ctx, kept.spanContext) : ctx, carrier, setter);
}
