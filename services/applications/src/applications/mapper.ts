import type { Application as Message } from '@switchboard/proto/generated/switchboard/applications/v1/Application';
import type { ApplicationView } from './repository';

export function toMessage(a: ApplicationView): Message {
  return {
    id: a.id,
    accountId: a.accountId,
    name: a.name,
    ...(a.voiceUrl ? { voiceUrl: a.voiceUrl } : {}),
    ...(a.messagingUrl ? { messagingUrl: a.messagingUrl } : {}),
    ...(a.voiceFallbackUrl ? { voiceFallbackUrl: a.voiceFallbackUrl } : {}),
    ...(a.messagingFallbackUrl ? { messagingFallbackUrl: a.messagingFallbackUrl } : {}),
    environmentId: a.environmentId,
    apiType: a.apiType,
    ...(a.partition ? { partition: a.partition } : {}),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}
