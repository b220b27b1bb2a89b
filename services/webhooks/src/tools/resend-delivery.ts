import { AppError } from '@switchboard/platform';
import type { ResendDeliveryRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ResendDeliveryRequest';
import type { Deps, Traced } from '../context';
import { findOwnedDelivery } from '../deliveries/owned-delivery';
import { newDeliveryId } from '../subscriptions/ids';
import { takeToolBudget } from './account-tool-budget';

/**
 * Queues the message of one delivery attempt again, whatever its outcome: the same body bytes
 * under the same webhook-id, signed afresh, as one attempt (not retried) recorded as trigger
 * "resend". Answers the id of that attempt. The job is durable once queued (resend-relay.ts, then
 * JetStream). A subscription that is disabled, or a body no longer kept, is a 409; an account
 * over its RESENDS_PER_HOUR, a 429.
 */
export async function resendDelivery(deps: Deps, req: Traced<ResendDeliveryRequest__Output>): Promise<string> {
  const id = await deps.orm.em.fork().transactional(async (em) => {
    const d = await findOwnedDelivery(deps, em, req, req.requestId);
    if (!d) throw AppError.notFound('delivery');
    if (d.trigger === 'test') throw new AppError('conflict', 'a test send is not resent: send another test');
    if (d.kind === 'notification') {
      const [sub] = await em.execute<{ enabled: boolean }[]>(`select enabled from "${deps.schema}".subscriptions where id = ?`, [d.subscriptionId]);
      if (!sub?.enabled) throw new AppError('conflict', 'the subscription is disabled: enable it before resending');
    }
    const target = d.kind === 'notification' ? d.subscriptionId : d.applicationId;
    const [kept] = await em.execute(`select 1 from "${deps.schema}".delivery_bodies where message_id = ? and target = ?`, [d.messageId, target]);
    if (!kept) throw new AppError('conflict', 'the body of this delivery is no longer kept (past the retention period, or recorded before bodies were kept)');
    await takeToolBudget(em, deps.schema, req.accountId, 'resend', deps.toolLimits);
    const resendId = newDeliveryId();
    await em.execute(
      `insert into "${deps.schema}".resends (id, kind, subscription_id, application_id, account_id, message_id, event, original_seq, trigger)
       values (?, ?, ?, ?, ?, ?, ?, (select min(seq) from "${deps.schema}".deliveries where message_id = ?), 'resend')`,
      [resendId, d.kind, d.subscriptionId, d.applicationId, req.accountId, d.messageId, d.event, d.messageId],
    );
    return resendId;
  });
  deps.dispatchers.resendsQueued();
  return id;
}
