// Notifications: a durable retry schedule. A failed attempt is retried after the schedule's next
// delay (or a longer Retry-After), as a job that JetStream holds until due, so a retry survives
// any restart; after the last attempt the delivery fails. A job waiting for its host spends no
// attempt and waits until the delivery window is over.
import type { Job } from '../../jobs.ts';
import { classifyAttempt } from '../outcome.ts';
import type { RetryPolicy } from '../retry.ts';
import type { HostWait } from '../signed-sender.ts';
import type { DeliveryPolicy, WaitDecision } from './policy.ts';

export interface DurableRetrySettings {
  retry: RetryPolicy;
  /** Age of an event after which a delivery that keeps waiting for its host is recorded as failed. */
  giveUpAfterMs: number;
}

export function notificationPolicy(s: DurableRetrySettings): DeliveryPolicy {
  return {
    afterAttempt: (job, result, subscriptionId) => classifyAttempt(result, { attempt: job.attempt, subscriptionId, retry: s.retry }),
    whileHostUnavailable: (job, reason, delayMs) => waitWithinWindow(job, reason, delayMs, s.giveUpAfterMs),
  };
}

/**
 * Past its age limit a waiting job is recorded as failed, so every event is delivered or recorded
 * before JetStream's retention could drop it.
 */
function waitWithinWindow(job: Job, reason: HostWait, delayMs: number, giveUpAfterMs: number): WaitDecision {
  const received = Date.parse(job.receivedAt);
  if (!(Number.isFinite(received) && Date.now() - received > giveUpAfterMs)) return { waitMs: delayMs };
  const why = reason === 'breaker_open' ? 'the host stayed unavailable (circuit breaker open)' : 'the host stayed busy';
  return { giveUp: `gave up: ${why} past the delivery window` };
}
