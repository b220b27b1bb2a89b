import { describe, expect, it } from 'vitest';
import { AppError } from '@switchboard/platform';
import type { AccountsClient } from '@switchboard/proto';
import { Authenticator } from './auth';

/** A stand-in for the accounts RPC that knows one user (whose password may change); counts calls. */
function accounts(password: string | (() => string) = 'right') {
  const calls = { n: 0 };
  const current = typeof password === 'function' ? password : () => password;
  const client = {
    verifyCredentials: async (req: { username: string; password: string }) => {
      calls.n++;
      if (req.username === 'ann' && req.password === current()) return { account: { id: '7', username: 'ann', createdAt: '' } };
      throw new AppError('unauthenticated', 'invalid credentials');
    },
  } as unknown as AccountsClient;
  return { client, calls };
}
const header = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('Authenticator', () => {
  it('when verified once, then later requests within the TTL are answered from the cache', async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 5, lockoutMs: 1000, now: () => now });
    await auth.authenticate(header('ann', 'right'), 'r');
    await auth.authenticate(header('ann', 'right'), 'r');
    expect(calls.n).toBe(1);
    now += 30_001;
    await auth.authenticate(header('ann', 'right'), 'r');
    expect(calls.n).toBe(2);
  });

  it('when a cached credential is used in the last third of its TTL, then it is verified again in the background and a busy credential never waits on a verification', async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 5, lockoutMs: 1000, now: () => now });
    await auth.authenticate(header('ann', 'right'), 'r');
    now += 21_000;
    // Answered from the cache at once; one refresh starts however many requests arrive meanwhile.
    await Promise.all(Array.from({ length: 5 }, () => auth.authenticate(header('ann', 'right'), 'r')));
    await new Promise((r) => setImmediate(r));
    expect(calls.n).toBe(2);
    now += 15_000; // past the first entry's expiry, inside the refreshed one's
    await auth.authenticate(header('ann', 'right'), 'r');
    expect(calls.n).toBe(2);
  });

  it('when the background verification is refused (password changed), then the credential is forgotten and refused next time', async () => {
    let now = 1000;
    let password = 'right';
    const { client } = accounts(() => password);
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 5, lockoutMs: 1000, now: () => now });
    await auth.authenticate(header('ann', 'right'), 'r');
    password = 'changed';
    now += 21_000;
    await expect(auth.authenticate(header('ann', 'right'), 'r')).resolves.toEqual({ accountId: '7', username: 'ann' });
    await new Promise((r) => setImmediate(r));
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('when a cached user sends a different password, then it is checked again and refused', async () => {
    const { client, calls } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 5, lockoutMs: 1000 });
    await auth.authenticate(header('ann', 'right'), 'r');
    await expect(auth.authenticate(header('ann', 'wrong'), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(calls.n).toBe(2);
  });

  it('when failures reach the limit, then the user is locked out, and the lockout doubles with each further failure', async () => {
    let now = 0;
    const { client } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 0, maxFailures: 3, lockoutMs: 1000, now: () => now });
    for (let i = 0; i < 3; i++) await expect(auth.authenticate(header('ann', `x${i}`), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 1 });
    now += 1001;
    await expect(auth.authenticate(header('ann', 'x3'), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 2 });
    now += 2001;
    await expect(auth.authenticate(header('ann', 'right'), 'r')).resolves.toEqual({ accountId: '7', username: 'ann' });
    // Success resets the count.
    await expect(auth.authenticate(header('ann', 'y'), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(auth.authenticate(header('ann', 'right'), 'r')).resolves.toBeDefined();
  });

  it('when a verified user is brute-forced into a lockout, then its cached credentials keep working', async () => {
    const { client } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 3, lockoutMs: 60_000 });
    await auth.authenticate(header('ann', 'right'), 'r');
    for (let i = 0; i < 3; i++) await expect(auth.authenticate(header('ann', `x${i}`), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(auth.authenticate(header('ann', 'x4'), 'r')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(auth.authenticate(header('ann', 'right'), 'r')).resolves.toEqual({ accountId: '7', username: 'ann' });
  });

  it('when the lockout outlasts the cache, then the owner\'s verified credentials are verified again and keep working, and guesses stay locked out', async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 3, lockoutMs: 10 * 60_000, now: () => now });
    await auth.authenticate(header('ann', 'right'), 'r');
    for (let i = 0; i < 3; i++) await expect(auth.authenticate(header('ann', `x${i}`), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    now += 5 * 60_000; // cache entry expired, lockout still on
    const before = calls.n;
    await expect(auth.authenticate(header('ann', 'right'), 'r')).resolves.toEqual({ accountId: '7', username: 'ann' });
    expect(calls.n).toBe(before + 1); // really verified, not served from a stale cache
    await expect(auth.authenticate(header('ann', 'guess'), 'r')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(calls.n).toBe(before + 1); // the guess never reached the service
  });

  it('when the owner\'s remembered password stops verifying, then it is forgotten and locked out like any other', async () => {
    let now = 1000;
    let password = 'right';
    const { client, calls } = accounts(() => password);
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 3, lockoutMs: 10 * 60_000, now: () => now });
    await auth.authenticate(header('ann', 'right'), 'r');
    for (let i = 0; i < 3; i++) await expect(auth.authenticate(header('ann', `x${i}`), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    password = 'changed';
    now += 60_000;
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'unauthenticated' });
    const before = calls.n;
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(calls.n).toBe(before);
  });

  it('when concurrent requests carry the same new credentials, then one verification serves them all', async () => {
    const { client, calls } = accounts();
    const auth = new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 5, lockoutMs: 1000 });
    await Promise.all(Array.from({ length: 20 }, () => auth.authenticate(header('ann', 'right'), 'r')));
    expect(calls.n).toBe(1);
  });

  it('when the accounts service is unavailable, then the error is not turned into a 401 and nothing is counted as a failure', async () => {
    const client = { verifyCredentials: async () => Promise.reject(new AppError('unavailable', 'down')) } as unknown as AccountsClient;
    const auth = new Authenticator(client, { cacheTtlMs: 0, maxFailures: 1, lockoutMs: 1000 });
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'unavailable' });
    await expect(auth.authenticate(header('ann', 'right'), 'r')).rejects.toMatchObject({ code: 'unavailable' });
  });
});
