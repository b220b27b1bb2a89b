import type { Deps } from '../context';
import type { Subscription } from '../db/entities';
import { readOwned } from './read';

/** Any subscription of the account by id; on application-scoped paths it must belong to that application. */
export async function getSubscription(deps: Deps, accountId: string, id: string, applicationId: string): Promise<Subscription> {
  return readOwned(deps.orm.em.fork(), accountId, id, applicationId || undefined);
}
