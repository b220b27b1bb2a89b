import type { ListApiKeysRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListApiKeysRequest';
import type { ApiKey as Message } from '@switchboard/proto/generated/switchboard/applications/v1/ApiKey';
import type { CredentialDeps } from './deps.ts';
import { listKeys, toMessage } from './repository.ts';

/** The account's API keys (at most 50), oldest first, without the keys themselves. */
export async function listApiKeys(
  deps: Pick<CredentialDeps, 'orm'>,
  req: ListApiKeysRequest__Output,
): Promise<Message[]> {
  return (await listKeys(deps.orm.em, req.accountId)).map(toMessage);
}
