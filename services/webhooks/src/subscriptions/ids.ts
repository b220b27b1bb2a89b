import { randomHex } from '@switchboard/platform';

const SUBSCRIPTION_ID = /^wh_[0-9a-f]{24}$/;
const ACCOUNT_ID = /^[1-9]\d{0,17}$/;
/** Application ids belong to the applications service; this only bounds what is worth asking about. */
const APPLICATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Opaque, unique across the service, not guessable: 96 random bits. */
export function newSubscriptionId(): string {
  return `wh_${randomHex(24)}`;
}

/** One per stored attempt (a batch of records draws hundreds at once: from the platform's pool of random hex). */
export function newDeliveryId(): string {
  return `dlv_${randomHex(24)}`;
}

/** A Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes. */
export { newSigningSecret as newSecret } from '@switchboard/platform';

export function isSubscriptionId(id: string): boolean {
  return SUBSCRIPTION_ID.test(id);
}

export function isAccountId(id: string): boolean {
  return ACCOUNT_ID.test(id);
}

export function isApplicationId(id: string): boolean {
  return APPLICATION_ID.test(id);
}
