import { describe, expect, it } from 'vitest';
import { doublingDelayMs } from './backoff';

describe('doublingDelayMs', () => {
  it('when a try keeps failing, then its delay doubles from the first up to the sixth try, within the bound', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => doublingDelayMs(n, 1000, 30_000))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => doublingDelayMs(n, 250, 5000))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    expect(doublingDelayMs(6, 100, 60_000)).toBe(3200);
    expect(doublingDelayMs(9, 100, 60_000)).toBe(3200);
  });

  it('when no try has failed yet (0), then the delay is the first', () => {
    expect(doublingDelayMs(0, 250, 5000)).toBe(250);
  });
});
