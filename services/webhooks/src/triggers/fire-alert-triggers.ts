// Alert triggers (docs/api.md#alert-triggers) are evaluated where alerts are raised, in the
// transaction that folds them (alerts/raise-alerts.ts): the account's triggers that match them are
// locked, and each that has not fired within its window before an alert's minute has the alerts of
// its window counted; one that reached its threshold fires once: its firing state and its
// alertTriggered event (to the outbox) commit with the alert. No trigger is polled.
import { SUBJECTS } from '@switchboard/events';
import type { TransactionQuery } from '@switchboard/db';
import { anySubscription } from '../alerts/repository.ts';
import { windowText } from './rules.ts';
import { countWindowAlerts, type LockedAlertTrigger, lockAlertTriggers, markAlertTriggerFired } from './repository.ts';
import { enqueueInboundEvent } from '../events/inbound-event.ts';

/** An alert as folded: its row's id, its code and owner, the time of the minute it folds into and its occurrences. */
export interface FoldedAlert {
  id: string;
  accountId: string;
  applicationId: string | null;
  code: string;
  foldAt: string;
}

/** Evaluates the accounts' alert triggers for alerts just folded; answers how many fired. */
export async function fireAlertTriggers(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  alerts: readonly FoldedAlert[],
): Promise<number> {
  let fired = 0;
  const accounts = [...new Set(alerts.map((a) => a.accountId))].sort();
  for (const accountId of accounts) {
    // In the order they happened: a trigger fires for the first alert that reaches its threshold.
    const own = alerts
      .filter((a) => a.accountId === accountId)
      .sort((a, b) => Date.parse(a.foldAt) - Date.parse(b.foldAt));
    const triggers = await lockAlertTriggers(
      query,
      schema,
      accountId,
      [...new Set(own.map((a) => a.code))],
      [...new Set(own.map((a) => a.applicationId ?? ''))],
    );
    for (const t of triggers) {
      let firedAt = t.fired_at ? new Date(t.fired_at).getTime() : null;
      for (const a of own) {
        if (t.code !== '*' && t.code !== a.code) continue;
        if (t.application_id !== null && t.application_id !== a.applicationId) continue;
        const at = Date.parse(a.foldAt);
        if (firedAt !== null && firedAt + t.window_seconds * 1000 > at) continue;
        const { count, windowStart } = await countWindowAlerts(query, schema, accountId, t, a.foldAt);
        if (count < t.threshold) continue;
        await markAlertTriggerFired(query, schema, t.id, a.foldAt);
        firedAt = at;
        fired++;
        if (await anySubscription(query, schema, accountId, t.application_id, 'alertTriggered'))
          await enqueueTriggered(query, schema, baseUrl, t, a, count, windowStart);
      }
    }
  }
  return fired;
}

async function enqueueTriggered(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  t: LockedAlertTrigger,
  a: FoldedAlert,
  count: number,
  windowStart: Date,
): Promise<void> {
  const filter = new URLSearchParams({
    ...(t.code === '*' ? {} : { code: t.code }),
    ...(t.application_id ? { applicationId: t.application_id } : {}),
    since: windowStart.toISOString(),
  });
  const when = new Date(a.foldAt).toISOString();
  await enqueueInboundEvent(query, schema, SUBJECTS.alertTriggered, {
    accountId: a.accountId,
    applicationId: t.application_id,
    timestamp: when,
    data: {
      triggerId: t.id,
      code: t.code,
      applicationId: t.application_id,
      threshold: t.threshold,
      window: windowText(t.window_seconds),
      count,
      windowStart: windowStart.toISOString(),
      at: when,
      alertId: a.id,
      alerts: `${baseUrl}/v1/alerts?${filter.toString()}`,
    },
  });
}
