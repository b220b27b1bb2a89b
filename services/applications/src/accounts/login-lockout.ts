// The lockout of a username after failed logins, counted in Postgres so that it holds across every
// gateway replica (each also keeps its own in memory, which answers most guesses without a call).
// After `maxFailures` consecutive failures the account is locked for `lockoutMs`, doubling with
// every further failure up to 15 minutes; during it a check is refused before the KDF runs, except
// the gateway's re-verification of the credential it last verified (`priority`: the owner's, so a
// brute force never locks the owner's running integration out). One row per account that failed
// lately (login_lockouts): bounded by the accounts, gone with the account, reset by a success
// outside a lockout.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';
import { AppError } from '@switchboard/errors';

export interface LoginLockout {
  maxFailures: number;
  lockoutMs: number;
}

const MAX_LOCKOUT_MS = 15 * 60 * 1000;
const schemaOf = (em: EntityManager) => `"${em.config.get('schema')}"`;

/** Refuses (429 + Retry-After) a check of this account's password while it is locked out. */
export async function checkLockout(em: EntityManager, accountId: string): Promise<void> {
  const [row] = await sql<{ wait_ms: number }>(
    em,
    `select extract(epoch from (locked_until - now())) * 1000 as wait_ms from ${schemaOf(em)}.login_lockouts
     where account_id = $1 and locked_until > now()`,
    [accountId],
  );
  if (!row) return;
  const seconds = Math.max(1, Math.ceil(Number(row.wait_ms) / 1000));
  throw new AppError('rate_limited', `too many failed logins for this user; try again in ${seconds} s`, undefined, {
    retryAfterS: seconds,
  });
}

/** Counts a failed check of the account's password, locking it once there are `maxFailures`. */
export async function recordLoginFailure(em: EntityManager, accountId: string, o: LoginLockout): Promise<void> {
  // The lockout of the n-th failure: lockoutMs * 2^(n - maxFailures), at most 15 minutes.
  const lockedUntil = (n: string) =>
    `case when ${n} >= $2 then now() + make_interval(secs => least($3 * power(2, least(${n} - $2, 10)), $4) / 1000) end`;
  await sql(
    em,
    `insert into ${schemaOf(em)}.login_lockouts as l (account_id, failures, locked_until)
     values ($1, 1, ${lockedUntil('1')})
     on conflict (account_id) do update set failures = l.failures + 1,
       locked_until = coalesce(${lockedUntil('(l.failures + 1)')}, l.locked_until)`,
    [accountId, o.maxFailures, o.lockoutMs, MAX_LOCKOUT_MS],
  );
}

/** A success resets the count, but not a lockout in force (the owner getting through hands the guesser nothing). */
export async function recordLoginSuccess(em: EntityManager, accountId: string): Promise<void> {
  await sql(
    em,
    `delete from ${schemaOf(em)}.login_lockouts where account_id = $1 and (locked_until is null or locked_until <= now())`,
    [accountId],
  );
}
