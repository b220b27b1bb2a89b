import { describe, expect, it } from 'vitest';
import { backoffMs, spreadMs } from './backoff';

describe('backoffMs', () => {
  it('when a try keeps failing, then its delay doubles from the first up to the bound', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffMs(n, { firstMs: 1000, maxMs: 30_000 }))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, { firstMs: 250, maxMs: 5000 }))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000,
    ]);
  });

  it('when no try has failed yet (0) or the count is huge, then the delay is the first or the bound', () => {
    expect(backoffMs(0, { firstMs: 250, maxMs: 5000 })).toBe(250);
    expect(backoffMs(10_000, { firstMs: 250, maxMs: 5000 })).toBe(5000);
  });

  it('when the factor is 1.5 and a spread is asked, then the delay grows by half and lands within the spread', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, { firstMs: 1500, maxMs: 5000, factor: 1.5 }))).toEqual([
      1500, 2250, 3375, 5000,
    ]);
    expect(backoffMs(2, { firstMs: 1500, maxMs: 5000, factor: 1.5, spread: 0.2 }, () => 0)).toBe(1800);
    expect(backoffMs(2, { firstMs: 1500, maxMs: 5000, factor: 1.5, spread: 0.2 }, () => 0.999999)).toBe(2700);
  });
});

describe('spreadMs', () => {
  it('when a delay is spread by 25%, then it lands within 75%..125% of itself', () => {
    expect(spreadMs(2000, 0.25, () => 0)).toBe(1500);
    expect(spreadMs(2000, 0.25, () => 0.5)).toBe(2000);
    expect(spreadMs(2000, 0.25, () => 0.999999)).toBe(2500);
    expect(spreadMs(2000, 0, () => 0)).toBe(2000);
  });
});
