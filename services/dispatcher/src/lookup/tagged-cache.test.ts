import { describe, expect, it } from 'vitest';
import { TaggedCache } from './tagged-cache';

describe('tagged cache', () => {
  it('when a key is read twice, then the loader runs once; concurrent reads share one load', async () => {
    const c = new TaggedCache<number>(1000);
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([c.get('k', ['t'], load), c.get('k', ['t'], load)]);
    expect([a, b, await c.get('k', ['t'], load), loads]).toEqual([1, 1, 1, 1]);
  });

  it('when the TTL passes, then the value is loaded again', async () => {
    let t = 1_000;
    const c = new TaggedCache<number>(100, 10, () => t);
    let loads = 0;
    await c.get('k', [], async () => ++loads);
    t = 1_150;
    expect(await c.get('k', [], async () => ++loads)).toBe(2);
  });

  it('when a tag is invalidated, then its keys are reloaded and others kept', async () => {
    const c = new TaggedCache<string>(60_000);
    await c.get('a', ['account:1'], async () => 'old-a');
    await c.get('b', ['account:2'], async () => 'b');
    c.invalidateTag('account:1');
    expect(await c.get('a', ['account:1'], async () => 'new-a')).toBe('new-a');
    expect(await c.get('b', ['account:2'], async () => 'other')).toBe('b');
  });

  it('when an invalidation arrives during a load, then the stale result is not stored', async () => {
    const c = new TaggedCache<string>(60_000);
    let finish!: (v: string) => void;
    const slow = c.get('a', ['x'], () => new Promise<string>((r) => (finish = r)));
    c.invalidateTag('x');
    finish('stale');
    expect(await slow).toBe('stale');
    expect(await c.get('a', ['x'], async () => 'fresh')).toBe('fresh');
  });

  it('when full, then the oldest entry makes room', async () => {
    const c = new TaggedCache<number>(60_000, 2);
    await c.get('1', [], async () => 1);
    await c.get('2', [], async () => 2);
    await c.get('3', [], async () => 3);
    expect(c.size).toBe(2);
    expect(await c.get('1', [], async () => 11)).toBe(11);
  });

  it('when an entry makes room or is invalidated, then its tags forget it: a later invalidation of them reloads nothing else', async () => {
    const c = new TaggedCache<number>(60_000, 1);
    await c.get('1', ['t'], async () => 1);
    await c.get('2', ['u'], async () => 2);
    c.invalidateTag('t');
    expect(c.size).toBe(1);
    expect(await c.get('2', ['u'], async () => 22)).toBe(2);
  });
});
