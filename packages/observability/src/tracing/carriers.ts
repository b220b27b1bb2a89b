// The carriers of trace context (W3C traceparent/tracestate) besides HTTP requests: the metadata of
// gRPC calls and the headers of NATS messages, written and read through the global propagator.
import { propagation, ROOT_CONTEXT, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';

/** Metadata of a gRPC call, as far as propagation needs it (grpc-js Metadata). */
export interface RpcMetadata {
  get(key: string): unknown[];
  set(key: string, value: string): void;
  getMap(): Record<string, unknown>;
}

/** Headers of a NATS message, as far as propagation needs them. */
export interface Headers {
  get(key: string): string;
  set(key: string, value: string): void;
  keys(): string[];
}

export const rpcSetter: TextMapSetter<RpcMetadata> = { set: (m, k, v) => m.set(k, v) };
export const rpcGetter: TextMapGetter<RpcMetadata> = {
  get: (m, k) => {
    const v = m.get(k)[0];
    return typeof v === 'string' ? v : undefined;
  },
  keys: (m) => Object.keys(m.getMap()),
};

export const headersSetter: TextMapSetter<Headers> = { set: (h, k, v) => h.set(k, v) };
export const headersGetter: TextMapGetter<Headers | undefined> = {
  get: (h, k) => h?.get(k) || undefined,
  keys: (h) => h?.keys() ?? [],
};

/** Writes the trace context of `ctx` into `carrier` (the propagator's own writing, for a recorded span). */
export function writeContext<C>(ctx: Context, carrier: C, setter: TextMapSetter<C>): void {
  propagation.inject(ctx, carrier, setter);
}

/** The trace context `carrier` brings, in a context of its own (nothing of the active one). */
export function readContext<C>(carrier: C, getter: TextMapGetter<C>): Context {
  return propagation.extract(ROOT_CONTEXT, carrier, getter);
}
