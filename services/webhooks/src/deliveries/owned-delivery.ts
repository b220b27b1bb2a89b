// The delivery attempt a request names, under the scope it names it in: a subscription of the
// account (either level), or the session deliveries of one application of the account. Anything
// else, another account's included, is "not found".
import type { EntityManager } from '@mikro-orm/postgresql';
import { isDeliveryId } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import type { Deps } from '../context.ts';
import { DeliverySchema, type Delivery } from '../db/entities.ts';
import { findOwned, requireAccount } from '../subscriptions/repository.ts';

export interface DeliveryScope {
  accountId: string;
  subscriptionId: string;
  applicationId: string;
}

/** Checks the scope (404 when not the account's); answers the filter of its deliveries. */
export async function ownedScope(
  deps: Deps,
  em: EntityManager,
  s: DeliveryScope,
  requestId?: string,
): Promise<{ subscriptionId: string; ordered?: boolean } | { applicationId: string; kind: 'session' }> {
  const accountId = requireAccount(s.accountId);
  if (Boolean(s.subscriptionId) === Boolean(s.applicationId)) {
    throw AppError.invalid([
      { field: 'subscriptionId', message: 'exactly one of subscriptionId or applicationId must be given' },
    ]);
  }
  if (s.subscriptionId) {
    const sub = await findOwned(em, accountId, s.subscriptionId);
    return { subscriptionId: sub.id, ...(sub.settings?.ordering ? { ordered: true } : {}) };
  }
  await deps.applications.assertOwned(accountId, s.applicationId, requestId);
  return { applicationId: s.applicationId, kind: 'session' };
}

/** The attempt with this id in the scope, or undefined. */
export async function findOwnedDelivery(
  deps: Deps,
  em: EntityManager,
  s: DeliveryScope & { deliveryId: string },
  requestId?: string,
): Promise<Delivery | undefined> {
  const scope = await ownedScope(deps, em, s, requestId);
  if (!isDeliveryId(s.deliveryId)) return undefined;
  // The scope's columns only (not whether the subscription is ordered).
  const where = 'subscriptionId' in scope ? { subscriptionId: scope.subscriptionId } : scope;
  return (await em.findOne(DeliverySchema, { ...where, id: s.deliveryId }, { populate: RESPONSE_FIELDS })) ?? undefined;
}

/** The lazy fields of a record that only one record's view reads: the receiver's response. */
const RESPONSE_FIELDS = ['responseContentType', 'responseExcerpt'] as const;

/** The account's attempt with this id, whatever its subscription or application, or undefined. */
export async function findAccountDelivery(
  em: EntityManager,
  accountId: string,
  deliveryId: string,
): Promise<Delivery | undefined> {
  if (!isDeliveryId(deliveryId)) return undefined;
  return (await em.findOne(DeliverySchema, { id: deliveryId, accountId }, { populate: RESPONSE_FIELDS })) ?? undefined;
}
