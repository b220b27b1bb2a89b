// The transaction shared by the creates of alert and usage triggers (create-alert-trigger.ts,
// create-usage-trigger.ts): the account's limit holds under any concurrency.
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAlone, type AuditContext } from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import type { Deps } from '../context.ts';
import { accountDeleted, lockTriggers, readTriggers, type TriggerRows } from './repository.ts';

/**
 * Stores a new trigger of `kind` in one transaction under the account's trigger lock: a deleted
 * account is a 404; `insert` makes its checks (the count of the account's triggers among them) and
 * creates the entity; then the audit entry `<kind>-trigger.create` of `target`. Answers the stored
 * trigger as the API reads it.
 */
export async function storeTrigger<K extends keyof TriggerRows>(
  deps: Pick<Deps, 'orm' | 'schema'>,
  kind: K,
  accountId: string,
  id: string,
  target: string,
  audit: AuditContext | undefined,
  insert: (em: EntityManager) => Promise<void>,
): Promise<TriggerRows[K]> {
  await deps.orm.em.fork().transactional(async (em) => {
    await lockTriggers(em, kind, accountId);
    if (await accountDeleted(em, deps.schema, accountId)) throw AppError.notFound('account');
    await insert(em);
    await em.flush();
    await recordAlone(em, { accountId, action: `${kind}-trigger.create`, target, outcome: 'success' }, audit);
  });
  const [row] = await readTriggers(deps.orm.em, deps.schema, kind, accountId, { id });
  return row!;
}
