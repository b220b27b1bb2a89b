import { decodeTimeCursor, encodeTimeCursor, pageAfter, pageSize } from '@switchboard/contracts';
import { ALERT_CODES, ALERT_SEVERITIES } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import type { Alert } from '@switchboard/proto/generated/switchboard/webhooks/v1/Alert';
import type { ListAlertsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListAlertsRequest';
import type { Deps } from '../context.ts';
import { time, type Field } from '../sessions/list-sessions.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { toMessage } from './mapper.ts';
import { listAlertRows, type AlertFilters } from './repository.ts';

/** The filters of a request; every one in error is named in one 400. */
function alertFilters(req: ListAlertsRequest__Output): AlertFilters {
  const errors: Field[] = [];
  if (req.code && !(ALERT_CODES as readonly string[]).includes(req.code))
    errors.push({ field: 'code', message: `must be one of ${ALERT_CODES.join(', ')}` });
  if (req.severity && !(ALERT_SEVERITIES as readonly string[]).includes(req.severity))
    errors.push({ field: 'severity', message: `must be one of ${ALERT_SEVERITIES.join(', ')}` });
  if (req.applicationId.length > 100)
    errors.push({ field: 'applicationId', message: 'must be at most 100 characters' });
  const since = time('since', req.since, errors);
  const until = time('until', req.until, errors);
  if (since && until && since >= until) errors.push({ field: 'until', message: 'must be after since' });
  if (errors.length > 0) throw AppError.invalid(errors);
  return {
    code: req.code || null,
    severity: req.severity || null,
    applicationId: req.applicationId || null,
    since,
    until,
  };
}

/** One page of the account's alerts, newest first, filtered. */
export async function listAlerts(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: ListAlertsRequest__Output,
): Promise<{ items: Alert[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const n = pageSize(req.limit);
  const filters = alertFilters(req);
  // A page position: the time and arrival order of the last alert of the page.
  const before = req.cursor ? decodeTimeCursor('a', req.cursor) : null;
  const rows = await listAlertRows(deps.orm.em, deps.schema, accountId, filters, before, n + 1);
  const page = pageAfter(rows, n, (last) => encodeTimeCursor('a', new Date(last.at), last.seq));
  return { items: page.items.map(toMessage), nextCursor: page.nextCursor };
}
