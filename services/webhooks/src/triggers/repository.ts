// The SQL of alert and usage triggers (docs/data-access.md): the limit lock of an account's
// triggers, the reads of the API (firing state included), the evaluation of alert triggers in the
// transaction that folds an alert, and the usage triggers' pass over the usage rollups.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';
import type { TransactionQuery } from '@switchboard/db';

/** First key of the advisory locks that serialise the creates of an account's triggers (count, then insert). */
const TRIGGER_LOCK_CLASS = 0x5754;

/** Takes the lock of an account's triggers of a kind, in the caller's transaction (em.transactional). */
export async function lockTriggers(em: EntityManager, kind: 'alert' | 'usage', accountId: string): Promise<void> {
  await sql(em, `select pg_advisory_xact_lock(${TRIGGER_LOCK_CLASS}, hashtext($1))`, [`${kind}:${accountId}`]);
}

/** Whether the account was deleted (its tombstone): nothing may be created for it any more. */
export async function accountDeleted(em: EntityManager, schema: string, accountId: string): Promise<boolean> {
  const rows = await sql(em, `select 1 from "${schema}".deleted_accounts where account_id = $1`, [accountId]);
  return rows.length > 0;
}

/** Whether the application was deleted (its tombstone): a trigger created for it now would never fire. */
export async function applicationDeleted(em: EntityManager, schema: string, applicationId: string): Promise<boolean> {
  const rows = await sql(em, `select 1 from "${schema}".deleted_applications where application_id = $1`, [
    applicationId,
  ]);
  return rows.length > 0;
}

export interface AlertTriggerRow {
  seq: string;
  id: string;
  code: string;
  application_id: string | null;
  threshold: number;
  window_seconds: number;
  created_at: Date;
  fired_at: Date | null;
  fired_count: number;
}

const ALERT_COLUMNS = `seq::text as seq, id, code, application_id, threshold, window_seconds, created_at, fired_at, fired_count`;

/** Which triggers a read takes: a page in creation order after `afterSeq`, or the one with `id`. */
type TriggerQuery = { afterSeq: string | null; limit: number } | { id: string };

export interface UsageTriggerRow {
  seq: string;
  id: string;
  category: string;
  threshold: string;
  recurring: string;
  created_at: Date;
  fired_period: string | null;
  fired_at: Date | null;
}

const USAGE_COLUMNS = `seq::text as seq, id, category, threshold::text as threshold, recurring, created_at,
  to_char(fired_period, 'YYYY-MM-DD') as fired_period, fired_at`;

/** Rows of each kind of trigger. */
export interface TriggerRows {
  alert: AlertTriggerRow;
  usage: UsageTriggerRow;
}

/**
 * The triggers of the kind of the account that `q` takes: up to `limit` in creation order after
 * `afterSeq`, or the one with `id`.
 */
export function readTriggers<K extends keyof TriggerRows>(
  em: EntityManager,
  schema: string,
  kind: K,
  accountId: string,
  q: TriggerQuery,
): Promise<TriggerRows[K][]> {
  const [table, columns] = kind === 'alert' ? ['alert_triggers', ALERT_COLUMNS] : ['usage_triggers', USAGE_COLUMNS];
  if ('id' in q)
    return sql<TriggerRows[K]>(em, `select ${columns} from "${schema}".${table} where account_id = $1 and id = $2`, [
      accountId,
      q.id,
    ]);
  return sql<TriggerRows[K]>(
    em,
    `select ${columns} from "${schema}".${table}
     where account_id = $1 and ($2::bigint is null or seq > $2) order by seq limit $3`,
    [accountId, q.afterSeq, q.limit],
  );
}

/** An alert trigger as its evaluation reads it, with when it last fired. */
export interface LockedAlertTrigger {
  id: string;
  code: string;
  application_id: string | null;
  threshold: number;
  window_seconds: number;
  /** As the driver reads it in a transaction of prepared statements: a Date or its text. */
  fired_at: Date | string | null;
}

/**
 * The account's alert triggers that an alert of one of `codes` and of one of `applicationIds`
 * (`''`: none) matches, locked in id order for the caller's transaction (one statement for all
 * the alerts a transaction raises for the account, so every transaction locks them in one order):
 * two alerts stored at once cannot both fire one trigger.
 */
export function lockAlertTriggers(
  query: TransactionQuery,
  schema: string,
  accountId: string,
  codes: string[],
  applicationIds: string[],
): Promise<LockedAlertTrigger[]> {
  return query<LockedAlertTrigger>(
    `select id, code, application_id, threshold, window_seconds, fired_at from "${schema}".alert_triggers
     where account_id = $1 and (code = '*' or code = any($2::text[]))
       and (application_id is null or application_id = any($3::text[]))
     order by id for update`,
    [accountId, codes, applicationIds],
  );
}

/**
 * The count of the account's alerts matching a trigger in the minutes of its window ending with
 * the minute of `at` (a 1m window: that minute alone); read after the trigger is locked, so it sees
 * every alert committed before.
 */
export async function countWindowAlerts(
  query: TransactionQuery,
  schema: string,
  accountId: string,
  t: LockedAlertTrigger,
  at: string,
): Promise<{ count: number; windowStart: Date }> {
  const [row] = await query<{ count: number; window_start: Date }>(
    `select coalesce(sum(count), 0)::int as count,
       date_trunc('minute', $4::timestamptz) - make_interval(secs => $5::int - 60) as window_start
     from "${schema}".alerts
     where account_id = $1 and ($2 = '*' or code = $2) and ($3::text is null or application_id = $3)
       and minute > date_trunc('minute', $4::timestamptz) - make_interval(secs => $5::int)
       and minute <= date_trunc('minute', $4::timestamptz)`,
    [accountId, t.code, t.application_id, at, t.window_seconds],
  );
  return { count: row?.count ?? 0, windowStart: new Date(row?.window_start ?? at) };
}

/** Records that a trigger fired for an alert at `at`, in the caller's transaction. */
export async function markAlertTriggerFired(
  query: TransactionQuery,
  schema: string,
  id: string,
  at: string,
): Promise<void> {
  await query(`update "${schema}".alert_triggers set fired_at = $2, fired_count = fired_count + 1 where id = $1`, [
    id,
    at,
  ]);
}

/** A usage trigger whose usage of its current period reached its threshold, and has not fired in it. */
export interface DueUsageTrigger {
  seq: string;
  id: string;
  account_id: string;
  category: string;
  threshold: string;
  recurring: 'none' | 'daily' | 'monthly';
  period: string;
  usage: string;
}

/**
 * Up to `limit` usage triggers after `afterSeq` (in seq order) whose usage in the period that holds
 * `day` (the UTC day `day` for daily ones, its month for monthly ones, from the day of their
 * creation for the others, less the usage of that day before they were created) reached their
 * threshold, and that have not fired in that period or a later one.
 */
export function readDueUsageTriggers(
  em: EntityManager,
  schema: string,
  day: string,
  afterSeq: string,
  limit: number,
): Promise<DueUsageTrigger[]> {
  return sql<DueUsageTrigger>(
    em,
    `select t.seq::text as seq, t.id, t.account_id::text as account_id, t.category, t.threshold::text as threshold,
       t.recurring, to_char(p.start, 'YYYY-MM-DD') as period, u.total::text as usage
     from "${schema}".usage_triggers t
     cross join lateral (
       select case t.recurring
           when 'daily' then $1::date
           when 'monthly' then date_trunc('month', $1::date)::date
           else (t.created_at at time zone 'UTC')::date end as start,
         case t.recurring
           when 'daily' then $1::date + 1
           when 'monthly' then (date_trunc('month', $1::date) + interval '1 month')::date
           else 'infinity'::date end as stop
     ) p
     cross join lateral (
       select coalesce(sum(r.count), 0) - case when t.recurring = 'none' then t.baseline else 0 end as total
       from "${schema}".usage_rollups r
       where r.account_id = t.account_id and r.category = t.category and r.day >= p.start and r.day < p.stop
     ) u
     where t.seq > $2::bigint and (t.fired_period is null or t.fired_period < p.start) and u.total >= t.threshold
     order by t.seq limit $3`,
    [day, afterSeq, limit],
  );
}

/**
 * Records that a usage trigger fired in the period starting `period`, unless it fired in it (or a
 * later one) meanwhile or was deleted; answers whether it did now.
 */
export async function markUsageTriggerFired(
  query: TransactionQuery,
  schema: string,
  id: string,
  period: string,
): Promise<boolean> {
  const rows = await query(
    `update "${schema}".usage_triggers set fired_period = $2::date, fired_at = now()
     where id = $1 and (fired_period is null or fired_period < $2::date) returning id`,
    [id, period],
  );
  return rows.length > 0;
}

/** Deletes the alert triggers that watch a deleted application; answers how many. */
export async function deleteApplicationTriggers(
  em: EntityManager,
  schema: string,
  applicationId: string,
): Promise<number> {
  const rows = await sql(em, `delete from "${schema}".alert_triggers where application_id = $1 returning id`, [
    applicationId,
  ]);
  return rows.length;
}

/** Deletes every trigger of a deleted account, in the caller's transaction. */
export async function deleteAccountTriggers(em: EntityManager, schema: string, accountId: string): Promise<void> {
  await sql(em, `delete from "${schema}".alert_triggers where account_id = $1`, [accountId]);
  await sql(em, `delete from "${schema}".usage_triggers where account_id = $1`, [accountId]);
}
