import { recordAlone } from '@switchboard/db';
import type { AuditContext } from '@switchboard/db';
import type { DeleteSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeleteSubscriptionRequest';
import type { Deps, Traced } from '../context.ts';
import { SubscriptionSchema } from '../db/entities.ts';
import { queueSubscriptionPurge } from '../deliveries/repository.ts';
import type { SubscriptionRef } from '../events/changes.ts';
import { findOwned, webhookPath } from './repository.ts';

/**
 * Deletes a subscription with its secrets (foreign key cascade) and queues its delivery records
 * for deletion, in one transaction: the answer comes at once however many records it has, and
 * nothing of it stays readable (the records are reached only through it); the sweeper deletes the
 * records in batches in the background (deliveries/sweep-deliveries.ts). The audit entry is
 * written in the same transaction.
 */
export async function deleteSubscription(
  deps: Deps,
  req: Traced<DeleteSubscriptionRequest__Output>,
  audit?: AuditContext,
): Promise<void> {
  const ref = await deps.orm.em.fork().transactional(async (em): Promise<SubscriptionRef> => {
    const s = await findOwned(em, req.accountId, req.id, req.applicationId || undefined);
    await em.nativeDelete(SubscriptionSchema, { id: s.id });
    await queueSubscriptionPurge(em, deps.schema, [s.id]);
    await recordAlone(
      em,
      { accountId: s.accountId, action: 'webhook.delete', target: webhookPath(s.id), outcome: 'success' },
      audit,
    );
    return { id: s.id, accountId: String(s.accountId), applicationId: s.applicationId };
  });
  deps.sweeper.kick();
  deps.changes.changed(ref, req.requestId);
}
