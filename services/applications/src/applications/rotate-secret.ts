import { secretAuditEntry, type AuditContext } from '@switchboard/db';
import { auditWithFlush } from '../audit/repository.ts';
import { SUBJECTS } from '@switchboard/events';
import type { RotateApplicationSecretRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/RotateApplicationSecretRequest';
import type { Deps } from '../context.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import { applicationPath, findOwned } from './repository.ts';
import { replaceSecret } from './secret-store.ts';

/**
 * Gives an application of the account a new session signing secret; the previous one keeps signing
 * for 24 h. applications.changed is announced in the same transaction, so caches of the secrets
 * (the dispatcher's) drop the old entry.
 */
export async function rotateApplicationSecret(
  deps: Deps,
  req: RotateApplicationSecretRequest__Output,
  audit?: AuditContext,
): Promise<string> {
  const secret = await deps.orm.em.fork().transactional(async (em) => {
    const app = await findOwned(em, req.accountId, req.id);
    const s = await replaceSecret(em, deps.secrets, app.id);
    enqueueEvent(em, SUBJECTS.applicationChanged, { applicationId: app.id, accountId: app.accountId });
    auditWithFlush(em, secretAuditEntry(app.accountId, 'application.secret.rotate', applicationPath(app.id)), audit);
    return s;
  });
  deps.outbox.kick();
  return secret;
}
