// A subscription's `rateLimit.perSecond` holds across dispatcher replicas: deliveries past the rate
// wait for their slot (no attempt used, none failed) and the statistics count them as `throttled`.
import { expect, it } from 'vitest';
import { metricSum, useDeliveryStack, waitFor, type Receiver, type Services } from '../../../test/support';
import { cdrEvent, TEST_DISPATCHER_ENV } from './harness';

let s: Services<{ webhooks: true; gateway: true }>;
let rx: Receiver;
useDeliveryStack({ gateway: true }, (f) => ({ stack: s, rx } = f));

interface StatsCounts {
  attempts: number;
  succeeded: number;
  failed: number;
  throttled: number;
}

it('when 100 events for a subscription limited to 2 per second reach two dispatcher processes at once, then 60 ± 3 are delivered in 30 s, none failed, and the statistics count the held ones as throttled', async () => {
  const [d1, d2] = await Promise.all([s.spawnDispatcher(TEST_DISPATCHER_ENV), s.spawnDispatcher(TEST_DISPATCHER_ENV)]);
  try {
    const account = await s.createAccount('throttle');
    const path = `/${account.id}/limited`;
    rx.on(path, () => 204);
    const res = await s.request(account, 'POST', '/v1/webhooks', {
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: rx.url(path),
      rateLimit: { perSecond: 2 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const id = ((await res.json()) as { href: string }).href.split('/').pop()!;

    await Promise.all(
      Array.from({ length: 100 }, (_, i) => s.publish('cdr.created', cdrEvent(account.id, { id: `t-${i}` }))),
    );
    const first = await waitFor(() => rx.at(path)[0]?.at, { what: 'the first delivery', timeoutMs: 20_000 });
    // What the receiver got in the 30 s from the first delivery (and a little more, to see the window's end).
    await waitFor(() => Date.now() > first + 31_000, {
      what: '31 s of deliveries',
      timeoutMs: 40_000,
      intervalMs: 100,
    });
    const got = rx.at(path);
    const inWindow = got.filter((r) => r.at < first + 30_000).length;
    console.log(
      `2 per second over 30 s, two dispatchers: ${inWindow} delivered (${got.length} by 31 s); ` +
        `smallest gap ${Math.min(...got.slice(1).map((r, i) => r.at - got[i]!.at))} ms`,
    );
    expect(inWindow).toBeGreaterThanOrEqual(57);
    expect(inWindow).toBeLessThanOrEqual(63);
    // Each one delivered once (no duplicate webhook-id), every answer a success.
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(got.length);

    // Both replicas held and delivered some; the held ones made no attempt and none failed.
    const metrics = await Promise.all(
      [d1, d2].map(async (d) => (await fetch(`http://127.0.0.1:${d.opsPort}/metrics`)).text()),
    );
    for (const m of metrics) {
      expect(metricSum(m, 'dispatcher_deliveries_throttled_total')).toBeGreaterThan(0);
      expect(metricSum(m, 'dispatcher_deliveries_total', { outcome: 'succeeded' })).toBeGreaterThan(0);
      expect(metricSum(m, 'dispatcher_deliveries_total', { outcome: 'failed' })).toBe(0);
      expect(metricSum(m, 'dispatcher_deliveries_total', { outcome: 'retrying' })).toBe(0);
    }
    const throttled = metrics.reduce((n, m) => n + metricSum(m, 'dispatcher_deliveries_throttled_total'), 0);
    // All but the first wait for a slot (a few may have been held twice: come back late, reserved again).
    expect(throttled).toBeGreaterThanOrEqual(99);

    // The statistics: every attempt succeeded, none failed, and the held deliveries are `throttled`.
    const stats = await waitFor(
      async () => {
        const r = await s.request(account, 'GET', `/v1/webhooks/${id}/stats?window=1h&bucket=1m`);
        const body = (await r.json()) as { totals: StatsCounts };
        return body.totals.throttled >= throttled && body.totals.attempts >= inWindow ? body.totals : undefined;
      },
      { what: 'statistics with the throttled deliveries', timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(stats.throttled).toBe(throttled);
    expect(stats.failed).toBe(0);
    expect(stats.succeeded).toBe(stats.attempts);
  } finally {
    await Promise.all([d1.stop(), d2.stop()]);
  }
}, 120_000);
