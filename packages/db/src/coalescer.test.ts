// Reads asked for together against a real Postgres: queryCoalesced answers each call as the
// statement alone would, in one statement when several calls come in the same turn.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/infra';
import { queryCoalesced } from './coalescer';
import type { PooledClient } from './db';

describe('queryCoalesced', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const statements: string[] = [];
  const counted = new WeakSet<object>();
  const pooled: PooledClient = {
    connect: async () => {
      const c = await pool.connect();
      if (counted.has(c)) return c;
      counted.add(c);
      const query = c.query.bind(c) as (q: unknown, ...rest: unknown[]) => unknown;
      // Counts the statements sent (named prepared statements carry their text).
      (c as unknown as { query: unknown }).query = (q: unknown, ...rest: unknown[]) => {
        if (typeof q === 'object' && q && 'text' in q) statements.push((q as { text: string }).text);
        return query(q, ...rest);
      };
      return c;
    },
  };
  const PAGE =
    'select seq::text, account_id::text as account, name from items where account_id = $1 and seq > $2 order by items.seq limit $3';
  const TYPES = ['bigint', 'bigint', 'int'];
  const page = (account: string, after: string, limit: number) =>
    queryCoalesced<{ seq: string; account: string; name: string }>(pooled, PAGE, TYPES, [account, after, limit]);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await pool.query('create table items (seq bigserial primary key, account_id bigint not null, name text not null)');
    // Accounts 1-3 with 5, 3 and 0 items, interleaved; a large account id.
    await pool.query(
      `insert into items (account_id, name) select a, 'item ' || a || '-' || g from generate_series(1, 5) g, (values (1), (2)) v(a) where a = 1 or g <= 3 order by g, a`,
    );
    await pool.query(`insert into items (account_id, name) values (9007199254740993, 'big')`);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('when pages are asked for together, then one statement answers them and each gets the rows, order and limit it would get alone', async () => {
    const asks: [string, string, number][] = [
      ['1', '0', 3],
      ['2', '0', 10],
      ['1', '0', 10],
      ['3', '0', 5],
      ['1', '4', 2],
      ['9007199254740993', '0', 1],
    ];
    const alone: unknown[] = [];
    for (const ask of asks) alone.push(await page(...ask));
    statements.length = 0;
    const together = await Promise.all(asks.map((ask) => page(...ask)));
    expect(statements).toHaveLength(1);
    expect(together.map((rows) => rows.map(({ seq, account, name }) => ({ seq, account, name })))).toEqual(alone);
    expect(together[0]!.map((r) => r.name)).toEqual(['item 1-1', 'item 1-2', 'item 1-3']);
    expect(together[1]).toHaveLength(3);
    expect(together[3]).toEqual([]);
    expect(together[5]!.map((r) => r.account)).toEqual(['9007199254740993']);
  });

  it('when a page is asked for alone, then the statement itself runs', async () => {
    statements.length = 0;
    expect((await page('2', '0', 2)).map((r) => r.name)).toEqual(['item 2-1', 'item 2-2']);
    expect(statements).toEqual([PAGE]);
  });

  it('when the statement fails, then every call asked for together fails with it', async () => {
    const bad = (account: string) =>
      queryCoalesced(pooled, 'select * from missing_table where account_id = $1', ['bigint'], [account]);
    const results = await Promise.allSettled([bad('1'), bad('2')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
