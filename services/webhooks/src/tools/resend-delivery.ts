import { recordAlone } from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { ResendDeliveryRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ResendDeliveryRequest';
import type { Deps, Traced } from '../context.ts';
import { findOwnedDelivery } from '../deliveries/owned-delivery.ts';
import { newDeliveryId } from '../subscriptions/ids.ts';
import { webhookPath } from '../subscriptions/repository.ts';
import { insertResend, isBodyKept, isSubscriptionEnabled } from './repository.ts';
import { takeToolBudget } from './account-tool-budget.ts';

/**
 * Queues the message of one delivery attempt again, whatever its outcome: the same body bytes
 * under the same webhook-id, signed afresh, as one attempt (not retried) recorded as trigger
 * "resend". Answers the id of that attempt. The job is durable once queued (resend-relay.ts, then
 * JetStream). A subscription that is disabled, or a body no longer kept, is a 409; an account
 * over its RESENDS_PER_HOUR, a 429. The audit entry is written in the transaction that queues it.
 */
export async function resendDelivery(
  deps: Deps,
  req: Traced<ResendDeliveryRequest__Output>,
  audit?: AuditContext,
): Promise<string> {
  const id = await deps.orm.em.fork().transactional(async (em) => {
    const d = await findOwnedDelivery(deps, em, req, req.requestId);
    if (!d) throw AppError.notFound('delivery');
    if (d.trigger === 'test') throw new AppError('conflict', 'a test send is not resent: send another test');
    if (d.kind === 'notification') {
      if (!(await isSubscriptionEnabled(em, deps.schema, d.subscriptionId!)))
        throw new AppError('conflict', 'the subscription is disabled: enable it before resending');
    }
    const target = d.kind === 'notification' ? d.subscriptionId : d.applicationId;
    if (!(await isBodyKept(em, deps.schema, d.messageId, target!)))
      throw new AppError(
        'conflict',
        'the body of this delivery is no longer kept (past the retention period, or recorded before bodies were kept)',
      );
    await takeToolBudget(em, deps.schema, req.accountId, 'resend', deps.toolLimits);
    const resendId = newDeliveryId();
    await insertResend(em, deps.schema, {
      id: resendId,
      kind: d.kind,
      subscriptionId: d.subscriptionId,
      applicationId: d.applicationId,
      accountId: req.accountId,
      messageId: d.messageId,
      event: d.event,
    });
    await recordAlone(
      em,
      {
        accountId: req.accountId,
        action: 'delivery.resend',
        target:
          d.kind === 'notification'
            ? `${webhookPath(d.subscriptionId!)}/deliveries/${resendId}`
            : `/v1/applications/${d.applicationId}/deliveries/${resendId}`,
        outcome: 'success',
      },
      audit,
    );
    return resendId;
  });
  deps.dispatchers.resendsQueued();
  return id;
}
