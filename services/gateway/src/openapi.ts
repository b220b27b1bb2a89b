// The OpenAPI 3.1 description of the public API, served at /openapi.json. Integration tests validate
// every response they receive against it, so it cannot drift from what the gateway answers. The bodies
// the gateway parses or builds are published from the zod schemas it validates requests with
// (http/request-bodies.ts) and types its answers with (http/response-bodies.ts). Its paths are
// generated from the route declarations the router registers (http/declare.ts); the components and the
// outgoing webhooks are written here.
import {
  addressClaim,
  apiKeyCreate,
  applicationWrite,
  consoleSignIn,
  passwordChange,
  requestBodySchema,
  WEBHOOK_CREATE_REQUIRED,
  WEBHOOK_EVENTS,
  webhookCreate,
  webhookUpdate,
} from './http/request-bodies.ts';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { accountRouteDeclarations } from './http/accounts.ts';
import { webhookRouteDeclarations } from './http/webhooks.ts';
import { applicationRouteDeclarations } from './http/applications.ts';
import { applicationSecretRouteDeclarations } from './http/application-secrets.ts';
import { addressRouteDeclarations } from './http/addresses.ts';
import { deliveryToolRouteDeclarations } from './http/delivery-tools.ts';
import { deliveryInsightRouteDeclarations } from './http/delivery-insights.ts';
import { apiKeyRouteDeclarations } from './http/api-keys.ts';
import { auditRouteDeclarations } from './http/audit.ts';
import { sessionRecordRouteDeclarations } from './http/session-records.ts';
import { alertRouteDeclarations } from './http/alerts.ts';
import { triggerRouteDeclarations } from './http/triggers.ts';
import { sessionRouteDeclarations } from './http/sessions.ts';
import { consoleSessionRouteDeclarations, passwordRouteDeclarations } from './http/console-session.ts';
import { alertBody } from './http/alert-bodies.ts';
import { documentDeclared } from './http/declare.ts';
import { ref, type Schema } from './openapi-parts.ts';
import {
  alertTriggerBody,
  alertTriggerCreate,
  usageBody,
  usageTriggerBody,
  usageTriggerCreate,
} from './http/trigger-bodies.ts';
import { eventTypesJson, MESSAGE_ID } from '@switchboard/events';
import {
  addressBody,
  apiKeyBody,
  apiKeyCreatedBody,
  applicationBody,
  auditEventBody,
  consoleSessionBody,
  eventTypeBody,
  deliveryBody,
  sessionBody,
  sessionSummaryBody,
  deliveryStatsBody,
  environmentBody,
  exchangeBody,
  hrefBody,
  messageBody,
  problemBody,
  recoveryBody,
  recoveryDryRunBody,
  responseBodySchema,
  secretBody,
  sessionLaunchedBody,
  signalStatusBody,
  testResultBody,
  userBody,
  webhookBody,
  webhookCreatedBody,
} from './http/response-bodies.ts';
import { DELIVERY_DEFAULTS, PREVIOUS_SECRET_VALID_HOURS } from './limits.ts';

/** "5s,5m,30m" -> "5 s, 5 m, 30 m" (the dispatcher's schedule notation, read aloud). */
const spaced = (durations: string) => durations.replace(/(\d+)([a-z]+)/g, '$1 $2').replace(/,/g, ', ');
const RETRY_DELAYS = spaced(DELIVERY_DEFAULTS.retrySchedule);
const ATTEMPTS = DELIVERY_DEFAULTS.retrySchedule.split(',').length + 1;
const RETRY_AFTER_MAX = spaced(DELIVERY_DEFAULTS.retryAfterMax);
const PREVIOUS_SECRET = `${PREVIOUS_SECRET_VALID_HOURS} h`;

const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });

/** Body of a notification to a subscription's targetUrl, one per event kind (same keys, see bodies.ts). */
function notificationSchema(event: string, what: string, resources: string[], data: string): Schema {
  return {
    type: 'object',
    description: `Body of the \`${event}\` notification: ${what} Every key is always present.`,
    required: ['id', 'name', 'event', 'resource', 'timestamp', 'accountId', 'applicationId', 'data', 'payload'],
    properties: {
      id: {
        type: 'string',
        description:
          'Id of the event (from the telephony core); the same in the notification of every subscription it matches. Deduplicate deliveries by the `webhook-id` header.',
      },
      name: nullable('string', { description: 'The `name` of the subscription; null when it has none.' }),
      event: { type: 'string', const: event },
      resource: {
        type: 'string',
        enum: resources,
        description: 'Resource of the event (never `all`; a subscription for `all` receives every resource).',
      },
      timestamp: {
        type: 'string',
        format: 'date-time',
        pattern: 'Z$',
        description: 'When the event happened, ISO 8601 UTC with `Z`.',
      },
      accountId: { type: 'string', pattern: '^[0-9]+$', description: 'Account of the event.' },
      applicationId: nullable('string', {
        description: 'Application of the event; null when the event belongs to no application.',
      }),
      data: { type: 'object', additionalProperties: true, description: data },
      payload: {
        type: ['object', 'null'],
        additionalProperties: true,
        description: 'The `payload` object of the subscription, unchanged; null when it has none.',
      },
    },
    additionalProperties: false,
  };
}

/** The alert and sessionStatus bodies: the notification envelope with resource `all`, `data` the catalogue's schema. */
function statusEventSchema(
  event: 'alert' | 'sessionStatus' | 'alertTriggered' | 'usageTriggered',
  what: string,
): Schema {
  const base = notificationSchema(event, what, ['all'], '');
  return {
    ...base,
    properties: {
      ...(base.properties as Record<string, Schema>),
      resource: { type: 'string', const: 'all', description: 'Always `all`.' },
      data: eventTypesJson().find((e) => e.name === event)!.data,
    },
  };
}

/** The webhookDisabled body: the notification envelope about the account, `data` the catalogue's schema. */
function webhookDisabledSchema(): Schema {
  const base = notificationSchema(
    'webhookDisabled',
    'a webhook subscription of the account was disabled (docs/events.md#webhook-disabled).',
    ['all'],
    '',
  );
  const data = eventTypesJson().find((e) => e.name === 'webhookDisabled')!.data;
  return {
    ...base,
    properties: {
      ...(base.properties as Record<string, Schema>),
      id: {
        type: 'string',
        description:
          'Id of the event; the same in the notice to every subscriber. Deduplicate deliveries by the `webhook-id` header.',
      },
      resource: {
        type: 'string',
        const: 'all',
        description: 'Always `all`: the event concerns the account, not a resource.',
      },
      timestamp: {
        type: 'string',
        format: 'date-time',
        pattern: 'Z$',
        description: 'When the subscription was disabled, ISO 8601 UTC with `Z`.',
      },
      applicationId: nullable('string', {
        description: 'Application of the disabled subscription; null when it was account-level.',
      }),
      data,
    },
  };
}

const schemas: Record<string, Schema> = {
  Problem: responseBodySchema(problemBody),
  Href: responseBodySchema(hrefBody),
  Message: responseBodySchema(messageBody),
  Application: responseBodySchema(applicationBody),
  ApplicationWrite: requestBodySchema(applicationWrite),
  Environment: responseBodySchema(environmentBody),
  User: responseBodySchema(userBody),
  Address: responseBodySchema(addressBody),
  AddressClaim: requestBodySchema(addressClaim, { required: ['type'] }),
  Exchange: responseBodySchema(exchangeBody),
  WebhookEvent: { type: 'string', enum: [...WEBHOOK_EVENTS] },
  EventType: { ...responseBodySchema(eventTypeBody), examples: [eventTypesJson()[0]] },
  Webhook: responseBodySchema(webhookBody),
  WebhookCreate: requestBodySchema(webhookCreate, { required: [...WEBHOOK_CREATE_REQUIRED] }),
  WebhookUpdate: requestBodySchema(webhookUpdate),
  WebhookCreated: responseBodySchema(webhookCreatedBody),
  Secret: responseBodySchema(secretBody),
  Delivery: responseBodySchema(deliveryBody),
  SessionSummary: responseBodySchema(sessionSummaryBody),
  SessionRecord: responseBodySchema(sessionBody),
  Alert: responseBodySchema(alertBody),
  AlertTrigger: responseBodySchema(alertTriggerBody),
  AlertTriggerCreate: requestBodySchema(alertTriggerCreate, { required: ['code', 'threshold', 'window'] }),
  UsageTrigger: responseBodySchema(usageTriggerBody),
  UsageTriggerCreate: requestBodySchema(usageTriggerCreate, { required: ['category', 'threshold'] }),
  Usage: responseBodySchema(usageBody),
  DeliveryStats: responseBodySchema(deliveryStatsBody),
  TestResult: responseBodySchema(testResultBody),
  Recovery: responseBodySchema(recoveryBody),
  RecoveryDryRun: responseBodySchema(recoveryDryRunBody),
  ApiKey: responseBodySchema(apiKeyBody),
  ApiKeyCreated: responseBodySchema(apiKeyCreatedBody),
  ApiKeyCreate: requestBodySchema(apiKeyCreate),
  ConsoleSignIn: requestBodySchema(consoleSignIn),
  ConsoleSession: responseBodySchema(consoleSessionBody),
  PasswordChange: requestBodySchema(passwordChange),
  AuditEvent: responseBodySchema(auditEventBody),
  SessionLaunched: responseBodySchema(sessionLaunchedBody),
  SignalStatus: responseBodySchema(signalStatusBody),

  // Bodies of the outgoing POSTs (top-level `webhooks`; docs/events.md#signatures, services/dispatcher/src/delivery/bodies.ts).
  // These stay written out here: the gateway neither parses nor builds them (the dispatcher builds them
  // from stored events), so it has no zod schema of them to publish. openapi.test.ts checks bodies the
  // dispatcher really builds against them.
  SessionRequest: {
    type: 'object',
    description: 'Body of the session POST: one key, `session`.',
    required: ['session'],
    properties: { session: ref('Session') },
    additionalProperties: false,
  },
  Session: {
    type: 'object',
    description:
      'The docs/events.md#session-post session object. Every key below is always present (`null` where unknown), including `callId`, `applicationId`, `parameters` and `e164Id` in `from`/`to`, which existing WebAPI libraries read. Other keys the telephony core adds are passed through unchanged.',
    required: [
      'id',
      'accountId',
      'applicationId',
      'callId',
      'timestamp',
      'userType',
      'initialText',
      'from',
      'to',
      'headers',
      'parameters',
    ],
    properties: {
      id: nullable('string', {
        description: 'GUID, unique session identifier; null when the telephony core sent none.',
      }),
      accountId: {
        type: 'string',
        pattern: '^[0-9]+$',
        description: "Account of the session, always a string: the event's, else the account owning the application.",
      },
      applicationId: {
        type: 'string',
        description: 'The application whose voiceUrl or messagingUrl receives this POST.',
      },
      callId: nullable('string', { description: 'Call identifier; null when unknown.' }),
      timestamp: {
        type: 'string',
        format: 'date-time',
        pattern: 'Z$',
        description:
          'When the session started, ISO 8601 UTC with `Z` (when the event carries none: when Switchboard stored it).',
      },
      userType: {
        type: ['string', 'null'],
        enum: ['HUMAN', 'MACHINE', 'FAX', 'NONE', null],
        description:
          'Upper case; `NONE` for a session launched with a token (Session API), where nobody called; null when unknown.',
      },
      initialText: nullable('string', {
        description:
          'For a TEXT session, the first message the user sent (it also answers the first ask action); null when there is none, as for voice sessions.',
      }),
      from: { ...ref('SessionEndpoint'), description: 'Origin of the session.' },
      to: { ...ref('SessionEndpoint'), description: 'Destination of the session.' },
      headers: {
        type: 'object',
        additionalProperties: true,
        description: 'SIP headers of the session by header name; `{}` when there are none.',
      },
      parameters: {
        type: 'object',
        additionalProperties: true,
        description: 'Parameters of the session; `{}` when there are none.',
      },
    },
    additionalProperties: true,
  },
  SessionEndpoint: {
    type: 'object',
    description: 'The `from` or `to` of a session. Every key below is always present; other keys are passed through.',
    required: ['id', 'e164Id', 'name', 'channel', 'network'],
    properties: {
      id: nullable('string', { description: 'Caller ID for VOICE, user name for TEXT; null when unknown.' }),
      e164Id: nullable('string', {
        description: 'The normalised (E.164) number when the telephony core has one, else the same as `id`.',
      }),
      name: { type: 'string', description: 'Name of the user; the literal `unknown` when no name is known.' },
      channel: {
        type: 'string',
        enum: ['VOICE', 'TEXT'],
        description: 'As sent, else the channel of the session (which chose voiceUrl or messagingUrl).',
      },
      network: nullable('string', {
        description: 'VOICE: PSTN, VOIP. TEXT: AIM, GTALK, JABBER, MSN, SMS, YAHOO. Null when unknown.',
        examples: ['PSTN', 'SMS'],
      }),
    },
    additionalProperties: true,
  },
  SmsdlrNotification: notificationSchema(
    'smsdlr',
    'A message delivery report (docs/events.md#notifications).',
    ['sms'],
    'The delivery report, as the telephony core sent it.',
  ),
  CdrCreatedNotification: notificationSchema(
    'cdrCreated',
    'A call detail record was created (docs/events.md#notifications).',
    ['call', 'sms', 'transcription'],
    'The call detail record, as the telephony core sent it.',
  ),
  CdrRatedNotification: notificationSchema(
    'cdrRated',
    'A call detail record was rated (docs/events.md#notifications).',
    ['call', 'sms', 'transcription'],
    'The rated call detail record, as the telephony core sent it.',
  ),
  WebhookDisabledNotification: webhookDisabledSchema(),
  AlertNotification: statusEventSchema('alert', 'an alert was raised (docs/events.md#alert).'),
  SessionStatusNotification: statusEventSchema(
    'sessionStatus',
    'a session changed state (docs/events.md#session-status).',
  ),
  AlertTriggeredNotification: statusEventSchema(
    'alertTriggered',
    'an alert trigger reached its threshold (docs/events.md#alert-triggered).',
  ),
  UsageTriggeredNotification: statusEventSchema(
    'usageTriggered',
    "the account's usage reached a usage trigger's threshold (docs/events.md#usage-triggered).",
  ),
};

// Outgoing POSTs (OpenAPI 3.1 `webhooks`): what Switchboard sends, and what it does with the answer
// (docs/events.md#signatures, 6; services/dispatcher/README.md).
const signingHeaders: Record<string, Schema> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: MESSAGE_ID.source },
    example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85',
    description:
      'Standard Webhooks message id: the same on every retry and every duplicate of one message to one target, so a receiver can deduplicate by it (delivery is at least once).',
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1767225600',
    description:
      'Unix time in seconds of this attempt (new on every retry). Reject messages too far from your clock (Standard Webhooks suggests 5 minutes) to stop replays.',
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    description: `\`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">\`, keyed with the base64-decoded part of the \`whsec_\` secret after the prefix. During a rotation every valid secret signs and the signatures are separated by spaces (\`v1,<a> v1,<b>\`): accept the message when any one matches. Notifications are signed with the secret of the subscription (\`GET /v1/webhooks/{id}/secret\`; after \`POST /v1/webhooks/{id}/secret/rotate\` the previous one also signs for ${PREVIOUS_SECRET}); session POSTs with the secret of the application (\`GET /v1/applications/{id}/secret\`; after \`POST /v1/applications/{id}/secret/rotate\` the previous one also signs for ${PREVIOUS_SECRET}).`,
  },
};

const DELIVERY_RULES =
  'Signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), `Content-Type: application/json`, UTF-8; ' +
  'the body is the same bytes on every attempt. Delivery is at least once: deduplicate by `webhook-id`. ' +
  `Each attempt times out after \`DELIVERY_TIMEOUT_MS\` (default ${DELIVERY_DEFAULTS.timeoutMs / 1000} s). ` +
  'Answer 2xx for success. 410 Gone stops for good (a subscription is disabled at once). ' +
  'Any other status (including 3xx: redirects are not followed), a timeout or a connection error is retried on the schedule `DELIVERY_RETRY_SCHEDULE` ' +
  `(default delays ${RETRY_DELAYS}: ${ATTEMPTS} attempts in all), each delay spread by +-${DELIVERY_DEFAULTS.retryJitter * 100} % jitter; ` +
  `a \`Retry-After\` (seconds or HTTP date) longer than the scheduled delay wins, up to \`DELIVERY_RETRY_AFTER_MAX\` (${RETRY_AFTER_MAX}). ` +
  'After the last retry the delivery is recorded as failed. While a target host keeps failing, its circuit breaker opens and its deliveries wait without spending attempts; ' +
  'one still waiting past `DELIVERY_GIVE_UP_AFTER` (default: the whole schedule plus a day) is recorded as failed too. ' +
  `An account may have at most \`DELIVERY_BACKLOG_PER_ACCOUNT\` (default ${DELIVERY_DEFAULTS.backlogPerAccount.toLocaleString('en-US')}) deliveries waiting (retries, and deliveries waiting for their host), and \`DELIVERY_BACKLOG_BYTES_PER_ACCOUNT\` bytes of them: past either, its oldest waiting deliveries are recorded as failed with \`error\` starting \`backlog_full:\`; a delivery still waiting past \`DELIVERY_MAX_AGE\` (default: the whole schedule plus a day) ends with \`expired:\`. Both are failed deliveries that \`POST /v1/webhooks/{id}/recover\` sends again. ` +
  'Every attempt is listed at `GET /v1/webhooks/{id}/deliveries` or `GET /v1/applications/{id}/deliveries`.';

const deliveryResponses = (on410: string): Schema => ({
  '2XX': {
    description:
      'Success: the attempt is recorded as succeeded and the message is not sent again. The answer body is ignored.',
  },
  '3XX': { description: 'Redirects are not followed: the attempt failed and is retried on the schedule.' },
  '410': { description: on410 },
  default: {
    description: `Any other status (4xx, 5xx), a timeout or a connection error: the attempt failed and is retried after the next delay of the schedule (jittered), or after \`Retry-After\` when that is longer (at most ${RETRY_AFTER_MAX}). After the last retry the delivery is recorded as failed.`,
    headers: {
      'Retry-After': {
        schema: { type: 'string' },
        description: `Seconds or an HTTP date; honoured when longer than the scheduled delay, up to \`DELIVERY_RETRY_AFTER_MAX\` (${RETRY_AFTER_MAX}).`,
      },
    },
  },
});

const signingParams = [
  { $ref: '#/components/parameters/WebhookId' },
  { $ref: '#/components/parameters/WebhookTimestamp' },
  { $ref: '#/components/parameters/WebhookSignature' },
];

const sessionExample = {
  session: {
    id: '89d3b1a0-0e6b-4a70-9d1e-8d1f5a3d9c11',
    accountId: '33932',
    applicationId: '5f0c3d8e9a1b2c3d4e5f6a7b',
    callId: 'c7e3a8b2f1d04e5a9b6c8d7e6f5a4b3c',
    timestamp: '2026-11-22T06:00:00.000Z',
    userType: 'HUMAN',
    initialText: null,
    from: { id: '+14155550100', e164Id: '+14155550100', name: 'unknown', channel: 'VOICE', network: 'PSTN' },
    to: { id: '+14155550199', e164Id: '+14155550199', name: 'unknown', channel: 'VOICE', network: 'PSTN' },
    headers: { 'x-sbc-call-id': '0a1b2c3d' },
    parameters: {},
  },
};

function notificationWebhook(
  event: string,
  schema: string,
  summary: string,
  resource: string,
  about?: { description: string; data: Record<string, unknown> },
): Schema {
  return {
    post: {
      tags: ['Outgoing POSTs'],
      summary,
      operationId: `${event}Notification`,
      description: `${about?.description ?? `POSTed to the \`targetUrl\` of every enabled subscription (account-level and application-level alike) whose \`event\` is \`${event}\` and whose \`resource\` contains the event's resource or \`all\`.`} ${DELIVERY_RULES}`,
      security: [],
      parameters: signingParams,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref(schema),
            example: {
              id: '3f2b6c1e-8a4d-4f7b-9c2e-1d5a6b7c8d9e',
              name: 'DLRs to billing',
              event,
              resource,
              timestamp: '2026-11-22T06:00:00.000Z',
              accountId: '33932',
              applicationId: '5f0c3d8e9a1b2c3d4e5f6a7b',
              data: about?.data ?? (event === 'smsdlr' ? { messageId: 'm-1', status: 'delivered' } : { duration: 42 }),
              payload: { team: 'billing' },
            },
          },
        },
      },
      responses: deliveryResponses(
        'Gone: the subscription is disabled at once (`enabled: false`, `disabledReason` says why) and nothing more is sent to it until it is enabled again with PUT.',
      ),
    },
  };
}

const outgoingWebhooks: Record<string, Schema> = {
  session: {
    post: {
      tags: ['Outgoing POSTs'],
      summary: "Session POST to the application's voiceUrl (VOICE) or messagingUrl (TEXT)",
      operationId: 'sessionRequest',
      description:
        'When a new session arrives (docs/events.md#session-post), POSTed to the application the event names, or else to the owner of the number or SIP address dialled (`session.to.id`, docs/events.md#routing-by-address): to its `voiceUrl` when its channel (`from.channel`, else `to.channel`, else TEXT when `initialText` is set, else VOICE) is VOICE, to its `messagingUrl` when it is TEXT. ' +
        DELIVERY_RULES,
      security: [],
      parameters: signingParams,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref('SessionRequest'), example: sessionExample } },
      },
      responses: deliveryResponses('Gone: this session POST fails for good and is not retried.'),
    },
  },
  smsdlr: notificationWebhook(
    'smsdlr',
    'SmsdlrNotification',
    'Message delivery report (smsdlr) to a subscription',
    'sms',
  ),
  cdrCreated: notificationWebhook(
    'cdrCreated',
    'CdrCreatedNotification',
    'Call detail record created (cdrCreated) to a subscription',
    'call',
  ),
  cdrRated: notificationWebhook(
    'cdrRated',
    'CdrRatedNotification',
    'Call detail record rated (cdrRated) to a subscription',
    'call',
  ),
  webhookDisabled: notificationWebhook(
    'webhookDisabled',
    'WebhookDisabledNotification',
    'A subscription was disabled (webhookDisabled), to the account-level subscribers',
    'all',
    {
      description:
        'POSTed to the `targetUrl` of every enabled account-level `webhookDisabled` subscription of the account when one of its subscriptions is disabled: its target answered 410 Gone, or every attempt failed for `DELIVERY_DISABLE_AFTER` (default 5 days; from the first failed attempt after the last success). ' +
        'Sent once per change from enabled to disabled, never to the disabled subscription itself; `PUT {"enabled": true}` at `data.href` enables it again and clears its failures.',
      data: {
        subscriptionId: 'wh_9f1c2b3a4d5e6f708192a3b4',
        href: 'https://api.switchboard.example.com/v1/webhooks/wh_9f1c2b3a4d5e6f708192a3b4',
        targetUrl: 'https://billing.example.com/dlr',
        reason: 'target answered 410 Gone at 2026-11-22T06:00:00.000Z',
        disabledAt: '2026-11-22T06:00:00.012Z',
      },
    },
  ),
  alert: notificationWebhook('alert', 'AlertNotification', 'An alert was raised (alert)', 'all', {
    description:
      'POSTed to the `targetUrl` of every enabled `alert` subscription of the account (and of the application, for application-level ones) for the first alert of a code and application within a minute (docs/events.md#alert).',
    data: {
      id: '4b1e2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      code: 'app.not_json',
      severity: 'error',
      at: '2026-11-22T06:00:00.000Z',
      applicationId: '5f0c3d8e9a1b2c3d4e5f6a7b',
      subscriptionId: null,
      sessionId: '6f1d0c9e2b7a4c58a1e3f0b2d4c6e8a0',
      deliveryId: null,
      message: "The application's URL: not_json: HTTP 200 with a body that is not JSON",
      link: 'https://api.switchboard.example.com/console/sessions/6f1d0c9e2b7a4c58a1e3f0b2d4c6e8a0#attempt-1',
    },
  }),
  sessionStatus: notificationWebhook(
    'sessionStatus',
    'SessionStatusNotification',
    'A session changed state (sessionStatus)',
    'all',
    {
      description:
        "POSTed to the `targetUrl` of every enabled `sessionStatus` subscription of the account (and of the application) for each state change of a session: routed, answered, fallback, failed, signal, ended. Order one session's events by `data.sequence` (docs/events.md#session-status).",
      data: {
        sessionId: '6f1d0c9e2b7a4c58a1e3f0b2d4c6e8a0',
        applicationId: '5f0c3d8e9a1b2c3d4e5f6a7b',
        status: 'answered',
        at: '2026-11-22T06:00:00.041Z',
        sequence: 2,
        attempt: { role: 'primary', status: 200, durationMs: 41 },
        reason: null,
        signal: null,
        inspector: 'https://api.switchboard.example.com/v1/sessions/6f1d0c9e2b7a4c58a1e3f0b2d4c6e8a0',
      },
    },
  ),
  alertTriggered: notificationWebhook(
    'alertTriggered',
    'AlertTriggeredNotification',
    'An alert trigger reached its threshold (alertTriggered)',
    'all',
    {
      description:
        'POSTed to the `targetUrl` of every enabled `alertTriggered` subscription of the account (and of the application the trigger watches, for application-level ones) when the alerts matching an alert trigger within its window reach its threshold; then at most once more per window (docs/events.md#alert-triggered).',
      data: {
        triggerId: 'at_4f0e1d2c3b4a59687766f5e4',
        code: 'app.not_json',
        applicationId: '5f0c3d8e9a1b2c3d4e5f6a7b',
        threshold: 100,
        window: '1m',
        count: 100,
        windowStart: '2026-11-22T06:00:00.000Z',
        at: '2026-11-22T06:00:41.000Z',
        alertId: '4b1e2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
        alerts:
          'https://api.switchboard.example.com/v1/alerts?code=app.not_json&applicationId=5f0c3d8e9a1b2c3d4e5f6a7b&since=2026-11-22T06%3A00%3A00.000Z',
      },
    },
  ),
  usageTriggered: notificationWebhook(
    'usageTriggered',
    'UsageTriggeredNotification',
    "The account's usage reached a usage trigger's threshold (usageTriggered)",
    'all',
    {
      description:
        "POSTed to the `targetUrl` of every enabled account-level `usageTriggered` subscription of the account within 60 s of its usage of a category reaching a usage trigger's threshold, once per period (docs/events.md#usage-triggered).",
      data: {
        triggerId: 'ut_9a8b7c6d5e4f30211203f4e5',
        category: 'sessions.voice',
        threshold: 1000,
        recurring: 'daily',
        periodStart: '2026-11-22T00:00:00.000Z',
        usage: 1000,
        at: '2026-11-22T17:02:30.000Z',
        usageHref: 'https://api.switchboard.example.com/v1/usage?category=sessions.voice&period=day&since=2026-11-22',
      },
    },
  ),
};

/**
 * The document's paths: those of the routes declared once with their handlers (http/declare.ts),
 * generated by the registry in declaration order. The order is the console's generated types' (a path
 * whose operations read as an earlier one's refers to it).
 */
function declaredPaths(): Record<string, Schema> {
  const registry = new OpenAPIRegistry();
  for (const declarations of [
    accountRouteDeclarations,
    webhookRouteDeclarations,
    applicationRouteDeclarations,
    applicationSecretRouteDeclarations,
    addressRouteDeclarations,
    deliveryToolRouteDeclarations,
    deliveryInsightRouteDeclarations,
    apiKeyRouteDeclarations,
    auditRouteDeclarations,
    sessionRecordRouteDeclarations,
    alertRouteDeclarations,
    triggerRouteDeclarations,
    consoleSessionRouteDeclarations,
    passwordRouteDeclarations,
    sessionRouteDeclarations,
  ])
    documentDeclared(registry, declarations);
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: '', version: '' },
  });
  return (doc.paths ?? {}) as Record<string, Schema>;
}

export function buildOpenApi(baseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description:
        'Applications, webhook subscriptions and session delivery, compatible with the Tropo REST API v1. ' +
        'Paths work with and without a trailing slash. One router serves both prefixes: every `/v1/` path below is also served under `/rest/v1/` ' +
        '(and every `/rest/v1/` path under `/v1/`), with the same behaviour; the document lists the `/rest/v1/` forms that hrefs use ' +
        '(applications, environments, users) and the `/v1/` forms of everything else. ' +
        'Outside the API, this port answers `/openapi.json`, `/docs` and `/healthz`; readiness (`/readyz`) and Prometheus metrics (`/metrics`) are served on a separate operations port (`OPS_PORT`), not here. ' +
        'The `webhooks` section describes the POSTs Switchboard makes: the session POST to an application (docs/events.md#session-post) and the `smsdlr`, `cdrCreated` and `cdrRated` notifications to subscriptions, all signed per Standard Webhooks.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Switchboard' },
    },
    servers: [{ url: baseUrl }],
    security: [{ basic: [] }, { bearer: [] }, { session: [] }],
    tags: [
      { name: 'Applications', description: 'docs/api-rules.md#applications' },
      {
        name: 'Webhooks',
        description: 'Account-level subscriptions, and any subscription by id (docs/api-rules.md#subscriptions)',
      },
      {
        name: 'Application webhooks',
        description: 'Application-level subscriptions (docs/api-rules.md#subscriptions)',
      },
      { name: 'Deliveries', description: 'Delivery attempts and signing secrets (docs/events.md#signatures, 6)' },
      {
        name: 'Operating your endpoints',
        description: 'Test sends, resends and recoveries (docs/events.md#operating-your-endpoints)',
      },
      {
        name: 'Addresses',
        description:
          'Numbers, session tokens and SIP addresses of applications; the number inventory (Tropo REST API v1 paths)',
      },
      {
        name: 'Sessions',
        description:
          'The Session API: launch a session with an application token, signal a running session (docs/api-rules.md#session-api; no Basic auth)',
      },
      {
        name: 'Session inspector',
        description:
          'What each session sent to the application and what it answered (docs/api.md#session-inspector); kept SESSION_RETENTION_DAYS (7)',
      },
      {
        name: 'Alerts',
        description:
          'Failures a person should act on, each linked to the attempt that raised it (docs/api.md#alerts); kept ALERT_RETENTION_DAYS (30)',
      },
      {
        name: 'Alert triggers',
        description:
          'An alertTriggered notification when alerts reach a threshold within a window (docs/api.md#alert-triggers); at most 50 per account',
      },
      {
        name: 'Usage',
        description:
          "The account's usage per UTC day or month, and usage triggers that notify when it reaches a threshold (docs/api.md#usage); at most 100 usage triggers per account",
      },
      { name: 'Credentials', description: 'API keys, browser sessions and the password (docs/api.md#api-keys)' },
      { name: 'Linked resources', description: 'Resources that hrefs point to' },
      {
        name: 'Outgoing POSTs',
        description:
          'What Switchboard POSTs to your URLs: sessions and notifications (docs/events.md, docs/events.md#signatures, 6)',
      },
    ],
    paths: declaredPaths(),
    webhooks: outgoingWebhooks,
    components: {
      securitySchemes: {
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'Account username and password, or an API key id and the key.',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key (sbk_...).' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: '__Host-sb_session',
          description: 'A browser session (POST /v1/console/session).',
        },
      },
      schemas,
      parameters: signingHeaders,
    },
  };
}
