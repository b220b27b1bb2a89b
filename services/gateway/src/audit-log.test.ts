import { decodeCursor } from '@switchboard/contracts';
import type { AuditEventMessage } from '@switchboard/proto';
import { describe, expect, it } from 'vitest';
import { readMergedAuditPage, type AuditPageReader } from './audit-log';

/** A service's log as ListAuditEvents pages it: entries newest first, the cursor after the last one of a page. */
function service(ats: number[], calls: string[] = []): AuditPageReader {
  const events: AuditEventMessage[] = ats
    .map((t, i) => ({ id: String(i + 1), at: new Date(Date.UTC(2026, 0, 1) + t).toISOString() }) as AuditEventMessage)
    .reverse();
  return async (limit, cursor) => {
    calls.push(cursor);
    const after = cursor ? events.findIndex((e) => Number(e.id) < Number(decodeCursor('e', cursor))) : 0;
    const rest = after < 0 ? [] : events.slice(after);
    const page = rest.slice(0, limit);
    return {
      events: page,
      nextCursor: rest.length > limit ? Buffer.from(`e:${page[page.length - 1]!.id}`).toString('base64url') : '',
    };
  };
}

async function readAll(readers: AuditPageReader[], limit: number): Promise<string[]> {
  const out: string[] = [];
  let cursor = '';
  do {
    const page = await readMergedAuditPage(readers, limit, cursor);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    if (page.nextCursor) expect(page.items).toHaveLength(limit);
    out.push(...page.items.map((i) => `${i.source}:${i.event.id}`));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

describe('readMergedAuditPage', () => {
  it('when two services have interleaved entries, then every page size reads each entry once, newest first', async () => {
    const a = [1, 4, 5, 9, 10, 11, 20];
    const b = [2, 3, 6, 7, 8, 12, 13, 14, 15];
    const expected = [...a.map((t, i) => ({ t, k: `0:${i + 1}` })), ...b.map((t, i) => ({ t, k: `1:${i + 1}` }))]
      .sort((x, y) => y.t - x.t)
      .map((x) => x.k);
    for (const limit of [1, 2, 3, 4, 7, 16, 17, 100])
      expect(await readAll([service(a), service(b)], limit)).toEqual(expected);
  });

  it('when entries of both services share a time, then the first service comes first', async () => {
    expect(await readAll([service([5]), service([5])], 1)).toEqual(['0:1', '1:1']);
  });

  it('when one service has been read to its end, then the next pages do not ask it again; an empty log has no next page', async () => {
    const calls: string[] = [];
    const readers = [service([100], calls), service([1, 2, 3, 4])];
    const first = await readMergedAuditPage(readers, 2, '');
    expect(first.items.map((i) => i.source)).toEqual([0, 1]);
    await readMergedAuditPage(readers, 2, first.nextCursor);
    expect(calls).toEqual(['']);
    expect(await readMergedAuditPage([service([]), service([])], 5, '')).toEqual({ items: [], nextCursor: '' });
  });

  it('when the cursor is not one this API returned, then 400', async () => {
    const readers = [service([1]), service([2])];
    for (const cursor of [
      'bm9wZQ',
      Buffer.from('audit:1').toString('base64url'),
      Buffer.from('audit:x.1').toString('base64url'),
      '!!',
    ])
      await expect(readMergedAuditPage(readers, 2, cursor)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('when a service fails, then the page fails', async () => {
    const down: AuditPageReader = async () => {
      throw new Error('unavailable');
    };
    await expect(readMergedAuditPage([service([1]), down], 2, '')).rejects.toThrow('unavailable');
  });
});
