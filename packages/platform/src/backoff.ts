/**
 * The delay before try number `attempt` (1: the first retry) of something that keeps failing:
 * `firstMs`, doubled for each try after it up to the sixth, and never more than `maxMs`.
 */
export function doublingDelayMs(attempt: number, firstMs: number, maxMs: number): number {
  return Math.min(firstMs * 2 ** Math.min(Math.max(attempt - 1, 0), 5), maxMs);
}
