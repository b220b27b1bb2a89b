import { AppError } from '@switchboard/platform';
import type { ListDeliveriesRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListDeliveriesRequest';
import type { Deps } from '../context.ts';
import { DeliverySchema, type Delivery } from '../db/entities.ts';
import { decodeCursor, encodeCursor, pageSize } from '../subscriptions/cursor.ts';
import { findOwned, requireAccount } from '../subscriptions/repository.ts';

/**
 * One page of delivery attempts, newest first: of one subscription of the account (either level),
 * or the session deliveries of one application of the account.
 */
export async function listDeliveries(
  deps: Deps,
  req: ListDeliveriesRequest__Output,
  requestId?: string,
): Promise<{ items: Delivery[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  if (Boolean(req.subscriptionId) === Boolean(req.applicationId)) {
    throw AppError.invalid([
      { field: 'subscriptionId', message: 'exactly one of subscriptionId or applicationId must be given' },
    ]);
  }
  const n = pageSize(req.limit);
  const before = req.cursor ? decodeCursor('d', req.cursor) : undefined;
  const em = deps.orm.em.fork();
  let where: Record<string, unknown>;
  if (req.subscriptionId) {
    const sub = await findOwned(em, accountId, req.subscriptionId);
    where = { subscriptionId: sub.id };
  } else {
    await deps.applications.assertOwned(accountId, req.applicationId, requestId);
    where = { applicationId: req.applicationId, kind: 'session' };
  }
  if (before) where.seq = { $lt: before };
  const rows = await em.find(DeliverySchema, where, { orderBy: { seq: 'desc' }, limit: n + 1 });
  const items = rows.slice(0, n);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > n && last ? encodeCursor('d', last.seq) : '' };
}
