import type { DeleteSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeleteSubscriptionRequest';
import type { Deps, Traced } from '../context';
import { DeliverySchema, SubscriptionSchema } from '../db/entities';
import type { SubscriptionRef } from '../events/changes';
import { findOwned } from './repository';

/**
 * Deletes a subscription with its secrets (foreign key cascade) and its delivery records, in one
 * transaction: nothing of a deleted subscription stays readable or billable to storage.
 */
export async function deleteSubscription(deps: Deps, req: Traced<DeleteSubscriptionRequest__Output>): Promise<void> {
  const ref = await deps.orm.em.fork().transactional(async (em): Promise<SubscriptionRef> => {
    const s = await findOwned(em, req.accountId, req.id, req.applicationId || undefined);
    await em.nativeDelete(DeliverySchema, { subscriptionId: s.id });
    await em.nativeDelete(SubscriptionSchema, { id: s.id });
    return { id: s.id, accountId: String(s.accountId), applicationId: s.applicationId };
  });
  deps.changes.changed(ref, req.requestId);
}
