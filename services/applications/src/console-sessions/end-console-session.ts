import type { AuditContext } from '@switchboard/db';
import type { EndConsoleSessionRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/EndConsoleSessionRequest';
import { keyedHash } from '../api-keys/keys.ts';
import type { SessionDeps } from './deps.ts';
import { deleteSession } from './repository.ts';

/** Ends a browser session (sign-out); ending one that is gone already is no error. */
export async function endConsoleSession(
  deps: SessionDeps,
  req: EndConsoleSessionRequest__Output,
  audit?: AuditContext,
): Promise<void> {
  await deleteSession(deps.orm.em, keyedHash(deps.credentialKeys.sessions, req.token), audit);
}
