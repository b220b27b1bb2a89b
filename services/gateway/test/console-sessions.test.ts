// Browser sessions of the console through the real gateway, the applications service and Postgres:
// sign-in (cookie flags, the lockout of Basic auth), the cookie authenticating the API, the Origin
// rule for writes, sign-out, idle and absolute expiry (the default lifetimes, on a clock the test
// moves), and a password change ending every session of the account and the old password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  queryDatabase,
  startServices,
  type RunningGateway,
  type Services,
  type TestAccount,
  type JsonBody,
} from '../../../test/support';
import { consoleSignIn } from './harness';

const MINUTE = 60_000;
const IDLE_MS = 30 * MINUTE;
const TTL_MS = 12 * 60 * MINUTE;
/**
 * The applications service measures sessions by the wall clock moved on by `ahead` ms, or, while a
 * test holds it, by the instant `held` (the requests between two steps then take no session time).
 */
let ahead = 0;
let held: number | undefined;
const now = () => new Date(held ?? Date.now() + ahead);

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
/** A replica whose PUBLIC_BASE_URL is https (the cookie's Secure attribute). */
let https: RunningGateway;

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    now,
    env: {
      CONSOLE_SESSION_IDLE_MS: String(IDLE_MS),
      CONSOLE_SESSION_TTL_MS: String(TTL_MS),
      AUTH_MAX_FAILURES: '3',
      AUTH_LOCKOUT_MS: '60000',
    },
  });
  alice = await stack.createAccount('alice');
  https = await stack.startGateway({ PUBLIC_BASE_URL: 'https://api.switchboard.example' });
});
afterAll(async () => stack?.stop());

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const origin = () => stack.baseUrl;

/** Signs in at `base` (this gateway, or the https replica). */
const signIn = (account: TestAccount, base = stack.baseUrl) => consoleSignIn({ baseUrl: base }, account);

/** A request authenticated by the cookie only (checked against the OpenAPI document). */
const withCookie = (
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => stack.request(undefined, method, path, body, { cookie, ...headers });

describe('browser sessions', () => {
  it('when a user signs in, then the answer names the user and the end, and the cookie is __Host-sb_session, HttpOnly, SameSite=Strict, Secure, Path=/ (over http on loopback too)', async () => {
    const { res, cookie } = await signIn(alice);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.user).toMatchObject({ id: Number(alice.id), username: alice.username });
    const end = Date.parse(body.expiresAt);
    expect(end).toBeGreaterThan(now().getTime() + TTL_MS - 2000);
    expect(end).toBeLessThanOrEqual(now().getTime() + TTL_MS + 1000);
    const attributes = res.headers
      .get('set-cookie')!
      .split(';')
      .map((a) => a.trim());
    expect(cookie).toMatch(/^__Host-sb_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', 'Secure']));
    expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false);
    // Only a hash of the token is stored.
    const dump = JSON.stringify(await queryDatabase(stack.databaseUrl, 'select * from applications.console_sessions'));
    expect(dump).not.toContain(cookie.slice('__Host-sb_session='.length));

    const secure = await signIn(alice, https.baseUrl);
    expect(secure.res.status).toBe(200);
    expect(
      secure.res.headers
        .get('set-cookie')!
        .split(';')
        .map((a) => a.trim()),
    ).toContain('Secure');
  });

  it("when the cookie is sent, then it authenticates reads; writes need the API's own Origin, else 403", async () => {
    const { cookie } = await signIn(alice);
    expect((await withCookie(cookie, 'GET', '/v1/applications')).status).toBe(200);
    const app = { name: 'from the console', voiceUrl: 'https://example.com/voice' };
    for (const headers of [{}, { origin: 'https://evil.example' }, { origin: 'null' }] as Record<string, string>[]) {
      const res = await withCookie(cookie, 'POST', '/v1/applications', app, headers);
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe('forbidden');
    }
    const created = await withCookie(cookie, 'POST', '/v1/applications', app, { origin: origin() });
    expect(created.status).toBe(200);
    const path = new URL((await json(created)).href).pathname;
    expect((await withCookie(cookie, 'DELETE', path, undefined, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await withCookie(cookie, 'DELETE', path, undefined, { origin: origin() })).status).toBe(200);
  });

  it('when the password is wrong, then 401 and no cookie; repeated failures lock the user out as Basic auth does', async () => {
    const victim = await stack.createAccount('victim');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${stack.baseUrl}/v1/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: victim.username, password: `guess-${i}` }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect((await signIn(victim)).res.status).toBe(429);
    expect((await stack.request(victim, 'GET', '/v1/applications')).status).toBe(429);
  });

  it('when a user signs out, then the cookie is cleared and the session no longer authenticates', async () => {
    const { cookie } = await signIn(alice);
    expect(
      (await withCookie(cookie, 'DELETE', '/v1/console/session', undefined, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    const out = await withCookie(cookie, 'DELETE', '/v1/console/session', undefined, { origin: origin() });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-sb_session=; Max-Age=0/);
    expect((await withCookie(cookie, 'GET', '/v1/applications')).status).toBe(401);
  });

  it('when a session goes unused for the idle time, then it ends; used more often, it lasts until its absolute end', async () => {
    // The clock held: the three sign in at one instant, and each step is exactly `ms` after it.
    const start = Date.now() + ahead;
    held = start;
    const at = (ms: number) => {
      held = start + ms;
    };
    try {
      await sessionLifetimes(at);
    } finally {
      ahead = held - Date.now();
      held = undefined;
    }
  });

  async function sessionLifetimes(at: (ms: number) => void) {
    const idle = await signIn(alice);
    const edge = await signIn(alice);
    const busy = await signIn(alice);
    const status = async (s: { cookie: string }) => (await withCookie(s.cookie, 'GET', '/v1/applications')).status;
    // A second before its idle time is up a session still works, and that use restarts its idle clock.
    at(IDLE_MS - 1000);
    expect(await status(edge)).toBe(200);
    // The busy session is used every 20 minutes; the idle one not at all.
    for (let t = 20 * MINUTE; t < IDLE_MS + 20 * MINUTE; t += 20 * MINUTE) {
      at(t);
      expect(await status(busy)).toBe(200);
    }
    at(IDLE_MS + 1000);
    expect(await status(idle)).toBe(401);
    at(2 * IDLE_MS - 2000);
    expect(await status(edge)).toBe(200);
    at(3 * IDLE_MS);
    expect(await status(edge)).toBe(401);
    for (let t = IDLE_MS + 20 * MINUTE; t < TTL_MS; t += 20 * MINUTE) {
      at(t);
      expect(await status(busy), `${t / MINUTE} minutes after sign-in`).toBe(200);
    }
    at(TTL_MS - 1000);
    expect(await status(busy)).toBe(200);
    at(TTL_MS + 1000);
    expect(await status(busy)).toBe(401);
  }

  it('when a sign-in or password change lacks a field, then 400 naming each missing field', async () => {
    const post = (body: unknown) =>
      fetch(`${stack.baseUrl}/v1/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const body of [{}, { username: '', password: 3 }, []]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).errors, JSON.stringify(body)).toEqual([
        { field: 'username', message: 'is required' },
        { field: 'password', message: 'is required' },
      ]);
    }
    const res = await stack.request(alice, 'PUT', '/v1/users/me/password', { current: null });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual([
      { field: 'current', message: 'is required' },
      { field: 'new', message: 'is required (8-1024 characters)' },
    ]);
  });

  it('when the password is changed, then every browser session of the account ends, the old password is refused at once and the new one works', async () => {
    const bob = await stack.createAccount('bob');
    const first = await signIn(bob);
    const second = await signIn(bob);
    // The old password is in the gateway's cache of verified passwords.
    expect((await stack.request(bob, 'GET', '/v1/applications')).status).toBe(200);
    const wrong = await withCookie(
      first.cookie,
      'PUT',
      '/v1/users/me/password',
      { current: 'not-it-at-all', new: 'a-new-password' },
      { origin: origin() },
    );
    expect(wrong.status).toBe(400);
    const changed = await withCookie(
      first.cookie,
      'PUT',
      '/v1/users/me/password',
      { current: bob.password, new: 'a-new-password' },
      { origin: origin() },
    );
    expect(changed.status).toBe(200);
    expect((await json(changed)).username).toBe(bob.username);
    for (const s of [first, second]) expect((await withCookie(s.cookie, 'GET', '/v1/applications')).status).toBe(401);
    expect((await stack.request(bob, 'GET', '/v1/applications')).status).toBe(401);
    const now = { ...bob, authorization: `Basic ${Buffer.from(`${bob.username}:a-new-password`).toString('base64')}` };
    expect((await stack.request(now, 'GET', '/v1/applications')).status).toBe(200);
  });
});
