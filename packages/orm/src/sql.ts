// The ORM's own `pg` pool, as @switchboard/platform's prepared-statement helpers (queryPrepared,
// transactionPrepared, readOwnedRow, queryCoalesced) take it: MikroORM's public connection API
// (`getNativeClient`), no driver internals.
import type { PooledClient } from '@switchboard/platform';
import type { EntityManager } from '@mikro-orm/postgresql';

const pools = new WeakMap<object, PooledClient>();

/** The pool behind `em`'s connection (the same object for every fork, so callers may key caches by it). */
export function poolOf(em: EntityManager): PooledClient {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = { connect: async () => (await connection.getNativeClient()).connect() };
    pools.set(connection, pool);
  }
  return pool;
}
