// Retry policy (docs/events.md#delivery): a schedule of delays between attempts, jitter, and Retry-After.
// Pure functions; the clock and the random source are parameters so tests can pin them.

import { parseDuration, spreadMs } from '@switchboard/config';

/** One duration ("250ms", "5s", "30m", "2h", a bare number of ms, or ISO 8601 such as "PT30S"): the platform's parser. */
export { parseDuration };

/** Parses "5s,5m,30m": the delays before attempt 2, 3, 4, ... An empty list means "never retry". */
export function parseSchedule(text: string): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return parts.map(parseDuration);
}

const DAY = 86_400_000;
const total = (schedule: readonly number[]) => schedule.reduce((a, b) => a + b, 0);

/** How long the deliveries stream keeps a job: the whole retry schedule plus two days, at least 7 days. */
export function deliveriesRetentionMs(schedule: readonly number[]): number {
  return Math.max(7 * DAY, total(schedule) + 2 * DAY);
}

/** Default age after which a delivery still waiting for its host is given up: the whole schedule plus a day. */
export function defaultGiveUpAfterMs(schedule: readonly number[]): number {
  return total(schedule) + DAY;
}

export interface RetryPolicy {
  /** Delays in ms between attempts: schedule[n - 1] is waited after failed attempt n. */
  schedule: readonly number[];
  /** Relative jitter, 0..1: a delay d becomes uniform in [d * (1 - jitter), d * (1 + jitter)]. */
  jitter: number;
  /** Upper bound of a delay asked for by Retry-After. */
  retryAfterMaxMs: number;
}

/** Attempts in total: the first one plus one per schedule entry. */
export function maxAttempts(policy: RetryPolicy): number {
  return policy.schedule.length + 1;
}

/**
 * The delay before the attempt after `attempt` (1-based), or undefined when `attempt` was the last.
 * A Retry-After delay longer than the scheduled one wins (capped at retryAfterMaxMs).
 */
export function nextDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  const base = policy.schedule[attempt - 1];
  if (base === undefined) return undefined;
  const jittered = spreadMs(base, policy.jitter, random);
  if (retryAfterMs !== undefined && retryAfterMs > jittered)
    return Math.min(retryAfterMs, Math.max(policy.retryAfterMaxMs, jittered));
  return jittered;
}

/** Spreads a short wait (a deferred job's) over 75%..125% of `ms`, so waiting jobs do not return together. */
export function jitter(ms: number, random: () => number = Math.random): number {
  return spreadMs(ms, 0.25, random);
}

/** Parses a Retry-After header: delta-seconds or an HTTP date. Undefined when absent or unparseable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const text = v.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
