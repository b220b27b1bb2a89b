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

/** An alert as stored: its id (the row it folded into) and code. */
export interface StoredAlert {
  id: string;
  code: string;
}

/**
 * Evaluates the account's alert triggers for the alerts a session just stored, counted at `at`
 * (the session's start: the minute its alerts are folded into); answers how many fired.
 */
export async function fireAlertTriggers(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  owner: { accountId: string; applicationId: string | null },
  alerts: StoredAlert[],
  at: string,
): Promise<number> {
  if (alerts.length === 0) return 0;
  const due = await lockDueAlertTriggers(query, schema, {
    accountId: owner.accountId,
    codes: [...new Set(alerts.map((a) => a.code))],
    applicationId: owner.applicationId ?? '',
    at,
  });
  let fired = 0;
  for (const t of due) {
    const { count, windowStart } = await countWindowAlerts(query, schema, owner.accountId, t, at);
    if (count < t.threshold) continue;
    await markAlertTriggerFired(query, schema, t.id, at);
    fired++;
    const alert = alerts.find((a) => t.code === '*' || a.code === t.code)!;
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
    const when = new Date(at).toISOString();
    await enqueueOutbox(
      query,
      schema,
      SUBJECTS.alertTriggered,
      {
        id,
        accountId: owner.accountId,
        applicationId: t.application_id,
        resource: 'all',
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
          alertId: alert.id,
          alerts: `${baseUrl}/v1/alerts?${filter.toString()}`,
        },
      },
      id,
    );
  }
  return fired;
}
