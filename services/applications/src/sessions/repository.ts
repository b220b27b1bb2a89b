// The per-account token buckets of session launches (table session_launch_budgets).
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';

/**
 * Takes one token from the account's bucket (created full, holding `burst`, refilled at `rate` a
 * second) in one statement: the row lock orders concurrent launches of the account. Answers whether
 * a token was granted and what is left.
 */
export async function takeLaunchToken(
  em: EntityManager,
  accountId: string,
  burst: number,
  rate: number,
): Promise<{ granted: boolean; tokens: number } | undefined> {
  const s = `"${em.config.get('schema')}"`;
  // Refilled tokens: what was left plus the time since, at the rate, up to the burst.
  const refilled = `least($2::float8, b.tokens + greatest(0, extract(epoch from (clock_timestamp() - b.updated_at)))::float8 * $3::float8)`;
  const [row] = await sql<{ granted: boolean; tokens: number }>(
    em,
    `insert into ${s}.session_launch_budgets as b (account_id, tokens, granted, updated_at) values ($1, $2::float8 - 1, true, clock_timestamp())
     on conflict (account_id) do update set
       granted = ${refilled} >= 1,
       tokens = ${refilled} - case when ${refilled} >= 1 then 1 else 0 end,
       updated_at = clock_timestamp()
     returning granted, tokens`,
    [accountId, burst, rate],
  );
  return row;
}

/**
 * Drops the launch budgets untouched for a day: refilled to their burst long since, which is what a
 * missing row means to takeLaunchToken. The table then holds only the accounts that launched lately.
 */
export async function pruneLaunchBudgets(em: EntityManager): Promise<number> {
  const rows = await sql(
    em,
    `delete from "${em.config.get('schema')}".session_launch_budgets where updated_at < now() - interval '1 day' returning 1`,
  );
  return rows.length;
}
