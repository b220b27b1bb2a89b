// Password guesses through every door of the real gateway, the applications service and Postgres:
// the `current` password of PUT /v1/users/me/password is checked like a sign-in (the username's
// lockout, the client address's budget of failed logins, audited), browser sign-in keys that budget
// by the IPv6 /64 as HTTP Basic does, and a sign-in that hands out a session is never answered from
// the cache of verified passwords.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  queryDatabase,
  startServices,
  waitFor,
  type JsonBody,
  type Services,
  type TestAccount,
} from '../../../test/support';

let stack: Services<{ gateway: true }>;

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    env: {
      AUTH_MAX_FAILURES: '3',
      AUTH_LOCKOUT_MS: '60000',
      AUTH_ADDRESS_FAILURES_PER_SECOND: '0.01',
      AUTH_ADDRESS_FAILURES_BURST: '5',
      TRUSTED_PROXIES: '127.0.0.0/8',
    },
  });
});
afterAll(async () => stack?.stop());

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const signIn = (username: string, password: string, forwardedFor: string) =>
  fetch(`${stack.baseUrl}/v1/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.baseUrl, 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ username, password }),
  });
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!;
const change = (cookie: string, current: string, forwardedFor: string, next = 'a-brand-new-password') =>
  stack.request(
    undefined,
    'PUT',
    '/v1/users/me/password',
    { current, new: next },
    { cookie, origin: stack.baseUrl, 'x-forwarded-for': forwardedFor },
  );

describe('the password change', () => {
  it("when a stolen session guesses `current`, then the username locks out after AUTH_MAX_FAILURES (429 + Retry-After, even for the right one), each failure is audited, and the owner's cached Basic credential keeps working", async () => {
    const victim: TestAccount = await stack.createAccount('victim');
    // The owner's integration: its password verified and cached.
    expect((await stack.request(victim, 'GET', '/v1/applications')).status).toBe(200);
    const cookie = cookieOf(await signIn(victim.username, victim.password, '198.51.100.10'));
    for (let i = 0; i < 3; i++) {
      const res = await change(cookie, `guess-number-${i}`, `198.51.100.1${i}`);
      expect(res.status, `guess ${i}`).toBe(400);
      expect((await json(res)).errors).toEqual([{ field: 'current', message: 'is not the current password' }]);
    }
    const locked = await change(cookie, 'guess-number-3', '198.51.100.13');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Locked out, the right password changes nothing either: the lockout tells the guesser nothing.
    expect((await change(cookie, victim.password, '198.51.100.13')).status).toBe(429);
    expect((await stack.request(victim, 'GET', '/v1/applications')).status).toBe(200);
    // Each wrong guess is in the account's audit log (one entry per address in the window).
    const entries = () =>
      queryDatabase<{ outcome: string; ip: string }>(
        stack.databaseUrl,
        `select e.outcome, e.ip from applications.audit_events e join applications.accounts a on a.id = e.account_id
          where a.username = $1 and e.action = 'password.change' order by e.ip`,
        [victim.username],
      );
    await waitFor(async () => (await entries()).length === 3, { what: 'three failed password changes audited' });
    expect(await entries()).toEqual(
      ['198.51.100.10', '198.51.100.11', '198.51.100.12'].map((ip) => ({ outcome: 'failure', ip })),
    );
  });

  it('when guesses come from one address, then password changes and sign-ins share its budget of failed logins', async () => {
    const owner = await stack.createAccount('owner');
    const cookie = cookieOf(await signIn(owner.username, owner.password, '192.0.2.50'));
    // AUTH_ADDRESS_FAILURES_BURST is 5: two wrong password changes and three wrong sign-ins use it up.
    for (let i = 0; i < 2; i++) expect((await change(cookie, `wrong-${i}-password`, '192.0.2.77')).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await signIn(`nobody-${i}`, 'wrong-password', '192.0.2.77')).status).toBe(401);
    const refused = await change(cookie, 'wrong-9-password', '192.0.2.77');
    expect(refused.status).toBe(429);
    expect((await json(refused)).error).toMatch(/from this address/);
    // Another address still may, and the right password changes it.
    const changed = await change(cookie, owner.password, '192.0.2.78');
    expect(changed.status).toBe(200);
  });
});

describe('revoking keys with the password', () => {
  it('when the password is changed with revokeKeys, then every key of the account is refused at once and the revocations are audited; without it the keys keep working', async () => {
    const fay = await stack.createAccount('fay');
    const make = async (name: string) =>
      ((await json(await stack.request(fay, 'POST', '/v1/api-keys', { name, scope: 'full' }))) as { key: string }).key;
    const keys = [await make('one'), await make('two')];
    const read = (key: string) =>
      fetch(`${stack.baseUrl}/v1/applications`, { headers: { authorization: `Bearer ${key}` } });
    for (const k of keys) expect((await read(k)).status).toBe(200); // verified and remembered
    const cookie = cookieOf(await signIn(fay.username, fay.password, '203.0.113.30'));
    const kept = await change(cookie, fay.password, '203.0.113.30', 'second-password-for-fay');
    expect(kept.status).toBe(200);
    for (const k of keys) expect((await read(k)).status).toBe(200);
    const again = cookieOf(await signIn(fay.username, 'second-password-for-fay', '203.0.113.30'));
    const res = await stack.request(
      undefined,
      'PUT',
      '/v1/users/me/password',
      { current: 'second-password-for-fay', new: 'third-password-for-fay', revokeKeys: true },
      { cookie: again, origin: stack.baseUrl },
    );
    expect(res.status).toBe(200);
    for (const k of keys) expect((await read(k)).status).toBe(401);
    const revoked = await queryDatabase<{ n: string }>(
      stack.databaseUrl,
      `select count(*) as n from applications.audit_events e join applications.accounts a on a.id = e.account_id
        where a.username = $1 and e.action = 'api-key.revoke'`,
      [fay.username],
    );
    expect(Number(revoked[0]!.n)).toBe(2);
    // Every session ended with the change: the new password signs the next request.
    const now = {
      ...fay,
      authorization: `Basic ${Buffer.from(`${fay.username}:third-password-for-fay`).toString('base64')}`,
    };
    const bad = await stack.request(now, 'PUT', '/v1/users/me/password', {
      current: 'third-password-for-fay',
      new: 'yyyyyyyyyy',
      revokeKeys: 'yes',
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors).toEqual([{ field: 'revokeKeys', message: 'must be true or false' }]);
  });
});

describe('browser sign-in', () => {
  it('when an IPv6 client rotates addresses within its /64, then its failed sign-ins share one budget, while the next /64 has its own', async () => {
    for (let i = 1; i <= 5; i++)
      expect((await signIn(`v6-nobody-${i}`, 'wrong-password', `2001:db8:77:1::${i}`)).status).toBe(401);
    const rotated = await signIn('v6-nobody-r', 'wrong-password', '2001:db8:77:1:ffff:1234:5678:9abc');
    expect(rotated.status).toBe(429);
    expect((await signIn('v6-nobody-n', 'wrong-password', '2001:db8:77:2::1')).status).toBe(401);
  });

  it('when the password was changed behind the cache, then Basic reads are still answered from it but a sign-in or a key creation checks the password itself', async () => {
    const carol = await stack.createAccount('carol');
    const other = await stack.createAccount('other');
    expect((await stack.request(carol, 'GET', '/v1/applications')).status).toBe(200); // cached
    // The password replaced in the database, with no announcement to the gateway.
    await queryDatabase(
      stack.databaseUrl,
      'update applications.accounts set password_hash = (select password_hash from applications.accounts where username = $1) where username = $2',
      [other.username, carol.username],
    );
    expect((await stack.request(carol, 'GET', '/v1/applications')).status).toBe(200);
    // Nor is a key handed out on the cache's memory of the password.
    const key = await stack.request(carol, 'POST', '/v1/api-keys', { name: 'late', scope: 'full' });
    expect(key.status).toBe(401);
    const res = await signIn(carol.username, carol.password, '203.0.113.9');
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect((await signIn(carol.username, other.password, '203.0.113.9')).status).toBe(200);
  });
});

describe('guesses of keys and cookies', () => {
  it('when an address guesses Bearer keys, Basic key ids and session cookies, then each refusal takes from its budget of failed logins, and over it the next is 429 before any check', async () => {
    const dave = await stack.createAccount('dave');
    const key = (await json(await stack.request(dave, 'POST', '/v1/api-keys', { name: 'ci', scope: 'full' }))) as {
      id: string;
      key: string;
    };
    const from = (headers: Record<string, string>) =>
      fetch(`${stack.baseUrl}/v1/applications`, { headers: { 'x-forwarded-for': '192.0.2.200', ...headers } });
    const wrongKey = `sbk_${'B'.repeat(43)}`;
    // The owner's key, verified once (so remembered), is no guess.
    expect((await from({ authorization: `Bearer ${key.key}` })).status).toBe(200);
    const guesses: Record<string, string>[] = [
      { authorization: `Bearer ${wrongKey}` },
      { authorization: `Bearer sbk_${'C'.repeat(43)}` },
      { authorization: `Basic ${Buffer.from(`${key.id}:${wrongKey}`).toString('base64')}` },
      { cookie: `__Host-sb_session=${'x'.repeat(43)}` },
      { cookie: `__Host-sb_session=${'y'.repeat(43)}` },
    ];
    for (const headers of guesses) expect((await from(headers)).status, JSON.stringify(headers)).toBe(401);
    for (const headers of [...guesses, { cookie: `__Host-sb_session=${'z'.repeat(43)}` }]) {
      const res = await from(headers);
      expect(res.status, JSON.stringify(headers)).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The remembered key still works from there, and the budget is the address's alone.
    expect((await from({ authorization: `Bearer ${key.key}` })).status).toBe(200);
    expect(
      (
        await fetch(`${stack.baseUrl}/v1/applications`, {
          headers: { 'x-forwarded-for': '192.0.2.201', authorization: `Bearer ${wrongKey}` },
        })
      ).status,
    ).toBe(401);
  });

  it('when a session is used again and again within a minute, then its idle clock is written once, at sign-in', async () => {
    const erin = await stack.createAccount('erin');
    const cookie = cookieOf(await signIn(erin.username, erin.password, '203.0.113.20'));
    const seen = async () =>
      (
        await queryDatabase<{ t: string }>(
          stack.databaseUrl,
          `select s.last_seen_at::text as t from applications.console_sessions s join applications.accounts a
            on a.id = s.account_id where a.username = $1`,
          [erin.username],
        )
      )[0]!.t;
    const first = await seen();
    for (let i = 0; i < 5; i++)
      expect((await stack.request(undefined, 'GET', '/v1/applications', undefined, { cookie })).status).toBe(200);
    expect(await seen()).toBe(first);
  });
});

describe('the lockout across replicas', () => {
  it("when guesses at one username alternate between two gateway replicas, then it locks out after AUTH_MAX_FAILURES in all, as behind one gateway, and the owner's verified credential keeps working on both", async () => {
    const target = await stack.createAccount('target');
    const second = await stack.startGateway();
    const bases = [stack.baseUrl, second.baseUrl];
    const basic = (p: string) => `Basic ${Buffer.from(`${target.username}:${p}`).toString('base64')}`;
    const get = (base: string, authorization: string, forwardedFor: string) =>
      fetch(`${base}/v1/applications`, { headers: { authorization, 'x-forwarded-for': forwardedFor } });
    // The owner's integration is verified on both replicas before the attack.
    for (const base of bases) expect((await get(base, target.authorization, '203.0.113.50')).status).toBe(200);
    const statuses: number[] = [];
    // Each guess from an address of its own: only the username's lockout can refuse them.
    for (let i = 0; i < 6; i++)
      statuses.push((await get(bases[i % 2]!, basic(`guess-${i}`), `198.18.0.${i + 1}`)).status);
    // AUTH_MAX_FAILURES is 3: three guesses checked in all, not three per replica.
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    const refused = await get(second.baseUrl, basic('guess-x'), '198.18.0.99');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const base of bases) expect((await get(base, target.authorization, '203.0.113.50')).status).toBe(200);
  });
});
