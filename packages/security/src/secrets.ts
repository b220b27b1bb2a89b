// Signing secrets at rest: AES-256-GCM under the deployment's SECRETS_KEY. A stored secret is
// "enc:v1:" + base64url(iv | tag | ciphertext); the owner's id is the associated data, so a value
// copied onto another row does not decrypt there. Neither the key nor a plaintext ever appears in an
// error message, a log line or JSON made from the object.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { z } from 'zod';
import { AppError } from '@switchboard/errors';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Reads a 32-byte key given as hex (64 digits) or base64 / base64url (43 or 44 characters).
 * Throws an Error whose message describes the expected form, never the value.
 */
export function parseSecretsKey(value: string): Buffer {
  const v = value.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(v)) key = Buffer.from(v, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=?$/.test(v)) key = Buffer.from(v, 'base64');
  else if (/^[A-Za-z0-9_-]{43}=?$/.test(v)) key = Buffer.from(v, 'base64url');
  if (!key || key.length !== KEY_BYTES) {
    throw new Error(
      'must be a 32-byte key, as base64 (44 characters, e.g. `openssl rand -base64 32`) or hex (64 digits)',
    );
  }
  return key;
}

/** Encrypts and decrypts the secrets a service stores, with one key. */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error('a SecretBox needs a 32-byte key');
    this.#key = Buffer.from(key);
  }

  static fromText(value: string): SecretBox {
    return new SecretBox(parseSecretsKey(value));
  }

  /**
   * A 32-byte key of its own for one purpose (`info`), derived from this key with HKDF-SHA-256:
   * keyed hashes (API keys, browser sessions) never use the sealing key itself.
   */
  derive(info: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), info, KEY_BYTES));
  }

  /** True for a value this class wrote (as opposed to a plaintext left from before encryption). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** Encrypts `plaintext` for the row of `owner` (e.g. the application or subscription id). */
  seal(plaintext: string, owner: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plaintext of a sealed value of `owner`; a value that does not decrypt is an internal error. */
  open(stored: string, owner: string): string {
    const raw = SecretBox.isSealed(stored) ? Buffer.from(stored.slice(PREFIX.length), 'base64url') : Buffer.alloc(0);
    try {
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(owner, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new AppError(
        'internal',
        `the stored secret of ${owner} does not decrypt with SECRETS_KEY (was the key changed?)`,
      );
    }
  }

  toJSON(): string {
    return '[SecretBox]';
  }

  [inspect.custom](): string {
    return '[SecretBox]';
  }
}

/** Config field for SECRETS_KEY: required, parsed into a SecretBox. */
export const secretsKey = z
  .string({ error: 'is required: a 32-byte key as base64 or hex (e.g. `openssl rand -base64 32`)' })
  .transform((v, ctx): SecretBox => {
    try {
      return SecretBox.fromText(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
