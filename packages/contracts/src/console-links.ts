// Links into the console (served at {base}/console/) that the API and the events carry: an alert's
// link to the session attempt or the delivery that raised it.

/** The session inspector at one attempt (`attempt` 0-based; the anchor is 1-based, `#attempt-N`). */
export function consoleAttemptLink(baseUrl: string, sessionId: string, attempt: number | null | undefined): string {
  const anchor = attempt == null ? '' : `#attempt-${attempt + 1}`;
  return `${baseUrl}/console/sessions/${encodeURIComponent(sessionId)}${anchor}`;
}

/** A subscription's delivery attempt in the console. */
export function consoleDeliveryLink(baseUrl: string, subscriptionId: string, deliveryId: string): string {
  return `${baseUrl}/console/webhooks/${encodeURIComponent(subscriptionId)}/deliveries/${encodeURIComponent(deliveryId)}`;
}
