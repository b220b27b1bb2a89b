import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedHash, newApiKey } from './keys.ts';

describe('keyedHash', () => {
  const hmac = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest();

  it('is HMAC-SHA-256 of the value under the key, for keys, tokens and any text', () => {
    const values = ['', 'x', newApiKey().key, newApiKey().key, 'é ünïcødé ✓ 🔑', 'a'.repeat(64), 'b'.repeat(300)];
    for (const key of [randomBytes(32), randomBytes(64), randomBytes(65), Buffer.alloc(0)]) {
      for (const value of values) expect(keyedHash(key, value).equals(hmac(key, value))).toBe(true);
    }
  });

  it('answers a buffer of its own each time', () => {
    const key = randomBytes(32);
    const a = keyedHash(key, 'one');
    const b = keyedHash(key, 'two');
    expect(a.equals(hmac(key, 'one'))).toBe(true);
    expect(b.equals(hmac(key, 'two'))).toBe(true);
  });
});
