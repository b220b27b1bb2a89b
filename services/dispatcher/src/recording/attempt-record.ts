// The record of one attempt as the webhooks service stores it (RecordAttempts). Kind and outcome
// go both as proto enums and as text: a webhooks service that predates the enums reads the text.
import type { Delivery } from '@switchboard/proto';
import type { Job } from '../jobs';
import type { Outcome } from '../metrics';

const KIND_ENUM = {
  session: 'DELIVERY_KIND_SESSION',
  notification: 'DELIVERY_KIND_NOTIFICATION',
} as const satisfies Record<Job['kind'], Delivery['deliveryKind']>;

const OUTCOME_ENUM = {
  succeeded: 'DELIVERY_OUTCOME_SUCCEEDED',
  retrying: 'DELIVERY_OUTCOME_RETRYING',
  failed: 'DELIVERY_OUTCOME_FAILED',
  cancelled: 'DELIVERY_OUTCOME_CANCELLED',
} as const satisfies Record<Outcome, Delivery['deliveryOutcome']>;

/** What every record of a job says about its target (from the plan). */
export type RecordBase = Pick<Delivery, 'subscriptionId' | 'applicationId' | 'accountId' | 'event' | 'targetUrl'>;

export interface AttemptFields {
  outcome: Outcome;
  statusCode: number;
  durationMs: number;
  error: string | undefined;
}

export function attemptRecord(job: Job, base: RecordBase, a: AttemptFields, now: Date = new Date()): Delivery {
  return {
    ...base,
    kind: job.kind,
    deliveryKind: KIND_ENUM[job.kind],
    messageId: job.webhookId,
    attempt: job.attempt,
    statusCode: a.statusCode,
    durationMs: Math.round(a.durationMs),
    outcome: a.outcome,
    deliveryOutcome: OUTCOME_ENUM[a.outcome],
    createdAt: now.toISOString(),
    ...(a.error ? { error: a.error.slice(0, 1000) } : {}),
  };
}
