// The delivery tools (test sends, resends) make one attempt each, never a retry schedule: what that
// attempt means, and its record. Waiting for a host (breaker open, host busy) is the caller's to decide.
import type { AttemptFields } from '../recording/attempt-record';
import type { DisableRequest } from '../recording/attempt-recorder';
import type { AttemptResult } from './http-sender';

/** The recorded outcome of a single attempt: 2xx succeeded, anything else failed; 410 disables a subscription. */
export function judgeSingleAttempt(r: AttemptResult, subscriptionId: string | null, now = Date.now()): AttemptFields & { disable?: DisableRequest } {
  const base = { statusCode: r.kind === 'response' ? r.status : 0, durationMs: r.durationMs };
  if (r.kind === 'error') return { ...base, outcome: 'failed', error: r.error };
  if (r.status >= 200 && r.status < 300) return { ...base, outcome: 'succeeded', error: undefined };
  if (r.status === 410 && subscriptionId)
    return { ...base, outcome: 'failed', error: 'HTTP 410 Gone: subscription disabled', disable: { subscriptionId, reason: `target answered 410 Gone at ${new Date(now).toISOString()}` } };
  const redirect = r.status >= 300 && r.status < 400 ? ': redirects are not followed' : '';
  return { ...base, outcome: 'failed', error: `HTTP ${r.status}${redirect}` };
}

/** Why no attempt could be made now, in words. */
export function notSentReason(reason: string): string {
  if (reason === 'breaker_open') return 'not sent: the target host is unavailable (circuit breaker open)';
  if (reason === 'host_busy' || reason === 'queue_full') return 'not sent: the target host is busy';
  return `not sent: ${reason}`;
}
