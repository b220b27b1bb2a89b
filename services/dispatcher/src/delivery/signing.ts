// Standard Webhooks signatures (https://www.standardwebhooks.com/): every POST carries
// webhook-id, webhook-timestamp and webhook-signature = "v1,<base64 HMAC-SHA256(id.timestamp.body)>",
// keyed by the base64-decoded part of a "whsec_" secret. During a rotation several secrets are
// valid; the header then carries one signature per secret, separated by spaces.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/** The HMAC key of a secret: base64 after the whsec_ prefix. Throws on anything else. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('a signing secret must start with whsec_');
  const b64 = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('a signing secret must be base64 after whsec_');
  const key = Buffer.from(b64, 'base64');
  if (key.length < 16) throw new Error('a signing secret must hold at least 16 bytes');
  return key;
}

export function isValidSecret(secret: string): boolean {
  try {
    secretKey(secret);
    return true;
  } catch {
    return false;
  }
}

/** A fresh random secret in the whsec_ format (24 bytes). */
export function generateSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function sign(key: Buffer, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers for one attempt, signed with every key given. */
export function signatureHeaders(
  keys: readonly Buffer[],
  id: string,
  body: string,
  nowMs: number = Date.now(),
): SignedHeaders {
  if (keys.length === 0) throw new Error('at least one signing key is needed');
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': keys.map((k) => `v1,${sign(k, id, timestamp, body)}`).join(' '),
  };
}

/**
 * Receiver-side verification, as a receiver written against the spec would do it: true when one
 * of the signatures in the header matches `secret` and the timestamp is within `toleranceS`.
 */
export function verifySignature(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  nowMs = Date.now(),
  toleranceS = 300,
): boolean {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const id = one(headers['webhook-id']);
  const ts = one(headers['webhook-timestamp']);
  const sigs = one(headers['webhook-signature']);
  if (!id || !ts || !sigs || !/^\d+$/.test(ts)) return false;
  if (Math.abs(nowMs / 1000 - Number(ts)) > toleranceS) return false;
  const expected = Buffer.from(sign(secretKey(secret), id, Number(ts), body), 'base64');
  return sigs.split(' ').some((s) => {
    const [version, value] = s.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const got = Buffer.from(value, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
