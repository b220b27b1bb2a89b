import type { Subscription as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/Subscription';
import { isoTimestamp } from '@switchboard/db';
import type { SubscriptionListRow, SubscriptionView } from './repository.ts';
import { redactHeaders } from './rules.ts';
import { type DeliverySettings, maskSettings } from './delivery-settings.ts';

/** The settings as they read (secrets "***"); absent when there are none. */
function settingsJson(s: DeliverySettings | undefined): string | undefined {
  return s && Object.keys(s).length > 0 ? JSON.stringify(maskSettings(s)) : undefined;
}

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
    settingsJson: settingsJson(s.settings),
    enabled: s.enabled,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    consecutiveFailures: s.consecutiveFailures,
    lastAttemptAt: s.lastAttemptAt ? s.lastAttemptAt.toISOString() : undefined,
    lastStatus: s.lastStatus ?? undefined,
    disabledReason: s.disabledReason ?? undefined,
  };
}

/** The message of a row of `accountId`'s list page: the fields of toMessage, the timestamps from their text (no Date). */
export function listMessage(r: SubscriptionListRow, accountId: string): Message {
  return {
    id: r.id,
    accountId,
    applicationId: r.application_id ?? '',
    name: r.name ?? undefined,
    event: r.event,
    resource: r.resource,
    targetUrl: r.target_url,
    payloadJson: r.payload !== null ? JSON.stringify(r.payload) : undefined,
    headers: redactHeaders(r.headers),
    settingsJson: settingsJson(r.settings),
    enabled: r.enabled,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
    consecutiveFailures: r.consecutive_failures,
    lastAttemptAt: r.last_attempt_at !== null ? isoTimestamp(r.last_attempt_at) : undefined,
    lastStatus: r.last_status ?? undefined,
    disabledReason: r.disabled_reason ?? undefined,
  };
}
