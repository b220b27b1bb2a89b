// A delivery policy decides what follows an attempt (retry when, give up, disable) and how long a
// job may wait for a host that cannot take it; the signed sender (../signed-sender.ts) makes the
// attempts. One policy per kind of delivery: a new behaviour is a new policy file, not a branch.
import type { Job } from '../../jobs.ts';
import type { AttemptResult } from '../http-sender.ts';
import type { AttemptOutcome } from '../outcome.ts';
import type { HostWait } from '../signed-sender.ts';

/** A job that found its host unavailable: it waits this long, or ends with this reason. */
export type WaitDecision = { waitMs: number } | { giveUp: string };

export interface DeliveryPolicy {
  /** The recorded outcome of an attempt, with the delay before the next one when it is retried. */
  afterAttempt(job: Job, result: AttemptResult, subscriptionId: string | null): AttemptOutcome;
  /** A job whose host cannot take it now (`delayMs` is when it could). */
  whileHostUnavailable(job: Job, reason: HostWait, delayMs: number): WaitDecision;
}

/** Policies of the deliveries that follow a retry schedule; sessions run their own loop (session-loop.ts). */
export type DeliveryPolicies = Record<Exclude<Job['kind'], 'session'>, DeliveryPolicy>;
