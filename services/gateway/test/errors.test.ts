import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices, type Services, type TestAccount } from '../../../test/support';
import { createApplication } from './harness';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let appId: string;

beforeAll(async () => {
  stack = await startServices({ gateway: true });
  alice = await stack.createAccount('alice');
  appId = await createApplication(stack, alice, { name: 'target', voiceUrl: 'https://example.com/v' });
});
afterAll(async () => stack?.stop());

/** Sends raw bytes, so the test controls exactly what arrives (invalid UTF-8, odd headers). */
function raw(
  method: string,
  path: string,
  body: Buffer | string | undefined,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${stack.baseUrl}${path}`,
      { method, headers: { authorization: alice.authorization, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

function expectProblem(r: { status: number; type: string; body: string }, status: number): Record<string, unknown> {
  expect(r.status).toBe(status);
  expect(r.type).toMatch(/^application\/problem\+json/);
  const p = JSON.parse(r.body) as Record<string, unknown>;
  expect(p).toMatchObject({
    status,
    type: expect.stringMatching(/^urn:switchboard:problem:/),
    title: expect.any(String),
    detail: expect.any(String),
    code: expect.any(String),
  });
  return p;
}

describe('error statuses', () => {
  it('when the JSON is malformed, then 400', async () => {
    expectProblem(await raw('POST', '/v1/applications', '{"name": "x",', { 'content-type': 'application/json' }), 400);
  });

  it('when POST or PUT lacks Content-Type application/json, then 415', async () => {
    const body = JSON.stringify({ name: 'x', voiceUrl: 'https://example.com/v' });
    expectProblem(await raw('POST', '/v1/applications', body, { 'content-type': 'text/plain' }), 415);
    expectProblem(await raw('POST', '/v1/applications', body, {}), 415);
    expectProblem(
      await raw('PUT', `/v1/applications/${appId}`, body, { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
    );
    expectProblem(
      await raw('POST', '/v1/applications', body, { 'content-type': 'application/json; charset=latin-9000' }),
      415,
    );
  });

  it('when POST or PUT declares JSON but sends no body, then 400 naming the body, and nothing is created', async () => {
    const before = (await (await stack.request(alice, 'GET', '/v1/applications')).json()) as unknown[];
    const p = expectProblem(
      await raw('POST', '/v1/applications', undefined, { 'content-type': 'application/json' }),
      400,
    );
    expect(p.errors).toEqual([{ field: 'body', message: expect.stringMatching(/required/) }]);
    expectProblem(await raw('PUT', `/v1/applications/${appId}`, '', { 'content-type': 'application/json' }), 400);
    expectProblem(await raw('POST', '/v1/webhooks', undefined, { 'content-type': 'application/json' }), 400);
    const after = (await (await stack.request(alice, 'GET', '/v1/applications')).json()) as unknown[];
    expect(after).toHaveLength(before.length);
  });

  it('when the body is over 64 KiB, then 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(70 * 1024), voiceUrl: 'https://example.com/v' });
    expectProblem(await raw('POST', '/v1/applications', big, { 'content-type': 'application/json' }), 413);
  });

  it('when a method is not allowed on a path, then 405 with Allow', async () => {
    const r = await raw('PATCH', `/v1/applications/${appId}`, undefined, {});
    expectProblem(r, 405);
    const res = await stack.request(alice, 'DELETE', '/v1/applications');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD');
    expect((await stack.request(alice, 'POST', `/v1/applications/${appId}`, {})).headers.get('allow')).toBe(
      'GET, PUT, DELETE, HEAD',
    );
  });

  it('when a resource is asked for with HEAD, then the headers of its GET come back without a body', async () => {
    const get = await stack.request(alice, 'GET', `/v1/applications/${appId}`);
    const getBody = await get.text();
    const head = await stack.request(alice, 'HEAD', `/v1/applications/${appId}`);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
    expect(await head.text()).toBe('');
  });

  it('when a path does not exist, then 404 problem', async () => {
    expectProblem(await raw('GET', '/v1/nothing-here', undefined, {}), 404);
    expectProblem(await raw('GET', '/v2/applications', undefined, {}), 404);
  });

  it('when the rate limit is exceeded, then 429 with Retry-After', async () => {
    const limited = await startServices({ gateway: true, env: { RATE_LIMIT_PER_SECOND: '5' } });
    try {
      const who = await limited.createAccount('burst');
      const statuses = [];
      for (let i = 0; i < 15; i++) statuses.push(await limited.request(who, 'GET', '/v1/applications'));
      const tooMany = statuses.find((r) => r.status === 429);
      expect(tooMany).toBeDefined();
      expect(Number(tooMany!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(tooMany!.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    } finally {
      await limited.stop();
    }
  });
});

describe('malformed bodies never cause a 5xx', () => {
  const deep = (n: number): unknown => (n === 0 ? 'leaf' : { a: deep(n - 1) });
  const bodies: [string, Buffer | string][] = [
    ['array', '[]'],
    ['number', '42'],
    ['string', '"hello"'],
    ['null', 'null'],
    ['true', 'true'],
    ['empty', ''],
    ['whitespace', '   '],
    [
      'wrong types',
      JSON.stringify({
        name: { a: 1 },
        voiceUrl: 12,
        messagingUrl: false,
        environment: [1],
        apiType: 7,
        partition: {},
      }),
    ],
    ['float environment', JSON.stringify({ name: 'x', voiceUrl: 'https://example.com/v', environment: 1.5 })],
    ['huge environment', JSON.stringify({ name: 'x', voiceUrl: 'https://example.com/v', environment: 1e308 })],
    ['negative environment', JSON.stringify({ name: 'x', voiceUrl: 'https://example.com/v', environment: -1 })],
    [
      'huge environment digits',
      JSON.stringify({ name: 'x', voiceUrl: 'https://example.com/v', environment: '99999999999999999999' }),
    ],
    ['huge string', JSON.stringify({ name: 'x'.repeat(60_000), voiceUrl: 'https://example.com/v' })],
    ['long url', JSON.stringify({ name: 'x', voiceUrl: `https://example.com/${'a'.repeat(3000)}` })],
    ['nested junk', JSON.stringify(deep(2000))],
    ['nul in name', JSON.stringify({ name: 'a\u0000b', voiceUrl: 'https://example.com/v' })],
    ['nul in url', JSON.stringify({ name: 'a', voiceUrl: 'https://example.com/\u0000' })],
    ['lone surrogate', '{"name":"\\ud800","voiceUrl":"https://example.com/v"}'],
    [
      'invalid utf-8',
      Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        Buffer.from('","voiceUrl":"https://example.com/v"}'),
      ]),
    ],
    [
      'sql fragment',
      JSON.stringify({
        name: "'; drop table applications.applications; --",
        voiceUrl: "https://example.com/v?q=' or 1=1 --",
      }),
    ],
    ['script fragment', JSON.stringify({ name: '<script>alert(1)</script>', voiceUrl: 'javascript:alert(1)' })],
    ['duplicate keys', '{"name":"a","name":{"x":1},"voiceUrl":"https://example.com/v"}'],
    [
      'proto pollution',
      '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"name":"p","voiceUrl":"https://example.com/v"}',
    ],
    ['unicode name', JSON.stringify({ name: '📞 Ω Ääkkönen 中文 \u200b', voiceUrl: 'https://例え.jp/ボイス' })],
    ['emoji only url', JSON.stringify({ name: 'x', voiceUrl: 'https://💩' })],
    ['bad cursor types', JSON.stringify({ name: 'x', voiceUrl: 'http://[::1' })],
  ];

  it.each(bodies)(
    'when the body is %s, then POST and PUT answer 2xx or 4xx problem, never 5xx',
    async (_what, body) => {
      for (const [method, path] of [
        ['POST', '/v1/applications'],
        ['PUT', `/v1/applications/${appId}`],
      ] as const) {
        const r = await raw(method, path, body, { 'content-type': 'application/json' });
        expect(r.status, `${method} ${r.body}`).toBeLessThan(500);
        if (r.status >= 400) expectProblem(r, r.status);
      }
    },
  );

  it('when odd query strings are sent to the list, then 4xx or 200, never 5xx', async () => {
    for (const q of [
      'limit=1&limit=2',
      'cursor[a]=1',
      'limit=%00',
      'cursor=%ff%fe',
      `limit=${'9'.repeat(500)}`,
      '%zz',
    ]) {
      const r = await raw('GET', `/v1/applications?${q}`, undefined, {});
      expect(r.status, q).toBeLessThan(500);
    }
  });

  it('after all that, the service still answers and the stored application is intact', async () => {
    const res = await stack.request(alice, 'GET', `/v1/applications/${appId}`);
    expect(res.status).toBe(200);
  });
});
