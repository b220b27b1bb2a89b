// The format of every kind of id the services issue or exchange, in one place. A value that does not
// have its kind's format names nothing: a lookup answers not found (or the field is refused) without
// asking the database. Numeric ids are canonical decimals, as Postgres prints a bigint: no sign, no
// leading zero, at most 18 digits (below 2^63).

/** Accounts (users): a bigint. */
export const ACCOUNT_ID = /^[1-9]\d{0,17}$/;
/** Environments: a bigint. */
export const ENVIRONMENT_ID = /^[1-9]\d{0,17}$/;
/** Applications: 96 random bits, hex. */
export const APPLICATION_ID = /^[0-9a-f]{24}$/;
/** Webhook subscriptions: `wh_` and 96 random bits, hex. */
export const SUBSCRIPTION_ID = /^wh_[0-9a-f]{24}$/;
/** Delivery attempts: `dlv_` and 96 random bits, hex. */
export const DELIVERY_ID = /^dlv_[0-9a-f]{24}$/;
/** Recovery tasks: `rcv_` and 96 random bits, hex. */
export const RECOVERY_ID = /^rcv_[0-9a-f]{24}$/;
/** Sessions this platform launches: 128 random bits, hex. */
export const SESSION_ID = /^[0-9a-f]{32}$/;
/** Address tokens: 256 random bits, hex. */
export const ADDRESS_TOKEN = /^[0-9a-f]{64}$/;
/** Webhook messages (the `webhook-id` header): `msg_` and 24 base64url characters of a digest. */
export const MESSAGE_ID = /^msg_[A-Za-z0-9_-]{24}$/;

const test =
  (format: RegExp) =>
  (id: unknown): id is string =>
    typeof id === 'string' && format.test(id);

export const isAccountId = test(ACCOUNT_ID);
export const isEnvironmentId = test(ENVIRONMENT_ID);
export const isApplicationId = test(APPLICATION_ID);
export const isSubscriptionId = test(SUBSCRIPTION_ID);
export const isDeliveryId = test(DELIVERY_ID);
export const isRecoveryId = test(RECOVERY_ID);
export const isSessionId = test(SESSION_ID);
export const isAddressToken = test(ADDRESS_TOKEN);
export const isMessageId = test(MESSAGE_ID);
