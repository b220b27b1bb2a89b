import { AppError } from '@switchboard/platform';
import { decodeCursor, pageSize, toPage } from '@switchboard/contracts';
import type { ListAuditEventsRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListAuditEventsRequest';
import type { AuditEvent as Message } from '@switchboard/proto/generated/switchboard/applications/v1/AuditEvent';
import type { MikroORM } from '@mikro-orm/postgresql';
import { readAuditPage, toMessage } from './repository.ts';

const ACCOUNT_ID = /^\d{1,18}$/;

/** One page of the account's audit log, newest first, filtered by action, actor and time. */
export async function listAuditEvents(
  deps: { orm: MikroORM },
  req: ListAuditEventsRequest__Output,
): Promise<{ events: Message[]; nextCursor: string }> {
  const n = pageSize(req.limit);
  const before = req.cursor ? decodeCursor('e', req.cursor) : undefined;
  const errors = [];
  for (const field of ['since', 'until'] as const) {
    if (req[field] && Number.isNaN(Date.parse(req[field])))
      errors.push({ field, message: 'must be an ISO 8601 date-time' });
  }
  if (errors.length) throw AppError.invalid(errors);
  if (!ACCOUNT_ID.test(req.accountId)) return { events: [], nextCursor: '' };
  const page = toPage(await readAuditPage(deps.orm.em, req.accountId, before, n + 1, req), n, 'e');
  return { events: page.items.map(toMessage), nextCursor: page.nextCursor };
}
