import type { Deps } from '../context';
import { DeliverySchema, SubscriptionSchema } from '../db/entities';
import type { SubscriptionRef } from '../events/changes';
import { limitScope, lockScope } from './repository';

/**
 * The cascade of an application's deletion: its subscriptions, their secrets and delivery records,
 * and its session delivery records go, in one transaction. A tombstone, written under the same
 * lock that creates take, keeps a create that was already past its ownership check from adding a
 * subscription to the deleted application afterwards. Idempotent (events may be redelivered).
 */
export async function deleteApplicationSubscriptions(deps: Deps, req: { applicationId: string }): Promise<SubscriptionRef[]> {
  const { applicationId } = req;
  const removed = await deps.orm.em.fork().transactional(async (em) => {
    await lockScope(em, limitScope('', applicationId));
    await em.execute(`insert into "${deps.schema}".deleted_applications (application_id) values (?) on conflict do nothing`, [applicationId]);
    const subs = await em.find(SubscriptionSchema, { applicationId });
    const ids = subs.map((s) => s.id);
    if (ids.length > 0) {
      await em.nativeDelete(DeliverySchema, { subscriptionId: { $in: ids } });
      await em.nativeDelete(SubscriptionSchema, { id: { $in: ids } });
    }
    await em.nativeDelete(DeliverySchema, { applicationId, kind: 'session' });
    return subs.map((s) => ({ id: s.id, accountId: s.accountId, applicationId: s.applicationId }));
  });
  deps.applications.forget(applicationId);
  for (const ref of removed) deps.changes.changed(ref);
  return removed;
}

