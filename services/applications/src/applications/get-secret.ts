import { secretAuditEntry, type AuditContext } from '@switchboard/db';
import { recordAlone } from '../audit/repository.ts';
import type { GetApplicationSecretRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetApplicationSecretRequest';
import type { Deps } from '../context.ts';
import { applicationPath, readOwned } from './repository.ts';
import { readSigningSecrets } from './secret-store.ts';

/** The current session signing secret of an application of the account; any other id is "not found". */
export async function getApplicationSecret(
  deps: Deps,
  req: GetApplicationSecretRequest__Output,
  audit?: AuditContext,
): Promise<string> {
  // Raw prepared reads on the pool (repository.ts, secret-store.ts): no per-call fork.
  const app = await readOwned(deps.orm.em, req.accountId, req.id);
  const [current] = await readSigningSecrets(deps.orm.em, deps.secrets, app.id);
  // A read changes nothing: its entry is written before the secret is answered, and no entry, no secret.
  await recordAlone(
    deps.orm.em,
    secretAuditEntry(app.accountId, 'application.secret.read', applicationPath(app.id)),
    audit,
  );
  return current!;
}
