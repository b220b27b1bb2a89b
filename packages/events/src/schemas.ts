// Schemas of the inbound events of docs/events.md#inbound. A message that fails them is terminated and
// dead-lettered (dead-letter.ts). They accept what the services behind the dispatcher accept, so
// an event that passes is not refused later for its ids or its shape.
import { z } from 'zod';
import { ACCOUNT_ID } from './ids.ts';

/** No control characters (NUL included): Postgres and the services refuse them in identifiers. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the pattern refuses control characters on purpose
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** An event id: free text without control characters, or a JSON number (int64 in the proto JSON mapping is a string). */
const idString = z
  .union([
    z.string().min(1).max(200).regex(NO_CONTROL, 'must not contain control characters'),
    z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  ])
  .transform(String);

const accountId = z
  .union([
    z.string().regex(ACCOUNT_ID, 'must be a numeric account id (1-18 digits, no leading zero)'),
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  ])
  .transform(String);

/**
 * An application as an event may name it: letters, digits, _ and - (ids.ts APPLICATION_ID is the
 * form the applications service issues). An event naming an application that does not exist passes
 * and is skipped at lookup; only a name no lookup could take is refused here.
 */
const APPLICATION_REF = /^[A-Za-z0-9_-]{1,64}$/;
const applicationId = z
  .union([
    z.string().regex(APPLICATION_REF, 'must be an application id (1-64 letters, digits, _ or -)'),
    z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  ])
  .transform(String);

/** Nesting allowed in an event body (objects and arrays); deeper bodies cannot be serialised safely. */
export const MAX_EVENT_DEPTH = 32;
/** Size of a notification's `data` once encoded as JSON. */
export const MAX_DATA_BYTES = 256 * 1024;

const isoTimestamp = z
  .string()
  .max(64)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 timestamp');

const upperEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(values));

const endpoint = z
  .object({
    id: z.string().max(1000).nullish(),
    e164Id: z.string().max(1000).nullish(),
    name: z.string().max(1000).nullish(),
    channel: upperEnum(['VOICE', 'TEXT']).nullish(),
    network: z.string().max(100).nullish(),
  })
  .loose();

/** The docs/events.md#session-post session object as the telephony core sends it; every key optional. */
const sessionSchema = z
  .object({
    id: z.string().max(200).regex(NO_CONTROL, 'must not contain control characters').nullish(),
    accountId: accountId.nullish(),
    callId: z.string().max(200).regex(NO_CONTROL, 'must not contain control characters').nullish(),
    from: endpoint.nullish(),
    to: endpoint.nullish(),
    headers: z.record(z.string(), z.unknown()).nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    initialText: z.string().max(100_000).nullish(),
    timestamp: isoTimestamp.nullish(),
    // NONE: a session nobody called in, launched by the Session API.
    userType: upperEnum(['HUMAN', 'MACHINE', 'FAX', 'NONE']).nullish(),
  })
  .loose();

export type SessionIn = z.output<typeof sessionSchema>;

/**
 * Subject sessions.new. Without `applicationId` the session is routed by the address it was
 * dialled at (`session.to.id`, docs/events.md#routing-by-address), so it must then have one.
 */
export const sessionNewSchema = z
  .object({
    applicationId: applicationId.optional(),
    session: sessionSchema,
    /** Set by the Session API on the sessions it launches: the first characters of the token used. */
    launch: z
      .object({
        token: z.string().max(200),
        /** The launch's statusCallbackUrl: the session's sessionStatus events also go there (checked on launch). */
        statusCallbackUrl: z.string().max(2048).optional(),
      })
      .optional(),
  })
  .refine((e) => e.applicationId !== undefined || !!e.session.to?.id?.trim(), {
    message: 'is required when the session has no to.id to route it by',
    path: ['applicationId'],
  });
export type SessionNewEvent = z.output<typeof sessionNewSchema>;

export const RESOURCES = ['call', 'sms', 'transcription'] as const;
export type Resource = (typeof RESOURCES)[number];

const notificationBase = {
  id: idString,
  accountId,
  applicationId: z
    .union([applicationId, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  timestamp: isoTimestamp,
  data: z
    .record(z.string(), z.unknown())
    .refine(
      (d) => Buffer.byteLength(JSON.stringify(d)) <= MAX_DATA_BYTES,
      `must not exceed ${MAX_DATA_BYTES} bytes as JSON`,
    ),
};

/** Subjects cdr.created and cdr.rated. */
export const cdrEventSchema = z.object({ ...notificationBase, resource: z.enum(RESOURCES) });
/** Subject sms.dlr: the same envelope; the resource is always "sms". */
export const smsDlrEventSchema = z.object({ ...notificationBase, resource: z.literal('sms').default('sms') });

/** `data` of a webhookDisabled notification: which subscription was disabled, when and why. */
export const webhookDisabledDataSchema = z.object({
  subscriptionId: z.string().min(1).max(200).meta({ description: 'Id of the subscription that was disabled.' }),
  href: z
    .string()
    .max(2048)
    .meta({ description: 'Its address (`GET` it; `PUT {"enabled": true}` there enables it again).' }),
  targetUrl: z.string().max(2048).meta({ description: 'Its target URL, the one that failed.' }),
  reason: z.string().max(1000).meta({ description: 'Why it was disabled, the same text as its `disabledReason`.' }),
  disabledAt: isoTimestamp.meta({ description: 'When it was disabled (ISO 8601).' }),
});

/**
 * Subject webhooks.disabled, published by the webhooks service (through its outbox) when a
 * subscription is disabled. Its events concern the account, not a resource: `resource` is `all`;
 * `applicationId` is the disabled subscription's application (null for an account-level one).
 */
export const webhookDisabledEventSchema = z.object({
  ...notificationBase,
  resource: z.literal('all'),
  data: webhookDisabledDataSchema,
});

/** The stable codes of alerts (docs/api.md#alerts). */
export const ALERT_CODES = [
  'app.not_json',
  'app.timeout',
  'app.http_4xx',
  'app.http_5xx',
  'app.empty_body',
  'app.unreachable',
  'app.fallback_used',
  'app.ssrf_refused',
  'webhook.failing',
  'webhook.disabled',
  'launch.refused',
  'delivery.backlog_full',
] as const;
export type AlertCode = (typeof ALERT_CODES)[number];
export const ALERT_SEVERITIES = ['error', 'warning'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** `data` of an alert notification: an alert as `GET /v1/alerts/:id` reads it (docs/api.md#alerts). */
export const alertDataSchema = z.object({
  id: z.string().max(200).meta({ description: 'The alert id (`GET /v1/alerts/{id}`).' }),
  code: z.enum(ALERT_CODES).meta({ description: 'Its stable code.' }),
  severity: z.enum(ALERT_SEVERITIES),
  at: isoTimestamp.meta({ description: 'When it happened (ISO 8601).' }),
  applicationId: z.string().max(200).nullable(),
  subscriptionId: z.string().max(200).nullable(),
  sessionId: z.string().max(400).nullable(),
  deliveryId: z.string().max(200).nullable(),
  message: z.string().max(4000),
  link: z
    .string()
    .max(4096)
    .nullable()
    .meta({ description: "The console's view of the attempt that raised it (`#attempt-N`), or of the delivery." }),
});

/** Subject alerts.raised, published by the webhooks service (through its outbox) for the first alert of a code, application and minute. */
export const alertEventSchema = z.object({ ...notificationBase, resource: z.literal('all'), data: alertDataSchema });

/** Usage categories (docs/api.md#usage): what `GET /v1/usage` counts and usage triggers watch. */
export const USAGE_CATEGORIES = [
  'sessions',
  'sessions.voice',
  'sessions.text',
  'launches',
  'notifications',
  'notifications.failed',
  'alerts',
] as const;
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];
/** How a usage trigger recurs: once ever (counted from its creation), once per UTC day, once per UTC month. */
export const USAGE_RECURRENCES = ['none', 'daily', 'monthly'] as const;
export type UsageRecurrence = (typeof USAGE_RECURRENCES)[number];

/** `data` of an alertTriggered notification: an alert trigger reached its threshold (docs/api.md#alert-triggers). */
export const alertTriggeredDataSchema = z.object({
  triggerId: z.string().max(200).meta({ description: 'The alert trigger (`GET /v1/alert-triggers/{id}`).' }),
  code: z
    .union([z.enum(ALERT_CODES), z.literal('*')])
    .meta({ description: 'The alert code it watches, or `*`: every code.' }),
  applicationId: z
    .string()
    .max(200)
    .nullable()
    .meta({ description: 'The application it watches; null: every application of the account.' }),
  threshold: z.int().min(1),
  window: z.string().max(10).meta({ description: 'Its window, as created (`1m` to `24h`).' }),
  count: z.int().min(1).meta({ description: 'Alerts matching it within the window when it fired.' }),
  windowStart: isoTimestamp.meta({ description: 'Start of the window counted (ISO 8601, on a minute).' }),
  at: isoTimestamp.meta({ description: 'When the alert that reached the threshold happened.' }),
  alertId: z.string().max(200).meta({ description: 'That alert (`GET /v1/alerts/{id}`).' }),
  alerts: z.string().max(4096).meta({ description: 'The alerts of the window in the API (`GET /v1/alerts?...`).' }),
});

/** Subject alerts.triggered, published by the webhooks service (through its outbox) when an alert trigger fires. */
export const alertTriggeredEventSchema = z.object({
  ...notificationBase,
  resource: z.literal('all'),
  data: alertTriggeredDataSchema,
});

/** `data` of a usageTriggered notification: the account's usage reached a usage trigger's threshold. */
export const usageTriggeredDataSchema = z.object({
  triggerId: z.string().max(200).meta({ description: 'The usage trigger (`GET /v1/usage-triggers/{id}`).' }),
  category: z.enum(USAGE_CATEGORIES),
  threshold: z.int().min(1),
  recurring: z.enum(USAGE_RECURRENCES),
  periodStart: isoTimestamp.meta({
    description:
      'Start of the period counted (ISO 8601): the UTC day (`daily`), the UTC month (`monthly`), or the day the trigger was created (`none`).',
  }),
  usage: z.int().min(0).meta({ description: 'The usage counted in the period when it fired.' }),
  at: isoTimestamp.meta({ description: 'When the crossing was seen (ISO 8601).' }),
  usageHref: z
    .string()
    .max(4096)
    .meta({ description: 'The usage of the category in the API (`GET /v1/usage?category=...`).' }),
});

/** Subject usage.triggered, published by the webhooks service (through its outbox) when a usage trigger fires. */
export const usageTriggeredEventSchema = z.object({
  ...notificationBase,
  resource: z.literal('all'),
  data: usageTriggeredDataSchema,
});

export const SESSION_STATUSES = ['routed', 'answered', 'fallback', 'failed', 'signal', 'ended'] as const;

/** `data` of a sessionStatus notification: one state change of a session (docs/events.md#session-status). */
export const sessionStatusDataSchema = z.object({
  sessionId: z.string().max(400),
  applicationId: z.string().max(200).nullable(),
  status: z.enum(SESSION_STATUSES),
  at: isoTimestamp.meta({ description: 'When the session changed state (ISO 8601).' }),
  sequence: z
    .int()
    .min(1)
    .meta({ description: 'Increases within a session: order its events by it (they may arrive out of order).' }),
  attempt: z
    .object({
      role: z.enum(['primary', 'fallback']),
      status: z.int().nullable().meta({ description: "The application's HTTP status; null when none was received." }),
      durationMs: z.int().min(0),
    })
    .nullable()
    .meta({
      description:
        'The attempt behind this state (the first for routed, the last for the outcome); null for signal and ended.',
    }),
  reason: z.string().max(100).nullable().meta({ description: 'Why the session failed (`failed` only).' }),
  signal: z.string().max(1000).nullable().meta({ description: 'The signal queued (`signal` only).' }),
  inspector: z.string().max(4096).meta({ description: "The session's record (`GET /v1/sessions/{id}`)." }),
});

/** Subject sessions.status, published by the webhooks service (through its outbox) as it stores a session's record and signals. */
export const sessionStatusEventSchema = z.object({
  ...notificationBase,
  resource: z.literal('all'),
  data: sessionStatusDataSchema,
  /**
   * The statusCallbackUrl the session was launched with: the dispatcher POSTs the event there too,
   * signed with the application's secret. Not part of what is sent.
   */
  statusCallbackUrl: z.string().max(2048).optional(),
});

/** Subject launches.refused (SWITCHBOARD_INTERNAL): launches of an account refused by its budget, once per minute. */
export const launchRefusedSchema = z.object({
  accountId,
  applicationId: applicationId.nullable(),
  at: isoTimestamp,
  message: z.string().max(1000),
});

/** Subject sessions.ended (stream SWITCHBOARD_CORE): the telephony core reports that a session ended. */
export const sessionEndedSchema = z.object({
  sessionId: z.string().min(1).max(400).regex(NO_CONTROL, 'must not contain control characters'),
  at: isoTimestamp.meta({ description: 'When the session ended (ISO 8601).' }),
  reason: z.string().max(100).optional().meta({ description: 'Why, as the core says it (hangup, error...).' }),
});
export type SessionEnded = z.output<typeof sessionEndedSchema>;

/** Any notification event, as a delivery job stores it. */
export const notificationEventSchema = z.union([
  cdrEventSchema,
  webhookDisabledEventSchema,
  alertEventSchema,
  sessionStatusEventSchema,
  alertTriggeredEventSchema,
  usageTriggeredEventSchema,
]);
export type NotificationEventIn = z.output<typeof notificationEventSchema>;

/** Webhook event name (docs/events.md#notifications) of each notification subject. */
export const EVENT_OF_SUBJECT = {
  'cdr.created': 'cdrCreated',
  'cdr.rated': 'cdrRated',
  'sms.dlr': 'smsdlr',
  'webhooks.disabled': 'webhookDisabled',
  'alerts.raised': 'alert',
  'sessions.status': 'sessionStatus',
  'alerts.triggered': 'alertTriggered',
  'usage.triggered': 'usageTriggered',
} as const;
export const NOTIFICATION_SUBJECTS = Object.keys(EVENT_OF_SUBJECT) as [NotificationSubject, ...NotificationSubject[]];
export type NotificationSubject = keyof typeof EVENT_OF_SUBJECT;
export type WebhookEvent = (typeof EVENT_OF_SUBJECT)[NotificationSubject];

function isNotificationSubject(subject: string): subject is NotificationSubject {
  return subject in EVENT_OF_SUBJECT;
}

export type ParsedEvent =
  | { kind: 'session'; event: SessionNewEvent }
  | { kind: 'notification'; subject: NotificationSubject; webhookEvent: WebhookEvent; event: NotificationEventIn };

export class InvalidEventError extends Error {
  constructor(
    message: string,
    readonly subject: string,
  ) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

/** Parses and validates the body of an inbound event; throws InvalidEventError when it is malformed. */
export function parseEvent(subject: string, data: Uint8Array | string): ParsedEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
  } catch {
    throw new InvalidEventError('body is not valid JSON', subject);
  }
  if (depthExceeds(json, MAX_EVENT_DEPTH))
    throw new InvalidEventError(`body nests deeper than ${MAX_EVENT_DEPTH} levels`, subject);
  const fail = (err: z.ZodError) =>
    new InvalidEventError(err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), subject);
  if (subject === 'sessions.new') {
    const r = sessionNewSchema.safeParse(json);
    if (!r.success) throw fail(r.error);
    return { kind: 'session', event: r.data };
  }
  if (isNotificationSubject(subject)) {
    const r = (
      subject === 'sms.dlr'
        ? smsDlrEventSchema
        : subject === 'webhooks.disabled'
          ? webhookDisabledEventSchema
          : subject === 'alerts.raised'
            ? alertEventSchema
            : subject === 'sessions.status'
              ? sessionStatusEventSchema
              : subject === 'alerts.triggered'
                ? alertTriggeredEventSchema
                : subject === 'usage.triggered'
                  ? usageTriggeredEventSchema
                  : cdrEventSchema
    ).safeParse(json);
    if (!r.success) throw fail(r.error);
    return { kind: 'notification', subject, webhookEvent: EVENT_OF_SUBJECT[subject], event: r.data };
  }
  throw new InvalidEventError(`unknown subject ${subject}`, subject);
}

/** Whether objects/arrays nest deeper than `max` levels (iterative: a deep body must not overflow the stack here). */
export function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
