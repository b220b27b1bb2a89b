import type { EntityManager } from '@mikro-orm/postgresql';
import { SUBJECTS, type SecretBox } from '@switchboard/platform';
import { enqueueEvent } from '../outbox/outbox';
import { findOwned } from './repository';
import { replaceSecret } from './secret-store';

/**
 * Gives an application of the account a new session signing secret; the previous one keeps signing
 * for 24 h. applications.changed is announced in the same transaction, so caches of the secrets
 * (the dispatcher's) drop the old entry.
 */
export async function rotateApplicationSecret(em: EntityManager, box: SecretBox, accountId: string, id: string): Promise<string> {
  return em.transactional(async (tx) => {
    const app = await findOwned(tx, accountId, id);
    const secret = await replaceSecret(tx, box, app.id);
    enqueueEvent(tx, SUBJECTS.applicationChanged, { applicationId: app.id, accountId: app.accountId });
    return secret;
  });
}
