// What one HTTP attempt means for its delivery: the outcome to record, the error text, the delay
// before the next attempt, and whether the subscription is to be disabled. Pure: the retry
// schedule, the clock and the random source are parameters.
import type { Outcome } from '../metrics.ts';
import type { DisableRequest } from '../recording/attempt-recorder.ts';
import type { AttemptResult } from './http-sender.ts';
import { nextDelay, parseRetryAfter, type RetryPolicy } from './retry.ts';

/** An attempt as it is recorded; `retryInMs` is set exactly when the outcome is `retrying`. */
export interface AttemptOutcome {
  outcome: Exclude<Outcome, 'cancelled'>;
  statusCode: number;
  durationMs: number;
  error: string | undefined;
  retryInMs?: number;
  disable?: DisableRequest;
}

export interface OutcomeContext {
  /** Number of the attempt just made (1-based). */
  attempt: number;
  /** The subscription a 410 Gone disables; null for deliveries without one (sessions). */
  subscriptionId: string | null;
  /** The retry schedule; null for a single attempt (test sends, resends), which never retries. */
  retry: RetryPolicy | null;
  now?: number;
  random?: () => number;
}

export function classifyAttempt(r: AttemptResult, ctx: OutcomeContext): AttemptOutcome {
  const now = ctx.now ?? Date.now();
  const statusCode = r.kind === 'response' ? r.status : 0;
  const durationMs = r.durationMs;
  // Object literals, not a spread base: this runs for every attempt.
  const failed = (error: string): AttemptOutcome => ({ outcome: 'failed', statusCode, durationMs, error });
  if (r.kind === 'response' && r.status >= 200 && r.status < 300)
    return { outcome: 'succeeded', statusCode, durationMs, error: undefined };
  if (r.kind === 'response' && r.status === 410) {
    if (!ctx.subscriptionId) return failed('HTTP 410 Gone: the target asked to stop');
    return {
      outcome: 'failed',
      statusCode,
      durationMs,
      error: 'HTTP 410 Gone: subscription disabled',
      disable: {
        subscriptionId: ctx.subscriptionId,
        reason: `target answered 410 Gone at ${new Date(now).toISOString()}`,
      },
    };
  }
  if (r.kind === 'error' && r.refused) return failed(r.error);

  let error: string;
  let retryAfterMs: number | undefined;
  if (r.kind === 'response') {
    error =
      r.status >= 300 && r.status < 400
        ? `HTTP ${r.status}: redirects are not followed${r.location ? ` (to ${r.location.slice(0, 200)})` : ''}`
        : `HTTP ${r.status}`;
    retryAfterMs = parseRetryAfter(r.retryAfter, now);
  } else error = r.error;
  if (ctx.retry === null) return failed(error);
  const delay = nextDelay(ctx.retry, ctx.attempt, retryAfterMs, ctx.random);
  if (delay === undefined)
    return failed(`${error}; gave up after ${ctx.attempt} attempt${ctx.attempt === 1 ? '' : 's'}`);
  return { outcome: 'retrying', statusCode, durationMs, error, retryInMs: delay };
}

/** Results that say the host is unwell (they count toward opening its breaker). */
export function isHostFailure(r: AttemptResult): boolean {
  if (r.kind === 'error') return !r.refused;
  return r.status >= 500 || r.status === 429;
}
