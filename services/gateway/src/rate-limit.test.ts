import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('when a burst exceeds twice the rate, then the excess waits, and tokens refill with time; keys are independent', () => {
    let now = 0;
    const limiter = new RateLimiter(10, () => now);
    for (let i = 0; i < 20; i++) expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(100);
    expect(limiter.take('b')).toBe(0);
    now += 100;
    expect(limiter.take('a')).toBe(0);
  });

  it('when the rate is 0, then nothing is limited', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) expect(limiter.take('a')).toBe(0);
  });
});

describe('RateLimiter table', () => {
  it('when 150 000 other keys pass through, then a key over its limit stays limited: the table drops the least recently used keys, never all of them', () => {
    const now = 0;
    const limiter = new RateLimiter(1, () => now, 2);
    limiter.take('token:victim');
    limiter.take('token:victim');
    expect(limiter.take('token:victim')).toBeGreaterThan(0);
    for (let i = 0; i < 150_000; i++) {
      limiter.take(`session:${i}`);
      if (i % 1000 === 0) expect(limiter.peek('token:victim')).toBeGreaterThan(0);
    }
    expect(limiter.take('token:victim')).toBeGreaterThan(0);
  });

  it('when keys are long, then the table stays within its byte budget', () => {
    const limiter = new RateLimiter(1, () => 0, 2, 256 * 1024);
    for (let i = 0; i < 5000; i++) limiter.take(`session:${i}:${'x'.repeat(1000)}`);
    expect(limiter.table.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(limiter.table.entries).toBeLessThan(200);
  });
});
