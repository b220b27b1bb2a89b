import type { FieldError } from '@switchboard/errors';
import { decodeCursor, LIST_MAX, pageSize, toPage } from '@switchboard/contracts';
import type { ListSubscriptionsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListSubscriptionsRequest';
import type { Subscription as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/Subscription';
import type { Deps, Traced } from '../context.ts';
import { listMessage } from './mapper.ts';
import { readPage, requireAccount } from './repository.ts';
import { ALL, checkEvent, normaliseResource, throwIfAny } from './rules.ts';

/**
 * One page of the account-level subscriptions of the account (no application id) or of one
 * application's subscriptions (which must belong to the account), in creation order. Filters:
 * `event`, and `resource` (subscriptions whose list contains any of the given resources, or `all`).
 * Each row read becomes its message directly (listMessage).
 */
export async function listSubscriptions(
  deps: Deps,
  req: Traced<ListSubscriptionsRequest__Output>,
): Promise<{ items: Message[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  let n = 0;
  try {
    n = pageSize(req.limit);
  } catch {
    errors.push({ field: 'limit', message: `must be between 1 and ${LIST_MAX}` });
  }
  const event = req.event ? checkEvent(req.event, errors) : undefined;
  const resource = req.resource ? normaliseResource(req.resource, errors) : undefined;
  throwIfAny(errors);
  const after = req.cursor ? decodeCursor('w', req.cursor) : undefined;
  const applicationId = req.applicationId || null;
  if (applicationId) await deps.applications.assertOwned(accountId, applicationId, req.requestId);

  const rows = await readPage(deps.orm.em, {
    accountId,
    applicationId,
    ...(after ? { afterSeq: after } : {}),
    ...(event ? { event } : {}),
    ...(resource ? { resources: resource === ALL ? [ALL] : [...resource.split(','), ALL] } : {}),
    limit: n + 1,
  });
  const page = toPage(rows, n, 'w');
  return { items: page.items.map((r) => listMessage(r, accountId)), nextCursor: page.nextCursor };
}
