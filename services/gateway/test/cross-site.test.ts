// Writes from another site, through the real gateway, the applications and webhooks services and
// Postgres: a page elsewhere that makes the browser POST, PUT or DELETE with the credentials it keeps
// for this API (Basic credentials it cached, an API key, the console's cookie) is refused with 403
// before anything changes, on /v1 and /rest/v1; a body-less POST with a form or text type is a 415.
// Clients that send no Origin (curl, the Tropo libraries) are unaffected.
import { describe, expect, it } from 'vitest';
import type { JsonBody, Services, TestAccount } from '../../../test/support';
import { consoleSignIn, createApplication, useGatewayStack } from './harness';

let stack: Services<{ gateway: true; webhooks: true }>;

useGatewayStack({ webhooks: true }, (f) => ({ stack } = f));

type Body = Record<string, JsonBody>;
const json = async (res: Response) => (await res.json()) as Body;
const EVIL = 'https://evil.example';

const createApp = (account: TestAccount) => createApplication(stack, account, { name: 'target' });

const secretOf = async (account: TestAccount, app: string) =>
  (await json(await stack.request(account, 'GET', `/v1/applications/${app}/secret`))).secret;

async function expectForbidden(res: Response, what: string): Promise<void> {
  expect(res.status, what).toBe(403);
  expect(res.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
  expect(await json(res), what).toMatchObject({ status: 403, code: 'forbidden' });
}

describe('writes from another site', () => {
  it('when another site makes the browser write with cached Basic credentials, a key or a session cookie, then 403 and nothing changes, on /v1 and /rest/v1', async () => {
    const me = await stack.createAccount('victim');
    const app = await createApp(me);
    const before = await secretOf(me, app);
    const key = String(
      (await json(await stack.request(me, 'POST', '/v1/api-keys', { name: 'ci', scope: 'full' }))).key,
    );
    const { res: signIn, cookie } = await consoleSignIn(stack, me, { origin: stack.baseUrl });
    expect(signIn.status).toBe(200);
    const credentials: Record<string, Record<string, string>> = {
      basic: { authorization: me.authorization },
      key: { authorization: `Bearer ${key}` },
      cookie: { cookie },
    };
    // What a browser marks a request from another page with: a foreign Origin, an opaque one, or
    // (whatever the Origin) Sec-Fetch-Site.
    const marks: Record<string, Record<string, string>> = {
      'a foreign Origin': { origin: EVIL },
      'Origin: null': { origin: 'null' },
      'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site' },
      'our Origin but Sec-Fetch-Site: cross-site': { origin: stack.baseUrl, 'sec-fetch-site': 'cross-site' },
    };
    for (const [credential, auth] of Object.entries(credentials)) {
      for (const [mark, headers] of Object.entries(marks)) {
        for (const prefix of ['/v1', '/rest/v1']) {
          const what = `${credential}, ${mark}, ${prefix}`;
          // A form POST: the simple request a page can make without asking.
          await expectForbidden(
            await stack.request(undefined, 'POST', `${prefix}/applications/${app}/secret/rotate`, 'x=1', {
              ...auth,
              ...headers,
              'content-type': 'application/x-www-form-urlencoded',
            }),
            `rotate: ${what}`,
          );
          await expectForbidden(
            await stack.request(
              undefined,
              'PUT',
              `${prefix}/applications/${app}`,
              { name: 'renamed' },
              {
                ...auth,
                ...headers,
              },
            ),
            `update: ${what}`,
          );
          await expectForbidden(
            await stack.request(undefined, 'DELETE', `${prefix}/applications/${app}`, undefined, {
              ...auth,
              ...headers,
            }),
            `delete: ${what}`,
          );
        }
        await expectForbidden(
          await stack.request(
            undefined,
            'POST',
            '/v1/api-keys',
            { name: 'planted', scope: 'full' },
            {
              ...auth,
              ...headers,
            },
          ),
          `key create: ${credential}, ${mark}`,
        );
      }
      // Reads from another site are answered (the browser keeps the answer from the page).
      expect(
        (await stack.request(undefined, 'GET', `/v1/applications/${app}`, undefined, { ...auth, origin: EVIL })).status,
      ).toBe(200);
    }
    // Nor can another site sign the browser in (to an account of its choosing) or out.
    for (const [method, body] of [
      ['POST', { username: me.username, password: me.password }],
      ['DELETE', undefined],
    ] as const)
      await expectForbidden(
        await stack.request(undefined, method, '/v1/console/session', body, {
          cookie,
          origin: stack.baseUrl,
          'sec-fetch-site': 'cross-site',
        }),
        `${method} /v1/console/session`,
      );
    expect((await fetch(`${stack.baseUrl}/v1/console/session`, { headers: { cookie } })).status).toBe(200);
    expect(await secretOf(me, app)).toBe(before);
    const read = await json(await stack.request(me, 'GET', `/v1/applications/${app}`));
    expect(read.name).toBe('target');
    expect((await stack.listAll(me, '/v1/api-keys')).map((k) => k.name)).toEqual(['ci']);
  });

  it('when a write comes from our own origin, a same-site page or a client that sends no Origin, then it is made', async () => {
    const me = await stack.createAccount('writer');
    const app = await createApp(me);
    const rotate = (headers: Record<string, string>) =>
      stack.request(me, 'POST', `/rest/v1/applications/${app}/secret/rotate`, undefined, headers);
    for (const headers of [
      {} as Record<string, string>,
      { origin: stack.baseUrl },
      { origin: stack.baseUrl, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
    ]) {
      const before = await secretOf(me, app);
      const res = await rotate(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect((await json(res)).secret).not.toBe(before);
    }
  });

  it('when a POST or PUT has no body but declares a form or text type, then 415 and nothing changes; without a type or with JSON it is made', async () => {
    const me = await stack.createAccount('bodiless');
    const app = await createApp(me);
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const before = await secretOf(me, app);
      for (const path of [`/v1/applications/${app}/secret/rotate`, `/rest/v1/applications/${app}/secret/rotate`]) {
        const res = await stack.request(me, 'POST', path, undefined, { 'content-type': type });
        expect(res.status, `${type} ${path}`).toBe(415);
        expect(await json(res)).toMatchObject({ code: 'unsupported_media_type' });
      }
      const put = await stack.request(me, 'PUT', `/v1/applications/${app}`, undefined, { 'content-type': type });
      expect(put.status, `PUT ${type}`).toBe(415);
      expect(await secretOf(me, app)).toBe(before);
    }
    for (const headers of [
      {} as Record<string, string>,
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json; charset=utf-8' },
    ]) {
      const res = await stack.request(me, 'POST', `/v1/applications/${app}/secret/rotate`, undefined, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });
});
