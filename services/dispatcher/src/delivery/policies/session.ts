// Sessions are real-time: a caller is waiting. Pure rules of the session loop (session-loop.ts
// runs them): what an answer means, how long each attempt may take within the session's budget,
// when the primary URL is tried again, and the stable reason codes of a failed session
// (docs/events.md#session-loop). Nothing about a session is retried after it ended.
import type { AttemptResult } from '../http-sender.ts';
import { jitter } from '../retry.ts';

export interface RealTimeSettings {
  /** Budget of all attempts of one session (SESSION_DEADLINE_MS). */
  deadlineMs: number;
  /** Longest single attempt (SESSION_TIMEOUT_MS). */
  timeoutMs: number;
}

/** Largest answer accepted as instructions. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** Delays before the 2nd and 3rd attempt to one URL after a connection error or a 5xx. */
export const SESSION_RETRY_DELAYS_MS = [500, 1500] as const;
/** Attempts to one URL at most. */
export const ATTEMPTS_PER_URL = SESSION_RETRY_DELAYS_MS.length + 1;
/** An attempt with less time than this is not started (except the fallback's first). */
export const MIN_ATTEMPT_MS = 200;

/** Why a session failed (sessions.failed `reason`), or why one attempt did not give instructions. */
export type SessionReason =
  | 'timeout'
  | 'http_5xx'
  | 'http_status'
  | 'connection_error'
  | 'not_json'
  | 'empty_body'
  | 'too_large'
  | 'ssrf_refused'
  | 'breaker_open'
  | 'host_busy'
  | 'no_url'
  | 'no_secret'
  | 'application_not_found'
  | 'unknown_address'
  | 'lookup_unavailable'
  | 'deadline_exceeded';

export type SessionVerdict =
  | { ok: true; status: number; contentType: string | null; body: unknown }
  /** `retryable`: the same URL may be tried again (connection error, 5xx, host busy). */
  | { ok: false; reason: SessionReason; error: string; retryable: boolean };

/** What one HTTP attempt of a session means. A 2xx gives instructions only with a JSON body of at most MAX_ANSWER_BYTES. */
export function judgeSessionAttempt(r: AttemptResult): SessionVerdict {
  if (r.kind === 'error') {
    if (r.refused) return { ok: false, reason: 'ssrf_refused', error: r.error, retryable: false };
    if (r.timedOut) return { ok: false, reason: 'timeout', error: r.error, retryable: false };
    return { ok: false, reason: 'connection_error', error: r.error, retryable: true };
  }
  if (r.status >= 500) return { ok: false, reason: 'http_5xx', error: `HTTP ${r.status}`, retryable: true };
  if (r.status < 200 || r.status >= 300) {
    const redirect = r.status >= 300 && r.status < 400 ? ': redirects are not followed' : '';
    return { ok: false, reason: 'http_status', error: `HTTP ${r.status}${redirect}`, retryable: false };
  }
  const answer = r.answer;
  if (!answer || answer.body.length === 0)
    return { ok: false, reason: 'empty_body', error: `HTTP ${r.status} with an empty body`, retryable: false };
  if (answer.tooLarge)
    return {
      ok: false,
      reason: 'too_large',
      error: `HTTP ${r.status} with a body over ${MAX_ANSWER_BYTES} bytes`,
      retryable: false,
    };
  try {
    const body: unknown = JSON.parse(answer.body.toString('utf8'));
    return { ok: true, status: r.status, contentType: answer.contentType ?? null, body };
  } catch {
    return { ok: false, reason: 'not_json', error: `HTTP ${r.status} with a body that is not JSON`, retryable: false };
  }
}

/** Budget kept for the fallback URL while the primary is tried: one attempt's worth, at most half the budget. */
export function fallbackReserveMs(s: RealTimeSettings, hasFallback: boolean): number {
  return hasFallback ? Math.min(s.timeoutMs, Math.floor(s.deadlineMs / 2)) : 0;
}

/**
 * Timeout of the next attempt given the budget left (`leftMs`, minus what is kept for a later URL),
 * or 0 when there is no time for one. The fallback's first attempt always gets MIN_ATTEMPT_MS.
 */
export function attemptTimeoutMs(s: RealTimeSettings, leftMs: number, keptMs: number, mustTry: boolean): number {
  const t = Math.min(s.timeoutMs, leftMs - keptMs);
  if (t >= MIN_ATTEMPT_MS) return Math.floor(t);
  return mustTry ? MIN_ATTEMPT_MS : 0;
}

/** Delay before attempt `n` (2 or 3) to the same URL: about 0.5 s, then about 1.5 s (75%..125%). */
export function sessionRetryDelayMs(n: number, random: () => number = Math.random): number {
  return jitter(SESSION_RETRY_DELAYS_MS[Math.min(n - 2, SESSION_RETRY_DELAYS_MS.length - 1)]!, random);
}
