import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type FieldError } from '@switchboard/platform';
import type { Delivery__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/Delivery';
import type { RecordAttemptsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/RecordAttemptsRequest';
import type { Deps } from '../context';
import type { SubscriptionRef } from '../events/changes';
import { isAccountId, isSubscriptionId, newDeliveryId } from '../subscriptions/ids';

const KINDS = ['session', 'notification'] as const;
const OUTCOMES = ['succeeded', 'retrying', 'failed'] as const;
const MAX_ATTEMPTS_PER_CALL = 1000;
const ERROR_MAX = 2000;
const REASON_MAX = 500;

interface Attempt {
  id: string;
  messageId: string;
  kind: (typeof KINDS)[number];
  subscriptionId: string | null;
  applicationId: string | null;
  accountId: string | null;
  event: string;
  targetUrl: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  outcome: (typeof OUTCOMES)[number];
  createdAt: Date;
}

/** Text as Postgres stores it: no NUL characters (a record must never be refused for its error text). */
const clean = (s: string) => s.replace(/\u0000/g, '');

/**
 * Only what would make a record meaningless is refused (the whole call then fails, so the
 * dispatcher keeps the batch); free text (event, target, error) is cleaned and cut to size instead.
 */
function checkAttempt(d: Delivery__Output, i: number, errors: FieldError[]): Attempt | undefined {
  const f = (name: string) => `attempts[${i}].${name}`;
  const before = errors.length;
  if (!d.messageId || d.messageId.length > 200 || d.messageId.includes('\u0000')) errors.push({ field: f('messageId'), message: 'is required (at most 200 characters)' });
  if (!(KINDS as readonly string[]).includes(d.kind)) errors.push({ field: f('kind'), message: `must be one of ${KINDS.join(', ')}` });
  if (d.kind === 'notification' && !isSubscriptionId(d.subscriptionId)) errors.push({ field: f('subscriptionId'), message: 'is required for notifications' });
  if (d.kind === 'session' && (!d.applicationId || d.applicationId.length > 200 || d.applicationId.includes('\u0000'))) errors.push({ field: f('applicationId'), message: 'is required for sessions' });
  if (!(OUTCOMES as readonly string[]).includes(d.outcome)) errors.push({ field: f('outcome'), message: `must be one of ${OUTCOMES.join(', ')}` });
  if (!Number.isInteger(d.attempt) || d.attempt < 1) errors.push({ field: f('attempt'), message: 'must be 1 or more' });
  if (!Number.isInteger(d.statusCode) || d.statusCode < 0 || d.statusCode > 999) errors.push({ field: f('statusCode'), message: 'must be 0..999' });
  if (!Number.isInteger(d.durationMs) || d.durationMs < 0) errors.push({ field: f('durationMs'), message: 'must be 0 or more' });
  if (errors.length > before) return undefined;
  const created = d.createdAt ? new Date(d.createdAt) : new Date();
  return {
    id: newDeliveryId(),
    messageId: d.messageId,
    kind: d.kind as Attempt['kind'],
    subscriptionId: d.kind === 'notification' ? d.subscriptionId : null,
    applicationId: clean(d.applicationId).slice(0, 200) || null,
    accountId: isAccountId(d.accountId) ? d.accountId : null,
    event: clean(d.event).slice(0, 64),
    targetUrl: clean(d.targetUrl).slice(0, 2048),
    attempt: d.attempt,
    statusCode: d.statusCode === 0 ? null : d.statusCode,
    durationMs: d.durationMs,
    error: d.error ? clean(d.error).slice(0, ERROR_MAX) : null,
    outcome: d.outcome as Attempt['outcome'],
    createdAt: Number.isNaN(created.getTime()) ? new Date() : created,
  };
}

/**
 * Records delivery attempts (the dispatcher calls this after each try) and keeps each
 * subscription's health current: a success resets consecutiveFailures, anything else increments it;
 * lastAttemptAt/lastStatus follow the newest attempt. `disable` entries (410 Gone) turn the
 * subscription off with a reason. One transaction; repeating a call is harmless (an attempt is
 * unique by message id, subscription and attempt number). Attempts of a subscription that no
 * longer exists are dropped.
 */
export async function recordAttempts(deps: Deps, req: RecordAttemptsRequest__Output, requestId?: string): Promise<void> {
  if (req.attempts.length > MAX_ATTEMPTS_PER_CALL) throw AppError.invalid([{ field: 'attempts', message: `at most ${MAX_ATTEMPTS_PER_CALL} per call` }]);
  const errors: FieldError[] = [];
  const attempts = req.attempts.map((d, i) => checkAttempt(d, i, errors));
  req.disable.forEach((d, i) => {
    if (!isSubscriptionId(d.subscriptionId)) errors.push({ field: `disable[${i}].subscriptionId`, message: 'is not a subscription id' });
  });
  if (errors.length > 0) throw AppError.invalid(errors);

  const disabled = await deps.orm.em.fork().transactional(async (em) => {
    for (const a of attempts) if (a) await insertAttempt(em, deps.schema, a);
    const refs: SubscriptionRef[] = [];
    for (const d of req.disable) {
      const reason = (d.reason || 'disabled after 410 Gone').slice(0, REASON_MAX);
      const rows = await em.execute<{ id: string; account_id: string; application_id: string | null }[]>(
        `update "${deps.schema}".subscriptions set enabled = false, disabled_reason = ?, updated_at = now()
         where id = ? and enabled returning id, account_id, application_id`,
        [reason, d.subscriptionId],
      );
      for (const r of rows) refs.push({ id: r.id, accountId: String(r.account_id), applicationId: r.application_id });
    }
    return refs;
  });
  for (const ref of disabled) deps.changes.changed(ref, requestId);
}

async function insertAttempt(em: EntityManager, schema: string, a: Attempt): Promise<void> {
  const columns = `(id, message_id, kind, subscription_id, application_id, account_id, event, target_url, attempt, status_code, duration_ms, error, outcome, created_at)`;
  if (a.kind === 'session') {
    await em.execute(
      `insert into "${schema}".deliveries ${columns} values (?, ?, 'session', null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
      [a.id, a.messageId, a.applicationId, a.accountId, a.event, a.targetUrl, a.attempt, a.statusCode, a.durationMs, a.error, a.outcome, a.createdAt],
    );
    return;
  }
  // The account and application come from the subscription itself; no row when it is gone.
  const inserted = await em.execute<{ seq: string }[]>(
    `insert into "${schema}".deliveries ${columns}
     select ?, ?, 'notification', s.id, coalesce(?, s.application_id), s.account_id, ?, ?, ?, ?, ?, ?, ?, ?
     from "${schema}".subscriptions s where s.id = ?
     on conflict do nothing returning seq`,
    [a.id, a.messageId, a.applicationId, a.event, a.targetUrl, a.attempt, a.statusCode, a.durationMs, a.error, a.outcome, a.createdAt, a.subscriptionId],
  );
  if (inserted.length === 0) return;
  await em.execute(
    `update "${schema}".subscriptions set
       consecutive_failures = case when ? = 'succeeded' then 0 else consecutive_failures + 1 end,
       last_status = case when last_attempt_at is null or ?::timestamptz >= last_attempt_at then ?::int else last_status end,
       last_attempt_at = greatest(coalesce(last_attempt_at, ?::timestamptz), ?::timestamptz)
     where id = ?`,
    [a.outcome, a.createdAt, a.statusCode, a.createdAt, a.createdAt, a.subscriptionId],
  );
}
