// The per-account budget of session launches (SESSION_LAUNCH_RATE_PER_ACCOUNT, a burst of
// SESSION_LAUNCH_BURST_PER_ACCOUNT): a token bucket kept in Postgres, so it holds for the account
// whatever token it launches with and whichever gateway or applications replica answers.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, queryPrepared } from '@switchboard/platform';
import type { TenantLimits } from '../context';

/**
 * Takes one launch from the account's bucket, or throws 429 rate_limited with the seconds until
 * one is back. One statement: the row lock orders concurrent launches of the account.
 */
export async function takeLaunch(em: EntityManager, accountId: string, limits: TenantLimits): Promise<void> {
  const { launchesPerSecond: rate, launchBurst: burst } = limits;
  if (rate <= 0) return;
  const s = `"${em.config.get('schema')}"`;
  // Refilled tokens: what was left plus the time since, at the rate, up to the burst.
  const refilled = `least($2::float8, b.tokens + greatest(0, extract(epoch from (clock_timestamp() - b.updated_at)))::float8 * $3::float8)`;
  const [row] = await queryPrepared<{ granted: boolean; tokens: number }>(
    em.getConnection().getKnex(),
    `insert into ${s}.session_launch_budgets as b (account_id, tokens, granted, updated_at) values ($1, $2::float8 - 1, true, clock_timestamp())
     on conflict (account_id) do update set
       granted = ${refilled} >= 1,
       tokens = ${refilled} - case when ${refilled} >= 1 then 1 else 0 end,
       updated_at = clock_timestamp()
     returning granted, tokens`,
    [accountId, burst, rate],
  );
  if (row?.granted) return;
  const waitS = (1 - Number(row?.tokens ?? 0)) / rate;
  throw new AppError('rate_limited', `this account launches at most ${rate} sessions a second (bursts of ${burst}); try again shortly`, undefined, { retryAfterS: waitS });
}
