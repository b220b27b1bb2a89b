import { randomBytes } from 'node:crypto';

const SUBSCRIPTION_ID = /^wh_[0-9a-f]{24}$/;
const ACCOUNT_ID = /^[1-9]\d{0,17}$/;
/** Application ids belong to the applications service; this only bounds what is worth asking about. */
const APPLICATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Random bytes drawn ahead, 96 bits per id, each byte used once: one call to the generator for 256 ids. */
let drawn = Buffer.alloc(0);
let next = 0;

/** 96 random bits as 24 hex characters. */
function random96(): string {
  if (next + 12 > drawn.length) {
    drawn = randomBytes(12 * 256);
    next = 0;
  }
  const hex = drawn.toString('hex', next, next + 12);
  next += 12;
  return hex;
}

/** Opaque, unique across the service, not guessable: 96 random bits. */
export function newSubscriptionId(): string {
  return `wh_${random96()}`;
}

/** One per stored attempt (a batch of records draws hundreds at once). */
export function newDeliveryId(): string {
  return `dlv_${random96()}`;
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
