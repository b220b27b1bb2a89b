import type { Subscription as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/Subscription';
import type { SubscriptionView } from './repository';
import { redactHeaders } from './rules';

export function toMessage(s: SubscriptionView): Message {
  return {
    id: s.id,
    accountId: String(s.accountId),
    applicationId: s.applicationId ?? '',
    ...(s.name !== null ? { name: s.name } : {}),
    event: s.event,
    resource: s.resource,
    targetUrl: s.targetUrl,
    ...(s.payload !== null ? { payloadJson: JSON.stringify(s.payload) } : {}),
    headers: redactHeaders(s.headers),
    enabled: s.enabled,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    consecutiveFailures: s.consecutiveFailures,
    ...(s.lastAttemptAt ? { lastAttemptAt: s.lastAttemptAt.toISOString() } : {}),
    ...(s.lastStatus !== null ? { lastStatus: s.lastStatus } : {}),
    ...(s.disabledReason !== null ? { disabledReason: s.disabledReason } : {}),
  };
}
