// The delivery tools (test sends, resends) make one attempt each, never a retry schedule (its outcome:
// classifyAttempt with `retry: null`). Waiting for a host (breaker open, host busy) is the caller's to decide.

/** Why no attempt could be made now, in words. */
export function notSentReason(reason: string): string {
  if (reason === 'breaker_open') return 'not sent: the target host is unavailable (circuit breaker open)';
  if (reason === 'host_busy' || reason === 'queue_full') return 'not sent: the target host is busy';
  return `not sent: ${reason}`;
}
