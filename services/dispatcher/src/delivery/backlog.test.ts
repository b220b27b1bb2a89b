import { describe, expect, it } from 'vitest';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { useNatsConnection } from '../../../../test/support';
import { useTwoReplicas } from '../../test/harness';
import {
  applyDeltas,
  bucketWidthMs,
  DeliveryBacklog,
  endReason,
  fullness,
  isPastCap,
  totals,
  type Bucket,
  type Ledger,
} from './backlog';

const logger = createLogger('dispatcher', 'silent');
const HOUR = 3_600_000;
const limits = { maxCount: 10, maxBytes: 10_000, maxAgeMs: HOUR };
const ledger = (...b: Bucket[]): Ledger => ({ b });

describe('an account backlog (pure rules)', () => {
  it('when deliveries are added and taken out, then buckets keep count and bytes, empty ones go, oldest first', () => {
    const now = 10 * HOUR;
    let l = applyDeltas(ledger(), [[now - 2000, 1, 100]], now, HOUR);
    l = applyDeltas(
      l,
      [
        [now - 5000, 1, 50],
        [now - 2000, 1, 100],
      ],
      now,
      HOUR,
    );
    expect(l.b).toEqual([
      [now - 5000, 1, 50],
      [now - 2000, 2, 200],
    ]);
    l = applyDeltas(l, [[now - 5000, -1, -50]], now, HOUR);
    expect(l.b).toEqual([[now - 2000, 2, 200]]);
    expect(totals(l)).toEqual({ count: 2, bytes: 200 });
  });

  it('when a bucket is older than the max age, then it is dropped: what a crash left counted is forgotten', () => {
    const now = 10 * HOUR;
    const l = applyDeltas(ledger([now - 2 * HOUR, 5, 500], [now - 1000, 1, 10]), [], now, HOUR);
    expect(l.b).toEqual([[now - 1000, 1, 10]]);
  });

  it('when an account is within its limits, then nothing of it ends', () => {
    expect(isPastCap(ledger([1000, 6, 600], [2000, 4, 400]), { at: 1000, bytes: 100 }, limits)).toBe(false);
  });

  it('when an account is past its count, then its oldest end and its newest do not', () => {
    // 14 waiting, 10 allowed: the 4 excess are in the oldest bucket (6)
    const l = ledger([1000, 6, 600], [2000, 4, 400], [3000, 4, 400]);
    expect(isPastCap(l, { at: 1000, bytes: 100 }, limits)).toBe(true);
    expect(isPastCap(l, { at: 2000, bytes: 100 }, limits)).toBe(false);
    expect(isPastCap(l, { at: 3000, bytes: 100 }, limits)).toBe(false);
    // 16 waiting: the excess (6) takes the whole first bucket, and reaches into the second
    const more = ledger([1000, 5, 500], [2000, 5, 500], [3000, 6, 600]);
    expect(isPastCap(more, { at: 2000, bytes: 100 }, limits)).toBe(true);
    expect(isPastCap(more, { at: 3000, bytes: 100 }, limits)).toBe(false);
  });

  it('when an account is past its bytes, then its oldest end too, however few', () => {
    const l = ledger([1000, 1, 6000], [2000, 1, 6000]);
    expect(isPastCap(l, { at: 1000, bytes: 6000 }, limits)).toBe(true);
    expect(isPastCap(l, { at: 2000, bytes: 6000 }, limits)).toBe(false);
    expect(fullness(l, limits)).toBe(1.2);
  });

  it('when the max age is short, then the buckets are at least a second wide; at the default, 1/128 of it', () => {
    expect(bucketWidthMs(60_000)).toBe(1000);
    expect(bucketWidthMs(128 * HOUR)).toBe(HOUR);
  });

  it('when a delivery ends, then its record says why first, in the words the soak and the docs use', () => {
    expect(endReason('backlog_full', limits)).toMatch(/^backlog_full: /);
    expect(endReason('expired', limits)).toMatch(/^expired: still waiting 1h /);
  });
});

describe('the count shared by dispatcher replicas (JetStream key-value, compare-and-set)', () => {
  let a: NatsHandle;
  let b: NatsHandle;
  let url: string;
  useTwoReplicas(
    logger,
    (jsm) => DeliveryBacklog.ensureBucket(jsm, HOUR, 1, 1024 * 1024),
    (r) => ({ a, b, url } = r),
  );

  it('when two replicas count one account at the same time, then no change is lost', async () => {
    const ra = new DeliveryBacklog(a.js, a.jsm, limits, { logger, cacheMs: 1 });
    const rb = new DeliveryBacklog(b.js, b.jsm, limits, { logger, cacheMs: 1 });
    const mark = ra.mark({ receivedAt: new Date().toISOString() }, 300);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => ((i % 2 === 0 ? ra : rb) as DeliveryBacklog).add('42', mark)),
    );
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? rb : ra).remove('42', mark)));
    await new Promise((r) => setTimeout(r, 5));
    const l = await new DeliveryBacklog(a.js, a.jsm, limits, { logger }).read('42');
    expect(totals(l!)).toEqual({ count: 70, bytes: 70 * 300 });
    // another account's count is its own
    expect(totals((await ra.read('43'))!)).toEqual({ count: 0, bytes: 0 });
  });

  it('when the account is past its cap, then every replica ends its oldest waiting deliveries, and only them', async () => {
    const r = new DeliveryBacklog(a.js, a.jsm, limits, { logger, cacheMs: 1 });
    const old = { receivedAt: new Date(Date.now() - 60_000).toISOString() };
    const recent = { receivedAt: new Date().toISOString() };
    for (let i = 0; i < 5; i++) await r.add('77', r.mark(old, 100));
    for (let i = 0; i < 10; i++) await r.add('77', r.mark(recent, 100));
    const other = new DeliveryBacklog(b.js, b.jsm, limits, { logger, cacheMs: 1 });
    expect(await other.endOf({ ...old, waiting: r.mark(old, 100) }, '77')).toBe('backlog_full');
    expect(await other.endOf({ ...recent, waiting: r.mark(recent, 100) }, '77')).toBeUndefined();
    expect(other.fullest()).toBe(1.5);
    // past the max age, a delivery expires whatever its account's count
    const ancient = { receivedAt: new Date(Date.now() - 2 * HOUR).toISOString() };
    expect(await other.endOf(ancient, '77')).toBe('expired');
  });

  it('when the bucket cannot be read, then the delivery is neither counted nor ended because of it (failing open)', async () => {
    let errors = 0;
    const broken = new DeliveryBacklog(a.js, a.jsm, limits, { logger, onError: () => errors++ });
    const stopped = await connectNats(url, logger, 'closed');
    await stopped.close();
    const closed = new DeliveryBacklog(stopped.js, stopped.jsm, limits, { logger, onError: () => errors++ });
    const recent = { receivedAt: new Date().toISOString() };
    await closed.add('88', closed.mark(recent, 100));
    expect(await closed.endOf({ ...recent, waiting: closed.mark(recent, 100) }, '88')).toBeUndefined();
    expect(errors).toBe(2);
    expect(totals((await broken.read('88'))!)).toEqual({ count: 0, bytes: 0 });
  });
});

describe('the bucket of the counts past its max_bytes', () => {
  let h: NatsHandle;
  useNatsConnection('small-bucket', async (bus) => {
    h = bus;
    // Room for a few dozen accounts' counts.
    await DeliveryBacklog.ensureBucket(h.jsm, HOUR, 1, 4096);
  });

  it('when more accounts wait than the bucket holds, then the oldest counts are dropped to make room and no write is refused', async () => {
    let errors = 0;
    const b = new DeliveryBacklog(h.js, h.jsm, limits, { logger, onError: () => errors++ });
    const recent = { receivedAt: new Date().toISOString() };
    const mark = b.mark(recent, 100);
    // Every add resolves: a delivery never waits on, or fails because of, its count.
    for (let a = 1; a <= 200; a++) await b.add(String(a), mark);
    const info = await h.jsm.streams.info('KV_DELIVERY_BACKLOG');
    console.log(
      `backlog bucket of 4096 bytes: ${info.state.messages} accounts counted in ${info.state.bytes} bytes; of 200 writes ${errors} refused, ${info.state.first_seq - 1} accepted and then dropped by the server to make room (discard old)`,
    );
    expect(info.state.bytes).toBeLessThanOrEqual(4096);
    expect(info.state.messages).toBeLessThan(200);
    // The bucket drops its oldest entries (decision 0015): nothing is refused, the first accounts'
    // counts are gone and the last ones kept.
    expect(errors).toBe(0);
    expect(info.state.first_seq).toBeGreaterThan(1);
    // An account left uncounted is never ended because of it.
    const fresh = new DeliveryBacklog(h.js, h.jsm, { ...limits, maxCount: 1 }, { logger });
    expect(await fresh.endOf({ ...recent, waiting: mark }, '200')).toBeUndefined();
  });
});
