import type { Application as Message } from '@switchboard/proto/generated/switchboard/applications/v1/Application';
import { isoTimestamp } from '@switchboard/db';
import type { ApplicationListRow, ApplicationView } from './repository.ts';

/**
 * The message of an application. Absent optional fields are undefined (the encoder leaves them out):
 * a literal of one shape, where conditional spreads would take V8's slow path for every item of a list.
 */
export function toMessage(a: ApplicationView): Message {
  return {
    id: a.id,
    accountId: a.accountId,
    name: a.name,
    voiceUrl: a.voiceUrl || undefined,
    messagingUrl: a.messagingUrl || undefined,
    voiceFallbackUrl: a.voiceFallbackUrl || undefined,
    messagingFallbackUrl: a.messagingFallbackUrl || undefined,
    environmentId: a.environmentId,
    apiType: a.apiType,
    partition: a.partition || undefined,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** The message of a row of `accountId`'s list page: the fields of toMessage, the timestamps from their text (no Date). */
export function listMessage(r: ApplicationListRow, accountId: string): Message {
  return {
    id: r.id,
    accountId,
    name: r.name,
    voiceUrl: r.voice_url || undefined,
    messagingUrl: r.messaging_url || undefined,
    voiceFallbackUrl: r.voice_fallback_url || undefined,
    messagingFallbackUrl: r.messaging_fallback_url || undefined,
    environmentId: r.environment_id,
    apiType: r.api_type,
    partition: r.partition || undefined,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  };
}
