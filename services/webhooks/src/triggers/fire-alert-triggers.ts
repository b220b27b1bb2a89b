// Alert triggers (docs/api.md#alert-triggers) are evaluated where an alert is stored, in the
// transaction that folds it: the account's triggers that match it and have not fired within their
// window are locked, the alerts of their window counted, and each that reached its threshold fires
// once: its firing state and its alertTriggered event (to the outbox) commit with the alert. No
// trigger is polled.
import { enqueueOutbox, uuidv7 } from '@switchboard/orm';
import { SUBJECTS, type TransactionQuery } from '@switchboard/platform';
import { subscribed } from '../sessions/session-status.ts';
import { windowText } from './rules.ts';
import { countWindowAlerts, lockDueAlertTriggers, markAlertTriggerFired } from './repository.ts';

/** An alert as stored: its id (the row it folded into), code and the time its minute is counted at. */
export interface StoredAlert {
  id: string;
  code: string;
  at: string;
}

/** Evaluates the account's alert triggers for alerts just stored; answers how many fired. */
export async function fireAlertTriggers(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  owner: { accountId: string; applicationId: string | null },
  alerts: StoredAlert[],
): Promise<number> {
  let fired = 0;
  for (const a of alerts) {
    const due = await lockDueAlertTriggers(query, schema, {
      accountId: owner.accountId,
      code: a.code,
      applicationId: owner.applicationId ?? '',
      at: a.at,
    });
    for (const t of due) {
      const { count, windowStart } = await countWindowAlerts(query, schema, owner.accountId, t, a.at);
      if (count < t.threshold) continue;
      await markAlertTriggerFired(query, schema, t.id, a.at);
      fired++;
      if (
        !(await subscribed(
          query,
          schema,
          { accountId: owner.accountId, applicationId: t.application_id },
          'alertTriggered',
        ))
      )
        continue;
      const id = uuidv7();
      const filter = new URLSearchParams({
        ...(t.code === '*' ? {} : { code: t.code }),
        ...(t.application_id ? { applicationId: t.application_id } : {}),
        since: windowStart.toISOString(),
      });
      await enqueueOutbox(
        query,
        schema,
        SUBJECTS.alertTriggered,
        {
          id,
          accountId: owner.accountId,
          applicationId: t.application_id,
          resource: 'all',
          timestamp: new Date(a.at).toISOString(),
          data: {
            triggerId: t.id,
            code: t.code,
            applicationId: t.application_id,
            threshold: t.threshold,
            window: windowText(t.window_seconds),
            count,
            windowStart: windowStart.toISOString(),
            at: new Date(a.at).toISOString(),
            alertId: a.id,
            alerts: `${baseUrl}/v1/alerts?${filter.toString()}`,
          },
        },
        id,
      );
    }
  }
  return fired;
}
