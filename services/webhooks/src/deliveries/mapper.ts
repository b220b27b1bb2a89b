import type {
  Delivery as Message,
  Delivery__Output as MessageIn,
} from '@switchboard/proto/generated/switchboard/webhooks/v1/Delivery';
import type { DeliveryKind__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeliveryKind';
import type { DeliveryOutcome__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeliveryOutcome';
import type { Delivery } from '../db/entities.ts';

// The proto enums of a delivery's kind and outcome, and the words they stand for (what is stored
// and what the REST API shows).
const KIND_ENUM: Record<Delivery['kind'], DeliveryKind__Output> = {
  session: 'DELIVERY_KIND_SESSION',
  notification: 'DELIVERY_KIND_NOTIFICATION',
};
const OUTCOME_ENUM: Record<Delivery['outcome'], DeliveryOutcome__Output> = {
  succeeded: 'DELIVERY_OUTCOME_SUCCEEDED',
  retrying: 'DELIVERY_OUTCOME_RETRYING',
  failed: 'DELIVERY_OUTCOME_FAILED',
  cancelled: 'DELIVERY_OUTCOME_CANCELLED',
};

const wordOf = <W extends string>(words: Record<W, string>, value: string): W | undefined =>
  (Object.keys(words) as W[]).find((w) => words[w] === value);

/** The kind of a received delivery: its enum when set, else its text (peers that predate the enum). */
export function kindOf(d: MessageIn): string {
  return (d.deliveryKind !== 'DELIVERY_KIND_UNSPECIFIED' && wordOf(KIND_ENUM, d.deliveryKind)) || d.kind;
}

/** The outcome of a received delivery: its enum when set, else its text (peers that predate the enum). */
export function outcomeOf(d: MessageIn): string {
  return (d.deliveryOutcome !== 'DELIVERY_OUTCOME_UNSPECIFIED' && wordOf(OUTCOME_ENUM, d.deliveryOutcome)) || d.outcome;
}

/** A record as a message; `withResponse`: with the receiver's response excerpt (one record's view). */
export function toMessage(d: Delivery, withResponse = false): Message {
  return {
    id: d.id,
    messageId: d.messageId,
    kind: d.kind,
    deliveryKind: KIND_ENUM[d.kind],
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
    deliveryOutcome: OUTCOME_ENUM[d.outcome],
    trigger: d.trigger,
    createdAt: d.createdAt.toISOString(),
    ...(withResponse && d.responseExcerpt != null
      ? {
          responseContentType: d.responseContentType ?? '',
          responseExcerpt: d.responseExcerpt,
          responseTruncated: d.responseTruncated,
        }
      : {}),
  };
}
