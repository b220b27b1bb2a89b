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

/** A subscription in the console. */
export function consoleSubscriptionLink(baseUrl: string, subscriptionId: string): string {
  return `${baseUrl}/console/webhooks/${encodeURIComponent(subscriptionId)}`;
}

/** An application in the console, or one of its session-level delivery attempts. */
export function consoleApplicationLink(baseUrl: string, applicationId: string, deliveryId?: string | null): string {
  const app = `${baseUrl}/console/applications/${encodeURIComponent(applicationId)}`;
  return deliveryId ? `${app}/deliveries/${encodeURIComponent(deliveryId)}` : app;
}

/**
 * The console's view of what raised an alert: the session attempt; else the delivery (of its
 * subscription, or of its application); else the subscription; else the application.
 */
export function alertLink(
  baseUrl: string,
  a: {
    sessionId?: string | null | undefined;
    attempt?: number | null | undefined;
    subscriptionId?: string | null | undefined;
    deliveryId?: string | null | undefined;
    applicationId?: string | null | undefined;
  },
): string | null {
  if (a.sessionId) return consoleAttemptLink(baseUrl, a.sessionId, a.attempt);
  if (a.subscriptionId)
    return a.deliveryId
      ? consoleDeliveryLink(baseUrl, a.subscriptionId, a.deliveryId)
      : consoleSubscriptionLink(baseUrl, a.subscriptionId);
  if (a.applicationId) return consoleApplicationLink(baseUrl, a.applicationId, a.deliveryId);
  return null;
}
