// `npm run account -- keys create|list|revoke` against a real database: the key printed once, its
// keyed hash stored (the one the service verifies), listed without the key, revoked.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '@switchboard/security';
import { useTestDatabase, newSecretsKey, queryDatabase, runNpmScript, type TestDatabase } from '../../../test/support';
import { API_KEY_HASH_INFO } from '../src/api-keys/keys';

let db: TestDatabase;
const secretsKey = newSecretsKey();

useTestDatabase((d) => (db = d));

const account = (args: string[], env: Record<string, string> = {}) =>
  runNpmScript('account', args, { DATABASE_URL: db.url, LOG_LEVEL: 'warn', PASSWORD_SCRYPT_N: '1024', ...env });

describe('npm run account -- keys', () => {
  it('when a key is created, listed and revoked, then it is printed once, stored as its keyed hash, and gone after the revocation', async () => {
    expect((await account(['create', '--username', 'dana'], { SWITCHBOARD_PASSWORD: 'dana-password' })).code).toBe(0);
    const created = await account(['keys', 'create', '--username', 'dana', '--name', 'ci', '--scope', 'read'], {
      SECRETS_KEY: secretsKey,
    });
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; scope: string; prefix: string };
    expect(key).toMatchObject({ scope: 'read', prefix: key.key.slice(0, 8) });
    expect(key.key).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    const [row] = await queryDatabase<{ key_hash: Buffer }>(
      db.url,
      'select key_hash from applications.api_keys where id = $1',
      [key.id],
    );
    const expected = createHmac('sha256', SecretBox.fromText(secretsKey).derive(API_KEY_HASH_INFO))
      .update(key.key)
      .digest();
    expect(row!.key_hash.equals(expected)).toBe(true);

    const listed = await account(['keys', 'list', '--username', 'dana']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((k) => k.id)).toEqual([key.id]);

    const revoked = await account(['keys', 'revoke', '--username', 'dana', '--id', key.id]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse((await account(['keys', 'list', '--username', 'dana'])).stdout)).toEqual([]);
  }, 180_000);

  it('when a key is created without SECRETS_KEY or for an unknown user, then it fails with a clear message', async () => {
    const noKey = await account(['keys', 'create', '--username', 'dana', '--name', 'x', '--scope', 'full']);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/SECRETS_KEY/);
    const nobody = await account(['keys', 'list', '--username', 'nobody-at-all']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/no account named nobody-at-all/);
  }, 120_000);
});
