import type { Subscription as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/Subscription';
import type { SubscriptionView } from './repository';
import { redactHeaders } from './rules';

export function toMessage(s: SubscriptionView): Message {
  // Absent optional fields are undefined (the encoder leaves them out): a literal of one shape,
  // where conditional spreads would take V8's slow path for every item of a list.
  return {
    id: s.id,
    accountId: String(s.accountId),
    applicationId: s.applicationId ?? '',
    name: s.name ?? undefined,
    event: s.event,
    resource: s.resource,
    targetUrl: s.targetUrl,
    payloadJson: s.payload !== null ? JSON.stringify(s.payload) : undefined,
    headers: redactHeaders(s.headers),
    enabled: s.enabled,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    consecutiveFailures: s.consecutiveFailures,
    lastAttemptAt: s.lastAttemptAt ? s.lastAttemptAt.toISOString() : undefined,
    lastStatus: s.lastStatus ?? undefined,
    disabledReason: s.disabledReason ?? undefined,
  };
}
