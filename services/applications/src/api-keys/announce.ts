// What the composition root and the account command share: the hashing keys derived from
// SECRETS_KEY, and the notice to the gateways that credentials are no longer valid.
import { SUBJECTS, type Logger, type NatsConnection, type SecretBox } from '@switchboard/platform';
import { API_KEY_HASH_INFO } from './keys.ts';

export function credentialKeys(secrets: SecretBox): { apiKeys: Buffer; sessions: Buffer } {
  return {
    apiKeys: secrets.derive(API_KEY_HASH_INFO),
    sessions: secrets.derive('switchboard console-session hash v1'),
  };
}

/**
 * Publishes credentials.revoked on core NATS (every gateway subscribes): best effort, the gateways'
 * cache of verified keys (API_KEY_CACHE_TTL_MS, at most a minute) bounds a notice that was lost.
 */
export function announceRevoked(
  nc: NatsConnection,
  body: { accountId: string; keyIds?: string[]; username?: string },
  logger: Logger,
): void {
  try {
    nc.publish(SUBJECTS.credentialsRevoked, JSON.stringify(body));
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'announcing revoked credentials failed');
  }
}
