// At-least-once through outages of the target and of NATS (docs/events.md#delivery): deliveries wait while
// the receiver is down (retries and the open breaker), and the consumers recover by themselves
// after NATS restarts, without a dispatcher restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { waitFor, metricSum, sleep, startReceiver, type Receiver, type RunningDispatcher } from '../../../test/support';
import { CONSUMERS, DELIVERIES_STREAM } from '../src/streams';
import { cdrEvent, cdrTarget, eventsHandled, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.stop());

/** Publishes, retrying while NATS is away (as a producer would). */
async function publishRetrying(subject: string, body: unknown): Promise<void> {
  await waitFor(() => h.publish(subject, body).then(() => true), {
    what: `${subject} accepted`,
    timeoutMs: 20_000,
    intervalMs: 100,
  });
}

/**
 * Runs `test` with a receiver of its own and a dispatcher started with `env`, and stops both after
 * it, whatever its outcome (the receiver may be closed already: the test took it down).
 */
async function withReceiverAndDispatcher(
  env: Record<string, string>,
  test: (rx: Receiver, d: RunningDispatcher) => Promise<void>,
): Promise<void> {
  const rx = await startReceiver();
  const d = await h.startDispatcher(env);
  try {
    await test(rx, d);
  } finally {
    await d.stop();
    await rx.close().catch(() => undefined);
  }
}

describe('outages', () => {
  it('when the receiver is down for a while during a burst, then every event is delivered once it is back', async () => {
    await withReceiverAndDispatcher({ DELIVERY_RETRY_SCHEDULE: '200ms,400ms,800ms,1600ms,3200ms' }, async (rx, d) => {
      const { acct, path } = await cdrTarget(h, rx, 'outage');
      const total = 400;
      const publishing = (async () => {
        for (let i = 0; i < total; i += 20) {
          await Promise.all(
            Array.from({ length: 20 }, (_, k) => h.publish('cdr.created', cdrEvent(acct, { id: `down-${i + k}` }))),
          );
          // pacing, not a wait: the burst is spread out so that the receiver goes down in the middle of it
          await sleep(25);
        }
      })();
      await waitFor(() => rx.delivered(path).size >= 100, {
        what: 'first deliveries',
        timeoutMs: 10_000,
        intervalMs: 5,
      });
      await rx.close();
      const downAt = Date.now();
      await publishing;
      // while it is down, attempts fail and are retried, and its breaker opens
      const m = await waitFor(
        async () => {
          const now = await d.metrics();
          const retried = metricSum(now, 'dispatcher_retries_scheduled_total', { kind: 'notification' }) > 0;
          return (
            retried &&
            metricSum(now, 'dispatcher_deliveries_deferred_total', { kind: 'notification', reason: 'breaker_open' }) >
              0 &&
            now
          );
        },
        { what: 'retries scheduled and the breaker open', timeoutMs: 15_000 },
      );
      await rx.reopen();
      await waitFor(() => rx.delivered(path).size === total, {
        what: `${total} deliveries`,
        timeoutMs: 30_000,
        intervalMs: 50,
      });
      console.log(
        `receiver outage: ${Date.now() - downAt} ms until all ${total} delivered; ${rx.at(path).length} POSTs`,
      );
      // while it was down, attempts failed and were retried, and its breaker opened
      expect(metricSum(m, 'dispatcher_retries_scheduled_total', { kind: 'notification' })).toBeGreaterThan(0);
      expect(
        metricSum(m, 'dispatcher_deliveries_deferred_total', { kind: 'notification', reason: 'breaker_open' }),
      ).toBeGreaterThan(0);
      const after = await d.metrics();
      expect(metricSum(after, 'dispatcher_deliveries_total', { kind: 'notification', outcome: 'failed' })).toBe(0);
    });
  }, 60_000);

  it('when retries are scheduled far ahead, then they are reported as waiting, not as consumer backlog', async () => {
    await withReceiverAndDispatcher({ DELIVERY_RETRY_SCHEDULE: '1h' }, async (rx, d) => {
      const { acct } = await cdrTarget(h, rx, 'later', () => 503);
      for (let i = 0; i < 5; i++) await h.publish('cdr.created', cdrEvent(acct, { id: `later-${i}` }));
      await waitFor(
        async () => metricSum(await d.metrics(), 'dispatcher_retries_scheduled_total', { kind: 'notification' }) >= 5,
        { what: '5 retries scheduled' },
      );
      // The gauges are refreshed from JetStream every 5 s.
      await waitFor(async () => metricSum(await d.metrics(), 'dispatcher_retries_waiting') >= 5, {
        what: 'retries reported as waiting',
        timeoutMs: 15_000,
        intervalMs: 250,
      });
      const m = await d.metrics();
      expect(metricSum(m, 'dispatcher_consumer_pending', { consumer: CONSUMERS.retry })).toBe(0);
      expect(metricSum(m, 'dispatcher_consumer_pending', { consumer: CONSUMERS.events })).toBe(0);
    });
  }, 60_000);

  it('when a host stays unavailable past DELIVERY_GIVE_UP_AFTER, then its waiting deliveries are recorded as failed, not kept waiting', async () => {
    await withReceiverAndDispatcher(
      {
        DELIVERY_RETRY_SCHEDULE: '1h',
        DELIVERY_GIVE_UP_AFTER: '2s',
        DELIVERY_BREAKER_VOLUME_THRESHOLD: '2',
        DELIVERY_BREAKER_RESET_TIMEOUT: '3s',
      },
      async (rx, d) => {
        const { acct, path, sub } = await cdrTarget(h, rx, 'gone-quiet', () => 503);
        // Two failures open the host's breaker; the next events wait for it without an attempt.
        for (let i = 0; i < 2; i++) await h.publish('cdr.created', cdrEvent(acct, { id: `quiet-open-${i}` }));
        await waitFor(() => rx.at(path).length >= 2, { what: 'two failed attempts' });
        await waitFor(async () => metricSum(await d.metrics(), 'dispatcher_breakers', { state: 'open' }) >= 1, {
          what: 'the breaker open',
        });
        for (let i = 0; i < 5; i++) await h.publish('cdr.created', cdrEvent(acct, { id: `quiet-wait-${i}` }));
        const gaveUp = async () =>
          (
            await h.webhooks.client.listDeliveries({ accountId: acct, subscriptionId: sub.id, limit: 100 })
          ).deliveries.filter((r) => r.outcome === 'failed' && /gave up/.test(r.error ?? ''));
        await waitFor(async () => (await gaveUp()).length >= 4, {
          what: 'waiting deliveries given up',
          timeoutMs: 20_000,
          intervalMs: 250,
        });
        // At most the breaker's one probe reached the host; the rest never did.
        expect(rx.at(path).length).toBeLessThanOrEqual(3);
        expect((await gaveUp())[0]!.error).toMatch(/circuit breaker open/);
      },
    );
  }, 60_000);

  it("when one tenant's receiver fails on a shared host, then another tenant's deliveries to that host go out at once", async () => {
    await withReceiverAndDispatcher(
      {
        DELIVERY_RETRY_SCHEDULE: '1h',
        DELIVERY_BREAKER_VOLUME_THRESHOLD: '2',
        DELIVERY_BREAKER_RESET_TIMEOUT: '60s',
      },
      async (rx, d) => {
        const failing = await h.newAccount();
        const other = await h.newAccount();
        rx.on(`/shared/${failing}`, () => 503);
        await h.subscribe(failing, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/shared/${failing}`) });
        await h.subscribe(other, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(`/shared/${other}`) });
        // The failing tenant's attempts open its breaker for the host (both tenants' URLs are on the same host).
        for (let i = 0; i < 3; i++) await h.publish('cdr.created', cdrEvent(failing, { id: `shared-fail-${i}` }));
        await waitFor(async () => metricSum(await d.metrics(), 'dispatcher_breakers', { state: 'open' }) >= 1, {
          what: "the failing tenant's breaker open",
        });
        const sentAt = Date.now();
        for (let i = 0; i < 5; i++) await h.publish('cdr.created', cdrEvent(other, { id: `shared-ok-${i}` }));
        const delivered = await waitFor(() => rx.delivered(`/shared/${other}`).size === 5, {
          what: "the other tenant's deliveries",
          timeoutMs: 10_000,
          intervalMs: 20,
        }).catch(() => false);
        console.log(
          `shared host: the other tenant's 5 deliveries ${delivered ? `arrived in ${Date.now() - sentAt} ms` : 'did not arrive within 10 s'}`,
        );
        expect(delivered).toBe(true);
        const m = await d.metrics();
        expect(metricSum(m, 'dispatcher_breakers', { state: 'open' })).toBe(1);
        expect(metricSum(m, 'dispatcher_breakers', { state: 'closed' })).toBeGreaterThanOrEqual(1);
      },
    );
  }, 60_000);

  it('when NATS restarts mid-run, then the dispatcher recovers by itself and every event is delivered', async () => {
    const rx = await startReceiver();
    const d = await h.startDispatcher();
    try {
      const { acct, path } = await cdrTarget(h, rx, 'nats-restart');
      const total = 600;
      for (let i = 0; i < 300; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, k) => h.publish('cdr.created', cdrEvent(acct, { id: `nr-${i + k}` }))),
        );
      }
      await waitFor(() => rx.delivered(path).size >= 50, {
        what: 'first deliveries',
        timeoutMs: 10_000,
        intervalMs: 5,
      });
      await h.nats.restart();
      for (let i = 300; i < total; i++) await publishRetrying('cdr.created', cdrEvent(acct, { id: `nr-${i}` }));
      await waitFor(() => rx.delivered(path).size === total, {
        what: `${total} deliveries after the restart`,
        timeoutMs: 45_000,
        intervalMs: 50,
      });
      expect(new Set(rx.at(path).map((r) => r.body.id)).size).toBe(total);
      const ready = await waitFor(async () => (await fetch(`http://127.0.0.1:${d.opsPort}/readyz`)).ok, {
        what: 'ready again',
      });
      expect(ready).toBe(true);
      // Acknowledgements lost in the restart re-deliver their events after ack_wait: they are
      // handled here, not left for the next test.
      const jsm = await jetstreamManager(h.bus.nc);
      await waitFor(
        async () => {
          const i = await jsm.consumers.info('SWITCHBOARD_INBOUND', CONSUMERS.events);
          return i.num_pending + i.num_ack_pending === 0;
        },
        { what: 'events consumer drained', timeoutMs: 30_000, intervalMs: 200 },
      );
    } finally {
      await d.stop();
      await rx.close();
    }
  }, 90_000);

  it('when the webhooks service is down, then deliveries go on, records wait in JetStream and are all stored once it is back', async () => {
    const rx = await startReceiver();
    const d = await h.startDispatcher({ LOOKUP_CACHE_TTL: '10m' });
    try {
      const { acct, path, sub } = await cdrTarget(h, rx, 'records');
      await h.publish('cdr.created', cdrEvent(acct, { id: 'warm' }));
      await waitFor(
        async () =>
          (await h.webhooks.client.listDeliveries({ accountId: acct, subscriptionId: sub.id, limit: 10 })).deliveries
            .length === 1,
        { what: 'first record' },
      );
      await h.webhooks.stop();
      for (let i = 0; i < 50; i++) await h.publish('cdr.created', cdrEvent(acct, { id: `rec-${i}` }));
      // delivered from the cached match while the records wait
      await waitFor(() => rx.delivered(path).size === 51, {
        what: 'deliveries while webhooks is down',
        timeoutMs: 20_000,
      });
      const jsm = await jetstreamManager(h.bus.nc);
      // the events themselves are done: their records are durable in JetStream
      await eventsHandled(h.bus);
      const waiting = await jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.records);
      expect(waiting.num_pending + waiting.num_ack_pending).toBeGreaterThan(0);
      const events = await jsm.consumers.info('SWITCHBOARD_INBOUND', CONSUMERS.events);
      expect(events.num_ack_pending + events.num_pending).toBe(0);
      await h.webhooks.start();
      const records = await waitFor(
        async () => {
          const r = await h.webhooks.client
            .listDeliveries({ accountId: acct, subscriptionId: sub.id, limit: 100 })
            .catch(() => undefined);
          return r && r.deliveries.length === 51 && r.deliveries;
        },
        { what: '51 records', timeoutMs: 15_000 },
      );
      expect(records.every((r) => r.outcome === 'succeeded')).toBe(true);
      expect(new Set(records.map((r) => r.messageId)).size).toBe(51);
      await waitFor(
        async () => {
          const i = await jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.records);
          return i.num_pending + i.num_ack_pending === 0;
        },
        { what: 'records consumer drained' },
      );
    } finally {
      await h.webhooks.start();
      await d.stop();
      await rx.close();
    }
  }, 60_000);
});
