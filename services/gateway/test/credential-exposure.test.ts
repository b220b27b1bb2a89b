// What the API shows of an account's credentials, through the real gateway, the applications and
// webhooks services and Postgres: signing secrets only to a `full` credential (a `read` key gets 403
// on /v1 and /rest/v1), session tokens and session ids masked for a `read` key, and
// `Cache-Control: no-store` on every answer that carries a secret, a key or a token.
import { describe, expect, it } from 'vitest';
import { queryDatabase, randomName, type JsonBody, type Services, type TestAccount } from '../../../test/support';
import { compressBody } from '../../webhooks/src/deliveries/bodies';
import { storeSession } from '../../webhooks/src/sessions/store-session';
import { createApplication, useGatewayStack } from './harness';

let stack: Services<{ gateway: true; webhooks: true }>;
let alice: TestAccount;

useGatewayStack({ webhooks: true }, (f) => ({ stack, alice } = f));

type Body = Record<string, JsonBody>;
const json = async (res: Response) => (await res.json()) as Body;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
const send = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
  stack.request(undefined, method, path, body, headers);

async function createKey(account: TestAccount, scope: 'full' | 'read'): Promise<{ id: string; key: string }> {
  const res = await stack.request(account, 'POST', '/v1/api-keys', { name: `${scope} key`, scope });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = await json(res);
  return { id: String(body.id), key: String(body.key) };
}

const createApp = (account: TestAccount) => createApplication(stack, account, { name: 'exposed' });

async function createHook(account: TestAccount): Promise<string> {
  const res = await stack.request(account, 'POST', '/v1/webhooks', {
    event: 'smsdlr',
    resource: 'sms',
    targetUrl: 'https://example.com/hook',
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = await json(res);
  expect(String(body.secret)).toMatch(/^whsec_/);
  return String(body.href).split('/').pop()!;
}

describe('signing secrets', () => {
  it('when a read key asks for a signing secret, then 403 insufficient_scope on /v1 and /rest/v1; a full key, the password and a session read it, never cached', async () => {
    const me = await stack.createAccount('secrets');
    const app = await createApp(me);
    const hook = await createHook(me);
    const read = await createKey(me, 'read');
    const full = await createKey(me, 'full');
    const secretPaths = [
      `/v1/applications/${app}/secret`,
      `/rest/v1/applications/${app}/secret`,
      `/v1/webhooks/${hook}/secret`,
    ];
    for (const path of secretPaths) {
      for (const headers of [bearer(read.key), basic(read.id, read.key)]) {
        const res = await send(headers, 'GET', path);
        expect(res.status, `${path} with a read key`).toBe(403);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await json(res)).toMatchObject({ status: 403, code: 'insufficient_scope' });
      }
      for (const headers of [bearer(full.key), basic(full.id, full.key), { authorization: me.authorization }]) {
        const res = await send(headers, 'GET', path);
        expect(res.status, `${path} with a full credential`).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(String((await json(res)).secret)).toMatch(/^whsec_/);
      }
    }
    // The API router answers webhooks under /rest/v1 too (undocumented there): the same rule.
    const undocumented = await fetch(`${stack.baseUrl}/rest/v1/webhooks/${hook}/secret`, { headers: bearer(read.key) });
    expect(undocumented.status).toBe(403);
    // The read key still reads everything else of the application and the subscription.
    expect((await send(bearer(read.key), 'GET', `/v1/applications/${app}`)).status).toBe(200);
    expect((await send(bearer(read.key), 'GET', `/v1/webhooks/${hook}`)).status).toBe(200);
    // A refused read leaves no audit entry of a secret read.
    const log = (await json(
      await stack.request(me, 'GET', '/v1/audit-events?action=application.secret.read'),
    )) as never as {
      actor: { id: string };
    }[];
    expect(log.map((e) => e.actor.id)).not.toContain(read.id);
  });

  it('when a secret is rotated, then the answer is not cached', async () => {
    const me = await stack.createAccount('rotate');
    const app = await createApp(me);
    const hook = await createHook(me);
    for (const path of [
      `/v1/applications/${app}/secret/rotate`,
      `/rest/v1/applications/${app}/secret/rotate`,
      `/v1/webhooks/${hook}/secret/rotate`,
    ]) {
      const res = await stack.request(me, 'POST', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

describe('session tokens and session ids', () => {
  it('when a read key lists or reads addresses, then every session token reads *** (its href too), on /v1 and /rest/v1; a full credential sees it, never cached', async () => {
    const me = await stack.createAccount('tokens');
    const app = await createApp(me);
    const claimed = await stack.request(me, 'POST', `/v1/applications/${app}/addresses`, {
      type: 'token',
      channel: 'voice',
    });
    expect(claimed.status).toBe(200);
    expect(claimed.headers.get('cache-control')).toBe('no-store');
    const token = String((await json(claimed)).href)
      .split('/')
      .pop()!;
    const read = await createKey(me, 'read');
    for (const prefix of ['/v1', '/rest/v1']) {
      for (const path of [`${prefix}/applications/${app}/addresses`, `${prefix}/applications/${app}/addresses/token`]) {
        const masked = await send(bearer(read.key), 'GET', path);
        expect(masked.status, path).toBe(200);
        expect(masked.headers.get('cache-control')).toBe('no-store');
        const text = await masked.text();
        expect(text, path).not.toContain(token);
        const [address] = JSON.parse(text) as Body[];
        expect(address).toMatchObject({
          type: 'token',
          channel: 'voice',
          token: '***',
          href: `${stack.baseUrl}/rest/v1/applications/${app}/addresses/token/***`,
        });
        const clear = (await json(await stack.request(me, 'GET', path))) as never as Body[];
        expect(clear[0]).toMatchObject({ type: 'token', token });
      }
      const one = await send(bearer(read.key), 'GET', `${prefix}/applications/${app}/addresses/token/${token}`);
      expect(one.status).toBe(200);
      expect(await json(one)).toMatchObject({ token: '***' });
    }
    // The Session API's answer carries the token and the new session's id.
    const launched = await fetch(`${stack.baseUrl}/v1/sessions?token=${token}`, { method: 'POST' });
    expect(launched.status).toBe(200);
    expect(launched.headers.get('cache-control')).toBe('no-store');
  });

  it('when a read key uses the session inspector, then each session id reads *** (its href too); a full credential sees it', async () => {
    const me = await stack.createAccount('inspect');
    const app = await createApp(me);
    const id = randomName('sess');
    const startedAt = new Date().toISOString();
    await storeSession(
      {
        orm: stack.webhooks.app.orm,
        schema: 'webhooks',
        dayMs: 86_400_000,
        publicBaseUrl: stack.baseUrl,
        outbox: { kick: () => undefined },
      },
      {
        id,
        applicationId: app,
        accountId: me.id,
        channel: 'VOICE',
        from: '+14155550100',
        to: '+14075550199',
        startedAt,
        routedBy: { type: 'application', value: app },
        outcome: 'answered',
        attempts: [
          {
            at: startedAt,
            url: 'https://example.com/voice',
            role: 'primary',
            status: 200,
            durationMs: 12,
            error: null,
            responseContentType: 'application/json',
            responseExcerpt: '{"tropo":[]}',
            responseTruncated: false,
          },
        ],
        instructions: null,
        failure: null,
      },
    );
    const read = await createKey(me, 'read');
    const list = await send(bearer(read.key), 'GET', `/v1/applications/${app}/sessions`);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const text = await list.text();
    expect(text).not.toContain(id);
    expect(JSON.parse(text)).toEqual([
      expect.objectContaining({ id: '***', href: `${stack.baseUrl}/v1/sessions/***`, applicationId: app }),
    ]);
    const one = await send(bearer(read.key), 'GET', `/v1/sessions/${id}`);
    expect(one.status).toBe(200);
    expect(await json(one)).toMatchObject({ id: '***', outcome: 'answered' });
    const clear = (await json(await stack.request(me, 'GET', `/v1/applications/${app}/sessions`))) as never as Body[];
    expect(clear[0]).toMatchObject({ id, href: `${stack.baseUrl}/v1/sessions/${id}` });
  });

  it('when a read key reads a session delivery, then the body it sent (which holds the session id) reads ***; a full credential reads it', async () => {
    const me = await stack.createAccount('bodies');
    const app = await createApp(me);
    const sessionId = randomName('sess');
    const body = JSON.stringify({ session: { id: sessionId, accountId: me.id, applicationId: app } });
    const deliveryId = `dlv_${'0'.repeat(12)}${Date.now().toString(16).padStart(12, '0').slice(-12)}`;
    // What the records consumer keeps for a session attempt: its record and the body sent.
    await queryDatabase(
      stack.databaseUrl,
      `insert into webhooks.deliveries (id, message_id, kind, application_id, account_id, event, target_url, attempt, status_code, duration_ms, outcome, created_at)
       values ($1, 'msg_session_body', 'session', $2, $3, 'session', 'https://example.com/voice', 1, 200, 12, 'succeeded', now())`,
      [deliveryId, app, me.id],
    );
    await queryDatabase(
      stack.databaseUrl,
      `insert into webhooks.delivery_bodies (message_id, target, body, size, encoding) values ('msg_session_body', $1, $2, $3, 'deflate')`,
      [app, compressBody(body), Buffer.byteLength(body)],
    );
    const read = await createKey(me, 'read');
    for (const path of [`/v1/deliveries/${deliveryId}`, `/v1/applications/${app}/deliveries/${deliveryId}`]) {
      const masked = await send(bearer(read.key), 'GET', path);
      expect(masked.status, path).toBe(200);
      const text = await masked.text();
      expect(text, path).not.toContain(sessionId);
      expect(JSON.parse(text).request).toEqual({ body: '***', bytes: Buffer.byteLength(body), truncated: false });
      const clear = await json(await stack.request(me, 'GET', path));
      expect(clear.request).toEqual({ body, bytes: Buffer.byteLength(body), truncated: false });
    }
  });
});
