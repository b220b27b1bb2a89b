import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServices, type Services, type TestAccount } from '../../../test/support';

let stack: Services<{ gateway: true }>;
let alice: TestAccount;
let bob: TestAccount;
/** The gateway's operations port: /healthz, /readyz, /metrics. */
let opsUrl: string;

beforeAll(async () => {
  const opsPort = await freePort();
  opsUrl = `http://127.0.0.1:${opsPort}`;
  stack = await startServices({
    gateway: true,
    env: { AUTH_MAX_FAILURES: '3', AUTH_LOCKOUT_MS: '60000', OPS_PORT: String(opsPort) },
  });
  [alice, bob] = await Promise.all([stack.createAccount('alice'), stack.createAccount('bob')]);
});
afterAll(async () => stack?.stop());

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const get = (authorization?: string) =>
  fetch(`${stack.baseUrl}/v1/applications`, { headers: authorization ? { authorization } : {} });

describe('authentication', () => {
  it.each([
    ['no header', undefined],
    ['an empty Basic value', 'Basic '],
    ['another scheme', 'Bearer abc'],
    ['no colon', `Basic ${Buffer.from('justuser').toString('base64')}`],
    ['not base64', 'Basic !!!***'],
    ['an unknown user', basic('nobody-here', 'whatever')],
  ])('when the request has %s, then 401 problem+json with a Basic challenge', async (_what, header) => {
    const res = await get(header);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="switchboard"');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      type: 'urn:switchboard:problem:unauthenticated',
    });
  });

  it('when the password is wrong, then 401; when right, then 200 (and again from the cache)', async () => {
    expect((await get(basic(alice.username, 'wrong-password'))).status).toBe(401);
    expect((await get(alice.authorization)).status).toBe(200);
    expect((await get(alice.authorization)).status).toBe(200);
    const metrics = await (await fetch(`${opsUrl}/metrics`)).text();
    const hits = Number(/^gateway_auth_cache_hits_total (\d+)/m.exec(metrics)?.[1]);
    expect(hits).toBeGreaterThanOrEqual(1);
  });

  it('when a user is brute-forced, then it is locked out with 429 and Retry-After, and other accounts are not slowed', async () => {
    const victim = await stack.createAccount('victim');
    for (let i = 0; i < 3; i++) expect((await get(basic(victim.username, `guess-${i}`))).status).toBe(401);
    const locked = await get(basic(victim.username, 'guess-again'));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password waits out the lockout (it was never cached).
    expect((await get(victim.authorization)).status).toBe(429);
    // Other accounts are unaffected (how fast they answer: bench/latency.ts).
    expect((await get(bob.authorization)).status).toBe(200);
  });

  it('when a password has a colon in it, then everything after the first colon is the password', async () => {
    // The account command rejects nothing about colons; the header split must be at the first one.
    expect((await get(basic(alice.username, `${alice.password}:extra`))).status).toBe(401);
  });
});

describe('request ids', () => {
  it('when the client sends X-Request-Id, then it is echoed; otherwise one is generated', async () => {
    const mine = await fetch(`${stack.baseUrl}/v1/applications`, {
      headers: { authorization: alice.authorization, 'x-request-id': 'client-abc-123' },
    });
    expect(mine.headers.get('x-request-id')).toBe('client-abc-123');
    const generated = await get(alice.authorization);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await fetch(`${stack.baseUrl}/v1/applications`, {
      headers: { authorization: alice.authorization, 'x-request-id': 'a b<script>' },
    });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('operations endpoints', () => {
  it('when probed on the ops port, then /healthz is 200 and /metrics has request counters by route and status and gRPC client metrics', async () => {
    expect((await fetch(`${opsUrl}/healthz`)).status).toBe(200);
    await get(alice.authorization);
    const text = await (await fetch(`${opsUrl}/metrics`)).text();
    expect(text).toMatch(/gateway_http_requests_total\{method="GET",route="\/v1\/applications",status="200"\} \d+/);
    expect(text).toMatch(
      /gateway_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/applications",status="200"\}/,
    );
    expect(text).toMatch(
      /gateway_grpc_client_calls_total\{service="applications",method="listApplications",code="OK"\} \d+/,
    );
    expect(text).toMatch(/gateway_process_resident_memory_bytes \d+/);
  });

  it('when the webhooks service is not running, then /readyz is 503 naming it; the applications service ops port is ready', async () => {
    const res = await fetch(`${opsUrl}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: { applications: true, webhooks: false } });
    const apps = await fetch(`http://127.0.0.1:${stack.applications.opsPort}/readyz`);
    expect(apps.status).toBe(200);
    expect(await apps.json()).toMatchObject({ checks: { database: true, nats: true } });
    const metrics = await (await fetch(`http://127.0.0.1:${stack.applications.opsPort}/metrics`)).text();
    expect(metrics).toMatch(/applications_grpc_server_handled_total\{method="ListApplications",code="OK"\} \d+/);
  });

  it('when /metrics or /readyz is asked for on the public API port, then 404 problem, with or without credentials; /healthz answers there too', async () => {
    for (const path of ['/metrics', '/readyz', '/metrics?x=1', '/readyz/']) {
      for (const headers of [{}, { authorization: alice.authorization }] as Record<string, string>[]) {
        const res = await fetch(`${stack.baseUrl}${path}`, { headers });
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await res.json()).toMatchObject({ status: 404, code: 'not_found' });
      }
    }
    const health = await fetch(`${stack.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Probes of the public port are counted under one label; the ops port's own requests are not API traffic.
    expect(await (await fetch(`${opsUrl}/metrics`)).text()).toMatch(
      /gateway_http_requests_total\{method="GET",route="ops",status="200"\} \d+/,
    );
  });
});
