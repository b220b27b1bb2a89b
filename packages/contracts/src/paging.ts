// Paging of every list of the API, defined once for the services (gRPC `limit`/`cursor`) and the
// gateway (`?limit=`/`?cursor=`, `Link: rel="next"`).
import { AppError } from '@switchboard/errors';

/** Most items one page holds: the largest `limit` a client may ask for. */
export const LIST_MAX = 1000;
/** Items of a page when a gRPC request leaves `limit` at 0. */
export const PAGE_DEFAULT = 100;
/**
 * Most items a list requested without `?limit` holds: the gateway reads pages of LIST_MAX until
 * the end or this many items, and links to the rest with `Link: rel="next"`.
 */
export const LIST_UNPAGED_MAX = 10_000;

/** An opaque cursor: the internal sequence number of the last item of a page, with a tag of its list. */
export function encodeCursor(kind: string, seq: string): string {
  return Buffer.from(`${kind}:${seq}`).toString('base64url');
}

/** The sequence number in a cursor this API returned for the list `kind`; anything else is a 400. */
export function decodeCursor(kind: string, cursor: string): string {
  const raw = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = new RegExp(`^${kind}:(\\d{1,18})$`).exec(raw);
  if (!m?.[1]) throw AppError.invalid([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
  return m[1];
}

/** The page size of a gRPC list request: 0 (unset) means PAGE_DEFAULT; anything outside 1..LIST_MAX is a 400. */
export function pageSize(limit: number): number {
  const n = limit === 0 ? PAGE_DEFAULT : limit;
  if (!Number.isInteger(n) || n < 1 || n > LIST_MAX)
    throw AppError.invalid([{ field: 'limit', message: `must be between 1 and ${LIST_MAX}` }]);
  return n;
}

/**
 * A page from up to n + 1 rows read in list order: the first n, and the cursor after the last of
 * them when there was one more (empty on the last page).
 */
export function toPage<T extends { seq: string }>(
  rows: readonly T[],
  n: number,
  kind: string,
): { items: T[]; nextCursor: string } {
  return pageAfter(rows, n, (last) => encodeCursor(kind, last.seq));
}

/** As toPage, for a list whose cursor `cursorAfter` makes from the last item of the page. */
export function pageAfter<T>(
  rows: readonly T[],
  n: number,
  cursorAfter: (last: T) => string,
): { items: T[]; nextCursor: string } {
  const items = rows.slice(0, n);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > n && last ? cursorAfter(last) : '' };
}

/**
 * An opaque cursor of a list ordered newest first by a time, then by arrival: the time (ms) and
 * the sequence number of the last item of a page, with a tag of its list.
 */
export function encodeTimeCursor(kind: string, at: Date, seq: string): string {
  return Buffer.from(`${kind}:${at.getTime()}:${seq}`).toString('base64url');
}

/** The position in a cursor encodeTimeCursor made for the list `kind`; anything else is a 400. */
export function decodeTimeCursor(kind: string, cursor: string): { at: Date; seq: string } {
  const raw = /^[A-Za-z0-9_-]{1,60}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = new RegExp(`^${kind}:(\\d{1,15}):(\\d{1,18})$`).exec(raw);
  if (!m?.[1] || !m[2]) throw AppError.invalid([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
  return { at: new Date(Number(m[1])), seq: m[2] };
}

/** The cursor tag of a service's audit page (ListAuditEvents): the cursor holds the id of its page's last entry. */
export const AUDIT_CURSOR_KIND = 'e';
