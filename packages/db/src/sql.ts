// The one way raw SQL runs in the services (docs/data-access.md): `sql` for a statement and
// `sqlTransaction` for a transaction of statements, both with `$1, $2, ...` parameters sent to
// Postgres as bind values, both on the ORM's own `pg` pool (MikroORM's public connection API,
// `getNativeClient`). Outside a transaction each statement is a named prepared statement, planned
// once per pooled connection (the hot reads and writes); inside the unit of work's transaction
// (em.transactional) the statement joins that transaction.
import { CompiledQuery, type ControlledTransaction } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared, transactionPrepared, type PooledClient, type TransactionQuery } from './db.ts';

const pools = new WeakMap<object, PooledClient>();

/**
 * The pool behind `em`'s connection, as the prepared-statement helpers of db.ts take it
 * (readOwnedRow, queryCoalesced, IdempotencyStore). The same object for every fork of an
 * EntityManager, so callers may key caches by it.
 */
export function poolOf(em: EntityManager): PooledClient {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = { connect: async () => (await connection.getNativeClient()).connect() };
    pools.set(connection, pool);
  }
  return pool;
}

/**
 * Runs one statement and answers its rows. In `em`'s transaction when it is inside one (so the
 * statement commits or rolls back with the entity changes), otherwise as a named prepared
 * statement on a pooled connection: keep the set of distinct texts small (pass lists as array
 * parameters, `= any($1::text[])`, never as a varying number of placeholders).
 */
export async function sql<R = Record<string, unknown>>(
  em: EntityManager,
  text: string,
  values: readonly unknown[] = [],
): Promise<R[]> {
  const trx = em.getTransactionContext<ControlledTransaction<unknown>>();
  if (trx) return (await trx.executeQuery<R>(CompiledQuery.raw(text, values as unknown[]))).rows as R[];
  return queryPrepared<R>(poolOf(em), text, values as unknown[]);
}

/**
 * A transaction of prepared statements on one pooled connection, outside the unit of work: for the
 * hot write paths and background rounds. `opening` begins with BEGIN (and may add parameterless
 * statements such as a lock); see transactionPrepared.
 */
export function sqlTransaction<T>(
  em: EntityManager,
  opening: string,
  work: (query: TransactionQuery) => Promise<T>,
): Promise<T> {
  return transactionPrepared(poolOf(em), opening, work);
}
