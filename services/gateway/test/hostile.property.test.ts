// Property-based hostile input: generated requests over every endpoint never produce a 5xx, and every
// error is a documented problem+json (stack.request validates each response against the OpenAPI
// document). `npm run proof` runs many more of them (PROPERTY_RUNS).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices, type Services, type TestAccount } from '../../../test/support';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 250);
let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let bob: TestAccount;
let appId: string;
let hookId: string;

beforeAll(async () => {
  stack = await startServices({ gateway: true, webhooks: true });
  [alice, bob] = await Promise.all([stack.createAccount('alice'), stack.createAccount('bob')]);
  const app = await stack.request(alice, 'POST', '/v1/applications', {
    name: 'target',
    voiceUrl: 'https://example.com/v',
  });
  appId = ((await app.json()) as { href: string }).href.split('/').pop()!;
  const hook = await stack.request(alice, 'POST', '/v1/webhooks', {
    event: 'smsdlr',
    resource: 'sms',
    targetUrl: 'https://example.com/hook',
  });
  hookId = ((await hook.json()) as { href: string }).href.split('/').pop()!;
}, 60_000);
afterAll(async () => stack?.stop());

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '%00',
    '../../etc/passwd',
    "' or 1=1 --",
    '<script>',
    'null',
    '{}',
    '[]',
    'x'.repeat(5000),
    '🦄'.repeat(100),
  ),
);
/** Percent-encodes a generated string; lone surrogates become raw invalid UTF-8 escapes. */
const safeEncode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80%FF';
  }
};
const id = fc.oneof(
  fc.constant('APP'),
  fc.constant('HOOK'),
  nasty.map((s) => safeEncode(s).slice(0, 300)),
  fc.stringMatching(/^[0-9a-f]{24}$/),
);
const pathArb = fc
  .tuple(
    fc.constantFrom(
      '/v1/applications',
      '/v1/applications/:id',
      '/rest/v1/applications/:id',
      '/v1/webhooks',
      '/v1/webhooks/:id',
      '/v1/applications/:id/webhooks',
      '/v1/applications/:id/webhooks/:id2',
      '/v1/application/:id/webhooks/:id2',
      '/v1/webhooks/:id/secret',
      '/v1/webhooks/:id/secret/rotate',
      '/v1/webhooks/:id/deliveries',
      '/v1/applications/:id/deliveries',
      '/rest/v1/environments/:id',
      '/rest/v1/users/:id',
      '/v1/:id',
    ),
    id,
    id,
    fc.boolean(),
    fc.option(fc.dictionary(fc.constantFrom('limit', 'cursor', 'event', 'resource', 'x'), nasty, { maxKeys: 3 }), {
      nil: undefined,
    }),
  )
  .map(([template, a, b, slash, query]) => {
    const sub = (v: string) => (v === 'APP' ? appId : v === 'HOOK' ? hookId : v);
    let p = template.replace(':id2', sub(b)).replace(':id', sub(a)) + (slash ? '/' : '');
    if (query) p += `?${new URLSearchParams(query as Record<string, string>).toString()}`;
    return p;
  });
/** Arrays and objects nested `levels` deep, around the gateway's 64-level limit and far past it. */
const deepLevels = fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 71, max: 5000 }));
const deepJson = fc
  .tuple(deepLevels, fc.boolean())
  .map(([levels, arrays]) =>
    arrays ? `${'['.repeat(levels)}1${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`,
  );
const fieldValue = fc.oneof(
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 4 }),
);
const bodyArb = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom(
        'name',
        'voiceUrl',
        'messagingUrl',
        'environment',
        'apiType',
        'platform',
        'partition',
        'event',
        'resource',
        'targetUrl',
        'payload',
        'enabled',
        '__proto__',
        'constructor',
      ),
      fieldValue,
      { maxKeys: 8 },
    )
    .map((o) => JSON.stringify(o)),
  nasty,
  fc.constant('{"name":"a","name":"b","voiceUrl":"https://example.com/v"}'),
  fc.constant(`${'['.repeat(5000)}${']'.repeat(5000)}`),
  deepJson,
  // A deep value in a field the gateway reads (a webhook payload) or one it ignores.
  fc
    .tuple(fc.constantFrom('payload', 'name', 'x'), deepJson)
    .map(
      ([field, deep]) => `{"event":"smsdlr","resource":"sms","targetUrl":"https://example.com/h","${field}":${deep}}`,
    ),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  '',
  'application/merge-patch+json',
);

describe('hostile input', () => {
  it(`when ${RUNS} generated requests hit every endpoint, then none is a 5xx and every answer is documented`, async () => {
    const seen = new Map<number, number>();
    let tooDeep = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        pathArb,
        fc.option(bodyArb, { nil: undefined }),
        contentType,
        fc.constantFrom('alice', 'bob', 'none', 'garbage'),
        async (method, path, body, type, who) => {
          const account = who === 'alice' ? alice : who === 'bob' ? bob : undefined;
          const headers: Record<string, string> = {};
          if (type) headers['content-type'] = type;
          if (who === 'garbage') headers.authorization = 'Basic ::::';
          const res = await stack.request(
            account,
            method,
            path,
            method === 'GET' || method === 'OPTIONS' ? undefined : body,
            headers,
          );
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          expect(res.status, `${method} ${path}`).toBeLessThan(500);
          if (res.status === 400 && /deeper than the limit/.test(await res.clone().text())) tooDeep++;
        },
      ),
      { numRuns: RUNS, seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined },
    );
    // The generator reached deep enough to get successes and several kinds of rejection.
    expect([...seen.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(4);
    // Bodies nested past the depth limit got through to the parser and were refused there.
    expect(tooDeep).toBeGreaterThan(0);
    // And the target resources survived it.
    expect((await stack.request(alice, 'GET', `/v1/applications/${appId}`)).status).toBeLessThan(500);
  }, 300_000);
});

describe('tenant isolation as a property', () => {
  it('when one account creates resources and another tries every operation on them, then none is visible or changeable', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('application', 'account-webhook', 'app-webhook'),
        fc.constantFrom('GET', 'PUT', 'DELETE'),
        fc.constantFrom('/v1', '/rest/v1'),
        async (kind, method, prefix) => {
          const [owner, other] = await Promise.all([stack.createAccount('owner'), stack.createAccount('other')]);
          const app = await stack.request(owner, 'POST', '/v1/applications', {
            name: 'mine',
            voiceUrl: 'https://example.com/v',
          });
          const ownAppId = ((await app.json()) as { href: string }).href.split('/').pop()!;
          let path = `${prefix}/applications/${ownAppId}`;
          if (kind !== 'application') {
            const createPath = kind === 'account-webhook' ? '/v1/webhooks' : `/v1/applications/${ownAppId}/webhooks`;
            const hook = await stack.request(owner, 'POST', createPath, {
              event: 'cdrCreated',
              resource: 'call',
              targetUrl: 'https://example.com/h',
            });
            const hid = ((await hook.json()) as { href: string }).href.split('/').pop()!;
            path = kind === 'account-webhook' ? `/v1/webhooks/${hid}` : `/v1/applications/${ownAppId}/webhooks/${hid}`;
          }
          const before = await (await stack.request(owner, 'GET', path)).text();
          const attempt = await stack.request(
            other,
            method,
            path,
            method === 'PUT' ? { name: 'stolen', targetUrl: 'https://evil.example.com/' } : undefined,
          );
          expect(attempt.status).toBe(404);
          const after = await stack.request(owner, 'GET', path);
          expect(after.status).toBe(200);
          expect(await after.text()).toBe(before);
          const list = await stack.request(other, 'GET', kind === 'application' ? '/v1/applications' : '/v1/webhooks');
          expect(await list.text()).toBe('[]');
        },
      ),
      { numRuns: Math.max(10, Math.round(RUNS / 10)) },
    );
  }, 300_000);
});
