// Storing delivery attempt records: the dispatchers' record batches, read straight from JetStream
// by records-consumer.ts, checked record by record and stored in one transaction.
import { attemptsUsage } from '../usage/counts.ts';
import { addUsage } from '../usage/repository.ts';
import { sqlTransaction, storeInPartitions } from '@switchboard/db';
import type { FieldError } from '@switchboard/errors';
import type { TransactionQuery } from '@switchboard/db';
import type { Delivery__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/Delivery';
import { deliveryAlerts } from '../alerts/delivery-alerts.ts';
import { raiseAlerts, type NewAlert } from '../alerts/raise-alerts.ts';
import { ALERTS_TABLE, alertMinutes } from '../alerts/repository.ts';
import type { Deps } from '../context.ts';
import type { Delivery } from '../db/entities.ts';
import { disableSubscriptions, formatDuration, type DisableRequest } from '../subscriptions/disable-subscriptions.ts';
import { isAccountId, isDeliveryId, isSubscriptionId } from '@switchboard/events';
import { newDeliveryId } from '../subscriptions/ids.ts';
import { type BodyToKeep, sessionOfNotification } from './bodies.ts';
import { kindOf, outcomeOf } from './mapper.ts';
import { BODIES_TABLE, DELIVERIES_TABLE } from './partitions.ts';
import { rollupsOf } from './rollups.ts';
import type { ThrottledCount } from '@switchboard/contracts';
import {
  addRollups,
  addThrottled,
  countRecoveryProgress,
  insertDeliveries,
  keepBodies,
  updateSubscriptionHealth,
  type HealthUpdate,
  type ThrottledRow,
} from './repository.ts';

const KINDS: readonly Delivery['kind'][] = ['session', 'notification'];
const OUTCOMES: readonly Delivery['outcome'][] = ['succeeded', 'retrying', 'failed', 'cancelled'];
const TRIGGERS: readonly Delivery['trigger'][] = ['event', 'test', 'resend', 'recovery'];
const ERROR_MAX = 2000;
/** Most bytes of a receiver's answer kept (UTF-8). */
export const EXCERPT_MAX_BYTES = 4096;
const REASON_MAX = 500;
/** Largest value of an integer column. */
const INT_MAX = 2 ** 31 - 1;

/** A delivery record as it is inserted (its `seq` comes from the table), with the body it carried. */
export type Attempt = Omit<Delivery, 'seq'> & { body?: string };

/** Text as Postgres stores it: no NUL characters (a record must never be refused for its error text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Postgres text cannot hold NUL, so it is removed
const clean = (s: string) => s.replace(/\u0000/g, '');

/** The receiver's answer as kept: at most EXCERPT_MAX_BYTES of UTF-8, cut on a character boundary. */
function excerptOf(d: Delivery__Output): { responseExcerpt: string | null; responseTruncated: boolean } {
  if (d.responseExcerpt === undefined || d.responseExcerpt === null)
    return { responseExcerpt: null, responseTruncated: false };
  const bytes = Buffer.from(clean(d.responseExcerpt), 'utf8');
  if (bytes.length <= EXCERPT_MAX_BYTES)
    return { responseExcerpt: bytes.toString('utf8'), responseTruncated: d.responseTruncated };
  // A cut inside a character drops its partial bytes (a lone continuation byte decodes as U+FFFD).
  let end = EXCERPT_MAX_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { responseExcerpt: bytes.subarray(0, end).toString('utf8'), responseTruncated: true };
}

/** One record of a batch, ready to insert; undefined (with its errors added) when it is refused. */
function checkAttempt(d: Delivery__Output, i: number, errors: FieldError[]): Attempt | undefined {
  const f = (name: string) => `attempts[${i}].${name}`;
  const before = errors.length;
  const kind = kindOf(d);
  const outcome = outcomeOf(d);
  if (!d.messageId || d.messageId.length > 200 || d.messageId.includes('\u0000'))
    errors.push({ field: f('messageId'), message: 'is required (at most 200 characters)' });
  if (!(KINDS as readonly string[]).includes(kind))
    errors.push({ field: f('kind'), message: `must be one of ${KINDS.join(', ')}` });
  if (kind === 'notification' && !isSubscriptionId(d.subscriptionId))
    errors.push({ field: f('subscriptionId'), message: 'is required for notifications' });
  if (kind === 'session' && (!d.applicationId || d.applicationId.length > 200 || d.applicationId.includes('\u0000')))
    errors.push({ field: f('applicationId'), message: 'is required for sessions' });
  if (!(OUTCOMES as readonly string[]).includes(outcome))
    errors.push({ field: f('outcome'), message: `must be one of ${OUTCOMES.join(', ')}` });
  const trigger = d.trigger || 'event';
  if (!(TRIGGERS as readonly string[]).includes(trigger))
    errors.push({ field: f('trigger'), message: `must be one of ${TRIGGERS.join(', ')}` });
  if (trigger !== 'event' && !isDeliveryId(d.id))
    errors.push({ field: f('id'), message: 'is required for tests and resends (an id this service gave)' });
  if (!Number.isInteger(d.attempt) || d.attempt < 1 || d.attempt > INT_MAX)
    errors.push({ field: f('attempt'), message: 'must be 1 or more' });
  if (!Number.isInteger(d.statusCode) || d.statusCode < 0 || d.statusCode > 999)
    errors.push({ field: f('statusCode'), message: 'must be 0..999' });
  if (!Number.isInteger(d.durationMs) || d.durationMs < 0 || d.durationMs > INT_MAX)
    errors.push({ field: f('durationMs'), message: 'must be 0 or more' });
  if (errors.length > before) return undefined;
  const stated = d.createdAt ? new Date(d.createdAt) : undefined;
  // A time Postgres cannot store (or none) is the time it is stored.
  const created = stated && Math.abs(stated.getFullYear() - 2000) < 1000 ? stated : new Date();
  return {
    id: trigger !== 'event' ? d.id : newDeliveryId(),
    messageId: d.messageId,
    kind: kind as Attempt['kind'],
    subscriptionId: kind === 'notification' ? d.subscriptionId : null,
    applicationId: clean(d.applicationId).slice(0, 200) || null,
    accountId: isAccountId(d.accountId) ? d.accountId : null,
    event: clean(d.event).slice(0, 64),
    targetUrl: clean(d.targetUrl).slice(0, 2048),
    attempt: d.attempt,
    statusCode: d.statusCode === 0 ? null : d.statusCode,
    durationMs: d.durationMs,
    error: d.error ? clean(d.error).slice(0, ERROR_MAX) : null,
    outcome: outcome as Attempt['outcome'],
    trigger: trigger as Attempt['trigger'],
    createdAt: Number.isNaN(created.getTime()) ? new Date() : created,
    responseContentType: d.responseContentType ? clean(d.responseContentType).slice(0, 200) : null,
    ...excerptOf(d),
    ...(d.body ? { body: d.body } : {}),
  };
}

/** A batch checked: the records and disable requests that may be stored, and what was refused of it. */
export interface CheckedBatch {
  attempts: Attempt[];
  disable: DisableRequest[];
  /** Deliveries held by their subscription's rate limit, per subscription and minute. */
  throttled: ThrottledRow[];
  errors: FieldError[];
}

/** Most deliveries one count may say were held (a dispatcher's minute of one subscription at 1,000/s is 60,000). */
const THROTTLED_COUNT_MAX = 1_000_000;

/**
 * Checks a batch record by record. Only what would make a record meaningless is refused; free text
 * (event, target, error) is cleaned and cut to size instead.
 */
export function checkBatch(
  attempts: readonly Delivery__Output[],
  disable: readonly DisableRequest[],
  throttledCounts: readonly ThrottledCount[] = [],
): CheckedBatch {
  const errors: FieldError[] = [];
  const checked: Attempt[] = [];
  attempts.forEach((d, i) => {
    const a = checkAttempt(d, i, errors);
    if (a) checked.push(a);
  });
  const gone: DisableRequest[] = [];
  disable.forEach((d, i) => {
    if (!isSubscriptionId(d.subscriptionId))
      errors.push({ field: `disable[${i}].subscriptionId`, message: 'is not a subscription id' });
    // 410 first: a subscription both gone and long failing is disabled for the 410.
    else
      gone.push({
        subscriptionId: d.subscriptionId,
        reason: (d.reason || 'disabled after 410 Gone').slice(0, REASON_MAX),
      });
  });
  const throttled: ThrottledRow[] = [];
  throttledCounts.forEach((t, i) => {
    const at = new Date(t.at);
    if (!isSubscriptionId(t.subscriptionId))
      errors.push({ field: `throttled[${i}].subscriptionId`, message: 'is not a subscription id' });
    else if (Number.isNaN(at.getTime()))
      errors.push({ field: `throttled[${i}].at`, message: 'must be an ISO 8601 time' });
    else if (!Number.isInteger(t.count) || t.count < 1 || t.count > THROTTLED_COUNT_MAX)
      errors.push({ field: `throttled[${i}].count`, message: `must be 1..${THROTTLED_COUNT_MAX}` });
    else throttled.push({ target: t.subscriptionId, at: at.toISOString(), count: t.count });
  });
  return { attempts: checked, disable: gone, throttled, errors };
}

/**
 * Stores checked delivery attempts and keeps each subscription's health current: a success resets
 * consecutiveFailures and the start of the failing run (first_failure_at), anything else increments
 * the one and starts the other if not started; lastAttemptAt/lastStatus follow the newest attempt.
 * `disable` entries (410 Gone) turn the subscription off with a reason; so does a failed attempt
 * made DELIVERY_DISABLE_AFTER or more after the run of failures began. Either way the
 * webhookDisabled event goes into the outbox (disable-subscriptions.ts). One transaction of
 * prepared statements; repeating a call is harmless (an attempt is unique by message id,
 * subscription and attempt number). Attempts of a subscription that no longer exists are dropped.
 */
export async function storeAttempts(
  deps: Deps,
  attempts: Attempt[],
  disable: DisableRequest[],
  requestId?: string,
  throttled: ThrottledRow[] = [],
): Promise<StoredOutcome[]> {
  if (attempts.length === 0 && disable.length === 0 && throttled.length === 0) return [];
  const store = () =>
    sqlTransaction(deps.orm.em, 'begin', async (query) => {
      await addThrottled(query, deps.schema, throttled);
      const { failing, stored, alerts } = await insertAttempts(query, deps.schema, attempts, deps.disableAfterMs);
      const firsts = await raiseAlerts(query, deps.schema, deps.publicBaseUrl, alerts);
      const disabled = await disableSubscriptions(query, deps, [...disable, ...failing]);
      return { disabled, stored, alerts, events: firsts.length };
    });
  // A late record's day gets its partition first (of the deliveries, and of the alerts it may
  // raise); a day dropped meanwhile by another replica's retention pass is made again, once.
  const times = attempts.map((a) => a.createdAt);
  const rows = [
    { table: DELIVERIES_TABLE, instants: times },
    { table: BODIES_TABLE, instants: [new Date()] },
    { table: ALERTS_TABLE, instants: alertMinutes(times) },
  ];
  const { disabled, stored, alerts, events } = await storeInPartitions(
    deps.orm.em,
    deps.schema,
    rows,
    store,
    deps.dayMs,
  );
  for (const ref of disabled) deps.changes.changed(ref, requestId);
  for (const a of alerts) deps.alertsRaised(a.code, a.count ?? 1);
  if (disabled.length > 0) deps.alertsRaised('webhook.disabled', disabled.length);
  if (disabled.length > 0 || events > 0) deps.outbox.kick();
  return stored;
}

/** A record stored now: its account (null when unknown) and outcome, for the per-tenant outcome counter. */
export interface StoredOutcome {
  accountId: string | null;
  outcome: string;
}

/**
 * Inserts a batch with one statement (notification attempts take their account and application
 * from the subscription, and are dropped when it is gone), then brings the health of every touched
 * subscription up to date with one more: the batch is applied as if its attempts came one by one.
 * Returns the enabled subscriptions that have now been failing for `disableAfterMs` (0: none).
 */
async function insertAttempts(
  query: TransactionQuery,
  schema: string,
  attempts: Attempt[],
  disableAfterMs: number,
): Promise<{ failing: DisableRequest[]; stored: StoredOutcome[]; alerts: NewAlert[] }> {
  if (attempts.length === 0) return { failing: [], stored: [], alerts: [] };
  const input = JSON.stringify(
    attempts.map((a, ord) => ({
      ord,
      id: a.id,
      message_id: a.messageId,
      kind: a.kind,
      subscription_id: a.subscriptionId,
      application_id: a.applicationId,
      account_id: a.accountId,
      event: a.event,
      target_url: a.targetUrl,
      attempt: a.attempt,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      outcome: a.outcome,
      trigger: a.trigger,
      created_at: a.createdAt.toISOString(),
      response_content_type: a.responseContentType,
      response_excerpt: a.responseExcerpt,
      response_truncated: a.responseTruncated,
    })),
  );
  const inserted = await insertDeliveries(query, schema, input);
  const outcomes = inserted.map((r) => ({ accountId: r.account_id, outcome: r.outcome }));
  // The statistics' rollups count exactly the records stored now (a record already stored adds nothing).
  await addRollups(
    query,
    schema,
    rollupsOf(
      inserted.map((r) => ({
        target: r.subscription_id ?? r.application_id,
        createdAt: new Date(r.created_at),
        outcome: r.outcome,
        durationMs: r.duration_ms,
      })),
    ),
  );
  // The accounts' usage counts the notification attempts stored now, like the rollups.
  await addUsage(query, schema, attemptsUsage(inserted));
  // The bodies of the records stored now (in the same transaction: visible with them), none of a gone target.
  const stored = new Set(inserted.map((r) => r.id));
  const bodies: BodyToKeep[] = [];
  for (const a of attempts) {
    const target = a.kind === 'notification' ? a.subscriptionId : a.applicationId;
    if (a.body && target && stored.has(a.id))
      bodies.push({
        messageId: a.messageId,
        target,
        body: a.body,
        ...(a.kind === 'notification' ? { sessionId: sessionOfNotification(a.body) } : {}),
      });
  }
  await keepBodies(query, schema, bodies);
  // The alerts of the records stored now (their rollups are counted above).
  const errors = new Map(attempts.map((a) => [a.id, a.error]));
  const alerts = await deliveryAlerts(
    query,
    schema,
    inserted.map((r) => ({
      id: r.id,
      subscriptionId: r.subscription_id,
      applicationId: r.application_id,
      accountId: r.account_id,
      outcome: r.outcome,
      trigger: r.trigger,
      createdAt: new Date(r.created_at),
      error: errors.get(r.id) ?? null,
    })),
  );
  await countRecoveryProgress(
    query,
    schema,
    inserted.filter((r) => r.trigger === 'recovery'),
  );
  // A resend's attempt recorded: it no longer counts against its account's resends in flight.
  const resent = inserted.filter((r) => r.trigger === 'resend' || r.trigger === 'recovery').map((r) => r.id);
  if (resent.length > 0)
    await query(`update "${schema}".resends set done_at = now() where id = any($1::text[]) and done_at is null`, [
      resent,
    ]);
  // Per subscription, in insertion order: a success resets the failure count and the failing run,
  // anything else adds one to the count (and starts the run, or extends it: firstFail is its first
  // failure in this batch, lastFail its newest). A cancelled retry made no attempt: it leaves the
  // health as it was; so does a test send.
  type Health = {
    reset: boolean;
    failures: number;
    lastAt: Date;
    lastStatus: number | null;
    firstFail: Date | null;
    lastFail: Date | null;
  };
  const health = new Map<string, Health>();
  for (const r of inserted
    .filter((x) => x.subscription_id && x.outcome !== 'cancelled' && x.trigger !== 'test')
    .sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)))) {
    const at = new Date(r.created_at);
    const h = health.get(r.subscription_id!) ?? {
      reset: false,
      failures: 0,
      lastAt: at,
      lastStatus: r.status_code,
      firstFail: null,
      lastFail: null,
    };
    if (r.outcome === 'succeeded') Object.assign(h, { reset: true, failures: 0, firstFail: null, lastFail: null });
    else {
      h.failures += 1;
      if (!h.firstFail || at < h.firstFail) h.firstFail = at;
      if (!h.lastFail || at > h.lastFail) h.lastFail = at;
    }
    if (at >= h.lastAt) Object.assign(h, { lastAt: at, lastStatus: r.status_code });
    health.set(r.subscription_id!, h);
  }
  if (health.size === 0) return { failing: [], stored: outcomes, alerts };
  const updates: HealthUpdate[] = [...health]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, h]) => ({
      id,
      reset: h.reset,
      failures: h.failures,
      last_at: h.lastAt.toISOString(),
      last_status: h.lastStatus,
      first_fail: h.firstFail?.toISOString() ?? null,
      last_fail: h.lastFail?.toISOString() ?? null,
    }));
  const failing = await updateSubscriptionHealth(query, schema, updates);
  if (disableAfterMs <= 0) return { failing: [], stored: outcomes, alerts };
  // Failing continuously: a failed attempt made at least disableAfterMs after the run began.
  const long = failing
    .filter(
      (f) =>
        f.enabled &&
        f.first_failure_at &&
        f.last_fail &&
        new Date(f.last_fail).getTime() - new Date(f.first_failure_at).getTime() >= disableAfterMs,
    )
    .map((f) => ({
      subscriptionId: f.id,
      reason: `no delivery succeeded since ${new Date(f.first_failure_at!).toISOString()}: failing continuously for ${formatDuration(disableAfterMs)} or more`,
    }));
  return { failing: long, stored: outcomes, alerts };
}
