// Password hashing: the stored hash carries its parameters, old hashes still log in through the
// gateway and are re-hashed with the current parameters on that login.
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryDatabase, useServices, type Services } from '../../../test/support';
import { loadConfig } from '../src/config';
import { currentScryptCost, hashPassword, needsRehash, setScryptN, verifyPassword } from '../src/accounts/password';

/** SECRETS_KEY is required; any valid key will do for these checks. */
const KEY = Buffer.alloc(32, 3).toString('base64');

let stack: Services<{ gateway: true }>;

useServices({ gateway: true }, (s) => (stack = s));

/** A hash as an older release stored it (scrypt$N$r$p$salt$key), here with N=2^12. */
function legacyHash(password: string, N = 2 ** 12): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N, r: 8, p: 1 });
  return `scrypt$${N}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

async function storedHash(username: string): Promise<string> {
  const rows = await queryDatabase<{ password_hash: string }>(
    stack.databaseUrl,
    'SELECT password_hash FROM applications.accounts WHERE username = $1',
    [username],
  );
  return rows[0]!.password_hash;
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

describe('password hashes', () => {
  it('when the configuration does not set PASSWORD_SCRYPT_N, then new hashes use N=2^17, r=8, p=1 and verify', async () => {
    expect(loadConfig({ SECRETS_KEY: KEY, PASSWORD_SCRYPT_N: undefined }).PASSWORD_SCRYPT_N).toBe(2 ** 17);
    const before = currentScryptCost().N;
    try {
      setScryptN(2 ** 17);
      const hash = await hashPassword('a-good-password');
      expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(await verifyPassword('a-good-password', hash)).toBe(true);
      expect(await verifyPassword('a-bad-password', hash)).toBe(false);
      expect(needsRehash(hash)).toBe(false);
      expect(needsRehash(legacyHash('x'))).toBe(true);
    } finally {
      setScryptN(before);
    }
  }, 30_000);

  it('when PASSWORD_SCRYPT_N is not a power of two in range, then the configuration is refused naming it', () => {
    for (const bad of ['1000', '512', String(2 ** 21), 'lots'])
      expect(() => loadConfig({ SECRETS_KEY: KEY, PASSWORD_SCRYPT_N: bad }), bad).toThrow(/PASSWORD_SCRYPT_N/);
    expect(loadConfig({ SECRETS_KEY: KEY, PASSWORD_SCRYPT_N: '16384' }).PASSWORD_SCRYPT_N).toBe(16384);
  });

  it('when a stored hash asks for absurd parameters, then it does not verify (and nothing is tried)', async () => {
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAA$AAAAAAAAAAAAAAAAAAAAAA==')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1000$8$1$AAAA$AAAAAAAAAAAAAAAAAAAAAA==')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
  });

  it('when an account with an old-parameter hash logs in through the gateway, then it gets in and its hash is replaced by a current one', async () => {
    const account = await stack.createAccount('legacy');
    const old = legacyHash(account.password);
    await queryDatabase(stack.databaseUrl, 'UPDATE applications.accounts SET password_hash = $1 WHERE username = $2', [
      old,
      account.username,
    ]);

    // A wrong password neither gets in nor changes the hash.
    const wrong = await fetch(`${stack.baseUrl}/v1/applications`, {
      headers: { authorization: basic(account.username, 'not-the-password') },
    });
    expect(wrong.status).toBe(401);
    expect(await storedHash(account.username)).toBe(old);

    const res = await stack.request(account, 'GET', '/v1/applications');
    expect(res.status).toBe(200);
    const now = await storedHash(account.username);
    expect(now).not.toBe(old);
    expect(now.startsWith(`scrypt$${currentScryptCost().N}$8$1$`)).toBe(true);
    expect(needsRehash(now)).toBe(false);
    expect(await verifyPassword(account.password, now)).toBe(true);
  });

  it('when an account with a current hash logs in, then the hash is left as it is', async () => {
    const account = await stack.createAccount('current');
    const before = await storedHash(account.username);
    expect((await stack.request(account, 'GET', '/v1/applications')).status).toBe(200);
    expect(await storedHash(account.username)).toBe(before);
  });
});
