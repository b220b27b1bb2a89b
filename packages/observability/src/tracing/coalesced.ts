import { context, createContextKey, trace, type Context, type Span, type SpanContext } from '@opentelemetry/api';
import type { TraceContext } from './http.ts';
import { state } from './state.ts';

// Work done once for several callers (the platform's Coalescer: one query for the reads of a gRPC
// batch) runs in the trace of one of them that is recorded; the spans it makes there (the query's)
// link to the others' spans, so that each recorded caller's trace leads to the query that served it.

/** The calls a coalesced piece of work also serves, as its spans should link to them. */
const COALESCED = createContextKey('@switchboard/observability coalesced callers');

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
export function linkCoalesced(span: Span): void {
  const coalesced = context.active().getValue(COALESCED) as Coalesced | undefined;
  if (!coalesced) return;
  if (coalesced.callers > 1) span.setAttribute('db.operation.batch.size', coalesced.callers);
  if (coalesced.links.length > 0)
    span.addLinks(
      coalesced.links.map((spanContext) => ({ context: spanContext, attributes: { 'switchboard.link': 'coalesced' } })),
    );
}
