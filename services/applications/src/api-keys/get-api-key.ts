import { AppError } from '@switchboard/errors';
import type { GetApiKeyRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetApiKeyRequest';
import type { ApiKey as Message } from '@switchboard/proto/generated/switchboard/applications/v1/ApiKey';
import type { CredentialDeps } from './deps.ts';
import { KEY_ID_FORMAT } from './keys.ts';
import { readKey, toMessage } from './repository.ts';

/** One API key of the account, without the key; another account's is "not found". */
export async function getApiKey(deps: Pick<CredentialDeps, 'orm'>, req: GetApiKeyRequest__Output): Promise<Message> {
  const row = KEY_ID_FORMAT.test(req.id) ? await readKey(deps.orm.em, req.accountId, req.id) : undefined;
  if (!row) throw AppError.notFound('API key');
  return toMessage(row);
}
