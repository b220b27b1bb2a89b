import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('when long keys would exceed the byte budget, then the least recently used entries go first', () => {
    const m = new BoundedMap<number>({ maxEntries: 1000, maxBytes: 10_000 });
    m.set('keep', 1);
    for (let i = 0; i < 100; i++) {
      m.set(`${i}-${'x'.repeat(1000)}`, i);
      m.get('keep'); // used: stays
    }
    expect(m.bytes).toBeLessThanOrEqual(10_000);
    expect(m.size).toBeLessThan(10);
    expect(m.peek('keep')).toBe(1);
    expect(m.peek(`0-${'x'.repeat(1000)}`)).toBeUndefined();
  });

  it('when there are more entries than the count allows, then the oldest is dropped; delete frees its bytes', () => {
    const m = new BoundedMap<number>({ maxEntries: 3, maxBytes: 1 << 20 });
    for (const k of ['a', 'b', 'c', 'd']) m.set(k, 1);
    expect([m.peek('a'), m.size]).toEqual([undefined, 3]);
    const before = m.bytes;
    m.delete('b');
    expect(m.bytes).toBeLessThan(before);
    m.delete('c');
    m.delete('d');
    expect(m.bytes).toBe(0);
  });
});
