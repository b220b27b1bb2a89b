// API keys: `sbk_` + 32 random bytes in base64url, stored as HMAC-SHA-256 under a key of their own
// derived from SECRETS_KEY. A key is 256 bits of randomness, so a keyed hash needs no password KDF;
// a database dump without SECRETS_KEY holds nothing that authenticates.
import { createHmac, hash, randomBytes } from 'node:crypto';

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

/** SHA-256's block: HMAC's key pads are this long. */
const BLOCK = 64;
/** Most bytes of a value the prepared pads take (longer values go through createHmac). */
const MAX_VALUE_BYTES = 192;

interface Pads {
  /** The key XOR ipad, then room for the value. */
  inner: Buffer;
  /** The key XOR opad, then the inner digest. */
  outer: Buffer;
}

/** The HMAC pads of each hashing key, made once (the keys live as long as the process). */
const padsOf = new WeakMap<Buffer, Pads>();

function pads(hashKey: Buffer): Pads {
  let p = padsOf.get(hashKey);
  if (!p) {
    const inner = Buffer.alloc(BLOCK + MAX_VALUE_BYTES);
    const outer = Buffer.alloc(BLOCK + 32);
    for (let i = 0; i < BLOCK; i++) {
      const k = hashKey[i] ?? 0;
      inner[i] = k ^ 0x36;
      outer[i] = k ^ 0x5c;
    }
    p = { inner, outer };
    padsOf.set(hashKey, p);
  }
  return p;
}

/**
 * The stored form of a key or token: HMAC-SHA-256 under `hashKey`. Computed as two one-shot SHA-256
 * over the key's prepared pads (RFC 2104), which costs a fraction of a createHmac object per value.
 */
export function keyedHash(hashKey: Buffer, value: string): Buffer {
  if (hashKey.length > BLOCK || value.length * 3 > MAX_VALUE_BYTES)
    return createHmac('sha256', hashKey).update(value).digest();
  const { inner, outer } = pads(hashKey);
  const n = inner.write(value, BLOCK, 'utf8');
  outer.set(hash('sha256', inner.subarray(0, BLOCK + n), 'buffer'), BLOCK);
  return hash('sha256', outer, 'buffer');
}
