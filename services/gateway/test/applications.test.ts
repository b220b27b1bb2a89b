import { describe, expect, it } from 'vitest';
import { queryDatabase, type Services, type TestAccount, type JsonBody } from '../../../test/support';
import { useGatewayStack } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let bob: TestAccount;

useGatewayStack({}, (f) => ({ stack, alice, bob } = f));

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;

async function create(account: TestAccount, body: Record<string, unknown>): Promise<string> {
  const res = await stack.request(account, 'POST', '/v1/applications/', body);
  expect(res.status).toBe(200);
  const { href } = await json(res);
  return href as string;
}

/** GET an absolute href through the gateway (hrefs carry the public base URL). */
const follow = (account: TestAccount, href: string) => stack.request(account, 'GET', new URL(href).pathname);

describe('creating an application', () => {
  it('when created with every field, then 200 {href} with Location, and the href reads back the full record', async () => {
    const res = await stack.request(alice, 'POST', '/v1/applications/', {
      name: 'Support line',
      voiceUrl: 'https://example.com/voice.json',
      messagingUrl: 'https://example.com/sms.json',
      environment: `${stack.baseUrl}/rest/v1/environments/1`,
      apiType: 'webapi',
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body)).toEqual(['href']);
    expect(body.href).toMatch(new RegExp(`^${stack.baseUrl}/rest/v1/applications/[0-9a-f]{24}$`));
    expect(res.headers.get('location')).toBe(body.href);

    const got = await follow(alice, body.href);
    expect(got.status).toBe(200);
    const app = await json(got);
    const id = body.href.split('/').pop();
    expect(app).toEqual({
      href: body.href,
      id,
      name: 'Support line',
      voiceUrl: 'https://example.com/voice.json',
      messagingUrl: 'https://example.com/sms.json',
      environment: `${stack.baseUrl}/rest/v1/environments/1`,
      apiType: 'webapi',
      platform: 'webapi',
      userId: Number(alice.id),
      user: `${stack.baseUrl}/rest/v1/users/${alice.id}`,
    });
    // The same record under /v1 (the path Tropo clients call) and with a trailing slash.
    expect(await json(await stack.request(alice, 'GET', `/v1/applications/${id}/`))).toEqual(app);
  });

  it('when apiType is left out, then it defaults to scripting and platform equals it', async () => {
    const app = await json(await follow(alice, await create(alice, { name: 'a', voiceUrl: 'http://example.com/v' })));
    expect(app.apiType).toBe('scripting');
    expect(app.platform).toBe('scripting');
    expect(app.messagingUrl).toBeUndefined();
  });

  it('when apiType differs in case, then it is accepted and stored lower-case', async () => {
    const app = await json(
      await follow(alice, await create(alice, { name: 'a', messagingUrl: 'https://example.com/m', apiType: 'WebAPI' })),
    );
    expect(app.apiType).toBe('webapi');
  });

  it('when the legacy platform field is sent instead of apiType, then it is used as apiType', async () => {
    const app = await json(
      await follow(alice, await create(alice, { name: 'a', voiceUrl: 'https://example.com/v', platform: 'webapi' })),
    );
    expect(app.apiType).toBe('webapi');
  });

  it('when environment is a number, a digit string or a URL, then the response carries the environment URL', async () => {
    for (const environment of [2, '2', 'https://api.example.com/rest/v1/environments/2/']) {
      const app = await json(
        await follow(alice, await create(alice, { name: 'e', voiceUrl: 'https://example.com/v', environment })),
      );
      expect(app.environment).toBe(`${stack.baseUrl}/rest/v1/environments/2`);
    }
  });

  it('when the legacy partition is sent without environment, then staging maps to Development and production to Production', async () => {
    const staging = await json(
      await follow(alice, await create(alice, { name: 'p', voiceUrl: 'https://example.com/v', partition: 'STAGING' })),
    );
    const prod = await json(
      await follow(
        alice,
        await create(alice, { name: 'p', voiceUrl: 'https://example.com/v', partition: 'production' }),
      ),
    );
    expect(staging.environment).toBe(`${stack.baseUrl}/rest/v1/environments/2`);
    expect(prod.environment).toBe(`${stack.baseUrl}/rest/v1/environments/1`);
  });

  it('when unknown fields and nulls are sent, then unknown fields are ignored and null means not given', async () => {
    const app = await json(
      await follow(
        alice,
        await create(alice, {
          name: 'n',
          voiceUrl: 'https://example.com/v',
          messagingUrl: null,
          apiType: null,
          colour: 'blue',
          nested: { a: 1 },
        }),
      ),
    );
    expect(app.messagingUrl).toBeUndefined();
    expect(app.apiType).toBe('scripting');
    expect(app).not.toHaveProperty('colour');
  });

  it.each([
    [{ voiceUrl: 'https://example.com/v' }, 'name'],
    [{ name: '   ', voiceUrl: 'https://example.com/v' }, 'name'],
    [{ name: 'x'.repeat(256), voiceUrl: 'https://example.com/v' }, 'name'],
    [{ name: 'no url' }, 'voiceUrl'],
    [{ name: 'bad url', voiceUrl: 'not a url' }, 'voiceUrl'],
    [{ name: 'ftp url', messagingUrl: 'ftp://example.com/x' }, 'messagingUrl'],
    [{ name: 'bad type', voiceUrl: 'https://example.com/v', apiType: 'soap' }, 'apiType'],
    [{ name: 'bad env', voiceUrl: 'https://example.com/v', environment: 'production-ish' }, 'environment'],
    [{ name: 'missing env', voiceUrl: 'https://example.com/v', environment: 99 }, 'environment'],
    [{ name: 'bad partition', voiceUrl: 'https://example.com/v', partition: 'moon' }, 'partition'],
    [{ name: 42, voiceUrl: 'https://example.com/v' }, 'name'],
    [{ name: 'x', voiceUrl: ['https://example.com/v'] }, 'voiceUrl'],
  ])('when the body is %j, then 400 names the field %s and nothing is stored', async (body, field) => {
    const before = (await json(await stack.request(bob, 'GET', '/v1/applications?limit=1000'))) as unknown as unknown[];
    const res = await stack.request(bob, 'POST', '/v1/applications', body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = await json(res);
    expect(problem).toMatchObject({
      type: 'urn:switchboard:problem:invalid_request',
      status: 400,
      code: 'invalid_request',
    });
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
    const after = (await json(await stack.request(bob, 'GET', '/v1/applications?limit=1000'))) as unknown as unknown[];
    expect(after.length).toBe(before.length);
  });

  it.each([
    'http://127.0.0.1/voice',
    'http://2130706433/voice',
    'http://0x7f.0.0.1/voice',
    'http://0177.0.0.1/voice',
    'http://[::1]/voice',
    'http://[::ffff:127.0.0.1]/voice',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.8/voice',
    'http://192.168.1.1/voice',
    'http://localhost:8080/voice',
  ])('when an application URL points at a private address (%s), then 400 unless allow-listed', async (url) => {
    const res = await stack.request(bob, 'POST', '/v1/applications', { name: 'ssrf', voiceUrl: url });
    expect(res.status).toBe(400);
    expect(((await json(res)).errors as { field: string; message: string }[])[0]).toMatchObject({
      field: 'voiceUrl',
      message: expect.stringMatching(/private/),
    });
  });

  it('when 200 creates arrive at once, then all land with distinct ids', async () => {
    const carol = await stack.createAccount('carol');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        stack.request(carol, 'POST', '/v1/applications', { name: `app ${i}`, voiceUrl: `https://example.com/${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(200));
    const hrefs = await Promise.all(results.map(async (r) => (await json(r)).href as string));
    expect(new Set(hrefs).size).toBe(200);
    const listed = [];
    let path: string | undefined = '/v1/applications?limit=1000';
    while (path) {
      const res = await stack.request(carol, 'GET', path);
      listed.push(...((await res.json()) as { href: string }[]));
      const link = res.headers.get('link');
      path = link
        ? new URL(/<([^>]+)>/.exec(link)![1]!).pathname + new URL(/<([^>]+)>/.exec(link)![1]!).search
        : undefined;
    }
    expect(new Set(listed.map((a) => a.href))).toEqual(new Set(hrefs));
  });
});

describe('updating an application', () => {
  it('when only some fields are sent, then those change and the rest stay', async () => {
    const href = await create(alice, {
      name: 'before',
      voiceUrl: 'https://example.com/v',
      messagingUrl: 'https://example.com/m',
      apiType: 'webapi',
      environment: 1,
    });
    const id = href.split('/').pop();
    const res = await stack.request(alice, 'PUT', `/v1/applications/${id}`, { name: 'after' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ href });
    expect(res.headers.get('location')).toBe(href);
    const app = await json(await follow(alice, href));
    expect(app).toMatchObject({
      name: 'after',
      voiceUrl: 'https://example.com/v',
      messagingUrl: 'https://example.com/m',
      apiType: 'webapi',
      environment: `${stack.baseUrl}/rest/v1/environments/1`,
    });
  });

  it('when an update would leave no URL, then 400 and the stored record is unchanged', async () => {
    const href = await create(alice, { name: 'one url', voiceUrl: 'https://example.com/v' });
    const id = href.split('/').pop();
    const res = await stack.request(alice, 'PUT', `/v1/applications/${id}`, { voiceUrl: '' });
    expect(res.status).toBe(400);
    expect((await json(await follow(alice, href))).voiceUrl).toBe('https://example.com/v');
    // Swapping one URL for the other in the same request is fine.
    const ok = await stack.request(alice, 'PUT', `/v1/applications/${id}`, {
      voiceUrl: '',
      messagingUrl: 'https://example.com/m',
    });
    expect(ok.status).toBe(200);
    const app = await json(await follow(alice, href));
    expect(app.voiceUrl).toBeUndefined();
    expect(app.messagingUrl).toBe('https://example.com/m');
  });

  it('when apiType, environment and platform are updated, then they are validated and applied', async () => {
    const href = await create(alice, { name: 'u', voiceUrl: 'https://example.com/v' });
    const id = href.split('/').pop();
    expect((await stack.request(alice, 'PUT', `/v1/applications/${id}`, { apiType: 'nope' })).status).toBe(400);
    expect(
      (await stack.request(alice, 'PUT', `/v1/applications/${id}`, { platform: 'WEBAPI', environment: '1' })).status,
    ).toBe(200);
    const app = await json(await follow(alice, href));
    expect(app.apiType).toBe('webapi');
    expect(app.environment).toBe(`${stack.baseUrl}/rest/v1/environments/1`);
  });
});

describe('deleting an application', () => {
  it('when deleted, then 200 {message} and the application is gone', async () => {
    const href = await create(alice, { name: 'to delete', voiceUrl: 'https://example.com/v' });
    const id = href.split('/').pop()!;
    const res = await stack.request(alice, 'DELETE', `/v1/applications/${id}/`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body)).toEqual(['message']);
    expect(body.message).toContain(id);
    expect((await follow(alice, href)).status).toBe(404);
    expect((await stack.request(alice, 'DELETE', `/v1/applications/${id}`)).status).toBe(404);
  });
});

describe('listing applications', () => {
  it('when paging with limit, then pages are plain arrays in creation order with a Link to the next page', async () => {
    const dave = await stack.createAccount('dave');
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await create(dave, { name: `p${i}`, voiceUrl: 'https://example.com/v' }));
    const seen: string[] = [];
    let path: string | undefined = '/v1/applications?limit=2';
    let pages = 0;
    while (path) {
      const res = await stack.request(dave, 'GET', path);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { href: string; userId: number }[];
      expect(Array.isArray(page)).toBe(true);
      expect(page.length).toBeLessThanOrEqual(2);
      for (const a of page) expect(a.userId).toBe(Number(dave.id));
      seen.push(...page.map((a) => a.href));
      pages++;
      const link = res.headers.get('link');
      if (link) {
        expect(link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/applications\?limit=2&cursor=[^>]+>; rel="next"$/);
        const u = new URL(/<([^>]+)>/.exec(link)![1]!);
        path = u.pathname + u.search;
      } else path = undefined;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(created);
  });

  it('when the ids cross a digit boundary (1,000s to 10,000s), then pages still hold every application once, in creation order', async () => {
    // A long-lived database: the internal sequence is past 9,995, so the next rows go 9996 .. 10007.
    await queryDatabase(
      stack.databaseUrl,
      "select setval('applications.applications_seq_seq', greatest(9995, (select coalesce(max(seq), 0) from applications.applications)))",
    );
    const erin = await stack.createAccount('erin');
    const created = [];
    for (let i = 0; i < 12; i++) created.push(await create(erin, { name: `d${i}`, voiceUrl: 'https://example.com/v' }));
    expect((await stack.listAll<{ href: string }>(erin, '/v1/applications?limit=5')).map((a) => a.href)).toEqual(
      created,
    );
    expect(
      ((await (await stack.request(erin, 'GET', '/v1/applications')).json()) as { href: string }[]).map((a) => a.href),
    ).toEqual(created);
  });

  it('when an account has 150 applications, then a list without limit holds all 150, and limit=100 answers 100 with a Link to the other 50', async () => {
    const frank = await stack.createAccount('frank');
    for (let i = 0; i < 150; i += 15) {
      await Promise.all(
        Array.from({ length: 15 }, (_, j) => create(frank, { name: `m${i + j}`, voiceUrl: 'https://example.com/v' })),
      );
    }
    const whole = await stack.request(frank, 'GET', '/v1/applications');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('link')).toBeNull();
    const all = ((await whole.json()) as { href: string; name: string }[]).map((a) => a.href);
    expect(all).toHaveLength(150);
    expect(new Set(all).size).toBe(150);

    const first = await stack.request(frank, 'GET', '/v1/applications?limit=100');
    expect(first.status).toBe(200);
    const firstPage = ((await first.json()) as { href: string }[]).map((a) => a.href);
    expect(firstPage).toHaveLength(100);
    const link = first.headers.get('link');
    expect(link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/applications\?limit=100&cursor=[^>]+>; rel="next"$/);
    const next = new URL(/<([^>]+)>/.exec(link!)![1]!);
    const second = await stack.request(frank, 'GET', next.pathname + next.search);
    expect(second.headers.get('link')).toBeNull();
    const secondPage = ((await second.json()) as { href: string }[]).map((a) => a.href);
    expect(secondPage).toHaveLength(50);
    expect([...firstPage, ...secondPage]).toEqual(all);
  });

  it('when an account has more than 10,000 applications, then a list without limit holds the first 10,000 and a Link (without limit) to the rest', async () => {
    const gina = await stack.createAccount('gina');
    await queryDatabase(
      stack.databaseUrl,
      `insert into applications.applications (id, account_id, name, voice_url, environment_id, api_type)
       select lpad(to_hex(${Number(gina.id)}), 8, '0') || lpad(to_hex(n), 16, '0'), ${Number(gina.id)}, 'bulk ' || n, 'https://example.com/v', 2, 'scripting'
       from generate_series(1, 10005) as n`,
    );
    const whole = await stack.request(gina, 'GET', '/v1/applications');
    expect(whole.status).toBe(200);
    const all = (await whole.json()) as { name: string }[];
    expect(all).toHaveLength(10_000);
    expect(all[0]!.name).toBe('bulk 1');
    expect(all[9_999]!.name).toBe('bulk 10000');
    const link = whole.headers.get('link');
    expect(link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/applications\?cursor=[^>]+>; rel="next"$/);
    const next = new URL(/<([^>]+)>/.exec(link!)![1]!);
    const rest = await stack.request(gina, 'GET', next.pathname + next.search);
    expect(rest.status).toBe(200);
    expect(rest.headers.get('link')).toBeNull();
    expect(((await rest.json()) as { name: string }[]).map((a) => a.name)).toEqual([
      'bulk 10001',
      'bulk 10002',
      'bulk 10003',
      'bulk 10004',
      'bulk 10005',
    ]);
  });

  it.each(['0', '1001', '-1', 'ten', '1.5'])('when limit is %s, then 400', async (limit) => {
    const res = await stack.request(alice, 'GET', `/v1/applications?limit=${limit}`);
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].field).toBe('limit');
  });

  it('when lists and pages of several accounts are read at once, then each answer holds its own items, order and Link, as read one by one', async () => {
    // Read at once, the gateway sends the calls in batches and the service reads their pages by one statement.
    const readers = await Promise.all(['lena', 'mona', 'nils'].map((name) => stack.createAccount(name)));
    for (const [i, account] of readers.entries()) {
      for (let j = 0; j <= 2 * i; j++)
        await create(account, {
          name: `page ${i}-${j}`,
          voiceUrl: `https://example.com/${i}/${j}`,
          ...(j % 2 ? { messagingUrl: 'https://example.com/m' } : {}),
        });
    }
    const first = await stack.request(readers[2]!, 'GET', '/v1/applications?limit=2');
    const next = new URL(/<([^>]+)>/.exec(first.headers.get('link')!)![1]!);
    const paths = [
      '/v1/applications',
      '/v1/applications/?limit=1',
      '/v1/applications?limit=2',
      `${next.pathname}${next.search}`,
    ];
    const asks = readers.flatMap((account) => paths.map((path) => ({ account, path })));
    const read = async ({ account, path }: (typeof asks)[number]) => {
      const res = await stack.request(account, 'GET', path);
      return { status: res.status, link: res.headers.get('link'), body: (await res.json()) as unknown };
    };
    const oneByOne = [];
    for (const ask of asks) oneByOne.push(await read(ask));
    expect(oneByOne.map((r) => r.status)).toEqual(asks.map(() => 200));
    expect((oneByOne[8]!.body as { name: string }[]).map((a) => a.name)).toEqual([
      'page 2-0',
      'page 2-1',
      'page 2-2',
      'page 2-3',
      'page 2-4',
    ]);
    expect(oneByOne[10]!.link).toMatch(/rel="next"/);
    expect(oneByOne[0]!.link).toBeNull();
    const atOnce = await Promise.all([...asks, ...asks, ...asks, ...asks].map(read));
    expect(atOnce).toEqual([...oneByOne, ...oneByOne, ...oneByOne, ...oneByOne]);
  });

  it('when the cursor was not issued by the API, then 400', async () => {
    for (const cursor of ['garbage', 'YTp4', "'; drop table applications; --"]) {
      const res = await stack.request(alice, 'GET', `/v1/applications?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
    }
  });
});

describe('linked resources', () => {
  it('when following the environment and user hrefs, then both resolve under the same credentials', async () => {
    const app = await json(
      await follow(alice, await create(alice, { name: 'links', voiceUrl: 'https://example.com/v', environment: 1 })),
    );
    const env = await json(await follow(alice, app.environment));
    expect(env).toMatchObject({ href: app.environment, id: 1, name: 'Production' });
    const dev = await json(await stack.request(alice, 'GET', '/rest/v1/environments/2'));
    expect(dev.name).toBe('Development');
    const user = await json(await follow(alice, app.user));
    expect(user).toMatchObject({ href: app.user, id: Number(alice.id), username: alice.username });
    expect(user).not.toHaveProperty('password');
    expect(user).not.toHaveProperty('passwordHash');
  });

  it('when an unknown environment is read, then 404', async () => {
    expect((await stack.request(alice, 'GET', '/rest/v1/environments/77')).status).toBe(404);
    expect((await stack.request(alice, 'GET', '/rest/v1/environments/abc')).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it('when another account reads, updates or deletes an application, then 404 every time and nothing changes', async () => {
    const href = await create(alice, { name: 'private', voiceUrl: 'https://example.com/v' });
    const id = href.split('/').pop();
    for (const path of [`/v1/applications/${id}`, `/rest/v1/applications/${id}`]) {
      const got = await stack.request(bob, 'GET', path);
      expect(got.status).toBe(404);
      expect((await json(got)).code).toBe('not_found');
      expect((await stack.request(bob, 'PUT', path, { name: 'stolen' })).status).toBe(404);
      expect((await stack.request(bob, 'DELETE', path)).status).toBe(404);
    }
    const list = (await json(await stack.request(bob, 'GET', '/v1/applications?limit=1000'))) as unknown as {
      id: string;
    }[];
    expect(list.map((a) => a.id)).not.toContain(id);
    expect((await json(await follow(alice, href))).name).toBe('private');
    expect((await stack.request(bob, 'GET', `/rest/v1/users/${alice.id}`)).status).toBe(404);
  });

  it("when two accounts read many applications at once (their calls travel to the service in batches), then each sees its own and 404 for the other's", async () => {
    const [aliceHref, bobHref] = await Promise.all([
      create(alice, { name: 'alice at once', voiceUrl: 'https://example.com/a' }),
      create(bob, { name: 'bob at once', voiceUrl: 'https://example.com/b' }),
    ]);
    const reads = Array.from({ length: 60 }, (_, i) => ({
      reader: i % 2 ? bob : alice,
      href: i % 3 ? aliceHref : bobHref,
    }));
    const answers = await Promise.all(
      reads.map(async ({ reader, href }) => {
        const res = await follow(reader, href);
        return { status: res.status, body: await json(res) };
      }),
    );
    answers.forEach((a, i) => {
      const own = (reads[i]!.reader === alice) === (reads[i]!.href === aliceHref);
      expect(a.status).toBe(own ? 200 : 404);
      if (own) expect(a.body.name).toBe(reads[i]!.reader === alice ? 'alice at once' : 'bob at once');
    });
    const metrics = await (await fetch(`http://127.0.0.1:${stack.gateway.opsPort}/metrics`)).text();
    const batched = Number(
      /^gateway_grpc_client_batch_calls_count\{service="applications"\} (\d+)/m.exec(metrics)?.[1] ?? 0,
    );
    expect(batched).toBeGreaterThan(0);
  });

  it('when an unknown or malformed id is read, then 404 (not 400 or 500)', async () => {
    for (const id of ['0123456789abcdef01234567', 'nope', '1%27%20or%201=1', 'x'.repeat(300)]) {
      expect((await stack.request(alice, 'GET', `/v1/applications/${id}`)).status).toBe(404);
    }
  });
});
