import type { FieldError } from '@switchboard/platform';
import type { ListSubscriptionsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListSubscriptionsRequest';
import type { Deps } from '../context';
import { SubscriptionSchema, type Subscription } from '../db/entities';
import { decodeCursor, encodeCursor, pageSize } from './cursor';
import { requireAccount } from './repository';
import { ALL, checkEvent, normaliseResource, throwIfAny } from './rules';

/**
 * One page of the account-level subscriptions of the account (no application id) or of one
 * application's subscriptions (which must belong to the account), in creation order. Filters:
 * `event`, and `resource` (subscriptions whose list contains any of the given resources, or `all`).
 */
export async function listSubscriptions(
  deps: Deps,
  req: ListSubscriptionsRequest__Output,
  requestId?: string,
): Promise<{ items: Subscription[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  let n = 0;
  try {
    n = pageSize(req.limit);
  } catch {
    errors.push({ field: 'limit', message: 'must be between 1 and 1000' });
  }
  const event = req.event ? checkEvent(req.event, errors) : undefined;
  const resource = req.resource ? normaliseResource(req.resource, errors) : undefined;
  throwIfAny(errors);
  const after = req.cursor ? decodeCursor('w', req.cursor) : undefined;
  const applicationId = req.applicationId || null;
  if (applicationId) await deps.applications.assertOwned(accountId, applicationId, requestId);

  const qb = deps.orm.em
    .fork()
    .createQueryBuilder(SubscriptionSchema, 's')
    .select('*')
    .where(applicationId ? { applicationId, accountId } : { accountId, applicationId: null })
    .orderBy({ seq: 'asc' })
    .limit(n + 1);
  if (after) qb.andWhere({ seq: { $gt: after } });
  if (event) qb.andWhere({ event });
  if (resource) {
    const wanted = resource === ALL ? [ALL] : [...resource.split(','), ALL];
    qb.andWhere(`string_to_array(s.resource, ',') && array[${wanted.map(() => '?').join(', ')}]::text[]`, wanted);
  }
  const rows = await qb.getResultList();
  const items = rows.slice(0, n);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > n && last ? encodeCursor('w', last.seq) : '' };
}
