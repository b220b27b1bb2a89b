import { describe, expect, it } from 'vitest';
import { HostLimiter } from './host-limiter';

const opts = { global: 4, perHost: 2, maxWaitMs: 1000, maxQueuePerHost: 3, congestedAfterMs: 500 };

describe('host limiter', () => {
  it('when a host is at its limit, then the next caller waits and gets the freed slot', async () => {
    const l = new HostLimiter(opts);
    const a = (await l.acquire('a'))!;
    const b = (await l.acquire('a'))!;
    let third: (() => void) | null | undefined;
    const p = l.acquire('a').then((r) => (third = r));
    await Promise.resolve();
    expect(third).toBeUndefined();
    // another host is not held up
    const other = await l.acquire('b');
    expect(other).toBeTypeOf('function');
    a();
    await p;
    expect(third).toBeTypeOf('function');
    b();
    third!();
    other!();
    expect(l.active).toBe(0);
  });

  it('when the global limit is reached, then hosts take turns', async () => {
    const l = new HostLimiter({ ...opts, global: 2, perHost: 2 });
    const r1 = (await l.acquire('a'))!;
    const r2 = (await l.acquire('a'))!;
    const order: string[] = [];
    const pa = l.acquire('a').then((r) => (order.push('a'), r));
    const pb = l.acquire('b').then((r) => (order.push('b'), r));
    r1();
    const first = await Promise.race([pa, pb]);
    r2();
    await Promise.all([pa, pb]);
    expect(order.sort()).toEqual(['a', 'b']);
    first?.();
  });

  it('when a host is congested by slow attempts, then new work and its waiters are deferred at once', async () => {
    let t = 0;
    const l = new HostLimiter(opts, () => t);
    await l.acquire('slow');
    await l.acquire('slow');
    const waiting = l.acquire('slow');
    t = 600;
    expect(await l.acquire('slow')).toBeNull();
    expect(await waiting).toBeNull();
    expect(await l.acquire('fast')).toBeTypeOf('function');
  });

  it('when the host queue is full or the wait too long, then the caller is told to defer', async () => {
    const l = new HostLimiter({ ...opts, maxWaitMs: 50 });
    await l.acquire('a');
    await l.acquire('a');
    const waits = [l.acquire('a'), l.acquire('a'), l.acquire('a')];
    expect(await l.acquire('a')).toBeNull();
    expect(await Promise.all(waits)).toEqual([null, null, null]);
  });
});
