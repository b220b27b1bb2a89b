import { LRUCache } from 'lru-cache';
import { AppError } from '@switchboard/errors';
import type { Logger } from '@switchboard/observability';
import type { VerifyApiKeyRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/VerifyApiKeyRequest';
import type { CredentialDeps } from './deps.ts';
import { KEY_FORMAT, keyedHash } from './keys.ts';
import { findByHash, toMessage, touchKey, type VerifiedKeyRow } from './repository.ts';

const MINUTE = 60_000;
/**
 * Keys whose use this process recorded in the last minute (each forgotten a minute after; at most
 * 100,000, the least recently recorded dropped first, which at worst records a use again early).
 */
const touched = new LRUCache<string, true>({ max: 100_000, ttl: MINUTE, ttlAutopurge: false });

/**
 * The key's id, scope and account (the gateway's Bearer and Basic key authentication): one HMAC and
 * one index lookup. Its use is recorded (lastUsedAt, accurate to a minute) after the answer, at most
 * once a minute per key and process, never on the request's path.
 */
export async function verifyApiKey(
  deps: Pick<CredentialDeps, 'orm' | 'credentialKeys'> & { logger: Logger },
  req: VerifyApiKeyRequest__Output,
) {
  const row = KEY_FORMAT.test(req.key)
    ? await findByHash(deps.orm.em, keyedHash(deps.credentialKeys.apiKeys, req.key))
    : undefined;
  if (!row) throw new AppError('unauthenticated', 'invalid or revoked API key');
  return keyVerified(deps, row);
}

/** The answer for a key found by its hash (VerifyApiKeyResponse); its use is recorded when due. */
export function keyVerified(deps: Pick<CredentialDeps, 'orm'> & { logger: Logger }, row: VerifiedKeyRow) {
  if (row.stale) touch(deps, row.id);
  return { apiKey: toMessage(row), username: row.username };
}

/** Records the key's use in the background, unless this process did in the last minute. */
function touch(deps: Pick<CredentialDeps, 'orm'> & { logger: Logger }, id: string): void {
  if (!touched.has(id)) {
    touched.set(id, true);
    touchKey(deps.orm.em, id).catch((err: unknown) =>
      deps.logger.warn({ err: (err as Error).message }, 'recording the use of an API key failed'),
    );
  }
}
