// Limits and defaults of the public API that both the code and the OpenAPI document state: one
// source for each, so the document's numbers cannot drift from the behaviour.

/** Deepest nesting of arrays and objects a request body may have (the top-level value is level 1). */
export const JSON_MAX_DEPTH = 64;

/** Default of BODY_LIMIT_BYTES: the largest request body (413 above). */
export const BODY_LIMIT_DEFAULT_BYTES = 64 * 1024;

/**
 * Default of SESSION_RATE_LIMIT_PER_SECOND: sessions launched per second per token, and signals per
 * second per session (bursts up to twice that); beyond it 429 + Retry-After.
 */
export const SESSION_RATE_LIMIT_DEFAULT_PER_SECOND = 20;

// Limits and defaults the other services own. The gateway's image does not ship their code, so they
// are stated here once and services/gateway/test/openapi.test.ts checks them against the services'
// own constants.

/** docs/api-rules.md#limits: subscriptions per account (account level) and per application. */
export const ACCOUNT_SUBSCRIPTIONS_MAX = 10;
export const APPLICATION_SUBSCRIPTIONS_MAX = 10;
/** Longest application and subscription name (checked by the applications and webhooks services). */
export const NAME_MAX = 255;
/** How long the previous signing secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_VALID_HOURS = 24;

/** The dispatcher's delivery defaults (DELIVERY_* variables). */
export const DELIVERY_DEFAULTS = {
  timeoutMs: 15_000,
  retrySchedule: '5s,5m,30m,2h,5h,10h,14h,20h,24h',
  retryJitter: 0.2,
  retryAfterMax: '1h',
  backlogPerAccount: 10_000,
} as const;

/** The Session API (services/applications/src/sessions/rules.ts): parameters of a launched session, signal values. */
export const SESSION_LIMITS = {
  parameters: 50,
  parameterNameChars: 64,
  parameterValueChars: 2048,
  signalValueChars: 256,
  sessionIdChars: 200,
} as const;
