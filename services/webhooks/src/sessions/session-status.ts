// The sessionStatus events (docs/events.md#session-status), written to the outbox in the
// transaction that stores a session's record or signal, so the dispatchers' session loop publishes
// nothing more for them: the relay puts them on sessions.status, and the
// dispatcher fans them out like webhooks.disabled. `sequence` orders one session's events: 1 routed,
// 2 its outcome, then 3, 4... its signals by arrival, and `ended` after the signals stored by then.
import type { SessionRecord } from '@switchboard/contracts';
import type { SESSION_STATUSES } from '@switchboard/events';
import { SUBJECTS } from '@switchboard/events';
import type { TransactionQuery } from '@switchboard/db';
import { anySubscription } from '../alerts/repository.ts';
import { enqueueInboundEvent } from '../events/inbound-event.ts';

type Status = (typeof SESSION_STATUSES)[number];
type Attempt = SessionRecord['attempts'][number];

export interface SessionRef {
  id: string;
  accountId: string;
  applicationId: string | null;
  /** The statusCallbackUrl of its launch: its events are written for it whoever subscribes. */
  statusCallbackUrl: string | null;
}

/**
 * Whether the session's events are wanted: it was launched with a statusCallbackUrl, or an enabled
 * sessionStatus subscription of its account can take them (account level, or of its application).
 * Events nobody wants are not written at all, so sessions of accounts without such subscriptions
 * cost the outbox, the inbound stream and the dispatchers nothing more.
 */
function wanted(query: TransactionQuery, schema: string, s: SessionRef): Promise<boolean> {
  if (s.statusCallbackUrl) return Promise.resolve(true);
  return anySubscription(query, schema, s.accountId, s.applicationId, 'sessionStatus');
}

async function enqueueStatus(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  s: SessionRef,
  e: { status: Status; at: string; sequence: number; attempt?: Attempt; reason?: string; signal?: string },
): Promise<void> {
  await enqueueInboundEvent(query, schema, SUBJECTS.sessionStatus, {
    accountId: s.accountId,
    applicationId: s.applicationId,
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
    // The dispatcher POSTs it there too (and sends this field to nobody).
    ...(s.statusCallbackUrl ? { statusCallbackUrl: s.statusCallbackUrl } : {}),
  });
}

/** A stored session's routed and outcome events. */
export async function enqueueSessionEvents(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  r: SessionRecord & { accountId: string },
): Promise<void> {
  const s = {
    id: r.id,
    accountId: r.accountId,
    applicationId: r.applicationId,
    statusCallbackUrl: r.statusCallbackUrl ?? null,
  };
  if (!(await wanted(query, schema, s))) return;
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
}

/** A signal's event, `sequence` 2 + its place among the session's signals. */
export async function enqueueSignalEvent(
  query: TransactionQuery,
  schema: string,
  baseUrl: string,
  s: SessionRef,
  signal: { at: Date; value: string; ordinal: number },
): Promise<void> {
  if (!(await wanted(query, schema, s))) return;
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
  if (!(await wanted(query, schema, s))) return;
  return enqueueStatus(query, schema, baseUrl, s, {
    status: 'ended',
    at: e.at,
    sequence: e.sequence,
    reason: e.reason,
  });
}
