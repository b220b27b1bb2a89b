import { AppError } from '@switchboard/errors';
import type { GetDeliveryTargetRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetDeliveryTargetRequest';
import type { Deps } from '../context.ts';
import { SubscriptionSecretSchema } from '../db/entities.ts';
import { toMatch, type Match } from './match-subscriptions.ts';
import { findOwned } from './repository.ts';
import { cancelledRecoveries } from '../tools/repository.ts';

/**
 * One subscription of the account as the dispatcher sends to it (target, secrets, headers),
 * enabled or not: for test sends and resends, which name their subscription instead of matching
 * an event.
 */
export async function getDeliveryTarget(deps: Deps, req: GetDeliveryTargetRequest__Output): Promise<Match> {
  const em = deps.orm.em.fork();
  const subscription = await findOwned(em, req.accountId, req.subscriptionId);
  const k = await em.findOne(SubscriptionSecretSchema, { subscriptionId: subscription.id });
  if (!k) throw AppError.notFound('webhook');
  return {
    ...toMatch(deps, subscription, k),
    cancelledRecoveries: await cancelledRecoveries(em, deps.schema, subscription.id),
  };
}
