import { describe, expect, it } from 'vitest';
import {
  jitter,
  maxAttempts,
  nextDelay,
  parseDuration,
  parseRetryAfter,
  parseSchedule,
  type RetryPolicy,
} from './retry';

describe('retry schedule', () => {
  it('when the default schedule is parsed, then every unit is understood', () => {
    expect(parseSchedule('5s,5m,30m,2h,5h,10h,14h,20h,24h')).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
    ]);
    expect(parseSchedule('200ms, 400ms ,800ms')).toEqual([200, 400, 800]);
    expect(parseSchedule('')).toEqual([]);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('250')).toBe(250);
  });

  it('when a part is not a duration, then parsing throws naming it', () => {
    expect(() => parseSchedule('5s,soon')).toThrow(/"soon"/);
    expect(() => parseDuration('-5s')).toThrow();
    expect(() => parseDuration('5 years')).toThrow();
  });

  const policy: RetryPolicy = { schedule: [1000, 60_000], jitter: 0.2, retryAfterMaxMs: 60_000 };

  it('when attempts fail, then the next delay follows the schedule within the jitter', () => {
    expect(maxAttempts(policy)).toBe(3);
    expect(nextDelay(policy, 1, undefined, () => 0.5)).toBe(1000);
    expect(nextDelay(policy, 1, undefined, () => 0)).toBe(800);
    expect(nextDelay(policy, 1, undefined, () => 0.999999)).toBe(1200);
    expect(nextDelay(policy, 2, undefined, () => 0.5)).toBe(60_000);
    expect(nextDelay(policy, 3)).toBeUndefined();
    for (let i = 0; i < 100; i++) {
      const d = nextDelay(policy, 1)!;
      expect(d).toBeGreaterThanOrEqual(800);
      expect(d).toBeLessThanOrEqual(1200);
    }
  });

  it('when the target sends Retry-After, then a longer wait is honoured and capped', () => {
    expect(nextDelay(policy, 1, 30_000, () => 0.5)).toBe(30_000);
    expect(nextDelay(policy, 1, 500, () => 0.5)).toBe(1000);
    expect(nextDelay(policy, 1, 10 * 3_600_000, () => 0.5)).toBe(60_000);
    expect(nextDelay(policy, 3, 1000)).toBeUndefined();
  });

  it('when Retry-After is seconds or an HTTP date, then both are parsed', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(['7'], now)).toBe(7000);
  });

  it('when a short wait is jittered, then it lands within 75%..125% of itself', () => {
    expect(jitter(2000, () => 0)).toBe(1500);
    expect(jitter(2000, () => 0.5)).toBe(2000);
    expect(jitter(2000, () => 0.999999)).toBe(2500);
  });
});
