import type { MikroORM } from '@mikro-orm/postgresql';
import { listAuditEvents as listPage, type AuditEventMessage } from '@switchboard/db';
import type { ListAuditEventsRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListAuditEventsRequest';

/** One page of the account's audit log, newest first, filtered by action, actor and time. */
export function listAuditEvents(
  deps: { orm: MikroORM },
  req: ListAuditEventsRequest__Output,
): Promise<{ events: AuditEventMessage[]; nextCursor: string }> {
  return listPage(deps.orm.em, req);
}
