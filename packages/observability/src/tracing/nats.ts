import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { headersGetter, headersSetter, readContext, writeContext, type Headers } from './carriers.ts';
import { inject, spanOrUnrecorded, turnedDownTrace, unrecordedContext, unrecordedTrace } from './sampling.ts';
import { state, tracer } from './state.ts';

// Trace context in NATS message headers (W3C traceparent/tracestate), through the global propagator.

/**
 * Runs `publish` in a producer span for `subject` whose context is written into headers it creates
 * with `makeHeaders` (or adds to `existing`), when the trace is recorded; in a trace not recorded
 * (or a new one the sampler turns down) it makes no span and only writes the trace's `00` context.
 * Without tracing it calls `publish(existing)` as is.
 */
export async function tracedPublish<T, H extends Headers>(
  subject: string,
  existing: H | undefined,
  makeHeaders: () => H,
  publish: (headers: H | undefined) => Promise<T>,
): Promise<T> {
  if (!state.started) return publish(existing);
  const active = context.active();
  // Outside any trace one starts here, decided on before it has a span (spanOrUnrecorded): one the
  // sampler turns down gets none, and no context is entered for it.
  const decided = spanOrUnrecorded(
    `publish ${subject}`,
    SpanKind.PRODUCER,
    { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': subject },
    active,
  );
  const headers = existing ?? makeHeaders();
  if (!('span' in decided)) {
    // No span, but the decision travels on, so that the consumers do not start traces of their own.
    inject(
      unrecordedContext(active, 'notRecorded' in decided ? decided.notRecorded : turnedDownTrace(decided.turnedDown)),
      headers,
      headersSetter,
    );
    return publish(headers);
  }
  const { span } = decided;
  return context.with(trace.setSpan(active, span), () => {
    writeContext(context.active(), headers, headersSetter);
    return settle(span, () => publish(headers));
  });
}

/** Runs a consumer's handler in a span whose parent is the trace context the message carries. */
export async function tracedConsume<T>(
  subject: string,
  headers: Headers | undefined,
  attributes: Record<string, string | number>,
  handle: () => Promise<T>,
): Promise<T> {
  if (!state.started) return handle();
  const parent: Context = readContext(headers, headersGetter);
  // An unrecorded trace keeps its span here: the dispatcher's POSTs (the undici instrumentation)
  // then carry its traceparent to the receiver, as they do in a recorded trace.
  if (unrecordedTrace(parent)) return context.with(parent, handle);
  return tracer().startActiveSpan(
    `process ${subject}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': subject,
        ...attributes,
      },
    },
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
