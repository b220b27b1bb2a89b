import { LockMode } from '@mikro-orm/core';
import { AppError } from '@switchboard/errors';
import { recordAlone, secretAuditEntry, type AuditContext } from '@switchboard/db';
import type { RotateSecretRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/RotateSecretRequest';
import type { Deps, Traced } from '../context.ts';
import { SubscriptionSecretSchema } from '../db/entities.ts';
import { newSecret } from './ids.ts';
import { findOwned, webhookPath } from './repository.ts';

/** How long the secret before a rotation keeps signing alongside the new one (docs/events.md#signatures). */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/**
 * Replaces the signing secret. The old one stays valid for 24 h: during that time deliveries carry
 * signatures with both, so receivers can switch without losing messages. Only the secret replaced
 * by this rotation is kept as "previous"; an older one is dropped. The audit entry is written in
 * the rotation's transaction.
 */
export async function rotateSecret(
  deps: Deps,
  req: Traced<RotateSecretRequest__Output>,
  audit?: AuditContext,
): Promise<string> {
  const secret = newSecret();
  const sub = await deps.orm.em.fork().transactional(async (em) => {
    const s = await findOwned(em, req.accountId, req.id);
    // Lock the row: two rotations at once must not both keep the same "previous".
    const row = await em.findOne(
      SubscriptionSecretSchema,
      { subscriptionId: s.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!row) throw new AppError('internal', `subscription ${s.id} has no secret`);
    const now = new Date();
    row.previousSecret = row.secret;
    row.previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS);
    row.secret = deps.secrets.seal(secret, s.id);
    row.rotatedAt = now;
    await recordAlone(em, secretAuditEntry(s.accountId, 'webhook.secret.rotate', webhookPath(s.id)), audit);
    return s;
  });
  deps.changes.changed(sub, req.requestId);
  return secret;
}
