// The bodies the gateway answers with, as zod schemas: the handlers' serialisers return their output
// types, and the OpenAPI document (openapi.ts) publishes them through z.toJSONSchema, so the types
// the code writes and the schemas readers and tests check come from one place. The schemas are not
// run on each response (the serialisers build the objects); openapi.test.ts checks the live
// responses against the document.
import { z } from 'zod';
import { ADDRESS_TOKEN, EVENT_NAMES, SESSION_ID } from '@switchboard/events';
import { ERROR_CODES, type ErrorCode } from '@switchboard/errors';

const uri = z.string().meta({ format: 'uri' });
const iri = z.string().meta({ format: 'iri' });
const dateTime = z.string().meta({ format: 'date-time' });
const count = z.int().min(0);
const secret = z.string().regex(/^whsec_/);

export const hrefBody = z.object({ href: uri });
export const messageBody = z.object({ message: z.string() });
export const secretBody = z.object({ secret });
export const webhookCreatedBody = z.object({ href: uri, secret });

export const problemBody = z
  .object({
    type: z.string().regex(/^urn:switchboard:problem:[a-z_]+$/),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    error: z
      .string()
      .meta({ description: 'The detail again: the PHP Tropo client builds its exception message from this member.' }),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    instance: z.string().optional(),
  })
  .meta({ description: 'RFC 9457 problem details.' });

export const addressBody = z
  .object({
    href: uri.optional().meta({ description: '.../applications/<id>/addresses/<type>/<address>' }),
    type: z.enum(['number', 'token', 'sip']),
    number: z
      .string()
      .regex(/^\+[1-9][0-9]{6,14}$/)
      .optional(),
    displayNumber: z.string().optional(),
    prefix: z
      .string()
      .regex(/^[0-9]{1,4}$/)
      .optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    country: z.string().optional(),
    smsEnabled: z.boolean().optional(),
    channel: z.enum(['voice', 'messaging']).optional(),
    token: z
      .union([z.string().regex(ADDRESS_TOKEN), z.literal('***')])
      .meta({ description: 'The session token; `***` to a `read` API key (in `href` too).' })
      .optional(),
    address: z.string().regex(/^sip:/).optional(),
  })
  .meta({
    description:
      'A number, session token or SIP address of an application. Numbers carry `number` (E.164), `displayNumber`, `prefix` (the exchange: the first four digits after "+", for NANP numbers 1 + area code), `city`, `state`, `country` when known, and `smsEnabled`; tokens carry `channel` and `token` (shown to the owner only); SIP addresses carry `address`. Free numbers of `/addresses?available` have no `href`.',
  });

export const apiType = z.enum(['scripting', 'webapi']);

export const applicationBody = z
  .object({
    href: uri,
    id: z.string(),
    name: z.string(),
    voiceUrl: iri.optional(),
    messagingUrl: iri.optional(),
    voiceFallbackUrl: iri.optional().meta({ description: 'Only when set: tried when session POSTs to voiceUrl fail.' }),
    messagingFallbackUrl: iri
      .optional()
      .meta({ description: 'Only when set: tried when session POSTs to messagingUrl fail.' }),
    environment: uri.meta({ description: 'URL of the environment resource.' }),
    apiType,
    platform: apiType.meta({ description: 'Same value as apiType.' }),
    userId: z.int(),
    user: uri,
    partition: z.string().optional().meta({ description: 'Only on applications created before environments existed.' }),
  })
  .meta({ anyOf: [{ required: ['voiceUrl'] }, { required: ['messagingUrl'] }] });

export const environmentBody = z.object({ href: uri, id: z.int(), name: z.string(), billable: z.boolean() });
export const userBody = z.object({ href: uri, id: z.int(), username: z.string(), createdAt: dateTime });

export const exchangeBody = z
  .object({
    prefix: z.string(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
  })
  .meta({
    description:
      'A prefix (first four digits after "+", for NANP numbers 1 + area code) with free numbers, once per city/state/country among them; `null` where the inventory does not say.',
  });

export const webhookBody = z.object({
  href: uri,
  id: z.string(),
  name: z.string().optional(),
  event: z.enum(EVENT_NAMES as [string, ...string[]]),
  resource: z.string().meta({ description: 'Comma-separated, normalised: call, sms, transcription, or all.' }),
  targetUrl: iri,
  payload: z.record(z.string(), z.unknown()).optional().meta({ description: 'Present only if set.' }),
  headers: z.record(z.string(), z.string()).optional().meta({
    maxProperties: 10,
    description:
      'Custom headers sent with every delivery; present only if set. Every value reads as `***` (write-only).',
  }),
  timeoutMs: z.int().optional().meta({ description: 'Present only if set.' }),
  ordering: z.object({ key: z.string(), maxHoldSeconds: z.int() }).optional(),
  rateLimit: z.object({ perSecond: z.int() }).optional(),
  auth: z
    .object({
      type: z.literal('oauth2_client_credentials'),
      tokenUrl: z.string(),
      clientId: z.string(),
      clientSecret: z.literal('***'),
      scope: z.string().optional(),
    })
    .optional(),
  tls: z.object({ clientCertificate: z.string(), privateKey: z.literal('***') }).optional(),
  enabled: z.boolean(),
  accountId: z.string(),
  applicationId: z.string().optional().meta({ description: 'Only on application-level subscriptions.' }),
  createdAt: dateTime,
  updatedAt: dateTime,
  consecutiveFailures: count,
  lastAttemptAt: dateTime.nullable(),
  lastStatus: z.int().nullable(),
  disabledReason: z.string().nullable(),
});

export const deliveryBody = z.object({
  id: z.string(),
  messageId: z.string().meta({ description: 'The webhook-id header; the same on every attempt of one message.' }),
  kind: z.enum(['session', 'notification']),
  subscriptionId: z.string().optional(),
  applicationId: z.string().optional(),
  event: z.string(),
  targetUrl: z.string(),
  attempt: z.int().min(1),
  statusCode: z.int().nullable(),
  durationMs: count,
  error: z.string().nullable().meta({
    description:
      'Why the attempt failed without a status; a target whose name resolves to a private, loopback or link-local address gives `refused: resolves to a forbidden address` (the address is not shown). A waiting delivery that ended without a further attempt (status 0, outcome `failed`) starts with its reason: `backlog_full:` (its account had more waiting deliveries than `DELIVERY_BACKLOG_PER_ACCOUNT` or `DELIVERY_BACKLOG_BYTES_PER_ACCOUNT`: the oldest end) or `expired:` (still waiting past `DELIVERY_MAX_AGE`); `POST /v1/webhooks/{id}/recover` sends them again.',
  }),
  outcome: z.enum(['succeeded', 'retrying', 'failed', 'cancelled', 'pending']).meta({
    description:
      '`pending` only when reading a resend that is queued and not attempted yet (GET .../deliveries/{deliveryId}).',
  }),
  trigger: z.enum(['event', 'test', 'resend', 'recovery']).meta({
    description:
      'What made the attempt: an event, a test send (`POST /v1/webhooks/{id}/test`), a resend, or a recovery task.',
  }),
  createdAt: dateTime,
  request: z
    .object({
      body: z.string().meta({
        description:
          "The JSON body sent, as text: its first 16 KiB (cut on a UTF-8 character boundary). Every attempt of a message sends the same bytes. A session delivery's body (it holds the session id) reads `***` to a `read` API key.",
      }),
      bytes: count.meta({ description: 'Size of the whole body in bytes.' }),
      truncated: z.boolean().meta({ description: 'The body was longer than `body` shows.' }),
    })
    .nullable()
    .optional()
    .meta({
      description:
        "The body this attempt sent; one record's view only (`GET /v1/deliveries/{id}` and the scoped reads), null when it is not kept (past `DELIVERY_RETENTION_DAYS`, or a body too large to travel with its record). Headers sent are not stored.",
    }),
  response: z
    .object({
      contentType: z.string().meta({ description: "The answer's Content-Type ('' when it had none)." }),
      excerpt: z.string().meta({ description: 'The first 4 KiB of the answer, as UTF-8 text.' }),
      truncated: z.boolean().meta({ description: 'The answer was longer than the excerpt.' }),
    })
    .nullable()
    .optional()
    .meta({
      description:
        "The receiver's answer to the attempt (a notification, a session or a test send); one record's view only (`GET /v1/deliveries/{id}` and the scoped reads), null when there was none.",
    }),
});

const sessionAttemptBody = z.object({
  at: dateTime.meta({ description: 'When the attempt started.' }),
  url: z.string().nullable().meta({ description: 'null when the session failed before a URL was chosen.' }),
  role: z.enum(['primary', 'fallback']),
  status: z.int().nullable().meta({ description: "The application's HTTP status; null when none was received." }),
  durationMs: count,
  error: z
    .string()
    .nullable()
    .meta({ description: 'Why the attempt did not give instructions; starts with its reason.' }),
  responseContentType: z.string().nullable(),
  responseExcerpt: z.object({ text: z.string(), truncated: z.boolean() }).nullable().meta({
    description:
      'What the application answered: its first 4 KiB as UTF-8 text, `truncated` when the answer was longer; null when no answer was received.',
  }),
});

export const sessionSummaryBody = z.object({
  href: uri,
  id: z.string().meta({ description: 'The session id (signals name it); `***` to a `read` API key (in `href` too).' }),
  applicationId: z
    .string()
    .nullable()
    .meta({ description: 'null: nobody owns the address the session was dialled at.' }),
  channel: z.enum(['VOICE', 'TEXT']),
  from: z.string().nullable().meta({ description: 'The caller id (`session.from.id`).' }),
  to: z.string().nullable().meta({ description: 'The address dialled (`session.to.id`).' }),
  startedAt: dateTime.meta({ description: 'When Switchboard received the session.' }),
  routedBy: z.object({
    type: z.enum(['application', 'address', 'token']),
    value: z.string().nullable().meta({
      description:
        'The application id the event named, the address dialled, or the first characters of the Session API token.',
    }),
  }),
  outcome: z.enum(['answered', 'fallback', 'failed']).meta({
    description: '`answered` by the primary URL, by the `fallback` URL, or `failed` (no instructions).',
  }),
  attemptCount: count,
  failure: z.object({ reason: z.string() }).nullable().meta({ description: 'The `sessions.failed` reason.' }),
});

export const sessionBody = sessionSummaryBody.omit({ attemptCount: true }).extend({
  attempts: z.array(sessionAttemptBody),
  instructions: z
    .object({
      at: dateTime,
      bytes: count,
      excerpt: z.object({ text: z.string(), truncated: z.boolean() }),
    })
    .nullable()
    .meta({ description: 'The answer that became the instructions (its first 4 KiB); null when the session failed.' }),
  signals: z.array(
    z.object({
      at: dateTime,
      value: z.string(),
      status: z.enum(['queued']).meta({ description: '`queued`: published for the telephony core.' }),
    }),
  ),
});

export type SessionSummaryBody = z.output<typeof sessionSummaryBody>;
export type SessionBody = z.output<typeof sessionBody>;

export const testResultBody = z.object({
  status: z.int().nullable().meta({
    description:
      "The target's HTTP status; null when none was received (timeout, connection error, refused address, open circuit breaker).",
  }),
  durationMs: count,
  error: z.string().optional().meta({ description: 'Why the test did not succeed; absent on a 2xx.' }),
  href: uri.meta({ description: 'The recorded attempt (trigger `test`).' }),
});

export const recoveryDryRunBody = z.object({
  dryRun: z.literal(true),
  matched: count.meta({
    description: 'Failed deliveries the filters take (counted up to RECOVERY_MAX_DELIVERIES + 1).',
  }),
  skipped: count.meta({ description: 'Of those, the ones whose body is no longer kept (a recovery skips them).' }),
});

export const recoveryBody = z.object({
  href: uri,
  id: z.string(),
  state: z.enum(['running', 'completed', 'cancelled']).meta({
    description:
      '`completed` once every delivery of the task has an outcome (sent + failed = total); `cancelled` after DELETE (its resends not yet made are not sent).',
  }),
  total: count.meta({ description: 'Deliveries queued again.' }),
  sent: count.meta({ description: 'Resent and answered 2xx.' }),
  failed: count.meta({
    description: 'Resent and failed again (one attempt each), or not sent (subscription disabled meanwhile).',
  }),
  skipped: count.meta({ description: 'Failed in the window, but the body is no longer kept: not resent.' }),
  since: dateTime,
  until: dateTime,
  createdAt: dateTime,
  completedAt: dateTime.nullable(),
});

export const sessionLaunchedBody = z
  .object({
    success: z.literal(true),
    token: z.string().meta({ description: 'The token, as sent.' }),
    id: z
      .string()
      .regex(SESSION_ID)
      .meta({ description: 'Id of the new session (`session.id` of its POST; signals name it).' }),
  })
  .meta({ description: 'A launched session (Session API).' });

export const signalStatusBody = z.object({ status: z.enum(['QUEUED', 'NOTFOUND']) });

export const eventTypeBody = z
  .object({
    name: z.enum(EVENT_NAMES as [string, ...string[]]),
    description: z.string(),
    resources: z.array(z.enum(['call', 'sms', 'transcription', 'all'])).meta({
      description:
        'Resources its events come with, and `all`: a subscription matches an event by listing its resource or `all`.',
    }),
    applicationLevel: z
      .boolean()
      .meta({ description: 'Whether application-level subscriptions may name it (else account-level only).' }),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        'JSON Schema (2020-12) of the `data` of its notifications, generated from the schema the dispatcher validates events with.',
    }),
  })
  .meta({ description: 'An event one can subscribe to.' });

export const apiKeyBody = z.object({
  href: uri,
  id: z
    .string()
    .regex(/^ak_[0-9a-f]{24}$/)
    .meta({ description: 'Also the username of Basic authentication with the key.' }),
  name: z.string(),
  scope: z.enum(['full', 'read']),
  prefix: z.string().meta({ description: 'The first 8 characters of the key.' }),
  createdAt: dateTime,
  lastUsedAt: dateTime.nullable().meta({ description: 'Accurate to a minute; null when never used.' }),
});

export const apiKeyCreatedBody = apiKeyBody
  .pick({ href: true, id: true, name: true, scope: true, createdAt: true })
  .extend({
    key: z
      .string()
      .regex(/^sbk_[A-Za-z0-9_-]{43}$/)
      .meta({ description: 'Shown this once and never again.' }),
  });

export const consoleSessionBody = z.object({
  user: userBody,
  expiresAt: dateTime.meta({ description: 'The absolute end of the session (it also ends after 30 min unused).' }),
});

export const auditEventBody = z.object({
  id: z.string().meta({ description: "Opaque; unique within the account's log." }),
  at: dateTime,
  actor: z.object({
    type: z.enum(['password', 'key', 'session']),
    id: z.string().meta({ description: 'The account id (password), the key id, or the session id.' }),
    name: z.string().optional(),
  }),
  action: z.string().meta({
    description:
      'One of `api-key.create`, `api-key.revoke`, `password.change`, `session.sign-in`, `session.sign-out`, `password.sign-in`, `api-key.sign-in`, `application.create`, `application.update`, `application.delete`, `address.claim`, `address.move`, `address.release`, `application.secret.read`, `application.secret.rotate`, `webhook.create`, `webhook.update`, `webhook.delete`, `webhook.secret.read`, `webhook.secret.rotate`, `webhook.test`, `delivery.resend`, `webhook.recover`, `webhook.recover.cancel`, `alert-trigger.create`, `alert-trigger.delete`, `usage-trigger.create`, `usage-trigger.delete`.',
  }),
  target: uri.nullable().meta({ description: 'The resource changed.' }),
  ip: z.string().meta({ description: 'The client address.' }),
  requestId: z.string(),
  outcome: z.enum(['success', 'failure']),
});

export type ProblemBody = z.output<typeof problemBody>;
export type AddressBody = z.output<typeof addressBody>;
export type ApplicationBody = z.output<typeof applicationBody>;
export type WebhookBody = z.output<typeof webhookBody>;
const statsCounts = {
  attempts: count.meta({ description: 'Attempt records.' }),
  succeeded: count,
  retrying: count,
  failed: count,
  cancelled: count.meta({ description: 'Retries not made (no HTTP attempt); counted in attempts.' }),
  throttled: count.meta({
    description:
      "Deliveries held for a later slot of the subscription's `rateLimit` (no attempt made for the wait; not counted in attempts). A retry held again counts again.",
  }),
  p50Ms: z.int().nullable().meta({
    description:
      'Median latency of the attempts made, as the upper bound of its histogram bucket (10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 15000 or 30000 ms); null without attempts.',
  }),
  p95Ms: z.int().nullable(),
  sessions: z
    .object({ answered: count, fallback: count, failed: count })
    .optional()
    .meta({ description: 'Applications only: their sessions by outcome.' }),
};
export const deliveryStatsBody = z.object({
  window: z.enum(['1h', '24h', '7d']),
  bucket: z.enum(['1m', '5m', '1h']),
  buckets: z.array(z.object({ start: dateTime, ...statsCounts })),
  totals: z.object(statsCounts),
  ordering: z
    .object({
      heldKeys: count.meta({
        description:
          'Keys held now: a delivery of the key waiting for a retry, and later events of the key waiting behind it (at most DELIVERY_ORDERING_MAX_HELD_KEYS).',
      }),
    })
    .optional()
    .meta({ description: 'Subscriptions with `ordering` only.' }),
});

export type DeliveryBody = z.output<typeof deliveryBody>;
export type DeliveryStatsBody = z.output<typeof deliveryStatsBody>;
export type RecoveryBody = z.output<typeof recoveryBody>;
export type TestResultBody = z.output<typeof testResultBody>;
export type EventTypeBody = z.output<typeof eventTypeBody>;
export type UserBody = z.output<typeof userBody>;
export type ApiKeyBody = z.output<typeof apiKeyBody>;
export type ApiKeyCreatedBody = z.output<typeof apiKeyCreatedBody>;
export type ConsoleSessionBody = z.output<typeof consoleSessionBody>;
export type AuditEventBody = z.output<typeof auditEventBody>;

/** The JSON Schema (2020-12) of a response body, for the OpenAPI document. */
export function responseBodySchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
}
