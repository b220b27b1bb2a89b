// Fairness of scheduled retries: every retry that waits is an un-acknowledged message of the retry
// consumer, whose max_ack_pending (DELIVERY_MAX_SCHEDULED) is one window for every target. A dead
// endpoint with more waiting retries than that window must not hold up another tenant's retry:
// each target gets a bounded share (DELIVERY_SCHEDULED_PER_TARGET), the rest is parked outside.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { waitFor, metricSum, startReceiver, type Receiver } from '../../../test/support';
import { CONSUMERS, DELIVERIES_STREAM } from '../src/streams';
import { cdrEvent, startHarness, useHarness, type Harness } from './harness';

let h: Harness;
let dead: Receiver;
let rx: Receiver;

useHarness((f) => ({ h, rx } = f));
beforeAll(async () => void (dead = await startReceiver()));
afterAll(async () => dead?.close());

describe('retry fairness', () => {
  it("when a dead endpoint has more retries waiting than the whole retry window, then another tenant's retry still comes on schedule", async () => {
    const DEAD = 1200;
    // Attempt 2 comes 300 ms after attempt 1, attempt 3 an hour later: the dead endpoint's
    // deliveries all end up waiting for an hour, more of them than the window (1000) holds.
    const d = await h.startDispatcher({
      DELIVERY_RETRY_SCHEDULE: '300ms,1h',
      DELIVERY_MAX_SCHEDULED: '1000',
      DELIVERY_SCHEDULED_PER_TARGET: '100',
    });
    try {
      const deadAcct = await h.newAccount();
      // 400: a failed attempt that is retried, without tripping the host's breaker
      dead.on('/dead', () => 400);
      await h.subscribe(deadAcct, { event: 'cdrCreated', resource: 'all', targetUrl: dead.url('/dead') });
      for (let i = 0; i < DEAD; i += 100)
        await Promise.all(
          Array.from({ length: 100 }, (_, k) => h.publish('cdr.created', cdrEvent(deadAcct, { id: `dead-${i + k}` }))),
        );
      // (Before retries had a share of the window, this never happened: the dead endpoint's own
      // deferred deliveries stayed in the stream behind its waiting retries.)
      await waitFor(() => dead.at('/dead').length >= 2 * DEAD, {
        what: 'two attempts of every dead delivery',
        timeoutMs: 120_000,
        intervalMs: 250,
      });
      // every dead delivery's hour-long retry scheduled, and each taken into the window or parked
      const jsm = await jetstreamManager(h.bus.nc);
      const window = await waitFor(
        async () => {
          const scheduled = metricSum(await d.metrics(), 'dispatcher_retries_scheduled_total', {
            kind: 'notification',
          });
          const c = await jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.retry);
          return scheduled >= 2 * DEAD && c.num_pending === 0 && c;
        },
        { what: "the dead deliveries' retries scheduled", timeoutMs: 30_000, intervalMs: 250 },
      );
      console.log(
        `retry window: ${window.num_ack_pending} waiting (max ${window.config.max_ack_pending}), ${window.num_pending} not delivered`,
      );

      const acct = await h.newAccount();
      const path = `/on-time/${acct}`;
      rx.on(path, (_r, n) => (n === 1 ? 503 : 204));
      await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(path) });
      await h.publish('cdr.created', cdrEvent(acct));
      await waitFor(() => rx.at(path).length >= 1, { what: 'first attempt' });
      const retried = await waitFor(() => rx.at(path).length >= 2, {
        what: 'the retry',
        timeoutMs: 15_000,
        intervalMs: 10,
      }).catch(() => false);
      const [first, second] = rx.at(path);
      // due at most 360 ms (300 ms + 20% jitter) after the first attempt
      const lateness = second ? second.at - first!.at - 360 : Infinity;
      console.log(
        `retry fairness: ${DEAD} dead deliveries waiting; the other tenant's retry came ${second ? `${lateness} ms late` : 'not at all within 15 s'}`,
      );
      expect(retried).toBe(true);
      expect(lateness).toBeLessThan(1500);
      const m = await d.metrics();
      expect(metricSum(m, 'dispatcher_retries_parked_total', { kind: 'notification' })).toBeGreaterThan(0);
    } finally {
      await d.stop();
    }
  }, 180_000);

  it('when a few retries are parked, then each goes round the parked line about once a second, not hundreds of times', async () => {
    const own = await startHarness();
    const d = await own.startDispatcher({
      DELIVERY_RETRY_SCHEDULE: '300ms,1h',
      DELIVERY_SCHEDULED_PER_TARGET: '10',
    });
    try {
      const PARKED_AT_LEAST = 30;
      const acct = await own.newAccount();
      dead.on('/parked', () => 400);
      await own.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: dead.url('/parked') });
      // 40 retries due in an hour; a target's far-off jobs take half its share (5): 35 parked.
      await Promise.all(
        Array.from({ length: 40 }, (_, k) => own.publish('cdr.created', cdrEvent(acct, { id: `parked-${k}` }))),
      );
      await waitFor(async () => metricSum(await d.metrics(), 'dispatcher_retries_parked_total') >= PARKED_AT_LEAST, {
        what: 'the retries parked',
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      const jsm = await jetstreamManager(own.bus.nc);
      const before = (await jsm.streams.info(DELIVERIES_STREAM)).state.last_seq;
      await new Promise((r) => setTimeout(r, 5000));
      const after = (await jsm.streams.info(DELIVERIES_STREAM)).state.last_seq;
      const perSecond = (after - before) / 5;
      console.log(`parked line: ${perSecond} publishes a second to ${DELIVERIES_STREAM} with about 35 jobs parked`);
      // Each parked job about once a second (35), with room for the records in transit; a line
      // paced only by the process-wide rotation rate went round at about 500 a second.
      expect(perSecond).toBeLessThan(100);
    } finally {
      await d.stop();
      await own.stop();
    }
  }, 120_000);
});
