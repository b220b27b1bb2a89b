import { hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from '@switchboard/contracts';
import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { CreateApiKeyRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/CreateApiKeyRequest';
import type { ApiKey as Message } from '@switchboard/proto/generated/switchboard/applications/v1/ApiKey';
import type { CredentialDeps } from './deps.ts';
import { keyedHash, newApiKey, SCOPES } from './keys.ts';
import { insertKey, toMessage } from './repository.ts';

/** Creates an API key of the account; answers it with the key itself, which is never answered again. */
export async function createApiKey(
  deps: CredentialDeps,
  req: CreateApiKeyRequest__Output,
  audit?: AuditContext,
): Promise<{ apiKey: Message; key: string }> {
  const name = req.name.trim();
  const errors = [];
  if (name.length < 1 || name.length > 100) errors.push({ field: 'name', message: 'must be 1-100 characters' });
  else if (hasUnsafeNameCharacters(name)) errors.push({ field: 'name', message: NAME_CHARACTERS_MESSAGE });
  if (!(SCOPES as readonly string[]).includes(req.scope))
    errors.push({ field: 'scope', message: 'must be "full" or "read"' });
  if (errors.length) throw AppError.invalid(errors);
  const { id, key, prefix } = newApiKey();
  const row = await insertKey(
    deps.orm.em,
    { id, accountId: req.accountId, name, scope: req.scope, prefix, hash: keyedHash(deps.credentialKeys.apiKeys, key) },
    audit,
  );
  return { apiKey: toMessage(row), key };
}
