import { describe, expect, it } from 'vitest';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { useNatsConnection } from '../../../../test/support';
import { useTwoReplicas } from '../../test/harness';
import type { NotificationJob } from '../jobs';
import { Throttle, THROTTLE_STREAM } from './throttle';

const logger = createLogger('dispatcher', 'silent');
const HOUR = 3_600_000;

/** A notification job as the worker hands it to the throttle (only what the throttle reads matters). */
function job(attempt = 1, extra: Partial<NotificationJob> = {}): NotificationJob {
  return {
    v: 1,
    kind: 'notification',
    webhookId: 'msg_x',
    attempt,
    receivedAt: new Date().toISOString(),
    subject: 'cdr.created',
    subscriptionId: 'wh_0',
    event: {} as NotificationJob['event'],
    ...extra,
  };
}

describe('slots of a rate limit shared by dispatcher replicas (JetStream key-value, compare-and-set)', () => {
  let a: NatsHandle;
  let b: NatsHandle;
  let url: string;
  useTwoReplicas(
    logger,
    (jsm) => Throttle.ensureBucket(jsm, HOUR, 1, 1024 * 1024),
    (r) => ({ a, b, url } = r),
  );

  it('when two replicas reserve slots of one subscription at once, then every slot is taken once, evenly spaced from now', async () => {
    const ra = new Throttle(a.js, a.jsm, HOUR, { logger });
    const rb = new Throttle(b.js, b.jsm, HOUR, { logger });
    const n = 2000;
    const started = Date.now();
    const slots = await Promise.all(
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? ra : rb).reserve('wh_shared', 1000)),
    );
    const took = Date.now() - started;
    console.log(`${n} reservations queued at once on two replicas, coalesced: all taken in ${took} ms`);
    const sorted = [...slots].sort((x, y) => x - y);
    // one slot per reservation, 1 ms apart (a replica's queue takes consecutive slots, the other's
    // write comes after it): no two deliveries share a slot
    for (let i = 1; i < n; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(1 - 1e-6);
    expect(sorted[0]!).toBeGreaterThanOrEqual(started);
    expect(sorted[0]!).toBeLessThanOrEqual(started + took);
    // no gap beyond what the time taken to reserve explains: the 2000 slots span about 2 s
    expect(sorted[n - 1]! - sorted[0]!).toBeLessThan(n + took);
    // one at a time, alternating replicas (each write then conflicts once and reads again): the
    // compare-and-set round trip, which bounds how often one replica writes a key
    const m = 300;
    const t0 = performance.now();
    for (let i = 0; i < m; i++) await (i % 2 === 0 ? ra : rb).reserve('wh_sequential', 1000);
    const each = (performance.now() - t0) / m;
    console.log(
      `one reservation at a time, replicas alternating: ${each.toFixed(2)} ms each (${Math.round(1000 / each)}/s)`,
    );
    // another subscription has its own slots, from now
    const other = await ra.reserve('wh_other', 1);
    expect(other).toBeLessThanOrEqual(Date.now());
  });

  it('when a delivery is past its rate, then it is held until its slot, and goes without a new reservation when it comes back at it', async () => {
    let now = Date.now();
    const held: string[] = [];
    const t = new Throttle(a.js, a.jsm, HOUR, { logger, now: () => now, onHeld: (s) => held.push(s) });
    // the first goes at once, the second waits 500 ms at 2 per second
    expect(await t.hold(job(), 'wh_hold', 2)).toBeUndefined();
    const second = await t.hold(job(), 'wh_hold', 2);
    expect(second?.slot).toEqual({ attempt: 1, at: now + 500 });
    expect(second?.notBefore).toBe(now + 500);
    expect(held).toEqual(['wh_hold']);
    // early (looked at again before its slot): it keeps waiting for the same slot, counted once
    now += 100;
    expect((await t.hold(second!, 'wh_hold', 2))?.slot).toEqual({ attempt: 1, at: now + 400 });
    // at its slot it goes, and the next delivery is behind it
    now += 400;
    expect(await t.hold(second!, 'wh_hold', 2)).toBeUndefined();
    expect((await t.hold(job(), 'wh_hold', 2))?.slot?.at).toBe(now + 500);
    // a retry of that delivery (the next attempt) reserves a slot of its own
    expect((await t.hold({ ...second!, attempt: 2 }, 'wh_hold', 2))?.slot?.at).toBe(now + 1000);
    // one that comes back long after its slot (it waited for its host) reserves a new one
    now += 5000;
    expect(await t.hold(second!, 'wh_hold', 2)).toBeUndefined();
    expect((await t.hold(second!, 'wh_hold', 2))?.slot?.at).toBe(now + 500);
    expect(held).toEqual(['wh_hold', 'wh_hold', 'wh_hold', 'wh_hold']);
  });

  it('when the bucket cannot be written, then the delivery goes without waiting (failing open) and the error is counted', async () => {
    let errors = 0;
    const stopped = await connectNats(url, logger, 'closed');
    await stopped.close();
    const t = new Throttle(stopped.js, stopped.jsm, HOUR, { logger, onError: () => errors++ });
    expect(await t.hold(job(), 'wh_broken', 1)).toBeUndefined();
    expect(await t.hold(job(), 'wh_broken', 1)).toBeUndefined();
    expect(errors).toBe(2);
  });
});

describe('the bucket of the slots past its max_bytes', () => {
  let h: NatsHandle;
  useNatsConnection('small-bucket', async (bus) => {
    h = bus;
    // Room for a few dozen subscriptions' slots.
    await Throttle.ensureBucket(h.jsm, HOUR, 1, 4096);
  });

  it('when more subscriptions are throttled than the bucket holds, then the oldest are dropped to make room and no reservation fails', async () => {
    let errors = 0;
    const t = new Throttle(h.js, h.jsm, HOUR, { logger, onError: () => errors++ });
    for (let s = 1; s <= 200; s++) await t.reserve(`wh_${s}`, 1);
    const info = await h.jsm.streams.info(THROTTLE_STREAM);
    console.log(
      `throttle bucket of 4096 bytes: ${info.state.messages} subscriptions kept in ${info.state.bytes} bytes; of 200 writes ${errors} refused, ${info.state.first_seq - 1} dropped by the server to make room (discard old)`,
    );
    expect(info.state.bytes).toBeLessThanOrEqual(4096);
    expect(info.state.messages).toBeLessThan(200);
    expect(errors).toBe(0);
    // the newest subscription's slot is kept: its next delivery waits a second at 1 per second
    const next = await new Throttle(h.js, h.jsm, HOUR, { logger }).reserve('wh_200', 1);
    expect(next - Date.now()).toBeGreaterThan(500);
  });
});
