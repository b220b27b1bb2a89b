// Where the dispatchers keep the state of ordering by key (services/dispatcher/src/delivery/ordering.ts,
// docs/decisions/0022-ordering-by-key.md): a key-value bucket with one entry per (subscription, key)
// that has deliveries pending, and a marker per key whose delivery waits for a retry (a held key).
// The webhooks service counts a subscription's markers for its stats, and holds a recovery's
// resends of one key until the one before has been attempted (services/webhooks/src/tools/resend-relay.ts).
import { createHash } from 'node:crypto';

export const ORDERING_BUCKET = 'DELIVERY_ORDERING';
/** The JetStream stream behind the bucket. */
export const ORDERING_STREAM = `KV_${ORDERING_BUCKET}`;
const PREFIX = `$KV.${ORDERING_BUCKET}.`;

/** The entry of a key's line of pending deliveries (`key`: a hash of the key's value). */
export const orderingStateSubject = (subscriptionId: string, key: string) => `${PREFIX}k.${subscriptionId}.${key}`;
/** The marker of a held key. */
export const orderingHeldSubject = (subscriptionId: string, key: string) => `${PREFIX}h.${subscriptionId}.${key}`;
/** The markers of a subscription's held keys. */
export const orderingHeldFilter = (subscriptionId: string) => `${PREFIX}h.${subscriptionId}.*`;

/** The text of an event's ordering key, or undefined when the event has none (delivered unordered). */
export function keyValueOf(data: Record<string, unknown>, field: string): string | undefined {
  const v = data[field];
  if (typeof v === 'string' && v.length > 0) return `s:${v}`;
  if (typeof v === 'number' && Number.isFinite(v)) return `n:${v}`;
  return undefined;
}

/** The key's name in the bucket: a hash of its value (any text, any length). */
export function keyHash(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

/** The ordering key (its hash) of a stored notification body, from its `data`; undefined when it has none. */
export function bodyKey(body: string, field: string): string | undefined {
  try {
    const data = (JSON.parse(body) as { data?: unknown }).data;
    if (!data || typeof data !== 'object') return undefined;
    const value = keyValueOf(data as Record<string, unknown>, field);
    return value === undefined ? undefined : keyHash(value);
  } catch {
    return undefined;
  }
}
