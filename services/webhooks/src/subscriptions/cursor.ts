import { AppError } from '@switchboard/platform';

export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;

/** An opaque cursor: the internal sequence number of the last item of a page, with a kind tag. */
export function encodeCursor(kind: string, seq: string): string {
  return Buffer.from(`${kind}:${seq}`).toString('base64url');
}

export function decodeCursor(kind: string, cursor: string): string {
  const raw = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = new RegExp(`^${kind}:(\\d{1,18})$`).exec(raw);
  if (!m?.[1]) throw AppError.invalid([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
  return m[1];
}

/** 0 (unset) means the default; anything outside 1..1000 is refused. */
export function pageSize(limit: number): number {
  const n = limit === 0 ? LIST_DEFAULT : limit;
  if (!Number.isInteger(n) || n < 1 || n > LIST_MAX) throw AppError.invalid([{ field: 'limit', message: `must be between 1 and ${LIST_MAX}` }]);
  return n;
}
