// The SQL of usage (docs/data-access.md): usage_rollups, one row per account, category, UTC day and
// application ('' for none), added to in the transaction that stores what it counts, read by
// GET /v1/usage and the usage triggers' pass, pruned after USAGE_RETENTION_DAYS.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';
import type { TransactionQuery } from '@switchboard/db';
import type { UsageIncrement } from './counts.ts';

/** Adds increments (in key order: sortIncrements) to the rollups, in the caller's transaction. */
export async function addUsage(query: TransactionQuery, schema: string, rows: UsageIncrement[]): Promise<void> {
  if (rows.length === 0) return;
  await query(
    `insert into "${schema}".usage_rollups as u (account_id, application_id, category, day, count)
     select * from unnest($1::bigint[], $2::text[], $3::text[], $4::date[], $5::bigint[])
     on conflict (account_id, category, day, application_id) do update set count = u.count + excluded.count`,
    [
      rows.map((r) => r.accountId),
      rows.map((r) => r.applicationId),
      rows.map((r) => r.category),
      rows.map((r) => r.day),
      rows.map((r) => r.count),
    ],
  );
}

/** A period's count as read: its first day (YYYY-MM-DD) and the sum. */
export interface UsageRow {
  start: string;
  count: string;
}

/**
 * The account's usage of a category per period (`day` or `month`) over the days [since, until),
 * of one application when given; periods without usage are left out.
 */
export function readUsage(
  em: EntityManager,
  schema: string,
  q: {
    accountId: string;
    category: string;
    period: 'day' | 'month';
    since: string;
    until: string;
    applicationId: string | null;
  },
): Promise<UsageRow[]> {
  return sql<UsageRow>(
    em,
    `select to_char(date_trunc($3, day::timestamp), 'YYYY-MM-DD') as start, sum(count)::text as count
     from "${schema}".usage_rollups
     where account_id = $1 and category = $2 and day >= $4::date and day < $5::date
       and ($6::text is null or application_id = $6)
     group by 1 order by 1`,
    [q.accountId, q.category, q.period, q.since, q.until, q.applicationId],
  );
}

/** The account's usage of a category on the day `day`: the baseline of a trigger created now. */
export async function usageOfDay(
  em: EntityManager,
  schema: string,
  accountId: string,
  category: string,
  day: string,
): Promise<string> {
  const [row] = await sql<{ n: string }>(
    em,
    `select coalesce(sum(count), 0)::text as n from "${schema}".usage_rollups
     where account_id = $1 and category = $2 and day = $3::date`,
    [accountId, category, day],
  );
  return row?.n ?? '0';
}

/** The first day (YYYY-MM-DD) kept by a retention of `days` days: today is the last of them. */
export function usageCutoff(days: number, now = new Date()): string {
  return new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** Deletes the rollups of days before `before` (YYYY-MM-DD); answers the rows deleted. */
export async function pruneUsage(em: EntityManager, schema: string, before: string): Promise<number> {
  const [row] = await sql<{ n: number }>(
    em,
    `with d as (delete from "${schema}".usage_rollups where day < $1::date returning 1) select count(*)::int as n from d`,
    [before],
  );
  return row?.n ?? 0;
}

/** Deletes a deleted account's rollups, in the caller's transaction. */
export async function deleteAccountUsage(em: EntityManager, schema: string, accountId: string): Promise<void> {
  await sql(em, `delete from "${schema}".usage_rollups where account_id = $1`, [accountId]);
}
