import type { Application as Message } from '@switchboard/proto/generated/switchboard/applications/v1/Application';
import type { ApplicationView } from './repository';

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
