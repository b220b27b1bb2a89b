// What a process's tracing keeps between calls: whether it runs, and the SDK's parts the platform's
// own spans use. Kept on globalThis under a registered symbol: every copy of this module loaded in the process shares it.
import { trace, type Tracer } from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { PresetIdGenerator } from './ids.ts';

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
};
export const state: State = ((globalThis as Record<symbol, State | undefined>)[STATE] ??= {
  started: false,
  followsParent: false,
});

/** True once startTracing installed the SDK in this process. */
export function tracingEnabled(): boolean {
  return state.started;
}

/** The platform's tracer, looked up once per start of tracing (the provider makes a key and a map look-up per getTracer). */
export const tracer = (): Tracer => (state.tracer ??= trace.getTracer('@switchboard/observability'));

/** The end of a span that is not recorded: nothing to do. */
export const noEnd = (): void => undefined;
