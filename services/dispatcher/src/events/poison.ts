// What to do with an inbound event whose handling failed. An event the services refuse for good
// must not come back forever: with enough of them the consumer's unacknowledged messages
// (max_ack_pending) are all poison and nothing else is delivered. Three verdicts:
// - refused for good (schema, invalid_request/not_found-type answers, a body that cannot be
//   serialised): dead-lettered and terminated at once;
// - a dependency is down (unavailable, NATS not answering): the event waits, without a bound;
// - anything else: retried with growing delays, dead-lettered after MAX_EVENT_DELIVERIES.
import { AppError } from '@switchboard/errors';
import { backoffMs } from '@switchboard/config';
import { InvalidEventError } from './schemas.ts';

export type Verdict =
  | { kind: 'refused'; reason: DeadReason; detail: string }
  | { kind: 'wait'; detail: string }
  | { kind: 'retry'; detail: string };

/** Why an event was dead-lettered (metric label). */
export type DeadReason = 'schema' | 'refused' | 'serialisation' | 'too_many_deliveries';

/** Deliveries of an event failing with an unknown error before it is dead-lettered. */
export const MAX_EVENT_DELIVERIES = 8;

/** AppError codes that mean "this request will never succeed", whoever asks again. */
const REFUSED_CODES = new Set([
  'invalid_request',
  'not_found',
  'conflict',
  'limit_exceeded',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
]);

/** Errors of the NATS client: the bus is away or slow, not the event's fault. */
const NATS_ERROR =
  /^(NatsError|TimeoutError|ConnectionError|ClosedConnectionError|DrainingConnectionError|RequestError|NoRespondersError|JetStreamError|JetStreamApiError|JetStreamNotEnabled)$/;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function classifyEventError(err: unknown): Verdict {
  if (err instanceof InvalidEventError) return { kind: 'refused', reason: 'schema', detail: err.message };
  if (err instanceof AppError) {
    if (err.code === 'unavailable' || err.code === 'rate_limited')
      return { kind: 'wait', detail: `${err.code}: ${err.message}` };
    if (REFUSED_CODES.has(err.code))
      return { kind: 'refused', reason: 'refused', detail: `${err.code}: ${err.message}` };
    return { kind: 'retry', detail: `${err.code}: ${err.message}` };
  }
  if (isSerialisationError(err))
    return { kind: 'refused', reason: 'serialisation', detail: `cannot be serialised: ${message(err)}` };
  if (err instanceof Error && NATS_ERROR.test(err.name)) return { kind: 'wait', detail: message(err) };
  return { kind: 'retry', detail: message(err) };
}

/** JSON.stringify's failures: too deep (stack), too long, cycles, BigInt. */
export function isSerialisationError(err: unknown): boolean {
  if (err instanceof RangeError) return /call stack|string length/i.test(err.message);
  if (err instanceof TypeError) return /circular|BigInt/i.test(err.message);
  return false;
}

/** Delay before an event that failed with an unknown error comes back: 1 s, 2 s, 4 s ... at most 30 s. */
export function retryDelayMs(deliveryCount: number): number {
  return backoffMs(deliveryCount, { firstMs: 1000, maxMs: 30_000 });
}

/** Delay before an event waiting for a dependency comes back: 1.5 s growing to 5 s, with jitter. */
export function waitDelayMs(deliveryCount: number): number {
  return backoffMs(deliveryCount, { firstMs: 1500, maxMs: 5000, factor: 1.5, spread: 0.2 });
}
