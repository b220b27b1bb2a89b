import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '@switchboard/config';
import { newSigningSecret, parseSecretsKey, SecretBox, secretsKey } from './secrets';

const key = randomBytes(32);

describe('SecretBox', () => {
  it('when a secret is sealed, then it opens to the same text for the same owner and differs each time', () => {
    const box = new SecretBox(key);
    const secret = newSigningSecret();
    const a = box.seal(secret, 'app1');
    const b = box.seal(secret, 'app1');
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret.slice(6, 20));
    expect(SecretBox.isSealed(a)).toBe(true);
    expect(SecretBox.isSealed(secret)).toBe(false);
    expect(box.open(a, 'app1')).toBe(secret);
  });

  it('when the owner, the key or the bytes differ, then it refuses without quoting anything secret', () => {
    const box = new SecretBox(key);
    const secret = newSigningSecret();
    const sealed = box.seal(secret, 'app1');
    const attempts = [
      () => box.open(sealed, 'app2'),
      () => new SecretBox(randomBytes(32)).open(sealed, 'app1'),
      () => box.open(`${sealed.slice(0, -4)}AAAA`, 'app1'),
      () => box.open(secret, 'app1'),
    ];
    for (const attempt of attempts) {
      let message = '';
      try {
        attempt();
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/SECRETS_KEY/);
      expect(message).not.toContain('whsec_');
      expect(message).not.toContain(sealed.slice(7, 30));
    }
  });

  it('when serialised or inspected, then the key does not show', () => {
    const box = new SecretBox(key);
    expect(JSON.stringify({ box })).toBe('{"box":"[SecretBox]"}');
    expect(inspect(box)).toBe('[SecretBox]');
    expect(inspect(box, { showHidden: true })).not.toContain(key.toString('hex').slice(0, 8));
  });
});

describe('SECRETS_KEY', () => {
  const schema = z.object({ SECRETS_KEY: secretsKey });

  it('when given as base64, base64url or hex, then the same 32 bytes are read', () => {
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseConfig(schema, { SECRETS_KEY: key.toString('hex') }).SECRETS_KEY).toBeInstanceOf(SecretBox);
  });

  it('when missing, short or not a key, then the start error names the variable and not the value', () => {
    for (const env of [
      {},
      { SECRETS_KEY: randomBytes(16).toString('base64') },
      { SECRETS_KEY: 'not-a-key-at-all' },
      { SECRETS_KEY: randomBytes(33).toString('hex') },
    ]) {
      let message = '';
      try {
        parseConfig(schema, env);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/SECRETS_KEY: .*(required|32-byte)/);
      if ('SECRETS_KEY' in env) expect(message).not.toContain(env.SECRETS_KEY);
    }
  });
});
