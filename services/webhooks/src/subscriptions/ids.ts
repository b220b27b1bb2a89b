import { randomHex } from '@switchboard/security';

/** Opaque, unique across the service, not guessable: 96 random bits. */
export function newSubscriptionId(): string {
  return `wh_${randomHex(24)}`;
}

/** One per stored attempt (a batch of records draws hundreds at once: from the platform's pool of random hex). */
export function newDeliveryId(): string {
  return `dlv_${randomHex(24)}`;
}

/** A Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes. */
export { newSigningSecret as newSecret } from '@switchboard/security';
