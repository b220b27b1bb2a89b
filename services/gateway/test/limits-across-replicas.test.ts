// The limits the gateways count together (SHARED_LIMITS, the bucket SWITCHBOARD_LIMITS in NATS):
// two gateway replicas behind one address (a round-robin TCP proxy; every request on a connection
// of its own, so consecutive requests reach alternate replicas) admit what one gateway admits,
// within 10%: the per-account request limit, the per-address budget of failed logins and the
// Session API's launches per token.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type Proxy as TcpProxy } from '../../../proof/lib/proxy';
import {
  metricSum,
  startServices,
  waitFor,
  type RunningGateway,
  type Services,
  type TestAccount,
} from '../../../test/support';

const ACCOUNT_RATE = 20;
const ADDRESS_RATE = 1;
const ADDRESS_BURST = 10;
const SESSION_RATE = 5;

let stack: Services<{ gateway: true }>;
let second: RunningGateway;
let proxy: TcpProxy;

beforeAll(async () => {
  stack = await startServices({
    gateway: true,
    env: {
      RATE_LIMIT_PER_SECOND: String(ACCOUNT_RATE),
      AUTH_ADDRESS_FAILURES_PER_SECOND: String(ADDRESS_RATE),
      AUTH_ADDRESS_FAILURES_BURST: String(ADDRESS_BURST),
      SESSION_RATE_LIMIT_PER_SECOND: String(SESSION_RATE),
      // The proxy's connections come from loopback: it passes X-Forwarded-For, so each scenario is
      // a client address of its own.
      TRUSTED_PROXIES: '127.0.0.1/32',
      // The per-account launch budget (applications) out of the way of the per-token one.
      SESSION_LAUNCH_RATE_PER_ACCOUNT: '1000',
      SESSION_LAUNCH_BURST_PER_ACCOUNT: '2000',
    },
  });
  second = await stack.startGateway();
  proxy = await startProxy([stack.gateway.port, second.port]);
  // Both replicas count in NATS before the test starts (until then each counts alone).
  for (const opsPort of [stack.gateway.opsPort, second.opsPort])
    await waitFor(
      async () =>
        metricSum(await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text(), 'gateway_shared_limits_up') === 1,
      { what: 'shared limits up', timeoutMs: 15_000 },
    );
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

/** One request through the proxy on a connection of its own; answers the status. */
function send(method: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: proxy.port, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `loops` clients send `next(i)` until `total` requests are answered, together about `perSecond`
 * a second; answers the statuses and the seconds from the first request to the last answer.
 */
async function drive(total: number, loops: number, perSecond: number, next: (i: number) => Promise<number>) {
  const started = Date.now();
  const statuses: number[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (sent < total) {
        const i = sent++;
        // Paced: request i leaves at i / perSecond seconds.
        const due = started + (i * 1000) / perSecond - Date.now();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
        statuses.push(await next(i));
      }
    }),
  );
  return { statuses, seconds: (Date.now() - started) / 1000 };
}

/** What one gateway admits in `seconds` to a client asking faster than the rate: its burst and the refill. */
const oneGateway = (burst: number, rate: number, seconds: number) => burst + rate * seconds;

function expectWithin10Percent(admitted: number, single: number): void {
  expect(admitted).toBeGreaterThanOrEqual(Math.floor(single * 0.9));
  expect(admitted).toBeLessThanOrEqual(Math.ceil(single * 1.1));
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('limits across two gateway replicas behind one address', () => {
  it('when an account sends 4 times its request rate through two replicas, then they admit its burst and rate as one gateway would, within 10%, and refuse the rest with 429', async () => {
    const me: TestAccount = await stack.createAccount('busy');
    const before = [...proxy.connections];
    const { statuses, seconds } = await drive(240, 8, 4 * ACCOUNT_RATE, () =>
      send('GET', '/v1/applications', { authorization: me.authorization, 'x-forwarded-for': '198.51.100.10' }),
    );
    const single = oneGateway(2 * ACCOUNT_RATE, ACCOUNT_RATE, seconds);
    expect(count(statuses, 200) + count(statuses, 429)).toBe(statuses.length);
    expectWithin10Percent(count(statuses, 200), single);
    // Both replicas answered about half.
    const reached = proxy.connections.map((n, i) => n - before[i]!);
    for (const n of reached) expect(n).toBeGreaterThan(statuses.length / 3);
  });

  it('when one client address guesses passwords through two replicas, then its budget of failed logins is spent once for both, as behind one gateway, within 10%', async () => {
    const { statuses, seconds } = await drive(60, 4, 20, (i) =>
      send('GET', '/v1/applications', {
        authorization: `Basic ${Buffer.from(`nobody-${i}:wrong-password`).toString('base64')}`,
        'x-forwarded-for': '203.0.113.77',
      }),
    );
    // 401: a password actually checked; 429: refused before the KDF.
    const single = oneGateway(ADDRESS_BURST, ADDRESS_RATE, seconds);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(statuses.length);
    expectWithin10Percent(count(statuses, 401), single);
  });

  it("when an application's token launches sessions at 4 times its rate through two replicas, then they admit its burst and rate as one gateway would, within 10%", async () => {
    const owner = await stack.createAccount('launcher');
    const created = await stack.request(owner, 'POST', '/v1/applications', {
      name: 'launches',
      voiceUrl: 'https://example.com/voice',
    });
    const appId = String(((await created.json()) as { href: string }).href)
      .split('/')
      .pop()!;
    const address = await stack.request(owner, 'POST', `/v1/applications/${appId}/addresses`, {
      type: 'token',
      channel: 'voice',
    });
    const token = String(((await address.json()) as { href: string }).href)
      .split('/')
      .pop()!;
    const { statuses, seconds } = await drive(60, 8, 4 * SESSION_RATE, () =>
      send('POST', `/v1/sessions?token=${token}`, {}),
    );
    const single = oneGateway(2 * SESSION_RATE, SESSION_RATE, seconds);
    expect(count(statuses, 200) + count(statuses, 429)).toBe(statuses.length);
    expectWithin10Percent(count(statuses, 200), single);
  });
});
