import { deleteAccountAnswers, deleteAccountAudit } from '@switchboard/db';
import type { Deps } from '../context.ts';
import { SubscriptionSchema } from '../db/entities.ts';
import { queueSubscriptionPurge } from '../deliveries/repository.ts';
import type { SubscriptionRef } from '../events/changes.ts';
import { deleteAccountTriggers, lockTriggers } from '../triggers/repository.ts';
import { deleteAccountUsage } from '../usage/repository.ts';
import { buryAccount, limitScope, lockScope } from './repository.ts';

/**
 * The cascade of an account's deletion: all its subscriptions (account level, and any application
 * level one whose applications.deleted has not been handled yet) and their secrets go, and their
 * delivery records are queued for the sweeper, in one transaction. A tombstone written under the
 * lock that account-level creates take keeps a create in flight from adding one afterwards. The
 * stored answers of the account's idempotent requests, its audit entries, its alert and usage
 * triggers and its usage counts go too.
 * Idempotent (events may be redelivered).
 */
export async function deleteAccountSubscriptions(deps: Deps, req: { accountId: string }): Promise<SubscriptionRef[]> {
  const { accountId } = req;
  const removed = await deps.orm.em.fork().transactional(async (em) => {
    await lockScope(em, limitScope(accountId, null));
    await buryAccount(em, deps.schema, accountId);
    const subs = await em.find(SubscriptionSchema, { accountId });
    const ids = subs.map((s) => s.id);
    if (ids.length > 0) await em.nativeDelete(SubscriptionSchema, { id: { $in: ids } });
    await queueSubscriptionPurge(em, deps.schema, ids);
    await deleteAccountAnswers(em, accountId);
    await deleteAccountAudit(em, accountId);
    // Under the locks the triggers' creates take: a create in flight commits first, or sees the tombstone.
    await lockTriggers(em, 'alert', accountId);
    await lockTriggers(em, 'usage', accountId);
    await deleteAccountTriggers(em, deps.schema, accountId);
    await deleteAccountUsage(em, deps.schema, accountId);
    return subs.map((s) => ({ id: s.id, accountId: String(s.accountId), applicationId: s.applicationId }));
  });
  deps.sweeper.kick();
  for (const ref of removed) deps.changes.changed(ref);
  return removed;
}
