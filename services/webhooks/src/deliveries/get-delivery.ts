import { AppError } from '@switchboard/errors';
import type { GetDeliveryRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetDeliveryRequest';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Delivery as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/Delivery';
import type { SentBody } from '@switchboard/proto/generated/switchboard/webhooks/v1/SentBody';
import type { Deps } from '../context.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { findAccountDelivery, findOwnedDelivery, ownedScope } from './owned-delivery.ts';
import { toMessage } from './mapper.ts';
import { shownBody } from './bodies.ts';
import { findKeptBody, findPendingResend } from './repository.ts';

/**
 * One delivery attempt of the scope (a subscription, an application's sessions, or neither: any
 * record of the account), with the body it sent (while kept) and the receiver's response excerpt; a resend that is queued and not yet attempted reads as an
 * attempt with outcome "pending" (its id is the id the attempt will be recorded under).
 */
export async function getDelivery(deps: Deps, req: GetDeliveryRequest__Output, requestId?: string): Promise<Message> {
  const em = deps.orm.em.fork();
  const anyOfAccount = !req.subscriptionId && !req.applicationId;
  const found = anyOfAccount
    ? await findAccountDelivery(em, requireAccount(req.accountId), req.deliveryId)
    : await findOwnedDelivery(deps, em, req, requestId);
  if (found) {
    const request = await sentBody(em, deps.schema, found.messageId, found.subscriptionId ?? found.applicationId);
    return request ? { ...toMessage(found, true), request } : toMessage(found, true);
  }
  const scope = anyOfAccount
    ? { accountId: requireAccount(req.accountId) }
    : await ownedScope(deps, em, req, requestId);
  const pending = await findPendingResend(em, deps.schema, req.deliveryId, scope);
  if (!pending) throw AppError.notFound('delivery');
  const request = await sentBody(
    em,
    deps.schema,
    pending.message_id,
    pending.subscription_id ?? pending.application_id,
  );
  return {
    id: pending.id,
    messageId: pending.message_id,
    kind: pending.kind,
    subscriptionId: pending.subscription_id ?? '',
    applicationId: pending.application_id ?? '',
    accountId: pending.account_id,
    event: pending.event,
    targetUrl: '',
    attempt: 1,
    statusCode: 0,
    durationMs: 0,
    outcome: 'pending',
    trigger: pending.trigger,
    createdAt: new Date(pending.created_at).toISOString(),
    ...(request ? { request } : {}),
  };
}

/**
 * The body every attempt of a message to its target sends (the same bytes on each, kept for
 * resends), as one record's view shows it; undefined once it is no longer kept.
 */
async function sentBody(
  em: EntityManager,
  schema: string,
  messageId: string,
  target: string | null,
): Promise<SentBody | undefined> {
  if (!target) return undefined;
  const stored = await findKeptBody(em, schema, messageId, target);
  return stored ? shownBody(stored) : undefined;
}
