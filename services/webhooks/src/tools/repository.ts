// The SQL of the delivery tools (docs/data-access.md): recovery tasks, queued resends and test
// sends. Statements run through @switchboard/db's `sql`; the ones that take `em` join its
// transaction when it is inside one.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';

export interface RecoveryTaskRow {
  id: string;
  subscription_id: string;
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  since: Date;
  until: Date;
  created_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
}

/** A recovery task of the account's subscription, or undefined. */
export async function findRecoveryTask(
  em: EntityManager,
  schema: string,
  accountId: string,
  subscriptionId: string,
  taskId: string,
): Promise<RecoveryTaskRow | undefined> {
  const [task] = await sql<RecoveryTaskRow>(
    em,
    `select id, subscription_id, total, sent, failed, skipped, since, until, created_at, completed_at, cancelled_at from "${schema}".recovery_tasks
     where id = $1 and subscription_id = $2 and account_id = $3`,
    [taskId, subscriptionId, accountId],
  );
  return task;
}

/** A message of a subscription whose newest record (tests aside) failed within a window. */
export interface FailedMessage {
  message_id: string;
  event: string;
  first_seq: string;
  /** Whether its body is still kept (a resend needs it). */
  kept: boolean;
}

/** Which failed deliveries a recovery takes beyond its window (docs/api.md#delivery-tools); all when empty. */
export interface RecoveryFilter {
  event?: string;
  statusFrom?: number;
  statusTo?: number;
  messageIds?: string[];
  /** Only the deliveries of notifications about these sessions (their kept body's `data.sessionId`). */
  sessionIds?: string[];
}

/** Every message of the subscription whose newest record (tests aside) failed within [since, until), in the original order. */
export function findFailedMessages(
  em: EntityManager,
  schema: string,
  subscriptionId: string,
  since: Date,
  until: Date,
  limit: number,
  filter: RecoveryFilter = {},
): Promise<FailedMessage[]> {
  const params: unknown[] = [subscriptionId, since, until, limit];
  const p = (v: unknown) => `$${params.push(v)}`;
  let only = filter.messageIds?.length ? ` and message_id = any(${p(filter.messageIds)}::text[])` : '';
  // A session's messages are known by their kept bodies (delivery_bodies_session).
  if (filter.sessionIds?.length)
    only += ` and message_id in (select message_id from "${schema}".delivery_bodies where target = $1 and session_id = any(${p(filter.sessionIds)}::text[]))`;
  const last: string[] = [];
  if (filter.event !== undefined) last.push(`l.event = ${p(filter.event)}`);
  if (filter.statusFrom !== undefined) last.push(`l.status_code >= ${p(filter.statusFrom)}`);
  if (filter.statusTo !== undefined) last.push(`l.status_code <= ${p(filter.statusTo)}`);
  // Only messages with a record in the window are looked at (their history decides their outcome). The
  // newest record is the latest attempt: records may be stored out of order (seq), attempts are timed.
  return sql<FailedMessage>(
    em,
    `with candidates as (
       select distinct message_id from "${schema}".deliveries
       where subscription_id = $1 and trigger <> 'test' and created_at >= $2 and created_at < $3${only}
     ), messages as (
       select d.message_id, min(d.seq) as first_seq from "${schema}".deliveries d join candidates c using (message_id)
       where d.subscription_id = $1 and d.trigger <> 'test' group by d.message_id
     ), last as (
       select distinct on (d.message_id) d.message_id, d.outcome, d.event, d.status_code, d.created_at from "${schema}".deliveries d join candidates c using (message_id)
       where d.subscription_id = $1 and d.trigger <> 'test' order by d.message_id, d.created_at desc, d.seq desc
     )
     select l.message_id, l.event, m.first_seq::text, (b.message_id is not null) as kept
     from last l join messages m using (message_id)
     left join "${schema}".delivery_bodies b on b.message_id = l.message_id and b.target = $1
     where l.outcome = 'failed' and l.created_at >= $2 and l.created_at < $3${last.map((c) => ` and ${c}`).join('')}
     order by m.first_seq
     limit $4`,
    params,
  );
}

/**
 * Locks the subscription's row until the caller's transaction ends (orders concurrent recoveries of
 * it over every replica) and answers the id of a recovery of it still running, started within
 * `runningFor` (an interval such as '1 day'), if any.
 */
export async function lockAndFindRunningRecovery(
  em: EntityManager,
  schema: string,
  subscriptionId: string,
  runningFor: string,
): Promise<string | undefined> {
  await sql(em, `select 1 from "${schema}".subscriptions where id = $1 for update`, [subscriptionId]);
  const [running] = await sql<{ id: string }>(
    em,
    `select id from "${schema}".recovery_tasks where subscription_id = $1 and completed_at is null and created_at > now() - $2::interval limit 1`,
    [subscriptionId, runningFor],
  );
  return running?.id;
}

/**
 * Within the caller's transaction: takes the account's delivery-tools lock (held until the
 * transaction ends, so concurrent calls of one account count exactly) and answers how many resends
 * or recoveries the account queued within the last hour, and when the oldest of them was.
 */
export async function lockAndCountToolUse(
  em: EntityManager,
  schema: string,
  accountId: string,
  tool: 'resend' | 'recovery',
): Promise<{ n: number; oldest: Date | null }> {
  await sql(em, `select pg_advisory_xact_lock(hashtext($1))`, [`webhooks-tools:${accountId}`]);
  const [row] = await sql<{ n: number; oldest: Date | null }>(
    em,
    tool === 'resend'
      ? `select count(*)::int as n, min(created_at) as oldest from "${schema}".resends where account_id = $1 and trigger = 'resend' and created_at > now() - interval '1 hour'`
      : `select count(*)::int as n, min(created_at) as oldest from "${schema}".recovery_tasks where account_id = $1 and created_at > now() - interval '1 hour'`,
    [accountId],
  );
  return row!;
}

/**
 * Stores a recovery task and queues a resend of each of its messages (one timestamp for the task's
 * rows: the relay then publishes them by original_seq), in the caller's transaction. A task with
 * nothing to send is completed at once.
 */
export async function insertRecoveryTask(
  em: EntityManager,
  schema: string,
  task: { id: string; subscriptionId: string; accountId: string; since: Date; until: Date; skipped: number },
  queued: FailedMessage[],
): Promise<void> {
  await sql(
    em,
    `insert into "${schema}".recovery_tasks (id, subscription_id, account_id, since, until, total, skipped, completed_at)
     values ($1, $2, $3, $4, $5, $6, $7, case when $6 = 0 then now() end)`,
    [task.id, task.subscriptionId, task.accountId, task.since, task.until, queued.length, task.skipped],
  );
  if (queued.length === 0) return;
  await sql(
    em,
    `insert into "${schema}".resends (id, task_id, kind, subscription_id, account_id, message_id, event, original_seq, trigger, created_at)
     select 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), $1, 'notification', $2, $3, x.m, x.e, x.q, 'recovery', now()
     from jsonb_to_recordset($4::jsonb) as x(m text, e text, q bigint)`,
    [
      task.id,
      task.subscriptionId,
      task.accountId,
      JSON.stringify(queued.map((r) => ({ m: r.message_id, e: r.event, q: r.first_seq }))),
    ],
  );
}

/** Whether the subscription is enabled (undefined: it does not exist). */
export async function isSubscriptionEnabled(
  em: EntityManager,
  schema: string,
  subscriptionId: string,
): Promise<boolean | undefined> {
  const [sub] = await sql<{ enabled: boolean }>(em, `select enabled from "${schema}".subscriptions where id = $1`, [
    subscriptionId,
  ]);
  return sub?.enabled;
}

/** Whether the body of a message is still kept for its target. */
export async function isBodyKept(
  em: EntityManager,
  schema: string,
  messageId: string,
  target: string,
): Promise<boolean> {
  const rows = await sql(em, `select 1 from "${schema}".delivery_bodies where message_id = $1 and target = $2`, [
    messageId,
    target,
  ]);
  return rows.length > 0;
}

/** A resend of one delivery, as the RPC queues it. */
export interface NewResend {
  id: string;
  kind: string;
  subscriptionId: string | null;
  applicationId: string | null;
  accountId: string;
  messageId: string;
  event: string;
}

/** Queues a resend (in the original order of its message's first record), in the caller's transaction. */
export async function insertResend(em: EntityManager, schema: string, r: NewResend): Promise<void> {
  await sql(
    em,
    `insert into "${schema}".resends (id, kind, subscription_id, application_id, account_id, message_id, event, original_seq, trigger)
     values ($1, $2, $3, $4, $5, $6, $7, (select min(seq) from "${schema}".deliveries where message_id = $6), 'resend')`,
    [r.id, r.kind, r.subscriptionId, r.applicationId, r.accountId, r.messageId, r.event],
  );
}

/** A queued resend with its kept body (null when no longer kept), as the relay publishes it. */
export interface QueuedResend {
  id: string;
  task_id: string | null;
  kind: 'session' | 'notification';
  subscription_id: string | null;
  application_id: string | null;
  account_id: string;
  message_id: string;
  event: string;
  trigger: 'resend' | 'recovery';
  created_at: Date;
  body: Buffer | null;
}

/**
 * Keys up to `limit` queued resends, in the caller's transaction: one of a subscription without
 * ordering (or of an application) without a key, one of an ordered subscription with the key read
 * from its kept body's `data` (`keyOf`; none when the body is gone or has no such field). Only rows
 * it could lock (SKIP LOCKED): it never waits for, nor deadlocks with, a transaction deleting them.
 */
export async function keyResends(
  em: EntityManager,
  schema: string,
  limit: number,
  keyOf: (body: Buffer, field: string) => string | undefined,
): Promise<number> {
  const rows = await sql<{ id: string; field: string | null; body: Buffer | null }>(
    em,
    `select r.id, o.field, b.body
       from "${schema}".resends r
       left join lateral (select s.settings -> 'ordering' ->> 'key' as field
                            from "${schema}".subscriptions s where s.id = r.subscription_id) o on true
       left join "${schema}".delivery_bodies b
         on o.field is not null and b.message_id = r.message_id and b.target = r.subscription_id
      where not r.keyed
      order by r.created_at, r.original_seq, r.id
      limit ${limit}
      for update of r skip locked`,
  );
  if (rows.length === 0) return 0;
  await sql(
    em,
    `update "${schema}".resends r set keyed = true, order_key = x.k
       from jsonb_to_recordset($1::jsonb) as x(id text, k text) where r.id = x.id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, k: r.field && r.body ? (keyOf(r.body, r.field) ?? null) : null })))],
  );
  return rows.length;
}

/**
 * Claims up to `limit` resends not yet published, in the order they were queued, in the caller's
 * transaction (SKIP LOCKED). Only keyed ones, and of an ordered subscription only those with no
 * earlier resend of their key (or not yet keyed) still to be attempted: a key's resends go out one
 * at a time, whichever dispatcher takes them.
 */
export function claimResends(
  em: EntityManager,
  schema: string,
  limit: number,
  inFlightPerAccount: number,
): Promise<QueuedResend[]> {
  // An account with inFlightPerAccount resends published and not yet recorded gets no more until
  // some are: its recovery waits in this table, not in the dispatchers' shared stream.
  return sql<QueuedResend>(
    em,
    `with busy as (
       select account_id, count(*) as n from "${schema}".resends
        where published_at is not null and done_at is null group by account_id
     ), ready as (
       select r.id, r.account_id, r.created_at, r.original_seq from "${schema}".resends r
        where r.published_at is null and r.keyed
          and not exists (
            select 1 from "${schema}".resends p
             where p.subscription_id = r.subscription_id and p.done_at is null and p.id <> r.id
               and (not p.keyed or p.order_key = r.order_key)
               and (p.created_at, p.original_seq, p.id) < (r.created_at, r.original_seq, r.id))
     ), ranked as (
       select q.id, row_number() over (partition by q.account_id order by q.created_at, q.original_seq, q.id) as k,
              coalesce(busy.n, 0) as n
         from ready q left join busy on busy.account_id = q.account_id
     )
     select r.id, r.task_id, r.kind, r.subscription_id, r.application_id, r.account_id::text, r.message_id, r.event, r.trigger, r.created_at, b.body
     from "${schema}".resends r
     join ranked q on q.id = r.id and q.k <= $1 - q.n
     left join "${schema}".delivery_bodies b on b.message_id = r.message_id and b.target = coalesce(r.subscription_id, r.application_id)
     where r.published_at is null
     order by r.created_at, r.original_seq, r.id
     limit ${limit}
     for update of r skip locked`,
    [inFlightPerAccount],
  );
}

/** Marks resends published, in the caller's transaction. */
export async function markResendsPublished(em: EntityManager, schema: string, ids: string[]): Promise<void> {
  await sql(em, `update "${schema}".resends set published_at = now() where id = any($1::text[])`, [ids]);
}

/** Marks resends done that were never sent (their body is gone): they hold no place in flight. */
export async function markResendsDone(em: EntityManager, schema: string, ids: string[]): Promise<void> {
  await sql(em, `update "${schema}".resends set done_at = now() where id = any($1::text[])`, [ids]);
}

/** Counts resends that could not be sent (their body is gone) as failed in their recovery tasks, completing a task when nothing is left. */
export async function countDroppedResends(
  em: EntityManager,
  schema: string,
  taskIds: (string | null)[],
): Promise<void> {
  await sql(
    em,
    `update "${schema}".recovery_tasks t set failed = t.failed + g.n,
       completed_at = case when t.sent + t.failed + g.n >= t.total then coalesce(t.completed_at, now()) else t.completed_at end
     from (select x.task_id, count(*) as n from jsonb_to_recordset($1::jsonb) as x(task_id text) where x.task_id is not null group by x.task_id) g
     where t.id = g.task_id`,
    [JSON.stringify(taskIds.map((task_id) => ({ task_id })))],
  );
}

/**
 * Counts the test sends of the subscription in the last minute, in the caller's transaction, under
 * the subscription's row lock (which orders concurrent tests, so the count is exact across replicas),
 * after dropping older ones. Answers the count and the oldest send.
 */
export async function countRecentTests(
  em: EntityManager,
  schema: string,
  subscriptionId: string,
): Promise<{ n: number; oldest: Date | null }> {
  await sql(em, `select 1 from "${schema}".subscriptions where id = $1 for update`, [subscriptionId]);
  await sql(
    em,
    `delete from "${schema}".test_sends where subscription_id = $1 and sent_at < now() - interval '1 minute'`,
    [subscriptionId],
  );
  const [recent] = await sql<{ n: string; oldest: Date | null }>(
    em,
    `select count(*) as n, min(sent_at) as oldest from "${schema}".test_sends where subscription_id = $1`,
    [subscriptionId],
  );
  return { n: Number(recent!.n), oldest: recent!.oldest };
}

/** Records a test send, in the caller's transaction. */
export async function insertTestSend(em: EntityManager, schema: string, subscriptionId: string): Promise<void> {
  await sql(em, `insert into "${schema}".test_sends (subscription_id) values ($1)`, [subscriptionId]);
}

/**
 * Cancels a recovery still running, in the caller's transaction: marks it cancelled (and completed)
 * and drops its resends not yet handed to the dispatchers. Answers false when it was not running.
 */
export async function cancelRecoveryTask(em: EntityManager, schema: string, taskId: string): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    em,
    `update "${schema}".recovery_tasks set cancelled_at = now(), completed_at = now()
     where id = $1 and completed_at is null returning id`,
    [taskId],
  );
  if (rows.length === 0) return false;
  await sql(em, `delete from "${schema}".resends where task_id = $1 and published_at is null`, [taskId]);
  return true;
}

/** The recoveries of a subscription cancelled within the last day (the dispatchers skip their resends). */
export async function cancelledRecoveries(
  em: EntityManager,
  schema: string,
  subscriptionId: string,
): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    em,
    `select id from "${schema}".recovery_tasks where subscription_id = $1 and cancelled_at > now() - interval '1 day'`,
    [subscriptionId],
  );
  return rows.map((r) => r.id);
}
