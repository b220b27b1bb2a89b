import type { GetApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetApplicationRequest';
import type { GetApplicationResponse } from '@switchboard/proto/generated/switchboard/applications/v1/GetApplicationResponse';
import { AppError } from '@switchboard/platform';
import type { Deps } from '../context.ts';
import { KEY_FORMAT, keyedHash } from '../api-keys/keys.ts';
import { keyVerified } from '../api-keys/verify-api-key.ts';
import { toMessage } from './mapper.ts';
import { readOwnedByKey } from './repository.ts';

/**
 * An application read with an API key instead of an account: the key verified as VerifyApiKey
 * verifies it (401 for an unknown or revoked key) and the application of the key's account read in
 * the same statement. The answer names the key either way; without the application when the account
 * has none of that id (the gateway answers 404, after counting the request against the account).
 */
export async function getApplicationByKey(
  deps: Deps,
  req: GetApplicationRequest__Output,
): Promise<GetApplicationResponse> {
  const found = KEY_FORMAT.test(req.apiKey)
    ? await readOwnedByKey(deps.orm.em, keyedHash(deps.credentialKeys.apiKeys, req.apiKey), req.id)
    : undefined;
  if (!found) throw new AppError('unauthenticated', 'invalid or revoked API key');
  return {
    application: found.application ? toMessage(found.application) : undefined,
    key: keyVerified(deps, found.key),
  };
}
