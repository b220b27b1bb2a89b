import type { MikroORM } from '@mikro-orm/postgresql';
import type { AuditContext } from '@switchboard/platform';
import type { RecordAuditEventRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/RecordAuditEventRequest';
import { USERNAME } from '../accounts/rules.ts';
import { AccountSchema } from '../db/entities.ts';
import { recordAlone } from './repository.ts';

/** Records a failed sign-in of the named account (nothing when there is no such account). */
export async function recordAuditEvent(
  deps: { orm: MikroORM },
  req: RecordAuditEventRequest__Output,
  audit: AuditContext | undefined,
): Promise<void> {
  if (!USERNAME.test(req.username)) return;
  const account = await deps.orm.em.fork().findOne(AccountSchema, { username: req.username });
  if (!account) return;
  // The actor is the account's password, which the sign-in presented.
  const actor = { type: 'password' as const, id: account.id, name: account.username };
  await recordAlone(
    deps.orm.em,
    {
      accountId: account.id,
      action: req.action || 'session.sign-in',
      target: '',
      outcome: req.outcome === 'success' ? 'success' : 'failure',
    },
    { ip: audit?.ip ?? '', requestId: audit?.requestId ?? '', actor },
  );
}
