// The stored answers of the idempotency store (packages/db/src/idempotency.ts) that belong to
// one account, removed with it: in the caller's transaction when there is one.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from './sql.ts';

export async function deleteAccountAnswers(em: EntityManager, accountId: string): Promise<void> {
  await sql(em, `delete from "${em.config.get('schema')}".idempotency_keys where account_id = $1`, [accountId]);
}
