import { AppError, isoTimestamp, type Logger } from '@switchboard/platform';
import type { VerifyApiKeyRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/VerifyApiKeyRequest';
import type { CredentialDeps } from './deps.ts';
import { KEY_FORMAT, keyedHash } from './keys.ts';
import { findByHash, toMessage, touchKey } from './repository.ts';

const MINUTE = 60_000;
/** Keys whose use this process recorded in the last minute, with when (bounded: oldest dropped). */
const touched = new Map<string, number>();
const MAX_TOUCHED = 100_000;

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
  const now = Date.now();
  const stale = !row.last_used_at || now - Date.parse(isoTimestamp(row.last_used_at)) >= MINUTE;
  if (stale && now - (touched.get(row.id) ?? 0) >= MINUTE) {
    if (touched.size >= MAX_TOUCHED) touched.delete(touched.keys().next().value!);
    touched.delete(row.id);
    touched.set(row.id, now);
    touchKey(deps.orm.em, row.id).catch((err: unknown) =>
      deps.logger.warn({ err: (err as Error).message }, 'recording the use of an API key failed'),
    );
  }
  return { apiKey: toMessage(row), username: row.username };
}
