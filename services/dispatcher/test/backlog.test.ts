// A receiver that stays down: its account's waiting deliveries are capped
// (DELIVERY_BACKLOG_PER_ACCOUNT, the oldest end as `backlog_full`) and aged out (DELIVERY_MAX_AGE,
// `expired`), recorded, listed through the API and recoverable; another tenant's deliveries go out
// at once all along. Through the real stack: gateway, webhooks and applications services, NATS and
// an in-process dispatcher.
import { describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import {
  metricSum,
  useDeliveryStack,
  waitFor,
  type Receiver,
  type Services,
  type TestAccount,
} from '../../../test/support';
import { DeliveryBacklog, totals } from '../src/delivery/backlog';
import { CONSUMERS, DELIVERIES_STREAM } from '../src/streams';
import { cdrEvent, TEST_DISPATCHER_ENV } from './harness';

let s: Services<{ webhooks: true; gateway: true }>;
let rx: Receiver;
useDeliveryStack({ gateway: true }, (f) => ({ stack: s, rx } = f));

interface Sub {
  id: string;
  path: string;
}

async function subscribe(account: TestAccount, name: string): Promise<Sub> {
  const path = `/${account.id}/${name}`;
  const res = await s.request(account, 'POST', '/v1/webhooks', {
    event: 'cdrCreated',
    resource: 'all',
    targetUrl: rx.url(path),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { href } = (await res.json()) as { href: string };
  return { id: href.split('/').pop()!, path };
}

interface Listed {
  id: string;
  messageId: string;
  outcome: string;
  error: string | null;
}

/** The subscription's failed records, through the API. */
async function failed(account: TestAccount, sub: Sub): Promise<Listed[]> {
  return s.listAll<Listed>(account, `/v1/webhooks/${sub.id}/deliveries?outcome=failed&limit=100`);
}

/** The event id a delivery record sent (its kept body). */
async function eventOf(account: TestAccount, deliveryId: string): Promise<string> {
  const d = (await (await s.request(account, 'GET', `/v1/deliveries/${deliveryId}`)).json()) as {
    request: { body: string } | null;
  };
  return (JSON.parse(d.request!.body) as { id: string }).id;
}

const publishWave = (account: TestAccount, wave: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) => s.publish('cdr.created', cdrEvent(account.id, { id: `${wave}-${i}` }))),
  );

describe('a receiver that stays down', () => {
  it("when a dead receiver's account passes its backlog cap, then its oldest waiting deliveries end as backlog_full, recorded and recoverable, and another tenant's go out at once", async () => {
    const CAP = 10;
    const env = {
      ...TEST_DISPATCHER_ENV,
      // A failed attempt waits an hour for its retry: without the cap, everything would wait.
      DELIVERY_RETRY_SCHEDULE: '1h',
      DELIVERY_BACKLOG_PER_ACCOUNT: String(CAP),
      // Buckets of one second: the waves below are told apart by age.
      DELIVERY_MAX_AGE: '2m',
      DELIVERY_BACKLOG_RECHECK: '1s',
    };
    // Two replicas: the cap is the account's over both.
    const replicas = [await s.startDispatcher(env), await s.startDispatcher(env)];
    try {
      const deadAcct = await s.createAccount();
      const liveAcct = await s.createAccount();
      const dead = await subscribe(deadAcct, 'dead');
      const live = await subscribe(liveAcct, 'live');
      let up = false;
      rx.on(dead.path, () => (up ? 204 : 503));
      const start = new Date();

      // Three waves of the dead tenant's events, two seconds apart, each as large as the cap; the
      // other tenant's events in between.
      const sent = new Map<string, number>();
      const publishLive = async (wave: string) => {
        for (let i = 0; i < 10; i++) {
          const id = `${wave}-${i}`;
          sent.set(id, Date.now());
          await s.publish('cdr.created', cdrEvent(liveAcct.id, { id }));
        }
      };
      await publishWave(deadAcct, 'a', CAP);
      await publishLive('live-a');
      await new Promise((r) => setTimeout(r, 2000));
      await publishWave(deadAcct, 'b', CAP);
      await publishLive('live-b');
      await new Promise((r) => setTimeout(r, 2000));
      await publishWave(deadAcct, 'c', CAP);
      await publishLive('live-c');

      // The other tenant: every event delivered, each within a few seconds of its publish.
      await waitFor(() => rx.delivered(live.path).size === 30, {
        what: "the other tenant's 30 deliveries",
        timeoutMs: 20_000,
        intervalMs: 20,
      });
      const latency = rx
        .at(live.path)
        .map((r) => r.at - sent.get((r.body as { id: string }).id)!)
        .reduce((a, b) => Math.max(a, b), 0);

      // The dead tenant: its two older waves end as backlog_full; the newest (the cap) waits.
      const ended = await waitFor(
        async () => {
          const list = (await failed(deadAcct, dead)).filter((r) => r.error?.startsWith('backlog_full: '));
          return list.length >= 2 * CAP && list;
        },
        { what: 'the oldest 20 deliveries ended as backlog_full', timeoutMs: 40_000, intervalMs: 250 },
      );
      const endedEvents = await Promise.all(ended.map((r) => eventOf(deadAcct, r.id)));
      console.log(
        `backlog: ${ended.length} of the dead tenant's ${3 * CAP} deliveries ended as backlog_full (cap ${CAP}); the other tenant's 30 arrived within ${latency} ms of their publish`,
      );
      expect(latency).toBeLessThan(5000);
      expect(new Set(endedEvents).size).toBe(ended.length);
      expect(endedEvents.every((id) => id.startsWith('a-') || id.startsWith('b-'))).toBe(true);

      // Bounded: the account's shared count and the deliveries stream hold at most the cap.
      const backlog = new DeliveryBacklog(
        s.bus.js,
        s.bus.jsm,
        { maxCount: CAP, maxBytes: 1e9, maxAgeMs: 120_000 },
        {
          logger: createLogger('test', 'silent'),
        },
      );
      const bounded = async () => {
        const count = totals((await backlog.read(deadAcct.id))!).count;
        const retry = await s.bus.jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.retry);
        const parked = await s.bus.jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.parked);
        const jobs = retry.num_pending + retry.num_ack_pending + parked.num_pending + parked.num_ack_pending;
        return { count, jobs };
      };
      const held = await waitFor(
        async () => {
          const b = await bounded();
          return b.count <= CAP && b.jobs <= CAP && b;
        },
        { what: 'the backlog within the cap', timeoutMs: 10_000 },
      ).catch(bounded);
      console.log(
        `backlog: the dead account counts ${held.count} waiting; the deliveries stream holds ${held.jobs} jobs`,
      );
      expect(held.count).toBeLessThanOrEqual(CAP);
      expect(held.jobs).toBeLessThanOrEqual(CAP);
      let endedCounted = 0;
      for (const d of replicas)
        endedCounted += metricSum(await d.metrics(), 'dispatcher_deliveries_ended_total', { reason: 'backlog_full' });
      expect(endedCounted).toBe(ended.length);

      // Recoverable: once the receiver is back, a recovery resends every delivery that ended.
      up = true;
      const upAt = Date.now();
      const res = await s.request(deadAcct, 'POST', `/v1/webhooks/${dead.id}/recover`, {
        since: start.toISOString(),
      });
      expect(res.status, await res.clone().text()).toBe(202);
      await waitFor(
        () => {
          const got = new Set(
            rx
              .at(dead.path)
              .filter((r) => r.at >= upAt)
              .map((r) => (r.body as { id: string }).id),
          );
          return endedEvents.every((id) => got.has(id));
        },
        { what: 'the ended deliveries recovered', timeoutMs: 30_000, intervalMs: 100 },
      );
    } finally {
      for (const d of replicas) await d.stop();
    }
  }, 120_000);

  it("when a dead receiver's account passes its bytes cap, then its oldest waiting deliveries end as backlog_full until its waiting jobs fit", async () => {
    // About 450 bytes a job here: four fit.
    const BYTES = 2048;
    const d = await s.startDispatcher({
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: '1h',
      DELIVERY_BACKLOG_BYTES_PER_ACCOUNT: String(BYTES),
      DELIVERY_MAX_AGE: '2m',
      DELIVERY_BACKLOG_RECHECK: '1s',
    });
    try {
      const acct = await s.createAccount();
      const sub = await subscribe(acct, 'bytes');
      rx.on(sub.path, () => 503);
      await publishWave(acct, 'old', 10);
      await new Promise((r) => setTimeout(r, 2000));
      await publishWave(acct, 'new', 3);
      const backlog = new DeliveryBacklog(
        s.bus.js,
        s.bus.jsm,
        { maxCount: 10_000, maxBytes: BYTES, maxAgeMs: 120_000 },
        { logger: createLogger('test', 'silent'), cacheMs: 1 },
      );
      const ended = await waitFor(
        async () => {
          const list = (await failed(acct, sub)).filter((r) => r.error?.startsWith('backlog_full: '));
          return list.length >= 8 && list;
        },
        { what: 'the oldest deliveries ended as backlog_full', timeoutMs: 20_000, intervalMs: 250 },
      );
      const within = await waitFor(
        async () => {
          const t = totals((await backlog.read(acct.id))!);
          return t.bytes <= BYTES && t;
        },
        { what: "the account's waiting bytes within the cap", timeoutMs: 10_000, intervalMs: 100 },
      );
      const events = await Promise.all(ended.map((r) => eventOf(acct, r.id)));
      console.log(
        `backlog bytes: ${ended.length} of 13 deliveries ended as backlog_full; ${within.count} waiting in ${within.bytes} bytes (cap ${BYTES})`,
      );
      expect(ended.length).toBeGreaterThan(0);
      expect(events.every((id) => id.startsWith('old-'))).toBe(true);
    } finally {
      await d.stop();
    }
  }, 60_000);

  it('when a delivery waits past DELIVERY_MAX_AGE, then it ends as expired and nothing of it is left waiting', async () => {
    const d = await s.startDispatcher({
      ...TEST_DISPATCHER_ENV,
      DELIVERY_RETRY_SCHEDULE: '1h',
      DELIVERY_MAX_AGE: '3s',
      DELIVERY_BACKLOG_RECHECK: '1s',
    });
    try {
      const acct = await s.createAccount();
      const sub = await subscribe(acct, 'expiring');
      rx.on(sub.path, () => 503);
      const start = Date.now();
      await publishWave(acct, 'x', 8);
      const expired = await waitFor(
        async () => {
          const list = (await failed(acct, sub)).filter((r) => r.error?.startsWith('expired: '));
          return list.length === 8 && list;
        },
        { what: 'the 8 deliveries expired', timeoutMs: 20_000, intervalMs: 250 },
      );
      const took = Date.now() - start;
      console.log(`max age: 8 waiting deliveries ended as expired ${took} ms after their publish (max age 3 s)`);
      expect(new Set(expired.map((r) => r.messageId)).size).toBe(8);
      expect(took).toBeLessThan(3000 + 6000);
      await waitFor(
        async () => {
          const c = await s.bus.jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.retry);
          return c.num_pending + c.num_ack_pending === 0;
        },
        { what: 'nothing left waiting', timeoutMs: 10_000 },
      );
      // (and any delivery an earlier test left waiting, past its max age here too)
      expect(
        metricSum(await d.metrics(), 'dispatcher_deliveries_ended_total', { reason: 'expired' }),
      ).toBeGreaterThanOrEqual(8);
    } finally {
      await d.stop();
    }
  }, 60_000);
});
