import { describe, expect, it } from 'vitest';
import { randomHex } from './random-hex';

describe('randomHex', () => {
  it('when ids are drawn past the end of the pool, then each is new, of the length asked, in lowercase hex', () => {
    // 1,000 ids of 24 characters use 24,000 characters: the pool of 8,192 is drawn again twice or more.
    const ids = Array.from({ length: 1000 }, () => randomHex(24));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(randomHex(32)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('when more than the pool holds is asked for at once, then it refuses', () => {
    expect(randomHex(8192)).toHaveLength(8192);
    expect(() => randomHex(8193)).toThrow(RangeError);
  });
});
