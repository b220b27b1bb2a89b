// API keys: `sbk_` + 32 random bytes in base64url, stored as HMAC-SHA-256 under a key of their own
// derived from SECRETS_KEY. A key is 256 bits of randomness, so a keyed hash needs no password KDF;
// a database dump without SECRETS_KEY holds nothing that authenticates.
import { createHmac, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'sbk_';
/** `sbk_` and 43 base64url characters (32 bytes). */
export const KEY_FORMAT = /^sbk_[A-Za-z0-9_-]{43}$/;
/** Public ids of keys: `ak_` and 24 hex digits. */
export const KEY_ID_FORMAT = /^ak_[0-9a-f]{24}$/;
export const SCOPES = ['full', 'read'] as const;
export type Scope = (typeof SCOPES)[number];
/** Keys an account may have at once. */
export const MAX_KEYS_PER_ACCOUNT = 50;
/** The HKDF purpose of the hashing key. */
export const API_KEY_HASH_INFO = 'switchboard api-key hash v1';

export function newApiKey(): { id: string; key: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { id: `ak_${randomBytes(12).toString('hex')}`, key, prefix: key.slice(0, 8) };
}

/** The stored form of a key or token: HMAC-SHA-256 under `hashKey`. */
export function keyedHash(hashKey: Buffer, value: string): Buffer {
  return createHmac('sha256', hashKey).update(value).digest();
}
