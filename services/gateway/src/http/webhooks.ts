// docs/api-rules.md#subscriptions: webhook subscriptions at account level (/v1/webhooks) and application level
// (/v1/applications/:appId/webhooks, and the singular /v1/application/:appId/webhooks/:id form that
// update responses link to), plus secrets (docs/events.md#signatures) and delivery records (docs/events.md#delivery).
import type { Request, Router } from 'express';
import type { DeliveryMessage, SubscriptionMessage } from '@switchboard/proto';
import { eventTypesJson } from '@switchboard/events';
import type { Hrefs } from '../hrefs.ts';
import type { DeliveryBody, EventTypeBody, WebhookBody } from './response-bodies.ts';
import { decodeBody, webhookCreate, webhookUpdate } from './request-bodies.ts';
import { auditOptions, callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { MASKED, noStore } from './exposure.ts';
import { queryString, queryStrings, readList, sendHref, sendJson, type Handler } from './routing.ts';
import { accountList } from './list-route.ts';
import { secretHandler } from './secret-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { PREVIOUS_SECRET_VALID_HOURS } from '../limits.ts';
import {
  deliveryFilters as deliveryFilterParams,
  hrefHeaders,
  json,
  jsonBody,
  listHeaders,
  listParams,
  noStoreHeader,
  ref,
  webhookFilters,
} from '../openapi-parts.ts';

/** The delivery settings of a subscription as they read (secrets already "***"); none when not set. */
function settingsOf(
  json: string | undefined,
): Pick<WebhookBody, 'timeoutMs' | 'ordering' | 'rateLimit' | 'auth' | 'tls'> {
  return json ? (JSON.parse(json) as Pick<WebhookBody, 'timeoutMs' | 'ordering' | 'rateLimit' | 'auth' | 'tls'>) : {};
}

/** A subscription as it reads (docs/api-rules.md#lists and 6). */
export function webhookJson(s: SubscriptionMessage, hrefs: Hrefs): WebhookBody {
  // Absent fields are undefined, which JSON leaves out: one object shape for every subscription
  // (conditional spreads take V8's slow path, for every item of a list).
  return {
    href: hrefs.webhook(s.id),
    id: s.id,
    name: s.name,
    event: s.event,
    resource: s.resource,
    targetUrl: s.targetUrl,
    payload: s.payloadJson !== undefined ? (JSON.parse(s.payloadJson) as Record<string, unknown>) : undefined,
    // Authorization reads as "***" (the webhooks service redacts it).
    headers: s.headers && Object.keys(s.headers).length > 0 ? s.headers : undefined,
    ...settingsOf(s.settingsJson),
    enabled: s.enabled,
    accountId: s.accountId,
    applicationId: s.applicationId || undefined,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    consecutiveFailures: s.consecutiveFailures,
    lastAttemptAt: s.lastAttemptAt ?? null,
    lastStatus: s.lastStatus ?? null,
    disabledReason: s.disabledReason ?? null,
  };
}

/**
 * One delivery attempt as it reads in a deliveries list; `withResponse`: with the body sent and the
 * receiver's answer (one record's view). `masked`: the body a session delivery sent, which holds the
 * session's id (a credential of the Session API's signals), reads as `***` (a `read` key).
 */
export function deliveryJson(d: DeliveryMessage, withResponse = false, masked = false): DeliveryBody {
  const hideBody = masked && d.kind === 'session';
  return {
    id: d.id,
    messageId: d.messageId,
    kind: d.kind as DeliveryBody['kind'],
    ...(d.subscriptionId ? { subscriptionId: d.subscriptionId } : {}),
    ...(d.applicationId ? { applicationId: d.applicationId } : {}),
    event: d.event,
    targetUrl: d.targetUrl,
    attempt: d.attempt,
    statusCode: d.statusCode === 0 ? null : d.statusCode,
    durationMs: d.durationMs,
    error: d.error ?? null,
    outcome: d.outcome as DeliveryBody['outcome'],
    trigger: (d.trigger || 'event') as DeliveryBody['trigger'],
    createdAt: d.createdAt,
    ...(withResponse
      ? {
          request: d.request
            ? { body: hideBody ? MASKED : d.request.body, bytes: d.request.bytes, truncated: d.request.truncated }
            : null,
          response:
            d.responseExcerpt !== undefined
              ? {
                  contentType: d.responseContentType ?? '',
                  excerpt: d.responseExcerpt,
                  truncated: d.responseTruncated,
                }
              : null,
        }
      : {}),
  };
}

/** The filters of a deliveries list, as given (the webhooks service checks them). */
function deliveryFilters(req: Request) {
  return queryStrings(req, ['outcome', 'event', 'since', 'until', 'messageId']);
}

/**
 * The fields of a create or update body, type-checked here; the webhooks service applies the rules
 * (allowed values, URLs, limits). `payload` travels as JSON text.
 */
function webhookFields(req: Request, schema: typeof webhookCreate | typeof webhookUpdate) {
  const { payload, headers, timeoutMs, ordering, rateLimit, auth, tls, ...rest } = decodeBody(
    req,
    schema,
  ) as ReturnType<typeof decodeBody<typeof webhookCreate>>;
  // null means "not given" (decodeBody drops it), except for `timeoutMs`, where null removes the
  // subscription's own timeout (back to DELIVERY_TIMEOUT_MS).
  const timeoutCleared = (req.body as Record<string, unknown>).timeoutMs === null;
  const settings = Object.fromEntries(
    Object.entries({ timeoutMs: timeoutCleared ? null : timeoutMs, ordering, rateLimit, auth, tls }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return {
    ...rest,
    ...(payload !== undefined ? { payloadJson: JSON.stringify(payload) } : {}),
    ...(headers !== undefined ? { headersJson: JSON.stringify(headers) } : {}),
    ...(Object.keys(settings).length > 0 ? { settingsJson: JSON.stringify(settings) } : {}),
  };
}

const id = (req: Request) => String(req.params.id);
const appId = (req: Request) => String(req.params.appId);

/** List of one level: account-level unless `scoped` (then the application of the path). */
const list =
  (scoped: boolean) =>
  ({ hrefs, webhooks }: RouteDeps): Handler =>
  async (req, res) => {
    const list = await readList(req, res, hrefs.base, async (limit, cursor) => {
      const page = await webhooks.listSubscriptions(
        {
          accountId: principal(req).accountId,
          applicationId: scoped ? appId(req) : '',
          limit,
          cursor,
          event: queryString(req, 'event'),
          resource: queryString(req, 'resource'),
        },
        callOptions(req),
      );
      return { items: page.subscriptions, nextCursor: page.nextCursor };
    });
    sendJson(
      res,
      list.map((s) => webhookJson(s, hrefs)),
    );
  };

const create =
  (scoped: boolean) =>
  ({ hrefs, webhooks }: RouteDeps): Handler =>
  async (req, res) => {
    const fields = webhookFields(req, webhookCreate);
    const { subscription, secret } = await webhooks.createSubscription(
      { ...fields, accountId: principal(req).accountId, applicationId: scoped ? appId(req) : '' },
      writeOptions(req),
    );
    // docs/api-rules.md#subscriptions: the new subscription's address is /v1/webhooks/<id> on both levels.
    noStore(res);
    sendHref(res, hrefs.webhook(subscription!.id), { secret });
  };

const show =
  (scoped: boolean) =>
  ({ hrefs, webhooks }: RouteDeps): Handler =>
  async (req, res) => {
    const { subscription } = await webhooks.getSubscription(
      { accountId: principal(req).accountId, id: id(req), applicationId: scoped ? appId(req) : '' },
      callOptions(req),
    );
    sendJson(res, webhookJson(subscription!, hrefs));
  };

const update =
  (scoped: boolean) =>
  ({ hrefs, webhooks }: RouteDeps): Handler =>
  async (req, res) => {
    const fields = webhookFields(req, webhookUpdate);
    const { subscription } = await webhooks.updateSubscription(
      { ...fields, accountId: principal(req).accountId, id: id(req), applicationId: scoped ? appId(req) : '' },
      auditOptions(req),
    );
    const s = subscription!;
    // docs/api-rules.md#subscriptions shows the application-scoped (singular) form for application-level updates.
    sendHref(res, scoped ? hrefs.applicationWebhook(appId(req), s.id) : hrefs.webhook(s.id));
  };

const remove =
  (scoped: boolean) =>
  ({ webhooks }: RouteDeps): Handler =>
  async (req, res) => {
    await webhooks.deleteSubscription(
      { accountId: principal(req).accountId, id: id(req), applicationId: scoped ? appId(req) : '' },
      auditOptions(req),
    );
    sendJson(res, { message: `Webhook ${id(req)} deleted` });
  };

/** The delivery attempts of a subscription (`id`) or of an application's sessions (`application`). */
const deliveries = (of: 'subscription' | 'application') =>
  accountList({
    fields: (req) => {
      const filters = deliveryFilters(req);
      const owner = of === 'subscription' ? { subscriptionId: id(req) } : { applicationId: id(req) };
      return { ...owner, ...filters };
    },
    page: ({ webhooks }: RouteDeps, request, options) => webhooks.listDeliveries(request, options),
    items: (page) => page.deliveries,
    toJson: (d) => deliveryJson(d),
  });

const CREATE_WEBHOOK_RULES = {
  account:
    '`webhookDisabled` takes resource `all` only (else 400 naming `resource`). GET /v1/event-types lists the events, their resources and whether they may be application-level.',
  application:
    '`webhookDisabled` is account-level only: naming it here is a 400 naming `event`. GET /v1/event-types lists the events, their resources and whether they may be application-level.',
} as const;

const webhookList = { type: 'array', items: ref('Webhook') };
const subscriptionParams = pathParams({ id: 'Subscription id.' });
const applicationSubscriptionParams = pathParams({ appId: 'Application id.', id: 'Subscription id.' });

/** List and create at one level: `/webhooks` (account) or `/applications/:appId/webhooks` (application). */
function levelDeclarations(level: 'account' | 'application'): RouteDeclaration<RouteDeps>[] {
  const scoped = level === 'application';
  const path = scoped ? '/applications/:appId/webhooks' : '/webhooks';
  const tags = [scoped ? 'Application webhooks' : 'Webhooks'];
  const what = scoped ? 'application-level' : 'account-level';
  const params = scoped ? pathParams({ appId: 'Application id.' }) : undefined;
  return [
    {
      method: 'GET',
      path,
      tags,
      request: { ...(params ? { params } : {}), parameters: [...listParams, ...webhookFilters] },
      responses: { '200': json(webhookList, 'Subscriptions.', listHeaders) },
      errors: 'read',
      moreErrors: ['400'],
      mounts: v1(`list${level}Webhooks`, `List ${what} subscriptions`),
      handler: list(scoped),
    },
    {
      method: 'POST',
      path,
      tags,
      description: CREATE_WEBHOOK_RULES[level],
      request: { ...(params ? { params } : {}), body: jsonBody(ref('WebhookCreate')) },
      responses: {
        '200': json(ref('WebhookCreated'), 'Created; the secret is shown once here and at /secret.', {
          ...hrefHeaders,
          ...noStoreHeader,
        }),
      },
      errors: 'write',
      idempotent: true,
      mounts: v1(`create${level}Webhook`, `Create an ${what} subscription`),
      handler: create(scoped),
    },
  ];
}

/**
 * Show, update and delete one subscription: `/webhooks/:id` (any subscription by id),
 * `/applications/:appId/webhooks/:id`, or its singular form `/application/:appId/webhooks/:id`.
 */
function subscriptionDeclarations(form: 'account' | 'application' | 'singular'): RouteDeclaration<RouteDeps>[] {
  const scoped = form !== 'account';
  const path =
    form === 'account'
      ? '/webhooks/:id'
      : form === 'application'
        ? '/applications/:appId/webhooks/:id'
        : '/application/:appId/webhooks/:id';
  const tags = [scoped ? 'Application webhooks' : 'Webhooks'];
  const request = { params: scoped ? applicationSubscriptionParams : subscriptionParams };
  const mount = (operationId: string, summary: string) =>
    form === 'singular'
      ? { prefix: '/v1', operationId: `${operationId}SingularApplicationWebhook`, summary }
      : { prefix: '/v1', operationId: `${operationId}${form}Webhook`, summary };
  const singular = form === 'singular';
  return [
    {
      method: 'GET',
      path,
      tags,
      request,
      responses: { '200': json(ref('Webhook'), 'The subscription.') },
      errors: 'read',
      mounts: [
        mount('get', singular ? 'Show a subscription (the singular form returned by updates)' : 'Show a subscription'),
      ],
      handler: show(scoped),
    },
    {
      method: 'PUT',
      path,
      tags,
      request: { ...request, body: jsonBody(ref('WebhookUpdate')) },
      responses: { '200': json(ref('Href'), 'Updated.', hrefHeaders) },
      errors: 'write',
      mounts: [mount('update', singular ? 'Update a subscription (singular form)' : 'Update a subscription')],
      handler: update(scoped),
    },
    {
      method: 'DELETE',
      path,
      tags,
      ...(singular
        ? {}
        : {
            description:
              'Answers at once, however many delivery records the subscription has: it is gone (404) from then on, and its records are deleted in the background.',
          }),
      request,
      responses: { '200': json(ref('Message'), 'Deleted.') },
      errors: 'read',
      mounts: [mount('delete', singular ? 'Delete a subscription (singular form)' : 'Delete a subscription')],
      handler: remove(scoped),
    },
  ];
}

// The catalogue is static: built once, from the schemas the dispatcher validates with.
const eventTypes = eventTypesJson() as EventTypeBody[];

/** The subscription routes, declared once for the router and the OpenAPI document (in registration order). */
export const webhookRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/event-types',
    tags: ['Webhooks'],
    responses: { '200': json({ type: 'array', items: ref('EventType') }, 'The catalogue of subscribable events.') },
    errors: 'read',
    mounts: v1('listEventTypes', 'Events one can subscribe to, with the JSON Schema of their data'),
    handler: () => async (_req, res) => sendJson(res, eventTypes),
  },
  ...levelDeclarations('account'),
  ...subscriptionDeclarations('account'),
  {
    method: 'GET',
    path: '/webhooks/:id/secret',
    tags: ['Deliveries'],
    description:
      'Needs a `full` credential: a `read` API key gets 403 `insufficient_scope`. Answered with `Cache-Control: no-store`.',
    request: { params: subscriptionParams },
    responses: { '200': json(ref('Secret'), 'The current secret.', noStoreHeader) },
    errors: 'read',
    mounts: v1('getWebhookSecret', "Read a subscription's signing secret"),
    handler: secretHandler('read', ({ webhooks }: RouteDeps, request, options) => webhooks.getSecret(request, options)),
  },
  {
    method: 'POST',
    path: '/webhooks/:id/secret/rotate',
    tags: ['Deliveries'],
    request: { params: subscriptionParams },
    responses: { '200': json(ref('Secret'), 'The new secret.', noStoreHeader) },
    errors: 'write',
    idempotent: true,
    mounts: v1(
      'rotateWebhookSecret',
      `Rotate the signing secret (the old one stays valid ${PREVIOUS_SECRET_VALID_HOURS} h)`,
    ),
    handler: secretHandler('rotate', ({ webhooks }: RouteDeps, request, options) =>
      webhooks.rotateSecret(request, options),
    ),
  },
  {
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    tags: ['Deliveries'],
    description: 'Filters combine; an invalid value is a 400 naming the parameter.',
    request: { params: subscriptionParams, parameters: [...listParams, ...deliveryFilterParams] },
    responses: { '200': json({ type: 'array', items: ref('Delivery') }, 'Attempts.', listHeaders) },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1('listWebhookDeliveries', 'Delivery attempts of a subscription, newest first'),
    handler: deliveries('subscription'),
  },
  ...levelDeclarations('application'),
  ...subscriptionDeclarations('application'),
  // The singular form of docs/api-rules.md#subscriptions's update response, so that href resolves (docs/api-rules.md#compatibility).
  ...subscriptionDeclarations('singular'),
  {
    method: 'GET',
    path: '/applications/:id/deliveries',
    tags: ['Deliveries'],
    description: 'Filters combine; an invalid value is a 400 naming the parameter.',
    request: { params: pathParams({ id: 'Application id.' }), parameters: [...listParams, ...deliveryFilterParams] },
    responses: { '200': json({ type: 'array', items: ref('Delivery') }, 'Attempts.', listHeaders) },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1('listApplicationDeliveries', 'Session delivery attempts of an application, newest first'),
    handler: deliveries('application'),
  },
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function webhookRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, webhookRouteDeclarations);
}
