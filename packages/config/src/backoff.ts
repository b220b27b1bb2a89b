// The one backoff of the tree: how long to wait before trying again something that keeps failing.
// Every retry delay (consumer naks, recorder retries, waits for a dependency, startup waits) is
// backoffMs; a fixed schedule of delays (the delivery retries) only spreads each entry with spreadMs.

export interface Backoff {
  /** Delay before the first retry (attempt 1). */
  firstMs: number;
  /** Bound of the delay before it is spread. */
  maxMs: number;
  /** Growth from one try to the next: 2 (the default) doubles, 1.5 grows by half. */
  factor?: number;
  /** Relative spread, 0..1 (default 0): a delay d becomes uniform in [d * (1 - spread), d * (1 + spread)]. */
  spread?: number;
}

/**
 * The delay before try number `attempt` (1: the first retry; 0 counts as 1): `firstMs` times `factor`
 * for each try after the first, never more than `maxMs`, then spread by `spread` so that waiters do
 * not come back together.
 */
export function backoffMs(attempt: number, b: Backoff, random: () => number = Math.random): number {
  const steps = Math.min(Math.max(attempt - 1, 0), 64);
  return spreadMs(Math.min(b.firstMs * (b.factor ?? 2) ** steps, b.maxMs), b.spread ?? 0, random);
}

/** `ms` spread uniformly over [ms * (1 - fraction), ms * (1 + fraction)], rounded to a whole ms, never negative. */
export function spreadMs(ms: number, fraction: number, random: () => number = Math.random): number {
  return Math.max(0, Math.round(ms * (1 + fraction * (2 * random() - 1))));
}
