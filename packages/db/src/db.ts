import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Creates the database named in `url` when it does not exist yet (first start on a new machine).
 * Concurrent callers are fine: a lost race answers "already exists" (or a unique violation), which is success.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    // 42P04: it exists. 23505: another process created it at the same moment (Postgres checks the
    // catalogue's unique index before the name), e.g. two services starting on a new machine.
    const code = (err as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * What `queryPrepared` and `transactionPrepared` need of a connection pool: a `pg` Pool (the ORM's own,
 * from `em.getConnection().getNativeClient()`), or anything that hands out pooled `pg` clients.
 */
export interface PooledClient {
  connect(): Promise<pg.PoolClient>;
}

const statementNames = new Map<string, string>();

/** The name a statement text is prepared under (the same on every connection). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `sb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** Runs one statement on a connection as a named prepared statement. */
async function runPrepared<R>(connection: pg.ClientBase, text: string, values: unknown[]): Promise<R[]> {
  return (await connection.query({ name: statementName(text), text, values })).rows as R[];
}

/**
 * Runs one statement on a connection of the pool as a named prepared statement: Postgres parses
 * and plans it once per connection, and no query is built or formatted per call. For the hot paths
 * (reads, single-statement writes); parameters are `$1`, `$2`, ... The set of distinct texts must
 * stay small (each is prepared on every pooled connection).
 */
export async function queryPrepared<R>(pool: PooledClient, text: string, values: unknown[]): Promise<R[]> {
  const connection = await pool.connect();
  try {
    return await runPrepared<R>(connection, text, values);
  } finally {
    connection.release();
  }
}

/** Runs a prepared statement inside the transaction of transactionPrepared. */
export type TransactionQuery = <R>(text: string, values: unknown[]) => Promise<R[]>;

/**
 * A transaction on one connection of the pool, its statements prepared as in queryPrepared, for
 * the hot write paths: `opening` (which must begin with BEGIN, and may add parameterless
 * statements such as a lock, sent in the same round trip), then `work`, then COMMIT; ROLLBACK when
 * `work` throws. No unit of work and no query building: two round trips plus one per statement.
 */
export async function transactionPrepared<T>(
  pool: PooledClient,
  opening: string,
  work: (query: TransactionQuery) => Promise<T>,
): Promise<T> {
  if (!/^begin\b/i.test(opening)) throw new Error('a transaction opens with BEGIN');
  const connection = await pool.connect();
  // Set when the connection cannot even roll back: released with it, the pool closes the
  // connection instead of handing it out again.
  let broken: Error | undefined;
  try {
    await connection.query(opening);
    const result = await work((text, values) => runPrepared(connection, text, values));
    await connection.query('commit');
    return result;
  } catch (err) {
    // Whatever failed (opening, work or commit), nothing of it stays open (ROLLBACK outside a
    // transaction only warns).
    await connection.query('rollback').catch((rollbackErr: unknown) => {
      broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
    });
    throw err;
  } finally {
    connection.release(broken);
  }
}
