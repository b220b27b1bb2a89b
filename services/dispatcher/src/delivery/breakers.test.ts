import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { waitFor } from '../../../../test/support/infra';
import { BreakerMap, HostFailure, validateBreakerOptions, type BreakerOptions } from './breakers';

const opts: BreakerOptions = {
  errorThresholdPercentage: 50,
  volumeThreshold: 3,
  resetTimeoutMs: 200,
  windowMs: 10_000,
  windowBuckets: 10,
  idleEvictMs: 1000,
};
let maps: BreakerMap[] = [];
afterEach(() => {
  for (const m of maps) m.close();
  maps = [];
});
const make = (o = opts, now?: () => number) => {
  const m = new BreakerMap(o, createLogger('breakers', 'silent'), now);
  maps.push(m);
  return m;
};
const fail = () => Promise.reject(new HostFailure('down'));
const ok = () => Promise.resolve('up');

describe('breaker per host', () => {
  it('when a host keeps failing, then its breaker opens and other hosts are unaffected', async () => {
    const m = make();
    for (let i = 0; i < 3; i++) expect(await m.fire('dead:80', fail)).toEqual({ rejected: false, value: 'down' });
    expect(m.state('dead:80')).toBe('open');
    const r = await m.fire('dead:80', ok);
    expect(r.rejected).toBe(true);
    if (r.rejected) expect(r.retryInMs).toBeLessThanOrEqual(200);
    expect(m.waitFor('dead:80')).toBeGreaterThan(0);
    expect(await m.fire('alive:80', ok)).toEqual({ rejected: false, value: 'up' });
    expect(m.counts()).toEqual({ closed: 1, open: 1, half_open: 0 });
  });

  it('when the reset timeout passes, then one probe goes through and success closes the breaker', async () => {
    const m = make();
    for (let i = 0; i < 3; i++) await m.fire('h:80', fail);
    await waitFor(() => m.state('h:80') === 'half_open', { intervalMs: 10, what: 'the reset timeout' });
    expect(m.waitFor('h:80')).toBe(0);
    let release!: () => void;
    const probe = m.fire('h:80', () => new Promise<string>((r) => (release = () => r('up'))));
    // while the probe is out, others wait
    expect((await m.fire('h:80', ok)).rejected).toBe(true);
    release();
    expect(await probe).toEqual({ rejected: false, value: 'up' });
    expect(m.state('h:80')).toBe('closed');
  });

  it('when a breaker is idle longer than the eviction time, then it is dropped', async () => {
    let t = 0;
    const m = make(opts, () => t);
    await m.fire('a:80', ok);
    expect(m.size()).toBe(1);
    t = 5000;
    m.evictIdle();
    expect(m.size()).toBe(0);
  });

  it('when more lanes are used than maxEntries, then the least recently used closed breakers are dropped and open ones kept', async () => {
    const m = make({ ...opts, maxEntries: 3 });
    for (let i = 0; i < 3; i++) await m.fire('dead', fail);
    for (let i = 0; i < 10; i++) await m.fire(`lane-${i}`, ok);
    expect(m.size()).toBe(3);
    expect(m.state('dead')).toBe('open');
  });

  it('when options are invalid, then they are refused', () => {
    expect(() => validateBreakerOptions({ ...opts, errorThresholdPercentage: 0 })).toThrow();
    expect(() => validateBreakerOptions({ ...opts, windowMs: 1001 })).toThrow();
    expect(() => validateBreakerOptions({ ...opts, volumeThreshold: 0 })).toThrow();
  });
});
