// Browser sign-in and its cookie, through the real gateway, the applications service and Postgres:
// the username and password are checked as typed (a `:` in the username never moves the rest into
// the password), usernames with `:` cannot be made, and a request carrying the session cookie twice
// is refused.
import { describe, expect, it } from 'vitest';
import { createAccount } from '@switchboard/applications/accounts';
import { AppError } from '@switchboard/errors';
import { randomName, type JsonBody, type Services, type TestAccount } from '../../../test/support';
import { useGatewayStack } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;

useGatewayStack({}, (f) => ({ stack, alice } = f));

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const signIn = (username: string, password: string) =>
  fetch(`${stack.baseUrl}/v1/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.baseUrl },
    body: JSON.stringify({ username, password }),
  });
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!;

describe('usernames with a colon', () => {
  it('when a username holds ":", then the account cannot be made (400 naming username)', async () => {
    for (const username of ['alice:x', ':alice', 'alice:']) {
      const err = await createAccount(stack.applications.app.orm.em.fork(), username, 'long-enough-password').catch(
        (e: unknown) => e,
      );
      expect(err, username).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('invalid_request');
      expect((err as AppError).errors?.map((f) => f.field)).toEqual(['username']);
    }
  });

  it('when a browser signs in with "user:first part" and the rest of that user\'s password, then 401: the pair is checked as typed', async () => {
    const username = randomName('carol');
    const password = 'split:correct-horse-battery';
    await createAccount(stack.applications.app.orm.em.fork(), username, password);
    const shifted = await signIn(`${username}:split`, 'correct-horse-battery');
    expect(shifted.status).toBe(401);
    expect(shifted.headers.get('set-cookie')).toBeNull();
    const right = await signIn(username, password);
    expect(right.status).toBe(200);
    expect(((await json(right)).user as Record<string, JsonBody>).username).toBe(username);
  });
});

describe('the session cookie', () => {
  it('when a request carries the session cookie twice, then 401 on the API and on the session read, whichever comes first; once, it works', async () => {
    const first = cookieOf(await signIn(alice.username, alice.password));
    const second = cookieOf(await signIn(alice.username, alice.password));
    expect(first).toMatch(/^__Host-sb_session=/);
    const get = (cookie: string, path: string) => fetch(`${stack.baseUrl}${path}`, { headers: { cookie } });
    for (const path of ['/v1/applications', '/v1/console/session']) {
      expect((await get(first, path)).status, path).toBe(200);
      for (const cookie of [`${first}; ${second}`, `${second}; other=1; ${first}`, `${first}; ${first}`]) {
        const res = await get(cookie, path);
        expect(res.status, `${path} with ${cookie}`).toBe(401);
        expect(await json(res)).toMatchObject({ code: 'unauthenticated' });
      }
    }
    const write = await fetch(`${stack.baseUrl}/v1/applications`, {
      method: 'POST',
      headers: { cookie: `${first}; ${second}`, origin: stack.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', voiceUrl: 'https://example.com/v' }),
    });
    expect(write.status).toBe(401);
    // The name without its prefix is no session cookie (a sibling host could set that one).
    const bare = first.replace(/^__Host-/, '');
    expect((await get(bare, '/v1/applications')).status).toBe(401);
    expect((await get(bare, '/v1/console/session')).status).toBe(204);
  });
});
