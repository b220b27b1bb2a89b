import type { MikroORM } from '@mikro-orm/postgresql';
import { AUDIT_FAILURE_WINDOW_MS, type AuditActor, type AuditContext } from '@switchboard/db';
import type { RecordAuditEventRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/RecordAuditEventRequest';
import { USERNAME } from '../accounts/rules.ts';
import { KEY_ID_FORMAT } from '../api-keys/keys.ts';
import { readKeyById } from '../api-keys/repository.ts';
import { AccountSchema } from '../db/entities.ts';
import { recordUnlessRecent } from './repository.ts';

/**
 * Records a failed sign-in with the password of the named account, or with the named API key (the
 * key id of Basic authentication), in that account's log: nothing when there is no such account or
 * key, and nothing when the same failure (account, credential, action, client address) was recorded
 * in the last AUDIT_FAILURE_WINDOW_MS, so repeated guesses add at most one entry a minute.
 */
export async function recordAuditEvent(
  deps: { orm: MikroORM },
  req: RecordAuditEventRequest__Output,
  audit: AuditContext | undefined,
): Promise<void> {
  const em = deps.orm.em.fork();
  let accountId: string;
  let actor: AuditActor;
  let target = '';
  if (req.keyId) {
    const key = KEY_ID_FORMAT.test(req.keyId) ? await readKeyById(em, req.keyId) : undefined;
    if (!key) return;
    accountId = key.account_id;
    actor = { type: 'key', id: key.id, name: key.name };
    target = `/v1/api-keys/${key.id}`;
  } else {
    if (!USERNAME.test(req.username)) return;
    const account = await em.findOne(AccountSchema, { username: req.username });
    if (!account) return;
    accountId = account.id;
    // The actor is the account's password, which the sign-in presented.
    actor = { type: 'password', id: account.id, name: account.username };
  }
  await recordUnlessRecent(
    em,
    {
      accountId,
      action: req.action || 'session.sign-in',
      target,
      outcome: req.outcome === 'success' ? 'success' : 'failure',
    },
    { ip: audit?.ip ?? '', requestId: audit?.requestId ?? '', actor },
    AUDIT_FAILURE_WINDOW_MS,
  );
}
