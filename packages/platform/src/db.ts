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

/** What `queryPrepared` needs of a knex instance (MikroORM's `em.getConnection().getKnex()`): its pool. */
export interface PooledClient {
  client: { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): unknown };
}

const statementNames = new Map<string, string>();

/**
 * Runs one read on a connection of the ORM's own pool as a named prepared statement: Postgres
 * parses and plans it once per connection, and no query is built or formatted per call. For the
 * hot read paths; parameters are `$1`, `$2`, ... The set of distinct texts must stay small (each
 * is prepared on every pooled connection).
 */
export async function queryPrepared<R>(pool: PooledClient, text: string, values: unknown[]): Promise<R[]> {
  let name = statementNames.get(text);
  if (!name) {
    name = `sb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  const connection = (await pool.client.acquireConnection()) as pg.ClientBase;
  try {
    return (await connection.query({ name, text, values })).rows as R[];
  } finally {
    await pool.client.releaseConnection(connection);
  }
}
