// A recovery hands the dispatchers at most RESEND_IN_FLIGHT_PER_ACCOUNT of an account's resends at a
// time: the rest wait in the webhooks service's table, so a recovery towards a receiver that is still
// down never fills the deliveries stream every tenant shares, and every resend is still made.
import { expect, it } from 'vitest';
import { useDeliveryStack, waitFor, type Receiver, type Services } from '../../../test/support';
import { DELIVERIES_STREAM } from '../src/streams';
import { cdrEvent, TEST_DISPATCHER_ENV } from './harness';

const IN_FLIGHT = 5;
let s: Services<{ webhooks: true; gateway: true }>;
let rx: Receiver;
useDeliveryStack(
  { gateway: true, env: { RESEND_IN_FLIGHT_PER_ACCOUNT: String(IN_FLIGHT) } },
  (f) => ({ stack: s, rx } = f),
);

it('when a recovery of 40 deliveries goes to a receiver that is still down, then at most the in-flight cap of them wait in the stream at once and all 40 are sent', async () => {
  const d = await s.startDispatcher({
    ...TEST_DISPATCHER_ENV,
    DELIVERY_RETRY_SCHEDULE: '100ms',
    DELIVERY_BREAKER_VOLUME_THRESHOLD: '100000',
  });
  try {
    const account = await s.createAccount('resends');
    const path = `/${account.id}/down`;
    rx.on(path, () => 503);
    const res = await s.request(account, 'POST', '/v1/webhooks', {
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: rx.url(path),
    });
    const id = ((await res.json()) as { href: string }).href.split('/').pop()!;
    const start = new Date(Date.now() - 1000);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => s.publish('cdr.created', cdrEvent(account.id, { id: `r-${i}` }))),
    );
    await waitFor(
      async () => (await s.listAll(account, `/v1/webhooks/${id}/deliveries?outcome=failed&limit=100`)).length >= 40,
      { what: '40 failed deliveries', timeoutMs: 20_000 },
    );
    const before = rx.at(path).length;
    const recover = await s.request(account, 'POST', `/v1/webhooks/${id}/recover`, { since: start.toISOString() });
    expect(recover.status, await recover.clone().text()).toBe(202);
    let most = 0;
    await waitFor(
      async () => {
        const info = await s.bus.jsm.streams.info(DELIVERIES_STREAM, { subjects_filter: 'deliveries.resend' });
        most = Math.max(most, info.state.subjects?.['deliveries.resend'] ?? 0);
        return rx.at(path).length - before >= 40;
      },
      { what: 'every resend sent', timeoutMs: 30_000, intervalMs: 10 },
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(IN_FLIGHT);
  } finally {
    await d.stop();
  }
}, 90_000);
