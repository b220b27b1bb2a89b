import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/platform';
import type { Application } from '../db/entities';
import { readPage } from './repository';

export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;

export function encodeCursor(seq: string): string {
  return Buffer.from(`a:${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const raw = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^a:(\d{1,18})$/.exec(raw);
  if (!m?.[1]) throw AppError.invalid([{ field: 'cursor', message: 'is not a cursor this API returned' }]);
  return m[1];
}

/** One page of the account's applications in creation order; nextCursor is empty on the last page. */
export async function listApplications(
  em: EntityManager,
  accountId: string,
  limit: number,
  cursor: string,
): Promise<{ items: Application[]; nextCursor: string }> {
  const n = limit === 0 ? LIST_DEFAULT : limit;
  if (!Number.isInteger(n) || n < 1 || n > LIST_MAX) throw AppError.invalid([{ field: 'limit', message: `must be between 1 and ${LIST_MAX}` }]);
  const after = cursor ? decodeCursor(cursor) : undefined;
  const rows = await readPage(em, accountId, after, n + 1);
  const items = rows.slice(0, n);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > n && last ? encodeCursor(last.seq) : '' };
}
