// The alerts a batch of delivery records raises (docs/api.md#alerts), in the transaction that
// stores it: `delivery.backlog_full` when the dispatcher ended waiting deliveries without an attempt
// (its account's backlog was full, or they waited past DELIVERY_MAX_AGE: delivery/backlog.ts of
// the dispatcher), one per account and target in the batch (the fold makes it one per minute);
// `webhook.failing` when a subscription with failures in the batch has failed more than half of
// at least 10 attempts over the last 5 minutes (its minute rollups, one statement for the batch).
import type { TransactionQuery } from '@switchboard/db';
import { failureRatios } from '../deliveries/repository.ts';
import type { NewAlert } from './raise-alerts.ts';

/** The window, the fewest attempts and the failure ratio above which a subscription is failing. */
export const FAILING = { minutes: 5, minAttempts: 10, ratio: 0.5 } as const;

/** A stored delivery record, as much as its alerts need. */
export interface StoredRecord {
  id: string;
  subscriptionId: string | null;
  applicationId: string | null;
  accountId: string | null;
  outcome: string;
  trigger: string;
  createdAt: Date;
  error: string | null;
}

/** The dispatcher's reasons for ending a waiting delivery without an attempt (its endReason). */
const ENDED_WAITING = /^(backlog_full|expired):/;

export async function deliveryAlerts(
  query: TransactionQuery,
  schema: string,
  records: readonly StoredRecord[],
): Promise<NewAlert[]> {
  const alerts: NewAlert[] = [];
  const base = (r: StoredRecord) => ({
    accountId: r.accountId!,
    applicationId: r.applicationId,
    subscriptionId: r.subscriptionId,
    sessionId: null,
    attempt: null,
    at: r.createdAt.toISOString(),
  });
  // One backlog alert per account and target of the batch, linked to its first delivery ended so,
  // counting them all.
  const ended = new Map<string, { first: StoredRecord; n: number }>();
  for (const r of records) {
    if (!r.accountId || r.outcome !== 'failed' || !r.error || !ENDED_WAITING.test(r.error)) continue;
    const key = `${r.accountId}\u0000${r.subscriptionId ?? r.applicationId ?? ''}`;
    const seen = ended.get(key);
    if (seen) seen.n += 1;
    else ended.set(key, { first: r, n: 1 });
  }
  for (const { first: r, n } of ended.values())
    alerts.push({
      ...base(r),
      code: 'delivery.backlog_full',
      severity: 'error',
      deliveryId: r.id,
      count: n,
      message: `A delivery ended without a further attempt: ${r.error}`.slice(0, 4000),
    });

  // The subscriptions that failed in this batch (a test send is not a delivery), by their newest failure.
  const failedNow = new Map<string, StoredRecord>();
  for (const r of records) {
    if (!r.subscriptionId || !r.accountId || r.trigger === 'test') continue;
    if (r.outcome !== 'failed' && r.outcome !== 'retrying') continue;
    const seen = failedNow.get(r.subscriptionId);
    if (!seen || r.createdAt >= seen.createdAt) failedNow.set(r.subscriptionId, r);
  }
  if (failedNow.size === 0) return alerts;
  const ratios = await failureRatios(query, schema, [...failedNow.keys()], FAILING.minutes);
  for (const x of ratios) {
    if (x.made < FAILING.minAttempts || x.failed <= x.made * FAILING.ratio) continue;
    const r = failedNow.get(x.target)!;
    alerts.push({
      ...base(r),
      code: 'webhook.failing',
      severity: 'error',
      deliveryId: r.id,
      message: `${x.failed} of the subscription's ${x.made} delivery attempts of the last ${FAILING.minutes} minutes failed`,
    });
  }
  return alerts;
}
