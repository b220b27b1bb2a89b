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
