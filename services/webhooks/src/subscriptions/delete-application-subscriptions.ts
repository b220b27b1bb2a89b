import type { Deps } from '../context.ts';
import { SubscriptionSchema } from '../db/entities.ts';
import { queueApplicationPurge, queueSubscriptionPurge } from '../deliveries/repository.ts';
import type { SubscriptionRef } from '../events/changes.ts';
import { buryApplication, limitScope, lockScope } from './repository.ts';

/**
 * The cascade of an application's deletion: its subscriptions and their secrets go, and their
 * delivery records and the application's session records are queued for the sweeper, in one
 * transaction. A tombstone, written under the same lock that creates take, keeps a create that was
 * already past its ownership check from adding a subscription to the deleted application
 * afterwards. Idempotent (events may be redelivered).
 */
export async function deleteApplicationSubscriptions(
  deps: Deps,
  req: { applicationId: string },
): Promise<SubscriptionRef[]> {
  const { applicationId } = req;
  const removed = await deps.orm.em.fork().transactional(async (em) => {
    await lockScope(em, limitScope('', applicationId));
    await buryApplication(em, deps.schema, applicationId);
    const subs = await em.find(SubscriptionSchema, { applicationId });
    const ids = subs.map((s) => s.id);
    if (ids.length > 0) await em.nativeDelete(SubscriptionSchema, { id: { $in: ids } });
    await queueSubscriptionPurge(em, deps.schema, ids);
    await queueApplicationPurge(em, deps.schema, applicationId);
    return subs.map((s) => ({ id: s.id, accountId: s.accountId, applicationId: s.applicationId }));
  });
  deps.sweeper.kick();
  deps.applications.forget(applicationId);
  for (const ref of removed) deps.changes.changed(ref);
  return removed;
}
