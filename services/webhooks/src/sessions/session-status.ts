// The sessionStatus and alert events (docs/events.md#session-status), written to the outbox in the
// transaction that stores a session's record or signal, so the dispatchers' session loop publishes
// nothing more for them: the relay puts them on sessions.status and alerts.raised, and the
// dispatcher fans them out like webhooks.disabled. `sequence` orders one session's events: 1 routed,
// 2 its outcome, then 3, 4... its signals by arrival, and `ended` after the signals stored by then.
import { consoleAttemptLink, type SessionRecord } from '@switchboard/contracts';
import type { SESSION_STATUSES } from '@switchboard/events';
import { enqueueOutbox, uuidv7 } from '@switchboard/orm';
import { SUBJECTS, type TransactionQuery } from '@switchboard/platform';
import type { RaisedAlert } from '../alerts/session-alerts.ts';

type Status = (typeof SESSION_STATUSES)[number];
type Attempt = SessionRecord['attempts'][number];

export interface SessionRef {
  id: string;
  accountId: string;
  applicationId: string | null;
}

/**
 * Whether any enabled subscription of the account could take `event` for this session (account
 * level, or of its application; account level only when the application is null): events nobody subscribes to are not written at all, so sessions
 * of accounts without such subscriptions cost the outbox, the inbound stream and the dispatchers
 * nothing more. One read of the subscriptions_match index.
 */
export async function subscribed(
  query: TransactionQuery,
  schema: string,
  s: Pick<SessionRef, 'accountId' | 'applicationId'>,
  event: string,
): Promise<boolean> {
  const rows = await query<{ n: number }>(
    `select 1 as n from "${schema}".subscriptions
      where account_id = $1 and event = $2 and enabled and (application_id is null or application_id = $3) limit 1`,
    [s.accountId, event, s.applicationId],
  );
  return rows.length > 0;
}

async function enqueueStatus(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  s: SessionRef,
  e: { status: Status; at: string; sequence: number; attempt?: Attempt; reason?: string; signal?: string },
): Promise<void> {
  const id = uuidv7();
  await enqueueOutbox(
    query,
    schema,
    SUBJECTS.sessionStatus,
    {
      id,
      accountId: s.accountId,
      applicationId: s.applicationId,
      resource: 'all',
      timestamp: e.at,
      data: {
        sessionId: s.id,
        applicationId: s.applicationId,
        status: e.status,
        at: e.at,
        sequence: e.sequence,
        attempt: e.attempt
          ? { role: e.attempt.role, status: e.attempt.status || null, durationMs: e.attempt.durationMs }
          : null,
        reason: e.reason ?? null,
        signal: e.signal ?? null,
        inspector: `${baseUrl}/v1/sessions/${encodeURIComponent(s.id)}`,
      },
    },
    id,
  );
}

/** A stored session's routed and outcome events, and one alert event per alert stored as the first of its minute. */
export async function enqueueSessionEvents(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  r: SessionRecord & { accountId: string },
  newAlerts: Array<RaisedAlert & { id: string }>,
): Promise<void> {
  const s = { id: r.id, accountId: r.accountId, applicationId: r.applicationId };
  if (newAlerts.length > 0 && !(await subscribed(query, schema, s, 'alert'))) newAlerts = [];
  if (!(await subscribed(query, schema, s, 'sessionStatus')))
    return enqueueAlerts(query, schema, baseUrl, r, newAlerts);
  const first = r.attempts[0];
  const last = r.attempts[r.attempts.length - 1];
  await enqueueStatus(query, schema, baseUrl, s, { status: 'routed', at: r.startedAt, sequence: 1, attempt: first });
  await enqueueStatus(query, schema, baseUrl, s, {
    status: r.outcome,
    at: r.instructions?.at ?? last?.at ?? r.startedAt,
    sequence: 2,
    attempt: last,
    reason: r.failure?.reason,
  });
  await enqueueAlerts(query, schema, baseUrl, r, newAlerts);
}

/** One alert event per alert stored as the first of its minute. */
async function enqueueAlerts(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  r: SessionRecord & { accountId: string },
  newAlerts: Array<RaisedAlert & { id: string }>,
): Promise<void> {
  for (const a of newAlerts) {
    const id = uuidv7();
    await enqueueOutbox(
      query,
      schema,
      SUBJECTS.alertRaised,
      {
        id,
        accountId: r.accountId,
        applicationId: r.applicationId,
        resource: 'all',
        timestamp: a.at,
        data: {
          id: a.id,
          code: a.code,
          severity: a.severity,
          at: a.at,
          applicationId: r.applicationId,
          subscriptionId: null,
          sessionId: r.id,
          deliveryId: null,
          message: a.message,
          link: consoleAttemptLink(baseUrl, r.id, a.attempt),
        },
      },
      id,
    );
  }
}

/** A signal's event, `sequence` 2 + its place among the session's signals. */
export async function enqueueSignalEvent(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  s: SessionRef,
  signal: { at: Date; value: string; ordinal: number },
): Promise<void> {
  if (!(await subscribed(query, schema, s, 'sessionStatus'))) return;
  return enqueueStatus(query, schema, baseUrl, s, {
    status: 'signal',
    at: signal.at.toISOString(),
    sequence: 2 + signal.ordinal,
    signal: signal.value,
  });
}

/** The session's `ended` event (the telephony core's sessions.ended, or its cdr.created). */
export async function enqueueEndedEvent(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  s: SessionRef,
  e: { at: string; sequence: number; reason?: string | undefined },
): Promise<void> {
  if (!(await subscribed(query, schema, s, 'sessionStatus'))) return;
  return enqueueStatus(query, schema, baseUrl, s, {
    status: 'ended',
    at: e.at,
    sequence: e.sequence,
    reason: e.reason,
  });
}
