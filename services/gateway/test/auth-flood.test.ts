// Logins that would cost a KDF are bounded per client address (429 + Retry-After), believing
// X-Forwarded-For only from TRUSTED_PROXIES; cached credentials are never limited.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServices, type Services, type TestAccount } from '../../../test/support';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    env: { AUTH_ADDRESS_FAILURES_PER_SECOND: '0.01', AUTH_ADDRESS_FAILURES_BURST: '3', TRUSTED_PROXIES: '127.0.0.0/8' },
  });
  alice = await stack.createAccount('alice');
});
afterAll(async () => stack?.stop());

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const get = (authorization: string, forwardedFor?: string) =>
  fetch(`${stack.baseUrl}/v1/applications`, {
    headers: { authorization, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });

it('when one client address fails too often, then its further logins are refused with 429 + Retry-After before verification, while other addresses and cached credentials still work', async () => {
  expect((await get(alice.authorization, '198.51.100.1')).status).toBe(200); // verified and cached
  for (let i = 0; i < 3; i++) expect((await get(basic(`nobody-${i}`, 'bad'), '198.51.100.2')).status).toBe(401);
  const refused = await get(basic('nobody-x', 'bad'), '198.51.100.2');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  // Refused before any other work, yet the same problem document and request id as any answer.
  expect(await refused.json()).toMatchObject({
    status: 429,
    code: 'rate_limited',
    error: expect.stringMatching(/too many failed logins/),
  });
  expect(refused.headers.get('x-request-id')).toMatch(/./);
  const tagged = await fetch(`${stack.baseUrl}/v1/applications`, {
    headers: { authorization: basic('nobody-t', 'bad'), 'x-forwarded-for': '198.51.100.2', 'x-request-id': 'flood-1' },
  });
  expect([tagged.status, tagged.headers.get('x-request-id')]).toEqual([429, 'flood-1']);
  // Paths outside the API are never refused for it.
  expect(
    (
      await fetch(`${stack.baseUrl}/openapi.json`, {
        headers: { authorization: basic('nobody-o', 'bad'), 'x-forwarded-for': '198.51.100.2' },
      })
    ).status,
  ).toBe(200);
  // ...and stays refused from that address...
  expect((await get(basic('nobody-y', 'bad'), '198.51.100.2')).status).toBe(429);
  // ...but a cached credential never touches the limit, and another client behind the proxy is not affected.
  expect((await get(alice.authorization, '198.51.100.2')).status).toBe(200);
  expect((await get(basic('nobody-z', 'bad'), '198.51.100.3')).status).toBe(401);
  // A forged hop left of the real client does not buy a fresh budget.
  expect((await get(basic('nobody-w', 'bad'), '203.0.113.5, 198.51.100.2')).status).toBe(429);
});

it('when an IPv6 client rotates addresses within its /64, then they share one budget of failed logins, while the next /64 has its own', async () => {
  for (let i = 1; i <= 3; i++) expect((await get(basic(`v6-${i}`, 'bad'), `2001:db8:aa:bb::${i}`)).status).toBe(401);
  const rotated = await get(basic('v6-rotated', 'bad'), '2001:db8:aa:bb:ffff:1234:5678:9abc');
  expect(rotated.status).toBe(429);
  expect((await get(basic('v6-neighbour', 'bad'), '2001:db8:aa:bc::1')).status).toBe(401);
});
