import { AppError } from '@switchboard/platform';
import type { GetSecretRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetSecretRequest';
import type { Deps } from '../context.ts';
import { SubscriptionSecretSchema } from '../db/entities.ts';
import { findOwned } from './repository.ts';

/** The current signing secret of a subscription of the account (docs/events.md#signatures). */
export async function getSecret(deps: Deps, req: GetSecretRequest__Output): Promise<string> {
  const em = deps.orm.em.fork();
  const sub = await findOwned(em, req.accountId, req.id);
  const row = await em.findOne(SubscriptionSecretSchema, { subscriptionId: sub.id });
  if (!row) throw new AppError('internal', `subscription ${sub.id} has no secret`);
  return deps.secrets.open(row.secret, sub.id);
}
