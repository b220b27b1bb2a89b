import type { MikroORM } from '@mikro-orm/postgresql';
import type { RevokedCredentials } from './announce.ts';

/** What the credential use cases (API keys, browser sessions, password change) need. */
export interface CredentialDeps {
  orm: MikroORM;
  /** Keys derived from SECRETS_KEY (HKDF) for the keyed hashes of API keys and session tokens. */
  credentialKeys: { apiKeys: Buffer; sessions: Buffer };
  /** Tells the gateways (core NATS, best effort) that credentials of an account are no longer valid. */
  announceRevoked(body: RevokedCredentials): void;
}
