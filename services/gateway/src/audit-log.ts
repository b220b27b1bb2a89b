// The account's audit log as GET /v1/audit-events reads it: each service that owns changes keeps
// the entries of its own changes (docs/decisions/0006-audit-log.md), and one page of the log is
// the newest entries of all of them, merged newest first. The cursor carries one position per
// service, so every entry comes exactly once however the pages fall.
import { AUDIT_CURSOR_KIND, encodeCursor } from '@switchboard/contracts';
import { AppError } from '@switchboard/errors';
import type { AuditEventMessage } from '@switchboard/proto';

/** One service's pages: `cursor` is the service's own ('' from its newest entry). */
export type AuditPageReader = (
  limit: number,
  cursor: string,
) => Promise<{ events: AuditEventMessage[]; nextCursor: string }>;

/** An entry with the index of the service that wrote it. */
export interface SourcedAuditEvent {
  source: number;
  event: AuditEventMessage;
}

/** Where a service's next page starts: '' its newest entry, an entry id after that entry, END read to its end. */
type Position = string;
const END = '-';
const TAG = 'audit:';
const POSITION = /^(\d{1,18}|-|)$/;

function encodePositions(positions: Position[]): string {
  return Buffer.from(`${TAG}${positions.join('.')}`).toString('base64url');
}

/** The positions in a cursor this API returned for `count` services; anything else is a 400. */
function decodePositions(cursor: string, count: number): Position[] {
  const raw = /^[A-Za-z0-9_-]{1,120}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const positions = raw.startsWith(TAG) ? raw.slice(TAG.length).split('.') : [];
  if (positions.length !== count || !positions.every((p) => POSITION.test(p)))
    throw AppError.invalid([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
  return positions;
}

/**
 * Whether the head entry `a` of one service comes before the head entry `b` of another: the newer
 * `at` first (ISO 8601 UTC text of one width: compared as text), the first service on a tie. Each
 * service answers its own entries in order, newest first.
 */
function before(a: SourcedAuditEvent, b: SourcedAuditEvent): boolean {
  if (a.event.at !== b.event.at) return a.event.at > b.event.at;
  return a.source < b.source;
}

/**
 * Up to `limit` entries of the log after `cursor` (the merged cursor; '' from the newest), newest
 * first, and the cursor of the next page ('' when every service has been read to its end). Each
 * service is asked for `limit` entries from its own position; a service that fails fails the
 * page (its half of the log is never left out silently).
 */
export async function readMergedAuditPage(
  readers: readonly AuditPageReader[],
  limit: number,
  cursor: string,
): Promise<{ items: SourcedAuditEvent[]; nextCursor: string }> {
  const positions = cursor ? decodePositions(cursor, readers.length) : readers.map(() => '');
  const pages = await Promise.all(
    readers.map((read, i) => {
      const at = positions[i]!;
      if (at === END) return { events: [], nextCursor: '' };
      return read(limit, at ? encodeCursor(AUDIT_CURSOR_KIND, at) : '');
    }),
  );
  const taken = pages.map(() => 0);
  const items: SourcedAuditEvent[] = [];
  while (items.length < limit) {
    let next: SourcedAuditEvent | undefined;
    pages.forEach((page, source) => {
      const event = page.events[taken[source]!];
      if (event && (!next || before({ source, event }, next))) next = { source, event };
    });
    if (!next) break;
    taken[next.source]!++;
    items.push(next);
  }
  const after = pages.map((page, i) => {
    const n = taken[i]!;
    if (positions[i] === END || (n === page.events.length && !page.nextCursor)) return END;
    return n > 0 ? page.events[n - 1]!.id : positions[i]!;
  });
  return { items, nextCursor: after.every((p) => p === END) ? '' : encodePositions(after) };
}
