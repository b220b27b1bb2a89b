import type { Deps } from '../context';
import type { Subscription } from '../db/entities';
import { readOwned } from './read';

/** Any subscription of the account by id; on application-scoped paths it must belong to that application. */
export async function getSubscription(deps: Deps, accountId: string, id: string, applicationId: string): Promise<Subscription> {
  // A raw prepared read on the pool (read.ts): no identity map, so no per-call fork.
  return readOwned(deps.orm.em, accountId, id, applicationId || undefined);
}
