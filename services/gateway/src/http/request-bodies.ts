// The request bodies of the API, each defined once: the gateway validates with these schemas and the
// OpenAPI document's request-body schemas are generated from them (z.toJSONSchema). The gateway checks
// types and sizes (400 with the field); the services apply the business rules (allowed values, URLs,
// limits) and whether a field is required. `null` means "not given"; unknown fields are ignored
// (docs/api-rules.md#compatibility).
import type { Request } from 'express';
import { z } from 'zod';
import { EVENT_NAMES, isEnvironmentId } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import { NAME_MAX, SESSION_LIMITS } from '../limits.ts';

/** Events a webhook subscription can name (docs/api-rules.md#subscriptions; checked by the webhooks service): the catalogue of GET /v1/event-types. */
export const WEBHOOK_EVENTS: readonly string[] = EVENT_NAMES;

/** An optional string of at most `max` characters. */
const text = (max: number, meta: Record<string, unknown> = {}) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: `must be at most ${max} characters` })
    .meta(meta)
    .nullish();

const boolean = (meta: Record<string, unknown> = {}) =>
  z.boolean({ error: 'must be true or false' }).meta(meta).nullish();

/** Any JSON object, kept as sent (no copy: a key such as `__proto__` stays an ordinary key). */
const jsonObject = (meta: Record<string, unknown> = {}) =>
  z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
      error: 'must be a JSON object',
    })
    .meta({ type: 'object', additionalProperties: true, ...meta })
    .nullish();

const ENVIRONMENT_ERROR = 'must be an environment id or an environment URL';

/** Environment as a numeric id (number or digit string) or an environment URL (docs/api-rules.md#applications); answers the id. */
function environmentId(v: string | number): string | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? String(v) : undefined;
  const s = v.trim();
  const digits = /^\d{1,18}$/.test(s)
    ? s
    : /^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?\/environments\/(\d{1,18})\/?$/.exec(s)?.[1];
  // Leading zeros are tolerated in a request ("007" is environment 7); the id itself is canonical.
  const id = digits?.replace(/^0+(?=\d)/, '');
  return isEnvironmentId(id) ? id : undefined;
}

const environment = z
  .union([z.string(), z.number()], { error: ENVIRONMENT_ERROR })
  .transform((v, ctx) => {
    const id = environmentId(v);
    if (id === undefined) ctx.issues.push({ code: 'custom', message: ENVIRONMENT_ERROR, input: v });
    return id ?? z.NEVER;
  })
  .meta({ description: 'Environment id or environment URL.' })
  .nullish();

/** POST and PUT /v1/applications[/:id]. Field order is the order errors are listed in. */
export const applicationWrite = z
  .object({
    name: text(4096, { description: `At most ${NAME_MAX} characters.` }),
    voiceUrl: text(4096, { description: 'Absolute http(s) URL; an empty string clears it on PUT.' }),
    messagingUrl: text(4096),
    voiceFallbackUrl: text(4096, {
      description:
        'Absolute http(s) URL tried when session POSTs to voiceUrl fail; the same rules as voiceUrl, and it does not count as one of the required URLs. An empty string clears it on PUT.',
    }),
    messagingFallbackUrl: text(4096, { description: 'Like voiceFallbackUrl, for messagingUrl.' }),
    environment,
    apiType: text(64, { description: 'scripting or webapi, any case. Default scripting.' }),
    platform: text(64, { description: 'Legacy alias of apiType (read only when apiType is absent).' }),
    partition: text(64, { description: 'Legacy: staging or production, used when environment is absent.' }),
  })
  .meta({ description: 'Unknown fields are ignored; null means "not given". On PUT, fields left out stay unchanged.' });

const int = (meta: Record<string, unknown>) => z.int({ error: 'must be an integer' }).meta(meta).nullish();

/**
 * A subscription's delivery settings (docs/api.md#delivery-settings): types here, the ranges and rules in
 * the webhooks service. On PUT, `{}` for an object setting removes it.
 */
export const deliverySettings = {
  timeoutMs: int({
    minimum: 1000,
    maximum: 30000,
    description:
      'Per-attempt timeout of this subscription, 1000 to 30000 ms; DELIVERY_TIMEOUT_MS when absent. On update, null removes it.',
  }),
  ordering: z
    .object({
      key: text(64, { description: 'A field of the event `data`, e.g. `messageId` or `sessionId`.' }),
      maxHoldSeconds: int({ minimum: 1, maximum: 86400, description: 'Default 3600.' }),
    })
    .meta({
      description:
        'Events with the same value under `key` are delivered in the order they were published, one at a time, each with a `webhook-sequence` header; resends and recoveries take their turn too.',
    })
    .nullish(),
  rateLimit: z
    .object({ perSecond: int({ minimum: 1, maximum: 1000 }) })
    .meta({ description: 'Deliveries per second to this subscription; the excess waits (no attempt used).' })
    .nullish(),
  auth: z
    .object({
      type: text(64, { enum: ['oauth2_client_credentials'] }),
      tokenUrl: text(4096, { format: 'uri', description: 'The same rules as targetUrl.' }),
      clientId: text(1024),
      clientSecret: text(1024, { description: 'Write-only: reads show `***`. Required whenever auth is given.' }),
      scope: text(1024),
    })
    .meta({ description: 'OAuth2 client credentials: each delivery carries `Authorization: Bearer <token>`.' })
    .nullish(),
  tls: z
    .object({
      clientCertificate: text(16384, { description: 'PEM certificate (chain) presented to the receiver.' }),
      privateKey: text(16384, {
        description:
          'PEM private key of the certificate; write-only (reads show `***`), required whenever tls is given.',
      }),
    })
    .meta({ description: 'mTLS: the client certificate presented to the receiver.' })
    .nullish(),
};

/** POST /v1/webhooks and /v1/applications/:appId/webhooks. */
export const webhookCreate = z
  .object({
    payload: jsonObject({ description: 'Any JSON object; sent back unchanged in every notification.' }),
    name: text(1024, { description: `At most ${NAME_MAX} characters.` }),
    event: text(256, { enum: [...WEBHOOK_EVENTS] }),
    resource: text(1024, { examples: ['sms', 'call,sms', 'all'] }),
    targetUrl: text(4096, { format: 'uri' }),
    enabled: boolean({ default: true }),
    headers: z
      .record(z.string(), z.string({ error: 'must be an object of header names to string values' }), {
        error: 'must be an object of header names to string values',
      })
      .meta({
        description:
          'Custom headers sent with every delivery, `{name: value}`: at most 10, names HTTP tokens; hop-by-hop headers, `Host`, `User-Agent`, `Content-*` and `webhook-*` are refused (400). ' +
          'Values are write-only (they may carry credentials): reads show each as `***`. On PUT the object replaces all headers (`{}` removes them).',
        examples: [{ Authorization: 'Bearer s3cr3t', 'X-Team': 'billing' }],
      })
      .nullish(),
    ...deliverySettings,
  })
  .meta({ description: 'Unknown fields are ignored; null means "not given".' });

/** PUT of a subscription: the create fields, all optional. */
export const webhookUpdate = webhookCreate.partial().meta({
  description:
    'Fields sent replace the stored values; `event` cannot change (409: accepted only when unchanged). `enabled: true` on a disabled subscription also clears its `disabledReason` and `consecutiveFailures` and starts its DELIVERY_DISABLE_AFTER count afresh.',
});

/** POST /v1/webhooks/:id/test (the body is optional). */
export const webhookTest = z
  .object({
    message: text(1000, { description: 'data.message of the test notification; a default text when absent.' }),
  })
  .meta({ description: 'Optional. Unknown fields are ignored; null means "not given".' });

/** POST /v1/webhooks/:id/recover. */
export const webhookRecover = z
  .object({
    since: text(64, {
      format: 'date-time',
      description: 'Start of the window (ISO 8601 with a zone), inclusive. Required.',
    }),
    until: text(64, {
      format: 'date-time',
      description: 'End of the window, exclusive; now when absent. At most 30 days after since.',
    }),
    status: text(32, {
      enum: ['failed'],
      description: 'Which deliveries: only "failed" (the default): those whose last attempt failed within the window.',
    }),
    outcome: text(32, { enum: ['failed'], description: 'The same as status (the delivery-search name).' }),
    event: text(256, { enum: [...WEBHOOK_EVENTS], description: 'Only deliveries of this event.' }),
    statusFrom: int({
      minimum: 100,
      maximum: 599,
      description: 'Only deliveries whose last HTTP status is at least this.',
    }),
    statusTo: int({
      minimum: 100,
      maximum: 599,
      description: 'Only deliveries whose last HTTP status is at most this.',
    }),
    messageId: z
      .array(z.string({ error: 'must be a string' }).max(128, { error: 'must be at most 128 characters' }), {
        error: 'must be an array of message ids',
      })
      .max(1000, { error: 'may list at most 1000 ids' })
      .meta({ description: 'Only these messages (webhook-id values); at most 1000.' })
      .nullish(),
    sessionId: z
      .array(
        z
          .string({ error: 'must be a string' })
          .min(1, { error: 'must not be empty' })
          .max(400, { error: 'must be at most 400 characters' }),
        { error: 'must be an array of session ids' },
      )
      .max(1000, { error: 'may list at most 1000 ids' })
      .meta({
        description:
          'Only notifications about these sessions (their `data.sessionId`, as in sessionStatus, cdrCreated and alertRaised); at most 1000.',
      })
      .nullish(),
    dryRun: boolean({
      description: 'true: answer 200 `{dryRun, matched, skipped}` (what a recovery would take) and queue nothing.',
    }),
  })
  .meta({ description: 'Unknown fields are ignored; null means "not given".' });

/** A field no request may set (anything but null or absent is a 400 with this message). */
const refused = (message: string) =>
  z
    .unknown()
    .refine((v) => v === undefined || v === null, { error: message })
    .meta({ type: 'null', description: `Only null: ${message}.` })
    .optional();

const IM_GONE = 'belonged to instant-messaging addresses, which are no longer supported';

/**
 * POST /v1/applications/:id/addresses. Which fields each type takes, and `type` itself, are the
 * applications service's rules; the fields no claim can set stop here. The Node Tropo client sends
 * every field of its Address object, null where unused.
 */
export const addressClaim = z
  .object({
    type: text(32, {
      description:
        'number, token or sip (any case). The Tropo instant-messaging types (aim, jabber, msn, yahoo, gtalk, skype) are a 400.',
    }),
    prefix: text(32, { description: 'number: the leading digits of the E.164 number ("+" optional), e.g. 1407.' }),
    number: text(64, { description: 'number: exactly this E.164 number, if free (instead of prefix).' }),
    city: text(256, { description: 'number by prefix: only a number in this city (any case).' }),
    state: text(256, { description: 'number by prefix: only a number in this state (any case).' }),
    channel: text(32, { description: 'token: voice or messaging.' }),
    token: refused('is generated by the platform and cannot be chosen'),
    username: refused(IM_GONE),
    password: refused(IM_GONE),
  })
  .meta({
    description:
      'What to add: `{"type": "number", "prefix": "1407"}` any free number starting with the prefix; `{"type": "number", "number": "+14075550123"}` that number; `{"type": "token", "channel": "voice"}` a new session token; `{"type": "sip"}` a new `sip:<random>@<SIP_DOMAIN>` address. Fields of another type are a 400; a prefix with no free number is a 409. Unknown fields are ignored; null means "not given".',
  });

/** A field of a launched session: a string, or a number or boolean (sent on as its text). */
const sessionParameter = z
  .union([z.string(), z.number(), z.boolean()], { error: 'must be a string, number or boolean' })
  .meta({ description: 'Sent to the application in `session.parameters`, as a string.' })
  .nullish();

/**
 * POST /1.0/sessions and /v1/sessions (the Session API): the token and any other fields, which the
 * launched session carries as `parameters`. The same fields may come as a form or in the query.
 */
export const sessionLaunch = z
  .object({
    token: z
      .string({ error: 'must be a string' })
      .max(200, { error: 'must be at most 200 characters' })
      .meta({
        description:
          'A session token of the application (`POST /v1/applications/{id}/addresses` with `{"type": "token"}`): it is the credential, no Basic auth.',
      })
      .nullish(),
    action: z
      .string({ error: 'must be a string' })
      .max(20, { error: 'must be at most 20 characters' })
      .meta({ description: 'Optional; only `create`.' })
      .nullish(),
    statusCallbackUrl: z
      .string({ error: 'must be a string' })
      .max(2048, { error: 'must be at most 2048 characters' })
      .meta({
        description:
          "Optional, as Twilio's call creation takes it: the session's `sessionStatus` events (routed, answered, fallback, failed, signal, ended) are also POSTed there, signed with the application's secret (Standard Webhooks), retried and recorded in the application's delivery log (event `sessionStatus`). An absolute https URL (or http where allowed); an address in a private, loopback or link-local range is refused (400) unless `DELIVERY_ALLOWED_CIDRS` allows it. Not passed to the application in `session.parameters`.",
        format: 'uri',
      })
      .nullish(),
  })
  .catchall(sessionParameter)
  .meta({
    description: `Launches a session for the application that holds \`token\`. Every other field goes to the application in \`session.parameters\` as a string (at most ${SESSION_LIMITS.parameters} fields, names up to ${SESSION_LIMITS.parameterNameChars} characters, values up to ${SESSION_LIMITS.parameterValueChars}). null means "not given".`,
  });

/** POST /1.0/sessions/:id/signals: the signal (`value`, or `signal` as some Tropo clients call it). */
export const sessionSignal = z
  .object({
    value: z
      .string({ error: 'must be a string' })
      .max(SESSION_LIMITS.signalValueChars, { error: `must be at most ${SESSION_LIMITS.signalValueChars} characters` })
      .meta({ description: 'The signal, such as `exit`.' })
      .nullish(),
    signal: z
      .string({ error: 'must be a string' })
      .max(SESSION_LIMITS.signalValueChars, { error: `must be at most ${SESSION_LIMITS.signalValueChars} characters` })
      .meta({ description: 'Another name of `value`.' })
      .nullish(),
    action: z
      .string({ error: 'must be a string' })
      .max(20, { error: 'must be at most 20 characters' })
      .meta({ description: 'Optional; only `signal`.' })
      .nullish(),
  })
  .meta({ description: 'The signal to queue for the session; the same fields may come as a form or in the query.' });

const API_KEY_NAME = 'must be 1-100 characters';

/** POST /v1/api-keys: both fields required, checked here and again by the applications service. */
export const apiKeyCreate = z.object({
  name: z
    .string({ error: API_KEY_NAME })
    .trim()
    .min(1, { error: API_KEY_NAME })
    .max(100, { error: API_KEY_NAME })
    .meta({ description: 'Leading and trailing spaces are dropped.' }),
  scope: z.enum(['full', 'read'], { error: 'must be "full" or "read"' }).meta({ description: '`read`: GET only.' }),
});

/** A string that must be there (any length; an empty one only when `empty` is true). */
const requiredString = (message: string, empty = true) => {
  const s = z.string({ error: message });
  return empty ? s : s.min(1, { error: message });
};

/** POST /v1/console/session. */
export const consoleSignIn = z.object({
  username: requiredString('is required', false),
  password: requiredString('is required', false),
});

/** PUT /v1/users/me/password; the length of `new` is the applications service's rule. */
export const passwordChange = z.object({
  current: requiredString('is required'),
  new: requiredString('is required (8-1024 characters)').meta({ minLength: 8, maxLength: 1024 }),
  revokeKeys: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .meta({ description: 'Also revoke every API key of the account (default false).' }),
});

/** The fields of create (event, resource, targetUrl) the webhooks service requires: documented, checked there. */
export const WEBHOOK_CREATE_REQUIRED = ['event', 'resource', 'targetUrl'] as const;

/**
 * Decodes a request body with one of the schemas: 400 naming the missing body, a body that is not an
 * object, or every field error. Answers only the fields given (null and absent dropped), so proto3
 * `optional` keeps "absent" distinct from "empty" on the wire.
 */
export function decodeBody<S extends z.ZodObject>(
  req: Request,
  schema: S,
): { [K in keyof z.output<S>]?: NonNullable<z.output<S>[K]> } {
  const body: unknown = req.body;
  // No body was sent (the JSON middleware parses only bodies that are there).
  if (body === undefined) throw AppError.invalid([{ field: 'body', message: 'is required: a JSON object' }]);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw AppError.invalid([{ field: '(body)', message: 'must be a JSON object' }]);
  const result = schema.safeParse(body);
  if (!result.success) throw invalid(result.error);
  return Object.fromEntries(
    Object.entries(result.data as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null),
  ) as never;
}

/**
 * Decodes a request body whose fields the schema requires: a missing or non-object body reads as `{}`,
 * so the 400 names each missing field.
 */
export function decodeFields<S extends z.ZodObject>(req: Request, schema: S): z.output<S> {
  const body: unknown = req.body;
  const result = schema.safeParse(body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {});
  if (!result.success) throw invalid(result.error);
  return result.data;
}

/** A 400 listing every field error. */
const invalid = (error: z.ZodError) =>
  AppError.invalid(error.issues.map((i) => ({ field: String(i.path[0] ?? '(body)'), message: i.message })));

/** The JSON Schema of a request body for the OpenAPI document (OpenAPI 3.1 uses JSON Schema 2020-12). */
export function requestBodySchema(schema: z.ZodType, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...json, ...extra };
}
