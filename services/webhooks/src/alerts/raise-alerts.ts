// Raising alerts (docs/api.md#alerts) in the caller's transaction, whatever raised them: a session
// record, a batch of delivery records, a subscription disabled, a launch refused. Each folds into
// the row of its account, code, application, subscription and minute (one statement); only the
// first of a row writes the alert event to the outbox, and only when an enabled `alert`
// subscription of the account can take it, so a storm is one row and at most one event. Every
// occurrence counts in the account's usage (`alerts`) and is seen by its alert triggers.
import { alertLink } from '@switchboard/contracts';
import type { AlertCode, AlertSeverity } from '@switchboard/events';
import { SUBJECTS } from '@switchboard/events';
import type { TransactionQuery } from '@switchboard/db';
import { fireAlertTriggers, type FoldedAlert } from '../triggers/fire-alert-triggers.ts';
import { alertsUsage } from '../usage/counts.ts';
import { addUsage } from '../usage/repository.ts';
import { anySubscription, foldAlert, type AlertToFold } from './repository.ts';
import { enqueueInboundEvent } from '../events/inbound-event.ts';

/** An alert to raise: what is folded (AlertToFold), its code and severity checked, `foldAt` and `count` optional. */
export interface NewAlert extends Omit<AlertToFold, 'code' | 'severity' | 'foldAt' | 'count'> {
  code: AlertCode;
  severity: AlertSeverity;
  /** The time whose minute it folds into (a session's start); `at` when not given. */
  foldAt?: string;
  /** How many occurrences it stands for (deliveries ended together); 1 when not given. */
  count?: number;
}

/** Folds the alerts; answers those stored as the first of their minute (their events written when subscribed). */
export async function raiseAlerts(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  alerts: readonly NewAlert[],
): Promise<Array<NewAlert & { id: string }>> {
  const firsts: Array<NewAlert & { id: string }> = [];
  const folded: Array<FoldedAlert & { count: number }> = [];
  for (const a of alerts) {
    const foldAt = a.foldAt ?? a.at;
    const count = a.count ?? 1;
    const row = await foldAlert(query, schema, { ...a, foldAt, count });
    if (row.first) firsts.push({ ...a, id: row.id });
    folded.push({ id: row.id, accountId: a.accountId, applicationId: a.applicationId, code: a.code, foldAt, count });
  }
  // The accounts' usage counts every occurrence; their alert triggers see them.
  await addUsage(query, schema, alertsUsage(folded));
  await fireAlertTriggers(query, schema, baseUrl, folded);
  // One read per account and application that has a first: the others cost no more.
  const subscribed = new Map<string, boolean>();
  for (const a of firsts) {
    const key = `${a.accountId}\u0000${a.applicationId ?? ''}`;
    let yes = subscribed.get(key);
    if (yes === undefined) {
      yes = await anySubscription(query, schema, a.accountId, a.applicationId, 'alert');
      subscribed.set(key, yes);
    }
    if (yes) await enqueueAlertEvent(query, schema, baseUrl, a);
  }
  return firsts;
}

async function enqueueAlertEvent(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  a: NewAlert & { id: string },
): Promise<void> {
  await enqueueInboundEvent(query, schema, SUBJECTS.alertRaised, {
    accountId: a.accountId,
    applicationId: a.applicationId,
    timestamp: a.at,
    data: {
      id: a.id,
      code: a.code,
      severity: a.severity,
      at: a.at,
      applicationId: a.applicationId,
      subscriptionId: a.subscriptionId,
      sessionId: a.sessionId,
      deliveryId: a.deliveryId,
      message: a.message,
      link: alertLink(baseUrl, a),
    },
  });
}
