// What the process's requests carry of its traces: the W3C trace context and baggage (the SDK's
// default propagators), except out of work run in withoutPropagation (requests to customers' hosts).
import {
  context,
  createContextKey,
  type Context,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { state } from './state.ts';

const NO_PROPAGATION = createContextKey('@switchboard/observability no propagation');

/** A propagator that injects nothing into what runs in withoutPropagation; otherwise `inner`. */
export class Guarded implements TextMapPropagator {
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

/** The W3C trace context and baggage propagators, guarded. */
export async function guardedW3cPropagator(): Promise<TextMapPropagator> {
  const core = await import('@opentelemetry/core');
  return new Guarded(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
}

/**
 * Runs `fn` so that the requests it makes carry no trace context (no traceparent): for requests to
 * customers' hosts, which have no business with our trace ids. Their spans are still recorded.
 */
export function withoutPropagation<T>(fn: () => T): T {
  if (!state.started) return fn();
  return context.with(context.active().setValue(NO_PROPAGATION, true), fn);
}
