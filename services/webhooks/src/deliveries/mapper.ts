import type { Delivery as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/Delivery';
import type { Delivery } from '../db/entities';

export function toMessage(d: Delivery): Message {
  return {
    id: d.id,
    messageId: d.messageId,
    kind: d.kind,
    subscriptionId: d.subscriptionId ?? '',
    applicationId: d.applicationId ?? '',
    accountId: d.accountId === null ? '0' : String(d.accountId),
    event: d.event,
    targetUrl: d.targetUrl,
    attempt: d.attempt,
    statusCode: d.statusCode ?? 0,
    durationMs: d.durationMs,
    ...(d.error !== null ? { error: d.error } : {}),
    outcome: d.outcome,
    createdAt: d.createdAt.toISOString(),
  };
}
