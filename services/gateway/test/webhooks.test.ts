// docs/api-rules.md#subscriptions through the real gateway, webhooks and applications services, Postgres and NATS.
import { describe, expect, it } from 'vitest';
import { queryDatabase, waitFor, type Services, type TestAccount, type JsonBody } from '../../../test/support';
import { createApplication, useGatewayStack } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let bob: TestAccount;

useGatewayStack(
  { webhooks: true, env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' } },
  (f) => ({ stack, alice, bob } = f),
);

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const valid = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/dlr' };
/** GET an absolute href through the gateway (hrefs carry the public base URL). */
const follow = (account: TestAccount, href: string) => stack.request(account, 'GET', new URL(href).pathname);

const newApp = (account: TestAccount) => createApplication(stack, account, { voiceUrl: 'https://example.com/v' });

async function createHook(
  account: TestAccount,
  path: string,
  body: Record<string, unknown> = valid,
): Promise<{ id: string; href: string; secret: string }> {
  const res = await stack.request(account, 'POST', path, body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  const b = await json(res);
  return { id: (b.href as string).split('/').pop()!, href: b.href, secret: b.secret };
}

async function expectProblem(res: Response, status: number, code?: string): Promise<Record<string, JsonBody>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const p = await json(res);
  expect(p).toMatchObject({
    status,
    type: `urn:switchboard:problem:${p.code}`,
    title: expect.any(String),
    detail: expect.any(String),
  });
  if (code) expect(p.code).toBe(code);
  return p;
}

/** A fresh account, so the limits of docs/api-rules.md#limits never interfere between tests. */
const fresh = () => stack.createAccount('user');

describe('account-level subscriptions (/v1/webhooks)', () => {
  it('when created, then 200 {href, secret} with Location, and the href reads back the full record', async () => {
    const me = await fresh();
    const res = await stack.request(me, 'POST', '/v1/webhooks/', {
      name: 'DLR hook',
      event: 'smsdlr',
      resource: 'sms,call',
      targetUrl: 'https://example.com/dlr',
      payload: { team: 'ops', tags: ['a', 'b'] },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['href', 'secret']);
    expect(body.href).toMatch(new RegExp(`^${stack.baseUrl}/v1/webhooks/wh_[0-9a-f]{24}$`));
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(res.headers.get('location')).toBe(body.href);

    const got = await follow(me, body.href);
    expect(got.status).toBe(200);
    const hook = await json(got);
    expect(hook).toEqual({
      href: body.href,
      id: body.href.split('/').pop(),
      name: 'DLR hook',
      event: 'smsdlr',
      resource: 'call,sms',
      targetUrl: 'https://example.com/dlr',
      payload: { team: 'ops', tags: ['a', 'b'] },
      enabled: true,
      accountId: me.id,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      consecutiveFailures: 0,
      lastAttemptAt: null,
      lastStatus: null,
      disabledReason: null,
    });
  });

  it('when listed, then a plain array of account-level subscriptions only, with and without trailing slash', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const a = await createHook(me, '/v1/webhooks');
    await createHook(me, `/v1/applications/${app}/webhooks`);
    for (const path of ['/v1/webhooks', '/v1/webhooks/']) {
      const res = await stack.request(me, 'GET', path);
      expect(res.status).toBe(200);
      const list = (await res.json()) as Record<string, unknown>[];
      expect(list.map((h) => h.id)).toEqual([a.id]);
    }
  });

  it('when updated with some fields, then 200 {href} with Location and only those fields change', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks', { ...valid, name: 'keep', payload: { k: 1 } });
    const res = await stack.request(me, 'PUT', `/v1/webhooks/${h.id}`, {
      targetUrl: 'https://example.org/new',
      enabled: false,
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ href: h.href });
    expect(res.headers.get('location')).toBe(h.href);
    const got = await json(await follow(me, h.href));
    expect(got).toMatchObject({
      name: 'keep',
      payload: { k: 1 },
      resource: 'sms',
      event: 'smsdlr',
      targetUrl: 'https://example.org/new',
      enabled: false,
    });
  });

  it('when event is changed on update, then 409; the same event is accepted', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks');
    await expectProblem(await stack.request(me, 'PUT', `/v1/webhooks/${h.id}`, { event: 'cdrRated' }), 409, 'conflict');
    expect((await stack.request(me, 'PUT', `/v1/webhooks/${h.id}`, { event: 'smsdlr', resource: 'all' })).status).toBe(
      200,
    );
  });

  it('when deleted, then 200 {message} and the subscription is gone', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks');
    const res = await stack.request(me, 'DELETE', `/v1/webhooks/${h.id}/`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ message: expect.stringContaining(h.id) });
    await expectProblem(await follow(me, h.href), 404, 'not_found');
    await expectProblem(await stack.request(me, 'DELETE', `/v1/webhooks/${h.id}`), 404);
  });
});

describe('application-level subscriptions (/v1/applications/:id/webhooks)', () => {
  it('when created, then the href is /v1/webhooks/<id> and it reads the same on the application path and the singular form', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const h = await createHook(me, `/v1/applications/${app}/webhooks/`, {
      ...valid,
      resource: 'call',
      event: 'cdrCreated',
    });
    expect(h.href).toBe(`${stack.baseUrl}/v1/webhooks/${h.id}`);
    const byId = await json(await follow(me, h.href));
    expect(byId).toMatchObject({
      id: h.id,
      applicationId: app,
      accountId: me.id,
      event: 'cdrCreated',
      resource: 'call',
    });
    expect(await json(await stack.request(me, 'GET', `/v1/applications/${app}/webhooks/${h.id}`))).toEqual(byId);
    expect(await json(await stack.request(me, 'GET', `/v1/application/${app}/webhooks/${h.id}/`))).toEqual(byId);
  });

  it("when listed, then only that application's subscriptions", async () => {
    const me = await fresh();
    const [app, other] = await Promise.all([newApp(me), newApp(me)]);
    const a = await createHook(me, `/v1/applications/${app}/webhooks`);
    await createHook(me, `/v1/applications/${other}/webhooks`);
    await createHook(me, '/v1/webhooks');
    const list = (await (await stack.request(me, 'GET', `/v1/applications/${app}/webhooks`)).json()) as Record<
      string,
      unknown
    >[];
    expect(list.map((x) => x.id)).toEqual([a.id]);
  });

  it('when updated through the application path, then 200 with the singular application-scoped href, which resolves with GET', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const h = await createHook(me, `/v1/applications/${app}/webhooks`);
    const res = await stack.request(me, 'PUT', `/v1/applications/${app}/webhooks/${h.id}`, {
      targetUrl: 'https://example.com/new',
      enabled: true,
    });
    expect(res.status).toBe(200);
    const { href } = await json(res);
    expect(href).toBe(`${stack.baseUrl}/v1/application/${app}/webhooks/${h.id}`);
    expect(res.headers.get('location')).toBe(href);
    const got = await follow(me, href);
    expect(got.status).toBe(200);
    expect(await json(got)).toMatchObject({ id: h.id, targetUrl: 'https://example.com/new' });
    // The same update through /v1/webhooks/:id works too (either level).
    expect((await stack.request(me, 'PUT', `/v1/webhooks/${h.id}`, { resource: 'call' })).status).toBe(200);
  });

  it('when deleted through the application path, then 200 {message}', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const h = await createHook(me, `/v1/applications/${app}/webhooks`);
    const res = await stack.request(me, 'DELETE', `/v1/applications/${app}/webhooks/${h.id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toHaveProperty('message');
    await expectProblem(await follow(me, h.href), 404);
  });

  it('when the subscription belongs to another application (or is account-level), then the application path answers 404', async () => {
    const me = await fresh();
    const [app, other] = await Promise.all([newApp(me), newApp(me)]);
    const h = await createHook(me, `/v1/applications/${app}/webhooks`);
    const acct = await createHook(me, '/v1/webhooks');
    for (const [method, body] of [['GET'], ['PUT', { enabled: false }], ['DELETE']] as const) {
      await expectProblem(await stack.request(me, method, `/v1/applications/${other}/webhooks/${h.id}`, body), 404);
      await expectProblem(await stack.request(me, method, `/v1/applications/${app}/webhooks/${acct.id}`, body), 404);
    }
    expect((await follow(me, h.href)).status).toBe(200);
  });
});

describe('secrets and deliveries', () => {
  it('when the secret is read and rotated, then the read gives the current one and rotation answers a new one', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks');
    const got = await stack.request(me, 'GET', `/v1/webhooks/${h.id}/secret`);
    expect(got.status).toBe(200);
    expect(await json(got)).toEqual({ secret: h.secret });
    // A rotation needs no body (existing clients send none).
    const rotated = await stack.request(me, 'POST', `/v1/webhooks/${h.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    const { secret } = await json(rotated);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(h.secret);
    expect(await json(await stack.request(me, 'GET', `/v1/webhooks/${h.id}/secret`))).toEqual({ secret });
  });

  it('when a POST has no body, then it may declare JSON or no type: an action answers, a create names the missing body; any other type is a 415; a body still needs JSON', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks');
    const before = await stack.listAll(me, '/v1/webhooks');
    for (const type of [undefined, 'application/json']) {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const rotated = await stack.request(me, 'POST', `/v1/webhooks/${h.id}/secret/rotate/`, undefined, headers);
      expect(rotated.status, `rotate with ${type}`).toBe(200);
      expect((await json(rotated)).secret).toMatch(/^whsec_/);
      const p = await expectProblem(
        await stack.request(me, 'POST', '/v1/webhooks', undefined, headers),
        400,
        'invalid_request',
      );
      expect(p.errors, `create with ${type}`).toEqual([{ field: 'body', message: 'is required: a JSON object' }]);
      await expectProblem(
        await stack.request(me, 'PUT', `/v1/webhooks/${h.id}`, undefined, headers),
        400,
        'invalid_request',
      );
    }
    // An empty form or text POST is what another site's page can send without asking: refused.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const headers = { 'content-type': type };
      for (const [method, path] of [
        ['POST', `/v1/webhooks/${h.id}/secret/rotate/`],
        ['POST', '/v1/webhooks'],
        ['PUT', `/v1/webhooks/${h.id}`],
      ] as const)
        await expectProblem(await stack.request(me, method, path, undefined, headers), 415, 'unsupported_media_type');
    }
    expect(await stack.listAll(me, '/v1/webhooks')).toEqual(before);
    // A body that is there must be JSON, on an action too.
    await expectProblem(
      await stack.request(me, 'POST', `/v1/webhooks/${h.id}/secret/rotate`, 'x=1', {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      415,
      'unsupported_media_type',
    );
    await expectProblem(
      await stack.request(me, 'POST', '/v1/webhooks', JSON.stringify(valid), { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
  });

  it('when no attempt was made yet, then the delivery lists of a subscription and of an application are empty arrays', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const h = await createHook(me, `/v1/applications/${app}/webhooks`);
    const d1 = await stack.request(me, 'GET', `/v1/webhooks/${h.id}/deliveries`);
    expect(d1.status).toBe(200);
    expect(await d1.json()).toEqual([]);
    const d2 = await stack.request(me, 'GET', `/v1/applications/${app}/deliveries/`);
    expect(d2.status).toBe(200);
    expect(await d2.json()).toEqual([]);
  });
});

describe('lists: paging and filters', () => {
  it('when paging with limit, then pages are plain arrays with a Link to the next page', async () => {
    const me = await fresh();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createHook(me, '/v1/webhooks')).id);
    const seen: string[] = [];
    let path: string | undefined = '/v1/webhooks?limit=2';
    while (path) {
      const res = await stack.request(me, 'GET', path);
      expect(res.status).toBe(200);
      seen.push(...((await res.json()) as { id: string }[]).map((x) => x.id));
      const link = res.headers.get('link');
      if (link) {
        expect(link).toMatch(/; rel="next"$/);
        const u = new URL(/<([^>]+)>/.exec(link)![1]!);
        path = u.pathname + u.search;
      } else path = undefined;
    }
    expect(seen).toEqual(ids);
  });

  it('when the ids cross a digit boundary (1,000s to 10,000s), then pages still hold every subscription once, in creation order', async () => {
    await queryDatabase(
      stack.databaseUrl,
      "select setval('webhooks.subscriptions_seq_seq', greatest(9995, (select coalesce(max(seq), 0) from webhooks.subscriptions)))",
    );
    const me = await fresh();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await createHook(me, '/v1/webhooks')).id);
    expect((await stack.listAll<{ id: string }>(me, '/v1/webhooks?limit=3')).map((x) => x.id)).toEqual(ids);
  });

  it('when lists are read without limit, then they hold every item: all 10 subscriptions, and 1,500 delivery records (more than one page of 1000) with no Link', async () => {
    const me = await fresh();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await createHook(me, '/v1/webhooks')).id);
    const subs = await stack.request(me, 'GET', '/v1/webhooks');
    expect(subs.headers.get('link')).toBeNull();
    expect(((await subs.json()) as { id: string }[]).map((x) => x.id)).toEqual(ids);

    const hook = ids[0]!;
    await queryDatabase(
      stack.databaseUrl,
      `insert into webhooks.deliveries (id, message_id, kind, subscription_id, account_id, event, target_url, attempt, status_code, duration_ms, outcome)
       select 'dlv_' || lpad(to_hex(n), 24, '0'), 'msg-' || n, 'notification', $1, $2, 'smsdlr', 'https://example.com/dlr', 1, 200, 5, 'succeeded'
       from generate_series(1, 1500) as n`,
      [hook, Number(me.id)],
    );
    const whole = await stack.request(me, 'GET', `/v1/webhooks/${hook}/deliveries`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('link')).toBeNull();
    const all = (await whole.json()) as { id: string }[];
    expect(all).toHaveLength(1500);
    expect(new Set(all.map((d) => d.id)).size).toBe(1500);
    const paged = await stack.request(me, 'GET', `/v1/webhooks/${hook}/deliveries?limit=1000`);
    expect(((await paged.json()) as unknown[]).length).toBe(1000);
    expect(paged.headers.get('link')).toMatch(/\?limit=1000&cursor=[^>]+>; rel="next"$/);
  });

  it('when filtering by event and resource, then only matching subscriptions come back (all matches any resource)', async () => {
    const me = await fresh();
    const call = await createHook(me, '/v1/webhooks', {
      event: 'cdrCreated',
      resource: 'call',
      targetUrl: 'https://example.com/a',
    });
    const all = await createHook(me, '/v1/webhooks', {
      event: 'cdrRated',
      resource: 'all',
      targetUrl: 'https://example.com/b',
    });
    const sms = await createHook(me, '/v1/webhooks', {
      event: 'smsdlr',
      resource: 'sms',
      targetUrl: 'https://example.com/c',
    });
    const ids = async (q: string) =>
      ((await (await stack.request(me, 'GET', `/v1/webhooks?${q}`)).json()) as { id: string }[]).map((x) => x.id);
    expect(await ids('event=cdrCreated')).toEqual([call.id]);
    expect(await ids('resource=sms')).toEqual([all.id, sms.id]);
    expect(await ids('resource=call&event=cdrRated')).toEqual([all.id]);
    await expectProblem(await stack.request(me, 'GET', '/v1/webhooks?event=nope'), 400, 'invalid_request');
    await expectProblem(await stack.request(me, 'GET', '/v1/webhooks?resource=fax'), 400, 'invalid_request');
    await expectProblem(await stack.request(me, 'GET', '/v1/webhooks?limit=0'), 400, 'invalid_request');
    await expectProblem(await stack.request(me, 'GET', '/v1/webhooks?cursor=garbage'), 400, 'invalid_request');
  });
});

describe('deeply nested bodies', () => {
  /** A create body whose payload is `levels` objects deep (the body itself is one more), as raw JSON text. */
  const nestedBody = (levels: number) =>
    `${JSON.stringify(valid).slice(0, -1)},"payload":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;

  it('when a payload nests 5,000 levels deep, then POST and PUT answer 400 naming the 64-level limit, and nothing changes', async () => {
    const me = await stack.createAccount('deep');
    const p = await expectProblem(
      await stack.request(me, 'POST', '/v1/webhooks', nestedBody(5000)),
      400,
      'invalid_request',
    );
    expect(p.detail).toMatch(/limit of 64 levels/);
    expect(p.errors).toEqual([{ field: '(body)', message: 'nests deeper than 64 levels' }]);
    expect(await json(await stack.request(me, 'GET', '/v1/webhooks'))).toEqual([]);

    const hook = await createHook(me, '/v1/webhooks');
    const before = await (await stack.request(me, 'GET', `/v1/webhooks/${hook.id}`)).text();
    await expectProblem(
      await stack.request(me, 'PUT', `/v1/webhooks/${hook.id}`, nestedBody(5000)),
      400,
      'invalid_request',
    );
    // Just over the limit is rejected too; brackets inside strings do not count.
    await expectProblem(
      await stack.request(me, 'PUT', `/v1/webhooks/${hook.id}`, nestedBody(64)),
      400,
      'invalid_request',
    );
    expect(await (await stack.request(me, 'GET', `/v1/webhooks/${hook.id}`)).text()).toBe(before);
    const brackets = { ...valid, payload: { text: '[[[[{{{{'.repeat(100) } };
    expect((await stack.request(me, 'PUT', `/v1/webhooks/${hook.id}`, brackets)).status).toBe(200);
  });

  it('when a payload nests exactly to the limit, then it is stored and reads back unchanged', async () => {
    const me = await stack.createAccount('deep-ok');
    const res = await stack.request(me, 'POST', '/v1/webhooks', nestedBody(63));
    expect(res.status).toBe(200);
    const id = ((await json(res)).href as string).split('/').pop()!;
    const got = await json(await stack.request(me, 'GET', `/v1/webhooks/${id}`));
    expect(JSON.stringify(got.payload)).toBe(`${'{"a":'.repeat(63)}1${'}'.repeat(63)}`);
  });
});

describe('validation', () => {
  it('when required fields are missing, then 400 listing each field', async () => {
    const p = await expectProblem(await stack.request(alice, 'POST', '/v1/webhooks', {}), 400, 'invalid_request');
    expect(p.errors.map((e: { field: string }) => e.field)).toEqual(['event', 'resource', 'targetUrl']);
  });

  it('when a field has the wrong type, then 400 naming it', async () => {
    for (const [field, value] of [
      ['event', 5],
      ['resource', ['sms']],
      ['targetUrl', { href: 'x' }],
      ['payload', 'text'],
      ['payload', [1, 2]],
      ['enabled', 'yes'],
      ['name', 42],
    ] as const) {
      const p = await expectProblem(
        await stack.request(alice, 'POST', '/v1/webhooks', { ...valid, [field]: value }),
        400,
      );
      expect(
        p.errors.map((e: { field: string }) => e.field),
        `${field}=${JSON.stringify(value)}`,
      ).toEqual([field]);
    }
  });

  it('when values are not allowed, then 400 naming the field', async () => {
    for (const [field, value] of [
      ['event', 'smsDelivered'],
      ['resource', 'video'],
      ['resource', ''],
      ['targetUrl', 'not a url'],
      ['targetUrl', 'ftp://example.com/x'],
      ['targetUrl', 'https://user:pass@example.com/'],
      ['targetUrl', 'http://169.254.169.254/latest/meta-data/'],
      ['targetUrl', 'http://10.0.0.5/hook'],
      ['targetUrl', 'http://[fd12::1]/hook'],
      ['targetUrl', 'http://0x0a000001/hook'],
      ['name', 'x'.repeat(256)],
    ] as const) {
      const p = await expectProblem(
        await stack.request(alice, 'POST', '/v1/webhooks', { ...valid, [field]: value }),
        400,
      );
      expect(
        p.errors.map((e: { field: string }) => e.field),
        `${field}=${value}`,
      ).toEqual([field]);
    }
  });

  it('when optional fields are null or unknown fields are sent, then they are ignored', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks', {
      ...valid,
      name: null,
      payload: null,
      enabled: null,
      color: 'blue',
    });
    const got = await json(await follow(me, h.href));
    expect(got.enabled).toBe(true);
    expect(got).not.toHaveProperty('name');
    expect(got).not.toHaveProperty('payload');
  });

  it('when event or resource differ in case or order, then they are accepted and normalised', async () => {
    const me = await fresh();
    const h = await createHook(me, '/v1/webhooks', {
      event: 'CDRCREATED',
      resource: ' SMS , call,sms',
      targetUrl: 'https://example.com/x',
    });
    expect(await json(await follow(me, h.href))).toMatchObject({ event: 'cdrCreated', resource: 'call,sms' });
  });

  it('when any malformed body is sent to any write path, then the answer is a 4xx problem, never a 5xx', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const h = await createHook(me, '/v1/webhooks');
    const bodies: unknown[] = [
      '[]',
      '"x"',
      '42',
      'null',
      'true',
      '{"event":',
      '{"event":"smsdlr"}}',
      '\u0000',
      '{"payload":{"a":'.repeat(50),
      JSON.stringify({ ...valid, targetUrl: `https://example.com/${'é'.repeat(3000)}` }),
      JSON.stringify({ ...valid, name: 'a\u0000b' }),
      JSON.stringify({ ...valid, resource: ','.repeat(500) }),
      JSON.stringify({ ...valid, event: '\u0000smsdlr' }),
      JSON.stringify({ ...valid, targetUrl: 'http://[::1' }),
      JSON.stringify({ ...valid, targetUrl: 'https://exa\nmple.com/' }),
      JSON.stringify({ ...valid, payload: { x: 'y'.repeat(20_000) } }),
      JSON.stringify({ ...valid, enabled: 1 }),
      '{"__proto__":{"event":"smsdlr","resource":"sms","targetUrl":"https://example.com/"},"constructor":{"prototype":{}}}',
    ];
    const paths: [string, string][] = [
      ['POST', '/v1/webhooks'],
      ['PUT', `/v1/webhooks/${h.id}`],
      ['POST', `/v1/applications/${app}/webhooks`],
      ['PUT', `/v1/applications/${app}/webhooks/${h.id}`],
      ['PUT', `/v1/application/${app}/webhooks/${h.id}`],
    ];
    for (const [method, path] of paths) {
      for (const body of bodies) {
        const res = await stack.request(me, method, path, body as string);
        const what = `${method} ${path} ${String(body).slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        // Everything here is refused, except a PUT that only carries unknown fields (ignored: nothing changes).
        if (path === `/v1/webhooks/${h.id}` && String(body).startsWith('{"__proto__"'))
          expect(res.status, what).toBe(200);
        else {
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        }
      }
    }
    expect(await json(await follow(me, h.href))).toMatchObject({
      event: 'smsdlr',
      resource: 'sms',
      targetUrl: 'https://example.com/dlr',
    });
    // Ids of every shape on every read path: 404, never 5xx.
    for (const id of ['x', 'wh_', "wh_'--", '%00', 'wh_000000000000000000000000', 'a'.repeat(300)]) {
      for (const path of [
        `/v1/webhooks/${id}`,
        `/v1/webhooks/${id}/secret`,
        `/v1/webhooks/${id}/deliveries`,
        `/v1/applications/${id}/webhooks`,
        `/v1/application/${id}/webhooks/${id}`,
      ]) {
        const res = await stack.request(me, 'GET', path);
        expect(res.status, path).toBeGreaterThanOrEqual(400);
        expect(res.status, path).toBeLessThan(500);
      }
    }
  });

  it('when a write has no JSON Content-Type, then 415; an unsupported method, then 405 with Allow', async () => {
    await expectProblem(
      await stack.request(alice, 'POST', '/v1/webhooks', JSON.stringify(valid), { 'content-type': 'text/plain' }),
      415,
    );
    const r = await stack.request(alice, 'PATCH', '/v1/webhooks/wh_000000000000000000000000');
    await expectProblem(r, 405);
    expect(r.headers.get('allow')).toBe('GET, PUT, DELETE, HEAD');
    const r2 = await stack.request(alice, 'DELETE', '/v1/webhooks');
    await expectProblem(r2, 405);
    expect(r2.headers.get('allow')).toBe('GET, POST, HEAD');
  });
});

describe('limits of docs/api-rules.md#limits under concurrency', () => {
  it('when 50 account-level creates arrive at once, then exactly 10 answer 200 and 40 answer 409 limit_exceeded', async () => {
    const me = await fresh();
    const res = await Promise.all(Array.from({ length: 50 }, () => stack.request(me, 'POST', '/v1/webhooks', valid)));
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    const p = await json(res.find((r) => r.status === 409)!);
    expect(p.code).toBe('limit_exceeded');
    expect(((await (await stack.request(me, 'GET', '/v1/webhooks?limit=1000')).json()) as unknown[]).length).toBe(10);
  });

  it('when 50 creates for one application arrive at once, then exactly 10 succeed', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const res = await Promise.all(
      Array.from({ length: 50 }, () => stack.request(me, 'POST', `/v1/applications/${app}/webhooks`, valid)),
    );
    expect(res.filter((r) => r.status === 200)).toHaveLength(10);
    expect(res.filter((r) => r.status === 409)).toHaveLength(40);
    expect(
      ((await (await stack.request(me, 'GET', `/v1/applications/${app}/webhooks`)).json()) as unknown[]).length,
    ).toBe(10);
  });
});

describe('tenant isolation', () => {
  it('when another account uses any webhook path with ids of this account, then 404 on every one', async () => {
    const app = await newApp(alice);
    const acctHook = await createHook(alice, '/v1/webhooks');
    const appHook = await createHook(alice, `/v1/applications/${app}/webhooks`);
    const paths: [string, string, unknown?][] = [];
    for (const h of [acctHook, appHook]) {
      paths.push(
        ['GET', `/v1/webhooks/${h.id}`],
        ['PUT', `/v1/webhooks/${h.id}`, { enabled: false }],
        ['DELETE', `/v1/webhooks/${h.id}`],
        ['GET', `/v1/webhooks/${h.id}/secret`],
        ['POST', `/v1/webhooks/${h.id}/secret/rotate`],
        ['GET', `/v1/webhooks/${h.id}/deliveries`],
        ['GET', `/v1/applications/${app}/webhooks/${h.id}`],
        ['PUT', `/v1/applications/${app}/webhooks/${h.id}`, { enabled: false }],
        ['DELETE', `/v1/applications/${app}/webhooks/${h.id}`],
        ['GET', `/v1/application/${app}/webhooks/${h.id}`],
      );
    }
    paths.push(
      ['GET', `/v1/applications/${app}/webhooks`],
      ['POST', `/v1/applications/${app}/webhooks`, valid],
      ['GET', `/v1/applications/${app}/deliveries`],
    );
    for (const [method, path, body] of paths) {
      await expectProblem(await stack.request(bob, method, path, body), 404);
    }
    // Untouched for the owner, and bob's own list does not show them.
    expect(await json(await follow(alice, acctHook.href))).toMatchObject({ enabled: true });
    expect(await json(await stack.request(alice, 'GET', `/v1/webhooks/${appHook.id}/secret`))).toEqual({
      secret: appHook.secret,
    });
    expect(await (await stack.request(bob, 'GET', '/v1/webhooks')).json()).toEqual([]);
  });

  it('when no credentials are sent, then 401 with WWW-Authenticate', async () => {
    const res = await stack.request(undefined, 'GET', '/v1/webhooks');
    await expectProblem(res, 401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="switchboard"');
  });
});

describe('cascade', () => {
  it('when an application is deleted, then its subscriptions disappear; account-level ones stay', async () => {
    const me = await fresh();
    const app = await newApp(me);
    const hooks = await Promise.all([1, 2].map(() => createHook(me, `/v1/applications/${app}/webhooks`)));
    const keep = await createHook(me, '/v1/webhooks');
    expect((await stack.request(me, 'DELETE', `/v1/applications/${app}`)).status).toBe(200);
    await waitFor(async () => (await follow(me, hooks[0]!.href)).status === 404, {
      what: 'cascade',
      timeoutMs: 15_000,
    });
    expect((await follow(me, hooks[1]!.href)).status).toBe(404);
    expect((await follow(me, keep.href)).status).toBe(200);
    await expectProblem(await stack.request(me, 'GET', `/v1/applications/${app}/webhooks`), 404);
  });
});
