// Notifications: a durable retry schedule. A failed attempt is retried after the schedule's next
// delay (or a longer Retry-After), as a job that JetStream holds until due, so a retry survives
// any restart; after the last attempt the delivery fails (outcome.ts classifies each attempt). A
// job waiting for its host spends no attempt and waits until the delivery window is over.
import type { Job } from '../../jobs.ts';
import type { RetryPolicy } from '../retry.ts';
import type { HostWait } from '../signed-sender.ts';

export interface DurableRetrySettings {
  retry: RetryPolicy;
  /** Age of an event after which a delivery that keeps waiting for its host is recorded as failed. */
  giveUpAfterMs: number;
}

/** A job that found its host unavailable: it waits this long, or ends with this reason. */
export type WaitDecision = { waitMs: number } | { giveUp: string };

/**
 * A job whose host cannot take it now (`delayMs` is when it could). Past its age limit a waiting
 * job is recorded as failed, so every event is delivered or recorded before JetStream's retention
 * could drop it.
 */
export function whileHostUnavailable(job: Job, reason: HostWait, delayMs: number, giveUpAfterMs: number): WaitDecision {
  const received = Date.parse(job.receivedAt);
  if (!(Number.isFinite(received) && Date.now() - received > giveUpAfterMs)) return { waitMs: delayMs };
  const why = reason === 'breaker_open' ? 'the host stayed unavailable (circuit breaker open)' : 'the host stayed busy';
  return { giveUp: `gave up: ${why} past the delivery window` };
}
