import { pageSize } from '@switchboard/contracts';
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

/** A page position: the time (ms) and arrival order of the last alert of the page. */
function encodeCursor(at: Date, seq: string): string {
  return Buffer.from(`a:${at.getTime()}:${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; seq: string } {
  const raw = /^[A-Za-z0-9_-]{1,60}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^a:(\d{1,15}):(\d{1,18})$/.exec(raw);
  if (!m?.[1] || !m[2]) throw AppError.invalid([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
  return { at: new Date(Number(m[1])), seq: m[2] };
}

/** One page of the account's alerts, newest first, filtered. */
export async function listAlerts(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: ListAlertsRequest__Output,
): Promise<{ items: Alert[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const n = pageSize(req.limit);
  const filters = alertFilters(req);
  const before = req.cursor ? decodeCursor(req.cursor) : null;
  const rows = await listAlertRows(deps.orm.em, deps.schema, accountId, filters, before, n + 1);
  const items = rows.slice(0, n);
  const last = items[items.length - 1];
  return {
    items: items.map(toMessage),
    nextCursor: rows.length > n && last ? encodeCursor(new Date(last.at), last.seq) : '',
  };
}
