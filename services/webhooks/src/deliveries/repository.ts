// The SQL of delivery records, their kept bodies, the background purges and the pruning
// (docs/data-access.md): statements run through @switchboard/db's `sql` and `sqlTransaction`, or
// inside the caller's transaction of prepared statements (a TransactionQuery).
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, sqlTransaction } from '@switchboard/db';
import { DAY_MS, daysBefore } from '@switchboard/config';
import type { TransactionQuery } from '@switchboard/db';
import { compressBody, type BodyToKeep } from './bodies.ts';
import { LATENCY_BUCKETS, type RollupRow } from './rollups.ts';

/** Stores bodies not stored yet, inside the caller's transaction (a message's body never changes: the first one stays). */
export async function keepBodies(query: TransactionQuery, schema: string, bodies: BodyToKeep[]): Promise<void> {
  if (bodies.length === 0) return;
  const rows = bodies.map((b) => ({
    m: b.messageId,
    t: b.target,
    b: compressBody(b.body).toString('base64'),
    s: Buffer.byteLength(b.body),
    i: b.sessionId ?? null,
  }));
  await query(
    `insert into "${schema}".delivery_bodies (message_id, target, body, size, encoding, session_id)
     select x.m, x.t, decode(x.b, 'base64'), x.s, 'deflate', x.i from jsonb_to_recordset($1::jsonb) as x(m text, t text, b text, s int, i text)
     where not exists (select 1 from "${schema}".delivery_bodies k where k.message_id = x.m and k.target = x.t)
     on conflict do nothing`,
    [JSON.stringify(rows)],
  );
}

/** The kept (compressed) body of a message to a target (a subscription id, or an application id for sessions), if still kept. */
export async function findKeptBody(
  em: EntityManager,
  schema: string,
  messageId: string,
  target: string,
): Promise<Buffer | undefined> {
  const [row] = await sql<{ body: Buffer }>(
    em,
    `select body from "${schema}".delivery_bodies where message_id = $1 and target = $2 order by created_at limit 1`,
    [messageId, target],
  );
  return row?.body;
}

/** A stored attempt as insertDeliveries answers it. */
export interface InsertedDelivery {
  seq: string;
  id: string;
  subscription_id: string | null;
  outcome: string;
  status_code: number | null;
  trigger: string;
  created_at: Date;
  application_id: string | null;
  account_id: string | null;
  duration_ms: number;
}

/**
 * Inserts a batch of attempts (JSON rows of the deliveries columns, with `ord` for their order) in
 * one statement: notification attempts take their account and application from the subscription,
 * and are dropped when it is gone, as are sessions of a gone application or account; an attempt
 * already stored (the same message, target and attempt number, made again after a crash or sent in
 * a retried batch) is left as it is.
 */
export function insertDeliveries(query: TransactionQuery, schema: string, input: string): Promise<InsertedDelivery[]> {
  return query<InsertedDelivery>(
    `with input as (
       select * from jsonb_to_recordset($1::jsonb) as x(ord int, id text, message_id text, kind text, subscription_id text,
         application_id text, account_id bigint, event text, target_url text, attempt int, status_code int, duration_ms int,
         error text, outcome text, trigger text, created_at timestamptz,
         response_content_type text, response_excerpt text, response_truncated boolean)
     )
     insert into "${schema}".deliveries
       (id, message_id, kind, subscription_id, application_id, account_id, event, target_url, attempt, status_code, duration_ms, error, outcome, trigger, created_at,
        response_content_type, response_excerpt, response_truncated)
     select i.id, i.message_id, i.kind,
       case when i.kind = 'notification' then s.id end,
       case when i.kind = 'notification' then coalesce(i.application_id, s.application_id) else i.application_id end,
       case when i.kind = 'notification' then s.account_id else i.account_id end,
       i.event, i.target_url, i.attempt, i.status_code, i.duration_ms, i.error, i.outcome, i.trigger, i.created_at,
       i.response_content_type, i.response_excerpt, coalesce(i.response_truncated, false)
     from input i
     left join "${schema}".subscriptions s on i.kind = 'notification' and s.id = i.subscription_id
     -- A gone subscription's records are dropped; so are a gone application's or account's sessions.
     where ((i.kind = 'notification' and s.id is not null)
       or (i.kind = 'session'
         and not exists (select 1 from "${schema}".deleted_applications g where g.application_id = i.application_id)
         and not exists (select 1 from "${schema}".deleted_accounts g where g.account_id = i.account_id)))
       -- One record per attempt of a message to a target, whatever its time: an attempt made again
       -- after a crash (the job redelivered) keeps the record stored first. Its time differs, so the
       -- unique index (which holds the partition key) cannot tell; the days around it are searched.
       and not (i.trigger = 'event' and exists (
         select 1 from "${schema}".deliveries d
         where d.message_id = i.message_id and d.trigger = 'event' and d.attempt = i.attempt
           and coalesce(d.subscription_id, '') = case when i.kind = 'notification' then i.subscription_id else '' end
           and d.created_at > i.created_at - interval '1 day' and d.created_at < i.created_at + interval '1 day'))
     order by i.ord
     on conflict do nothing
     returning seq::text, id, subscription_id, application_id, account_id::text, outcome, status_code, duration_ms, trigger, created_at`,
    [input],
  );
}

/** The change of one subscription's health a batch of attempts makes (timestamps as ISO text). */
export interface HealthUpdate {
  id: string;
  reset: boolean;
  failures: number;
  last_at: string;
  last_status: number | null;
  first_fail: string | null;
  last_fail: string | null;
}

/**
 * Applies the health updates (sorted by id) to their subscriptions; answers each one's state after
 * it. The rows are locked in id order first, so concurrent batches touching the same subscriptions
 * cannot deadlock.
 */
export async function updateSubscriptionHealth(
  query: TransactionQuery,
  schema: string,
  updates: HealthUpdate[],
): Promise<{ id: string; enabled: boolean; first_failure_at: Date | null; last_fail: Date | null }[]> {
  await query(
    `select 1 from "${schema}".subscriptions where id in (select jsonb_array_elements_text($1::jsonb)) order by id for update`,
    [JSON.stringify(updates.map((u) => u.id))],
  );
  return query(
    `update "${schema}".subscriptions s set
       consecutive_failures = case when u.reset then u.failures else s.consecutive_failures + u.failures end,
       first_failure_at = case when u.reset then u.first_fail else coalesce(s.first_failure_at, u.first_fail) end,
       last_status = case when s.last_attempt_at is null or u.last_at >= s.last_attempt_at then u.last_status else s.last_status end,
       last_attempt_at = greatest(coalesce(s.last_attempt_at, u.last_at), u.last_at)
     from jsonb_to_recordset($1::jsonb) as u(id text, reset boolean, failures int, last_at timestamptz, last_status int, first_fail timestamptz, last_fail timestamptz)
     where s.id = u.id
     returning s.id, s.enabled, s.first_failure_at, u.last_fail`,
    [JSON.stringify(updates)],
  );
}

/**
 * Counts newly recorded recovery attempts into their tasks (each resend is one attempt: it either
 * was sent or failed) and marks a task completed when every delivery of it has an outcome.
 */
export async function countRecoveryProgress(
  query: TransactionQuery,
  schema: string,
  rows: { id: string; outcome: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await query(
    `with done as (
       select r.task_id, count(*) filter (where x.outcome = 'succeeded') as ok, count(*) filter (where x.outcome <> 'succeeded') as bad
       from jsonb_to_recordset($1::jsonb) as x(id text, outcome text)
       join "${schema}".resends r on r.id = x.id
       where r.task_id is not null
       group by r.task_id
     )
     update "${schema}".recovery_tasks t set sent = t.sent + done.ok, failed = t.failed + done.bad,
       completed_at = case when t.sent + done.ok + t.failed + done.bad >= t.total then coalesce(t.completed_at, now()) else t.completed_at end
     from done where t.id = done.task_id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, outcome: r.outcome })))],
  );
}

/** A resend that is queued and not yet attempted, as GetDelivery shows it. */
export interface PendingResend {
  id: string;
  message_id: string;
  kind: string;
  subscription_id: string | null;
  application_id: string | null;
  account_id: string;
  event: string;
  trigger: string;
  created_at: Date;
}

/** The queued resend with this id under the scope (a subscription, or an application's sessions), or undefined. */
export async function findPendingResend(
  em: EntityManager,
  schema: string,
  id: string,
  scope: { subscriptionId: string } | { applicationId: string } | { accountId: string },
): Promise<PendingResend | undefined> {
  const [column, value] =
    'subscriptionId' in scope
      ? ['subscription_id = $2', scope.subscriptionId]
      : 'applicationId' in scope
        ? ["application_id = $2 and kind = 'session'", scope.applicationId]
        : ['account_id = $2', scope.accountId];
  const [row] = await sql<PendingResend>(
    em,
    `select id, message_id, kind, subscription_id, application_id, account_id::text, event, trigger, created_at from "${schema}".resends
     where id = $1 and ${column}`,
    [id, value],
  );
  return row;
}

/** Queues the deletion of subscriptions' delivery records, in the caller's transaction. */
export async function queueSubscriptionPurge(
  em: EntityManager,
  schema: string,
  subscriptionIds: string[],
): Promise<void> {
  if (subscriptionIds.length === 0) return;
  await sql(
    em,
    `insert into "${schema}".delivery_purges (subscription_id) select x.id from unnest($1::text[]) with ordinality as x(id, n) order by x.n`,
    [subscriptionIds],
  );
}

/** Queues the deletion of an application's session delivery records, in the caller's transaction. */
export async function queueApplicationPurge(em: EntityManager, schema: string, applicationId: string): Promise<void> {
  await sql(em, `insert into "${schema}".delivery_purges (application_id) values ($1)`, [applicationId]);
}

/**
 * Deletes up to `batch` records of the oldest queued purge nobody else is working on, and the purge
 * itself once nothing of it is left, in one transaction. Returns the records deleted, or undefined
 * when there was nothing to do.
 */
export function sweepOnce(em: EntityManager, schema: string, batch: number): Promise<number | undefined> {
  return sqlTransaction(em, 'begin', async (query) => {
    const [purge] = await query<{ seq: string; subscription_id: string | null; application_id: string | null }>(
      `select seq, subscription_id, application_id from "${schema}".delivery_purges order by seq limit 1 for update skip locked`,
      [],
    );
    if (!purge) return undefined;
    // Both select through an index: deliveries_subscription or deliveries_application_sessions.
    const [deleted] = purge.subscription_id
      ? await query<{ n: number }>(
          `with d as (delete from "${schema}".deliveries where (seq, created_at) in (select seq, created_at from "${schema}".deliveries where subscription_id = $1 limit ${batch}) returning 1) select count(*)::int as n from d`,
          [purge.subscription_id],
        )
      : await query<{ n: number }>(
          `with d as (delete from "${schema}".deliveries where (seq, created_at) in (select seq, created_at from "${schema}".deliveries where application_id = $1 and kind = 'session' limit ${batch}) returning 1) select count(*)::int as n from d`,
          [purge.application_id],
        );
    // The bodies kept for resends go with their records (target: the subscription or the application).
    const [bodies] = await query<{ n: number }>(
      `with d as (delete from "${schema}".delivery_bodies where (message_id, target, created_at) in (select message_id, target, created_at from "${schema}".delivery_bodies where target = $1 limit ${batch}) returning 1) select count(*)::int as n from d`,
      [purge.subscription_id ?? purge.application_id],
    );
    // A gone application's queued session resends (a subscription's go with it by cascade).
    if (purge.application_id)
      await query(`delete from "${schema}".resends where application_id = $1 and kind = 'session'`, [
        purge.application_id,
      ]);
    // So do their statistics' rollups.
    const [rollups] = await query<{ n: number }>(
      `with d as (delete from "${schema}".delivery_rollups where (target, width, start) in (select target, width, start from "${schema}".delivery_rollups where target = $1 limit ${batch}) returning 1) select count(*)::int as n from d`,
      [purge.subscription_id ?? purge.application_id],
    );
    if (deleted!.n < batch && bodies!.n < batch && rollups!.n < batch)
      await query(`delete from "${schema}".delivery_purges where seq = $1`, [purge.seq]);
    return deleted!.n;
  });
}

const PRUNE_BATCH = 5000;
/** Tombstones of deleted applications and accounts are kept 7 days unless told (TOMBSTONE_RETENTION_MS). */
const TOMBSTONE_MS_DEFAULT = 7 * 86_400_000;

/**
 * Deletes what goes with delivery records older than the retention period (the records themselves
 * and their kept bodies go with their days' partitions: deliveries/partitions.ts): rollups, finished recovery
 * tasks and their resends, in batches so that no statement holds locks for long; and old test
 * sends and tombstones of deleted applications and accounts (older than `tombstoneMs`).
 */
export async function pruneDeliveries(
  em: EntityManager,
  schema: string,
  retentionDays: number,
  tombstoneMs = TOMBSTONE_MS_DEFAULT,
  dayMs = DAY_MS,
): Promise<void> {
  if (retentionDays > 0) {
    const cutoff = daysBefore(retentionDays, dayMs);
    // Whole days of rollups, like the records' partitions.
    const rollupsCutoff = new Date(Math.floor(cutoff.getTime() / dayMs) * dayMs);
    // Rollups, finished recovery tasks and their resends go with the records (test sends after an
    // hour); kept bodies go with their days' partitions, like the records.
    for (;;) {
      const res = await sql<{ n: number }>(
        em,
        `delete from "${schema}".delivery_rollups where (target, width, start) in (
           select target, width, start from "${schema}".delivery_rollups
           where start < $1 limit ${PRUNE_BATCH}
         ) returning 1 as n`,
        [rollupsCutoff],
      );
      if (res.length < PRUNE_BATCH) break;
    }
    await sql(em, `delete from "${schema}".recovery_tasks where created_at < $1`, [cutoff]);
    await sql(em, `delete from "${schema}".resends where task_id is null and created_at < $1`, [cutoff]);
  }
  // Test sends count against a budget per minute: an hour in real time, whatever RETENTION_DAY_MS.
  await sql(em, `delete from "${schema}".test_sends where sent_at < now() - interval '1 hour'`);
  // Tombstones of deleted applications and accounts only need to outlive a create that was in flight.
  await sql(
    em,
    `delete from "${schema}".deleted_applications where deleted_at < now() - make_interval(secs => $1::float8 / 1000)`,
    [tombstoneMs],
  );
  await sql(
    em,
    `delete from "${schema}".deleted_accounts where deleted_at < now() - make_interval(secs => $1::float8 / 1000)`,
    [tombstoneMs],
  );
}

/**
 * Adds a stored batch's rollups (sorted by target, width and start, so concurrent batches lock rows in
 * one order) to delivery_rollups, inside the caller's transaction.
 */
export async function addRollups(query: TransactionQuery, schema: string, rows: RollupRow[]): Promise<void> {
  if (rows.length === 0) return;
  await query(
    `insert into "${schema}".delivery_rollups as r (target, width, start, attempts, succeeded, retrying, failed, cancelled, latency)
     select x.target, x.width, x.start, x.attempts, x.succeeded, x.retrying, x.failed, x.cancelled,
       array(select (v #>> '{}')::int from jsonb_array_elements(x.latency) as v)
     from jsonb_to_recordset($1::jsonb) as x(target text, width int, start timestamptz, attempts int, succeeded int, retrying int,
       failed int, cancelled int, latency jsonb)
     order by x.target, x.width, x.start
     on conflict (target, width, start) do update set
       attempts = r.attempts + excluded.attempts,
       succeeded = r.succeeded + excluded.succeeded,
       retrying = r.retrying + excluded.retrying,
       failed = r.failed + excluded.failed,
       cancelled = r.cancelled + excluded.cancelled,
       latency = array(select a + b from unnest(r.latency, excluded.latency) as u(a, b))`,
    [JSON.stringify(rows)],
  );
}

/**
 * Adds deliveries held by their subscription's rate limit (counts per subscription and minute) to
 * the minute and hour rollups, inside the caller's transaction; counts of a subscription that is
 * gone are dropped.
 */
export async function addThrottled(query: TransactionQuery, schema: string, counts: ThrottledRow[]): Promise<void> {
  if (counts.length === 0) return;
  await query(
    `insert into "${schema}".delivery_rollups as r (target, width, start, attempts, succeeded, retrying, failed, cancelled, latency, throttled)
     select x.target, w.width, date_bin(make_interval(secs => w.width), x.at, timestamptz 'epoch'), 0, 0, 0, 0, 0,
       array_fill(0, array[${LATENCY_BUCKETS}]), sum(x.count)
     from jsonb_to_recordset($1::jsonb) as x(target text, at timestamptz, count int)
       cross join (values (60), (3600)) as w(width)
     where exists (select 1 from "${schema}".subscriptions s where s.id = x.target)
     group by 1, 2, 3
     order by 1, 2, 3
     on conflict (target, width, start) do update set throttled = r.throttled + excluded.throttled`,
    [JSON.stringify(counts)],
  );
}

/** Deliveries of a subscription held by its rate limit in the minute starting `at`. */
export interface ThrottledRow {
  target: string;
  at: string;
  count: number;
}

/** One bucket of rollups as the statistics read it. */
export interface RollupBucket {
  start: Date;
  attempts: string;
  succeeded: string;
  retrying: string;
  failed: string;
  cancelled: string;
  throttled: string;
  latency: string[];
}

const LATENCY_SUMS = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `sum(latency[${i + 1}])`).join(', ');

/**
 * A target's rollups from `from` (inclusive) to `to` (exclusive), summed by buckets of `bucketSeconds`
 * aligned on the epoch; only buckets holding rollups come back. Reads the rollups' primary key: the
 * hourly rows for buckets of an hour or more, the minute rows otherwise.
 */
export function readRollups(
  em: EntityManager,
  schema: string,
  target: string,
  from: Date,
  to: Date,
  bucketSeconds: number,
): Promise<RollupBucket[]> {
  return sql<RollupBucket>(
    em,
    `select date_bin(make_interval(secs => $4), start, timestamptz 'epoch') as start,
       sum(attempts)::text as attempts, sum(succeeded)::text as succeeded, sum(retrying)::text as retrying,
       sum(failed)::text as failed, sum(cancelled)::text as cancelled, sum(throttled)::text as throttled,
       array[${LATENCY_SUMS}]::text[] as latency
     from "${schema}".delivery_rollups
     where target = $1 and width = $5 and start >= $2 and start < $3
     group by 1 order by 1`,
    [target, from, to, bucketSeconds, bucketSeconds >= 3600 ? 3600 : 60],
  );
}

/** A subscription's attempts made (cancelled ones excepted) and failed (retrying or failed) over the last minutes. */
export interface FailureRatio {
  target: string;
  made: number;
  failed: number;
}

/**
 * The attempts and failures of these subscriptions in the minute rollups of the last `minutes`
 * minutes (the current one included), inside the caller's transaction (which has just added its
 * batch to them). One statement; each target's rows are a range of the rollups' primary key.
 */
export function failureRatios(
  query: TransactionQuery,
  schema: string,
  targets: readonly string[],
  minutes: number,
): Promise<FailureRatio[]> {
  return query<FailureRatio>(
    `select target, sum(attempts - cancelled)::int as made, sum(retrying + failed)::int as failed
     from "${schema}".delivery_rollups
     where target = any($1::text[]) and width = 60
       and start >= date_trunc('minute', now()) - make_interval(mins => $2::int - 1)
     group by target`,
    [targets, minutes],
  );
}
