import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { RevokeApiKeyRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/RevokeApiKeyRequest';
import type { ApiKey as Message } from '@switchboard/proto/generated/switchboard/applications/v1/ApiKey';
import type { CredentialDeps } from './deps.ts';
import { KEY_ID_FORMAT } from './keys.ts';
import { deleteKey, toMessage } from './repository.ts';

/**
 * Revokes an API key of the account: its row goes, so no verification finds it from then on, and
 * the gateways are told at once to forget it (credentials.revoked).
 */
export async function revokeApiKey(
  deps: CredentialDeps,
  req: RevokeApiKeyRequest__Output,
  audit?: AuditContext,
): Promise<Message> {
  const row = KEY_ID_FORMAT.test(req.id) ? await deleteKey(deps.orm.em, req.accountId, req.id, audit) : undefined;
  if (!row) throw AppError.notFound('API key');
  deps.announceRevoked({ accountId: row.account_id, keyIds: [row.id] });
  return toMessage(row);
}
