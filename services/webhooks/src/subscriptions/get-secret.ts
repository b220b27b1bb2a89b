import { AppError } from '@switchboard/errors';
import { recordAlone, secretAuditEntry, type AuditContext } from '@switchboard/db';
import type { GetSecretRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetSecretRequest';
import type { Deps } from '../context.ts';
import { SubscriptionSecretSchema } from '../db/entities.ts';
import { findOwned, webhookPath } from './repository.ts';

/**
 * The current signing secret of a subscription of the account (docs/events.md#signatures). A read
 * changes nothing: its audit entry is written before the secret is answered; no entry, no secret.
 */
export async function getSecret(deps: Deps, req: GetSecretRequest__Output, audit?: AuditContext): Promise<string> {
  const em = deps.orm.em.fork();
  const sub = await findOwned(em, req.accountId, req.id);
  const row = await em.findOne(SubscriptionSecretSchema, { subscriptionId: sub.id });
  if (!row) throw new AppError('internal', `subscription ${sub.id} has no secret`);
  const secret = deps.secrets.open(row.secret, sub.id);
  await recordAlone(em, secretAuditEntry(sub.accountId, 'webhook.secret.read', webhookPath(sub.id)), audit);
  return secret;
}
