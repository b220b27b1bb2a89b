import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/platform';
import { SubscriptionSchema, type Subscription } from '../db/entities';
import { isAccountId, isSubscriptionId } from './ids';

/** SPEC 8. */
export const MAX_ACCOUNT_LEVEL = 10;
export const MAX_PER_APPLICATION = 10;
/** First key of the advisory locks that serialise creates within one limit scope. */
const LIMIT_LOCK_CLASS = 0x5742;

/** The account id of an internal request; the gateway always sends the authenticated one. */
export function requireAccount(accountId: string): string {
  if (!isAccountId(accountId)) throw AppError.invalid([{ field: 'accountId', message: 'is required' }]);
  return accountId;
}

/**
 * The subscription with this id owned by this account (and, when given, attached to this
 * application). Anything else, including another account's subscription, is "not found".
 */
export async function findOwned(em: EntityManager, accountId: string, id: string, applicationId?: string): Promise<Subscription> {
  requireAccount(accountId);
  if (!isSubscriptionId(id)) throw AppError.notFound('webhook');
  const sub = await em.findOne(SubscriptionSchema, { id, accountId });
  if (!sub || (applicationId && sub.applicationId !== applicationId)) throw AppError.notFound('webhook');
  return sub;
}

/** The scope a limit of SPEC 8 counts in: the account's account-level subscriptions, or one application's. */
export function limitScope(accountId: string, applicationId: string | null): string {
  return applicationId ? `app:${applicationId}` : `account:${accountId}`;
}

/**
 * Takes the transaction-level advisory lock of a limit scope: creates (and the deletion cascade)
 * in one scope run one at a time, so count-then-insert cannot overshoot, across any number of replicas.
 */
export async function lockScope(em: EntityManager, scope: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(?::int, hashtext(?))', [LIMIT_LOCK_CLASS, scope]);
}
