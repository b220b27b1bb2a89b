import type { GetSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetSubscriptionRequest';
import type { Deps } from '../context.ts';
import { readOwned, type SubscriptionView } from './repository.ts';

/** Any subscription of the account by id; on application-scoped paths it must belong to that application. */
export async function getSubscription(deps: Deps, req: GetSubscriptionRequest__Output): Promise<SubscriptionView> {
  // A raw prepared read on the pool (repository.ts): no identity map, so no per-call fork.
  return readOwned(deps.orm.em, req.accountId, req.id, req.applicationId || undefined);
}
