// The leased limiter against a real NATS server (JetStream key-value): two stores with their own
// connections stand for two gateway replicas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, kvStream, type NatsHandle } from '@switchboard/messaging';
import { Counter, createLogger, Registry } from '@switchboard/observability';
import { randomName, startNatsServer, waitFor, type NatsServer } from '../../../test/support';
import {
  limitsBucketSpec,
  SharedLimitStore,
  SharedRateLimiter,
  type LimitRate,
  type SharedLimitStoreOptions,
} from './shared-limits';

const logger = createLogger('test', 'silent');
let nats: NatsServer;
let bus: NatsHandle;
const stores: SharedLimitStore[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectNats(nats.url, logger, 'test');
});
afterAll(async () => {
  for (const s of stores) await s.stop();
  await bus?.close();
  await nats?.destroy();
});

async function replica(limits: LimitRate[], more: Partial<SharedLimitStoreOptions> = {}): Promise<SharedLimitStore> {
  const store = new SharedLimitStore({
    nats: { url: nats.url },
    logger,
    spec: limitsBucketSpec(limits),
    maxBytes: 4 * 1024 * 1024,
    replicas: 1,
    timeoutMs: 1000,
    ...more,
  });
  stores.push(store);
  store.start();
  await waitFor(() => store.available, { what: 'shared limits connected', timeoutMs: 10_000 });
  return store;
}

function counters() {
  const registry = new Registry();
  return {
    fallbacks: new Counter({ name: 'fallbacks', help: 'f', labelNames: ['limit'], registers: [registry] }),
    leases: new Counter({ name: 'leases', help: 'l', labelNames: ['limit', 'result'], registers: [registry] }),
    async sum(name: 'fallbacks' | 'leases') {
      const m = await registry.getSingleMetric(name)!.get();
      return m.values.reduce((a, v) => a + v.value, 0);
    },
  };
}

/**
 * `loops` clients take from the limiters in turn (client i's n-th request at limiter (i + n) % count)
 * for `ms`, each pausing `pauseMs` between requests; answers how many were allowed and the seconds
 * it took.
 */
async function drive(limiters: SharedRateLimiter[], key: string, o: { loops: number; ms: number; pauseMs: number }) {
  const started = Date.now();
  let allowed = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: o.loops }, async (_, i) => {
      for (let n = 0; Date.now() - started < o.ms; n++) {
        const wait = await limiters[(i + n) % limiters.length]!.take(key);
        if (wait === 0) allowed++;
        else {
          refused++;
          expect(wait).toBeGreaterThan(0);
        }
        await new Promise((r) => setTimeout(r, o.pauseMs));
      }
    }),
  );
  return { allowed, refused, seconds: (Date.now() - started) / 1000 };
}

describe('two replicas leasing from one shared bucket', () => {
  for (const rate of [
    { perSecond: 10, burst: 20 },
    { perSecond: 200, burst: 400 },
  ]) {
    it(`when two replicas take ${rate.perSecond}/s (bursts of ${rate.burst}) for one key at 4 times the rate, then together they allow what one replica allows, within 10%, and lease in batches`, async () => {
      const limits = [rate];
      const [a, b] = [await replica(limits), await replica(limits)];
      const m = counters();
      const limiters = [a, b].map(
        (store) => new SharedRateLimiter(store, { name: 'test', ...rate, metrics: { leases: m.leases } }),
      );
      const key = randomName('account');
      const loops = 16;
      // Each loop pauses so that together they ask about 4 times the rate.
      const pauseMs = Math.max(1, Math.round((loops * 1000) / (4 * rate.perSecond)));
      const { allowed, refused, seconds } = await drive(limiters, key, { loops, ms: 2500, pauseMs });
      const single = rate.burst + rate.perSecond * seconds;
      expect(refused).toBeGreaterThan(0);
      expect(allowed).toBeGreaterThanOrEqual(Math.floor(single * 0.9));
      expect(allowed).toBeLessThanOrEqual(Math.ceil(single * 1.1));
      // One lease per batch, not a round trip per request, once the batch is above one token.
      const leases = await m.sum('leases');
      if (limiters[0]!.batch > 1) expect(leases).toBeLessThan(allowed / 2);
      expect(await m.sum('leases')).toBeGreaterThan(0);
    });
  }

  it('when 40 requests of one key arrive at once at two replicas, then the burst is admitted across them and the rest refused, as by one replica', async () => {
    const rate = { perSecond: 1, burst: 20 };
    const [a, b] = [await replica([rate]), await replica([rate])];
    const limiters = [a, b].map((store) => new SharedRateLimiter(store, { name: 'address', ...rate }));
    const key = randomName('203.0.113.7');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => limiters[i % 2]!.take(key)));
    const allowed = answers.filter((w) => w === 0).length;
    // 20, and at most one more refilled while the requests were answered.
    expect(allowed).toBeGreaterThanOrEqual(20);
    expect(allowed).toBeLessThanOrEqual(21);
    // The refused ones wait about a second (one token at 1/s), and a replica that knows the bucket
    // is empty refuses without asking it again.
    expect(Math.max(...answers)).toBeLessThanOrEqual(1000);
    expect(Math.max(...limiters.map((l) => l.peek(key)))).toBeGreaterThan(0);
  });

  it('when a token is refunded (a login that succeeded), then it is back in the shared bucket for every replica', async () => {
    const rate = { perSecond: 0.001, burst: 2 };
    const [a, b] = [await replica([rate]), await replica([rate])];
    const here = new SharedRateLimiter(a, { name: 'address', ...rate });
    const there = () => new SharedRateLimiter(b, { name: 'address', ...rate });
    const key = randomName('198.51.100.1');
    expect(await here.take(key)).toBe(0);
    expect(await here.take(key)).toBe(0);
    expect(await there().take(key)).toBeGreaterThan(0);
    here.refund(key);
    // The other replica gets it once the give-back is written (a fresh limiter asks the bucket).
    await waitFor(async () => (await there().take(key)) === 0, { what: 'the refunded token at the other replica' });
    expect(await there().take(key)).toBeGreaterThan(0);
  });
});

describe('failing open', () => {
  it('when NATS stops, then each replica counts the limit in its own memory (counted as fallbacks), and counts in NATS again once it is back', async () => {
    const own = await startNatsServer();
    const rate = { perSecond: 1, burst: 3 };
    const store = new SharedLimitStore({
      nats: { url: own.url },
      logger,
      spec: limitsBucketSpec([rate]),
      maxBytes: 1024 * 1024,
      replicas: 1,
      timeoutMs: 500,
    });
    try {
      store.start();
      await waitFor(() => store.available, { what: 'connected', timeoutMs: 10_000 });
      const m = counters();
      const limiter = new SharedRateLimiter(store, { name: 'account', ...rate, metrics: m });
      const key = randomName('acct');
      for (let i = 0; i < 3; i++) expect(await limiter.take(key)).toBe(0);
      expect(await limiter.take(key)).toBeGreaterThan(0);
      await own.stop();
      await waitFor(() => !store.available, { what: 'store down', timeoutMs: 10_000 });
      // The per-replica bucket: a fresh burst of 3 for this replica, then refusals; nothing waits on NATS.
      const answers = [1, 2, 3, 4].map(() => limiter.take(key));
      expect(answers).toEqual([0, 0, 0, expect.any(Number)]);
      expect(answers[3]).toBeGreaterThan(0);
      expect(await m.sum('fallbacks')).toBe(4);
      await own.start();
      await waitFor(() => store.available, { what: 'store back', timeoutMs: 15_000 });
      // Counted in NATS again, from the key's shared state (kept by the server): once it has
      // refilled a token, that token is allowed, with no fallback.
      await waitFor(() => limiter.peek(key) === 0, { what: 'refilled', timeoutMs: 5000 });
      expect(await limiter.take(key)).toBe(0);
      expect(await m.sum('fallbacks')).toBe(4);
    } finally {
      await store.stop();
      await own.destroy();
    }
  }, 60_000);
});

describe('the bucket of the shared limits', () => {
  it('when far more keys are limited than its max_bytes holds, then it stays within them, drops the keys written longest ago, and a key in use keeps its count', async () => {
    const rate = { perSecond: 10, burst: 10 };
    const maxBytes = 64 * 1024;
    const store = await replica([rate], { maxBytes });
    const limiter = new SharedRateLimiter(store, { name: 'session', ...rate });
    const other = new SharedRateLimiter(store, { name: 'session', ...rate });
    const hot = randomName('hot');
    for (let i = 0; i < 10; i++) expect(await limiter.take(hot)).toBe(0);
    // 3,000 other keys pass through another replica's limiter (about 150 bytes each in the bucket)
    // while the hot key keeps being asked for more than its rate.
    for (let i = 0; i < 3000; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => other.take(`flood-${i + j}`)));
      await new Promise((r) => setTimeout(r, 110));
      await Promise.all([1, 2, 3].map(() => limiter.take(hot)));
    }
    const info = await bus.jsm.streams.info(kvStream(limitsBucketSpec([rate])).stream);
    expect(info.config.max_bytes).toBe(maxBytes);
    expect(info.state.bytes).toBeLessThanOrEqual(maxBytes);
    expect(info.state.messages).toBeLessThan(3000);
    // A new key is never refused for a full bucket.
    expect(await other.take(randomName('new'))).toBe(0);
    // The hot key is still over its limit at another replica: its state was kept, so a burst of 10
    // gets only what refilled since its last lease, not a fresh burst.
    const answers = await Promise.all(Array.from({ length: 10 }, () => other.take(hot)));
    expect(answers.filter((w) => w === 0).length).toBeLessThanOrEqual(3);
  }, 60_000);
});
