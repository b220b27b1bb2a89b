import { decodeTimeCursor, encodeTimeCursor, pageAfter, pageSize } from '@switchboard/contracts';
import { AppError } from '@switchboard/errors';
import type { ListSessionsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListSessionsRequest';
import type { SessionRecord } from '@switchboard/proto/generated/switchboard/webhooks/v1/SessionRecord';
import type { Deps } from '../context.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { toMessage } from './mapper.ts';
import { listSessionRows, type SessionFilters } from './repository.ts';

const OUTCOMES = ['answered', 'fallback', 'failed'];
const CHANNELS = ['VOICE', 'TEXT'];

export type Field = { field: string; message: string };

export function time(field: string, v: string, errors: Field[]): Date | null {
  if (!v) return null;
  // A date (midnight UTC), or a time with its offset: a time without one would be read in the server's zone.
  const d = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/i.test(v) ? new Date(v) : new Date(Number.NaN);
  if (Number.isNaN(d.getTime())) {
    errors.push({ field, message: 'must be an ISO 8601 date, or time with its offset (2026-01-05T10:00:00Z)' });
    return null;
  }
  return d;
}

/** The filters of a request; every one in error is named in one 400. */
export function sessionFilters(req: ListSessionsRequest__Output): SessionFilters {
  const errors: Field[] = [];
  if (req.outcome && !OUTCOMES.includes(req.outcome))
    errors.push({ field: 'outcome', message: `must be one of ${OUTCOMES.join(', ')}` });
  const channel = req.channel ? req.channel.toUpperCase() : '';
  if (channel && !CHANNELS.includes(channel))
    errors.push({ field: 'channel', message: `must be one of ${CHANNELS.join(', ')}` });
  if (req.from.length > 1000) errors.push({ field: 'from', message: 'must be at most 1000 characters' });
  const since = time('since', req.since, errors);
  const until = time('until', req.until, errors);
  if (since && until && since >= until) errors.push({ field: 'until', message: 'must be after since' });
  if (errors.length > 0) throw AppError.invalid(errors);
  return { outcome: req.outcome || null, channel: channel || null, since, until, from: req.from || null };
}

/** One page of an application's sessions, newest first, filtered; another account's application is not found. */
export async function listSessions(
  deps: Deps,
  req: ListSessionsRequest__Output,
  requestId?: string,
): Promise<{ items: SessionRecord[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const n = pageSize(req.limit);
  const filters = sessionFilters(req);
  // A page position: the start time and arrival order of the last session of the page.
  const before = req.cursor ? decodeTimeCursor('s', req.cursor) : null;
  await deps.applications.assertOwned(accountId, req.applicationId, requestId);
  const rows = await listSessionRows(deps.orm.em, deps.schema, accountId, req.applicationId, filters, before, n + 1);
  const page = pageAfter(rows, n, (last) => encodeTimeCursor('s', new Date(last.started_at), last.seq));
  return { items: page.items.map(toMessage), nextCursor: page.nextCursor };
}
