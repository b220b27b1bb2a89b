// What the composition root and the account command share: the hashing keys derived from
// SECRETS_KEY, and the notice to the gateways that credentials are no longer valid.
import { connect } from '@nats-io/transport-node';
import { SUBJECTS } from '@switchboard/events';
import type { NatsConnection } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import type { SecretBox } from '@switchboard/security';
import { API_KEY_HASH_INFO } from './keys.ts';

export function credentialKeys(secrets: SecretBox): { apiKeys: Buffer; sessions: Buffer } {
  return {
    apiKeys: secrets.derive(API_KEY_HASH_INFO),
    sessions: secrets.derive('switchboard console-session hash v1'),
  };
}

/**
 * The body of credentials.revoked: these keys of the account (`keyIds`), or every key of it
 * (`allKeys`, the account is gone), and the password of `username` (changed, or the account gone).
 */
export interface RevokedCredentials {
  accountId: string;
  keyIds?: string[];
  allKeys?: boolean;
  username?: string;
}

/**
 * Publishes credentials.revoked on core NATS (every gateway subscribes): best effort, the gateways'
 * cache of verified keys (API_KEY_CACHE_TTL_MS, at most a minute) bounds a notice that was lost.
 */
export function announceRevoked(nc: NatsConnection, body: RevokedCredentials, logger: Logger): void {
  try {
    nc.publish(SUBJECTS.credentialsRevoked, JSON.stringify(body));
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'announcing revoked credentials failed');
  }
}

/**
 * The notices of a command (`npm run account`), which keeps no NATS connection: `announce` collects
 * them and `close` publishes them on a connection made for that (a few seconds at most), so the
 * gateways forget the credentials as they do after the same change made through the API. Answers
 * an error message when they could not be sent (NATS unreachable): the change is made all the same,
 * and the gateways' caches (API_KEY_CACHE_TTL_MS, AUTH_CACHE_TTL_MS) bound how long it is missed.
 */
export function commandAnnouncer(nats: { url: string; user?: string | undefined; password?: string | undefined }): {
  announce(body: RevokedCredentials): void;
  close(): Promise<string | undefined>;
} {
  const pending: RevokedCredentials[] = [];
  return {
    announce: (body) => void pending.push(body),
    async close() {
      if (pending.length === 0) return undefined;
      try {
        const nc = await connect({
          servers: nats.url
            .split(',')
            .map((u) => u.trim())
            .filter(Boolean),
          name: 'account-command',
          ...(nats.user ? { user: nats.user, pass: nats.password ?? '' } : {}),
          timeout: 3000,
          reconnect: false,
        });
        try {
          for (const body of pending.splice(0)) nc.publish(SUBJECTS.credentialsRevoked, JSON.stringify(body));
          // Only once flushed has the server taken every notice.
          await nc.flush();
        } finally {
          await nc.close();
        }
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}
