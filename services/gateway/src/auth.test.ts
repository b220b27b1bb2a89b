import { describe, expect, it } from 'vitest';
import { AppError } from '@switchboard/errors';
import type { AccountsClient } from '@switchboard/proto';
import { waitFor } from '../../../test/support/infra';
import { type AuthOptions, Authenticator } from './auth';

/** A stand-in for the accounts RPC that knows one user (whose password may change); counts calls. */
function accounts(password: string | (() => string) = 'right') {
  const calls = { n: 0 };
  const current = typeof password === 'function' ? password : () => password;
  const client = {
    verifyCredentials: async (req: { username: string; password: string }) => {
      calls.n++;
      if (req.username === 'ann' && req.password === current())
        return { account: { id: '7', username: 'ann', createdAt: '' } };
      throw new AppError('unauthenticated', 'invalid credentials');
    },
  } as unknown as AccountsClient;
  return { client, calls };
}
const header = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
/** One login with Basic credentials (from `address`, when given). */
const login = (auth: Authenticator, user: string, password: string, address?: string) =>
  auth.authenticate(header(user, password), 'r', address);
/** Expects the login refused with this error code (and this Retry-After, when given). */
const refusedWith = (attempt: Promise<unknown>, code: string, retryAfter?: number) =>
  expect(attempt).rejects.toMatchObject(retryAfter === undefined ? { code } : { code, retryAfter });
/** Expects the login accepted as ann, the one user of `accounts`. */
const accepted = (attempt: Promise<unknown>) => expect(attempt).resolves.toEqual({ accountId: '7', username: 'ann' });
/** `count` logins of ann with wrong passwords (x0, x1, …), each refused as unauthenticated. */
async function wrongPasswords(auth: Authenticator, count: number) {
  for (let i = 0; i < count; i++) await refusedWith(login(auth, 'ann', `x${i}`), 'unauthenticated');
}

/** An Authenticator with a 30 s cache and a 1 s lockout after 5 failures, unless `options` say otherwise. */
const authenticator = (client: AccountsClient, options: Partial<AuthOptions> = {}) =>
  new Authenticator(client, { cacheTtlMs: 30_000, maxFailures: 5, lockoutMs: 1000, ...options });

/**
 * An Authenticator (a 30 s cache, a lockout after 3 failures) in which ann signed in once and was
 * then locked out by 3 wrong passwords.
 */
async function ownerLockedOut(client: AccountsClient, options: { lockoutMs: number; now?: () => number }) {
  const auth = authenticator(client, { maxFailures: 3, ...options });
  await login(auth, 'ann', 'right');
  await wrongPasswords(auth, 3);
  return auth;
}

describe('Authenticator', () => {
  it('when verified once, then later requests within the TTL are answered from the cache', async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = authenticator(client, { now: () => now });
    await login(auth, 'ann', 'right');
    await login(auth, 'ann', 'right');
    expect(calls.n).toBe(1);
    now += 30_001;
    await login(auth, 'ann', 'right');
    expect(calls.n).toBe(2);
  });

  it('when a cached credential is used in the last third of its TTL, then it is verified again in the background and a busy credential never waits on a verification', async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = authenticator(client, { now: () => now });
    await login(auth, 'ann', 'right');
    now += 21_000;
    // Answered from the cache at once; one refresh starts however many requests arrive meanwhile.
    await Promise.all(Array.from({ length: 5 }, () => login(auth, 'ann', 'right')));
    await new Promise((r) => setImmediate(r));
    expect(calls.n).toBe(2);
    now += 15_000; // past the first entry's expiry, inside the refreshed one's
    await login(auth, 'ann', 'right');
    expect(calls.n).toBe(2);
  });

  it('when the background verification is refused (password changed), then the credential is forgotten and refused next time', async () => {
    let now = 1000;
    let password = 'right';
    const { client } = accounts(() => password);
    const auth = authenticator(client, { now: () => now });
    await login(auth, 'ann', 'right');
    password = 'changed';
    now += 21_000;
    await accepted(login(auth, 'ann', 'right'));
    await new Promise((r) => setImmediate(r));
    await refusedWith(login(auth, 'ann', 'right'), 'unauthenticated');
  });

  it('when a cached user sends a different password, then it is checked again and refused', async () => {
    const { client, calls } = accounts();
    const auth = authenticator(client);
    await login(auth, 'ann', 'right');
    await refusedWith(login(auth, 'ann', 'wrong'), 'unauthenticated');
    expect(calls.n).toBe(2);
  });

  it('when failures reach the limit, then the user is locked out, and the lockout doubles with each further failure', async () => {
    let now = 0;
    const { client } = accounts();
    const auth = authenticator(client, { cacheTtlMs: 0, maxFailures: 3, now: () => now });
    await wrongPasswords(auth, 3);
    await refusedWith(login(auth, 'ann', 'right'), 'rate_limited', 1);
    now += 1001;
    await refusedWith(login(auth, 'ann', 'x3'), 'unauthenticated');
    await refusedWith(login(auth, 'ann', 'right'), 'rate_limited', 2);
    now += 2001;
    await accepted(login(auth, 'ann', 'right'));
    // Success resets the count.
    await refusedWith(login(auth, 'ann', 'y'), 'unauthenticated');
    await expect(login(auth, 'ann', 'right')).resolves.toBeDefined();
  });

  it('when a verified user is brute-forced into a lockout, then its cached credentials keep working', async () => {
    const { client } = accounts();
    const auth = await ownerLockedOut(client, { lockoutMs: 60_000 });
    await refusedWith(login(auth, 'ann', 'x4'), 'rate_limited');
    await accepted(login(auth, 'ann', 'right'));
  });

  it("when the lockout outlasts the cache, then the owner's verified credentials are verified again and keep working, and guesses stay locked out", async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = await ownerLockedOut(client, { lockoutMs: 10 * 60_000, now: () => now });
    now += 5 * 60_000; // cache entry expired, lockout still on
    const before = calls.n;
    await accepted(login(auth, 'ann', 'right'));
    expect(calls.n).toBe(before + 1); // really verified, not served from a stale cache
    await refusedWith(login(auth, 'ann', 'guess'), 'rate_limited');
    expect(calls.n).toBe(before + 1); // the guess never reached the service
  });

  it("when the owner's remembered password stops verifying, then it is forgotten and locked out like any other", async () => {
    let now = 1000;
    let password = 'right';
    const { client, calls } = accounts(() => password);
    const auth = await ownerLockedOut(client, { lockoutMs: 10 * 60_000, now: () => now });
    password = 'changed';
    now += 60_000;
    await refusedWith(login(auth, 'ann', 'right'), 'unauthenticated');
    const before = calls.n;
    await refusedWith(login(auth, 'ann', 'right'), 'rate_limited');
    expect(calls.n).toBe(before);
  });

  it('when concurrent requests carry the same new credentials, then one verification serves them all', async () => {
    const { client, calls } = accounts();
    const auth = authenticator(client);
    await Promise.all(Array.from({ length: 20 }, () => login(auth, 'ann', 'right')));
    expect(calls.n).toBe(1);
  });

  it('when 200 concurrent requests from one address carry the same new credentials, then none is refused by the address budget (they are one verification, not 200 guesses)', async () => {
    const { client, calls } = accounts();
    const auth = authenticator(client, { addressPerSecond: 1, addressBurst: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => login(auth, 'ann', 'right', '203.0.113.7')),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(calls.n).toBe(1);
  });

  it('when the accounts service is unavailable, then the error is not turned into a 401 and nothing is counted as a failure', async () => {
    const client = {
      verifyCredentials: async () => Promise.reject(new AppError('unavailable', 'down')),
    } as unknown as AccountsClient;
    const auth = authenticator(client, { cacheTtlMs: 0, maxFailures: 1 });
    await refusedWith(login(auth, 'ann', 'right'), 'unavailable');
    await refusedWith(login(auth, 'ann', 'right'), 'unavailable');
  });

  it("when the accounts service is unavailable, then the attempts do not use up the client address's failed-login budget (503, never 429)", async () => {
    const client = {
      verifyCredentials: async () => Promise.reject(new AppError('unavailable', 'down')),
    } as unknown as AccountsClient;
    const auth = authenticator(client, { cacheTtlMs: 0, maxFailures: 1000, addressPerSecond: 1, addressBurst: 3 });
    for (let i = 0; i < 10; i++) await refusedWith(login(auth, 'ann', 'right', '203.0.113.7'), 'unavailable');
  });
});

describe('Authenticator: bounded verifications', () => {
  /** A verifier whose answers the test releases: counts the calls in flight. */
  function slowAccounts() {
    const state = { inFlight: 0, max: 0, release: [] as (() => void)[] };
    const client = {
      verifyCredentials: async (req: { username: string; password: string }) => {
        state.inFlight++;
        state.max = Math.max(state.max, state.inFlight);
        await new Promise<void>((r) => state.release.push(r));
        state.inFlight--;
        if (req.username === 'ann' && req.password === 'right')
          return { account: { id: '7', username: 'ann', createdAt: '' } };
        throw new AppError('unauthenticated', 'invalid credentials');
      },
    } as unknown as AccountsClient;
    return { client, state };
  }
  type Slow = ReturnType<typeof slowAccounts>['state'];
  /** Until a verification waits for the test to release it, and every one in flight does. */
  const settle = (state: Slow) =>
    waitFor(() => state.release.length > 0 && state.release.length === state.inFlight, {
      intervalMs: 1,
      what: 'a verification waiting',
    });
  /** After releasing: until the next verifications wait, or none is left. */
  const drained = (state: Slow) =>
    waitFor(() => state.release.length === state.inFlight, { intervalMs: 1, what: 'the released verifications done' });
  /** Releases every verification, and those that queued behind them, until none is left. */
  async function releaseAll(state: Slow) {
    while (state.release.length || state.inFlight) {
      for (const r of state.release.splice(0)) r();
      await drained(state);
    }
  }

  it('when more logins arrive than may be verified and queued, then the rest are refused at once with 503 and a Retry-After', async () => {
    const { client, state } = slowAccounts();
    const auth = authenticator(client, { verifyConcurrency: 2, verifyQueue: 3 });
    const results = Array.from({ length: 10 }, (_, i) => login(auth, `u${i}`, 'x').catch((e: unknown) => e));
    await settle(state);
    expect(state.inFlight).toBe(2);
    const refused = (await Promise.all(results.slice(5))) as (AppError & { retryAfter: number })[];
    expect(refused.map((e) => [e.code, e.retryAfter])).toEqual(Array(5).fill(['unavailable', 1]));
    await releaseAll(state);
    expect(state.max).toBe(2);
    for (const r of await Promise.all(results.slice(0, 5))) expect(r).toMatchObject({ code: 'unauthenticated' });
  });

  it('when one address keeps failing, then beyond its burst it is refused with 429 before verification, and successes give their token back', async () => {
    let now = 1000;
    const { client, calls } = accounts();
    const auth = authenticator(client, {
      cacheTtlMs: 0,
      maxFailures: 1000,
      lockoutMs: 0,
      addressPerSecond: 1,
      addressBurst: 3,
      now: () => now,
    });
    for (let i = 0; i < 10; i++) await login(auth, 'ann', 'right', '10.0.0.1');
    for (let i = 0; i < 3; i++) await refusedWith(login(auth, `x${i}`, 'bad', '10.0.0.1'), 'unauthenticated');
    await refusedWith(login(auth, 'x9', 'bad', '10.0.0.1'), 'rate_limited', 1);
    expect(calls.n).toBe(13);
    // Another address is not affected; after a second the first has one more try.
    await refusedWith(login(auth, 'x9', 'bad', '10.0.0.2'), 'unauthenticated');
    now += 1000;
    await refusedWith(login(auth, 'x9', 'bad', '10.0.0.1'), 'unauthenticated');
  });

  it('when the queue is full, then the refresh of a cached credential still gets through (ahead of the queue)', async () => {
    let now = 1000;
    const { client, state } = slowAccounts();
    const auth = authenticator(client, { verifyConcurrency: 1, verifyQueue: 1, now: () => now });
    const first = login(auth, 'ann', 'right');
    await settle(state);
    state.release.shift()!();
    await first;
    // A flood fills the slot and the queue; the owner's credential, re-verified after expiry, queues first.
    const flood = [0, 1].map((i) => login(auth, `u${i}`, 'x').catch((e: unknown) => e));
    now += 30_001;
    const owner = login(auth, 'ann', 'right');
    await settle(state);
    state.release.shift()!(); // u0 done: the owner goes next, before u1
    await settle(state);
    state.release.shift()!();
    await expect(owner).resolves.toMatchObject({ accountId: '7' });
    for (const r of state.release.splice(0)) r();
    await Promise.all(flood);
  });

  it('when an address is over its budget, then shedBeforeWork refuses its new guesses (429) but not a cached, known-good or in-flight credential, nor another address', async () => {
    let now = 1000;
    const { client } = accounts();
    const auth = authenticator(client, {
      maxFailures: 1000,
      lockoutMs: 0,
      addressPerSecond: 1,
      addressBurst: 2,
      now: () => now,
    });
    await login(auth, 'ann', 'right', '10.0.0.1');
    expect(auth.shedBeforeWork(header('x0', 'bad'), '10.0.0.1')).toBeUndefined();
    for (let i = 0; i < 2; i++) await refusedWith(login(auth, `x${i}`, 'bad', '10.0.0.1'), 'unauthenticated');
    expect(auth.shedBeforeWork(header('x9', 'bad'), '10.0.0.1')).toEqual({ status: 429, retryAfter: 1 });
    // What authenticate() would answer too.
    await refusedWith(login(auth, 'x9', 'bad', '10.0.0.1'), 'rate_limited');
    expect(auth.shedBeforeWork(header('ann', 'right'), '10.0.0.1')).toBeUndefined();
    expect(auth.shedBeforeWork(header('x9', 'bad'), '10.0.0.2')).toBeUndefined();
    expect(auth.shedBeforeWork(undefined, '10.0.0.1')).toBeUndefined();
    expect(auth.shedBeforeWork('Basic !!!', '10.0.0.1')).toBeUndefined();
    // Past the cache entry but within the 15 minutes the credential is remembered as the owner's.
    now += 60_000;
    for (const u of ['x7', 'x8']) await refusedWith(login(auth, u, 'bad', '10.0.0.1'), 'unauthenticated');
    expect(auth.shedBeforeWork(header('x9', 'bad'), '10.0.0.1')).toMatchObject({ status: 429 });
    expect(auth.shedBeforeWork(header('ann', 'right'), '10.0.0.1')).toBeUndefined();
  });

  it('when the verifier queue is full, then shedBeforeWork refuses new credentials with 503 + Retry-After 1, but lets a credential being verified join it', async () => {
    const { client, state } = slowAccounts();
    const auth = authenticator(client, { verifyConcurrency: 1, verifyQueue: 1 });
    const pending = [0, 1].map((i) => login(auth, `u${i}`, 'x').catch((e: unknown) => e));
    await settle(state);
    expect(auth.shedBeforeWork(header('u9', 'x'), '')).toEqual({ status: 503, retryAfter: 1 });
    expect(auth.shedBeforeWork(header('u0', 'x'), '')).toBeUndefined();
    await releaseAll(state);
    await Promise.all(pending);
    expect(auth.shedBeforeWork(header('u9', 'x'), '')).toBeUndefined();
  });
});
