// The per-account budget of session launches (SESSION_LAUNCH_RATE_PER_ACCOUNT, a burst of
// SESSION_LAUNCH_BURST_PER_ACCOUNT): a token bucket kept in Postgres, so it holds for the account
// whatever token it launches with and whichever gateway or applications replica answers.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import type { TenantLimits } from '../context.ts';
import { takeLaunchToken } from './repository.ts';

/**
 * Takes one launch from the account's bucket, or throws 429 rate_limited with the seconds until
 * one is back. One statement: the row lock orders concurrent launches of the account.
 */
export async function takeLaunch(em: EntityManager, accountId: string, limits: TenantLimits): Promise<void> {
  const { launchesPerSecond: rate, launchBurst: burst } = limits;
  if (rate <= 0) return;
  const row = await takeLaunchToken(em, accountId, burst, rate);
  if (row?.granted) return;
  const waitS = (1 - Number(row?.tokens ?? 0)) / rate;
  throw new AppError(
    'rate_limited',
    `this account launches at most ${rate} sessions a second (bursts of ${burst}); try again shortly`,
    undefined,
    { retryAfterS: waitS },
  );
}
