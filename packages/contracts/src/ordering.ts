// Where the dispatchers keep the state of ordering by key (services/dispatcher/src/delivery/ordering.ts,
// docs/decisions/0022-ordering-by-key.md): a key-value bucket with one entry per (subscription, key)
// that has deliveries pending, and a marker per key whose delivery waits for a retry (a held key).
// The webhooks service counts a subscription's markers for its stats.

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
