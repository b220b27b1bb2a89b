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
import { MASKED, noStore, requireFull } from './exposure.ts';
import { queryString, readList, route, sendHref, sendJson, type Handler } from './routing.ts';

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
  return {
    outcome: queryString(req, 'outcome'),
    event: queryString(req, 'event'),
    since: queryString(req, 'since'),
    until: queryString(req, 'until'),
    messageId: queryString(req, 'messageId'),
  };
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

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function webhookRoutes(router: Router, deps: RouteDeps): void {
  const { hrefs, webhooks } = deps;
  const id = (req: Request) => String(req.params.id);
  const appId = (req: Request) => String(req.params.appId);

  /** List of one level: account-level when appId is empty. */
  const list =
    (scoped: boolean): Handler =>
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
    (scoped: boolean): Handler =>
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
    (scoped: boolean): Handler =>
    async (req, res) => {
      const { subscription } = await webhooks.getSubscription(
        { accountId: principal(req).accountId, id: id(req), applicationId: scoped ? appId(req) : '' },
        callOptions(req),
      );
      sendJson(res, webhookJson(subscription!, hrefs));
    };

  const update =
    (scoped: boolean): Handler =>
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
    (scoped: boolean): Handler =>
    async (req, res) => {
      await webhooks.deleteSubscription(
        { accountId: principal(req).accountId, id: id(req), applicationId: scoped ? appId(req) : '' },
        auditOptions(req),
      );
      sendJson(res, { message: `Webhook ${id(req)} deleted` });
    };

  // The catalogue is static: built once, from the schemas the dispatcher validates with.
  const eventTypes = eventTypesJson() as EventTypeBody[];
  route(router, '/event-types', { GET: async (_req, res) => sendJson(res, eventTypes) });

  route(router, '/webhooks', { GET: list(false), POST: create(false) });
  route(router, '/webhooks/:id', { GET: show(false), PUT: update(false), DELETE: remove(false) });

  route(router, '/webhooks/:id/secret', {
    GET: async (req, res) => {
      requireFull(req);
      const { secret } = await webhooks.getSecret(
        { accountId: principal(req).accountId, id: id(req) },
        auditOptions(req),
      );
      noStore(res);
      sendJson(res, { secret });
    },
  });

  route(router, '/webhooks/:id/secret/rotate', {
    POST: async (req, res) => {
      const { secret } = await webhooks.rotateSecret(
        { accountId: principal(req).accountId, id: id(req) },
        writeOptions(req),
      );
      noStore(res);
      sendJson(res, { secret });
    },
  });

  route(router, '/webhooks/:id/deliveries', {
    GET: async (req, res) => {
      const filters = deliveryFilters(req);
      const list = await readList(req, res, hrefs.base, async (limit, cursor) => {
        const page = await webhooks.listDeliveries(
          { accountId: principal(req).accountId, subscriptionId: id(req), limit, cursor, ...filters },
          callOptions(req),
        );
        return { items: page.deliveries, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        list.map((d) => deliveryJson(d)),
      );
    },
  });

  route(router, '/applications/:appId/webhooks', { GET: list(true), POST: create(true) });
  route(router, '/applications/:appId/webhooks/:id', { GET: show(true), PUT: update(true), DELETE: remove(true) });
  // The singular form of docs/api-rules.md#subscriptions's update response, so that href resolves (docs/api-rules.md#compatibility).
  route(router, '/application/:appId/webhooks/:id', { GET: show(true), PUT: update(true), DELETE: remove(true) });

  route(router, '/applications/:appId/deliveries', {
    GET: async (req, res) => {
      const filters = deliveryFilters(req);
      const list = await readList(req, res, hrefs.base, async (limit, cursor) => {
        const page = await webhooks.listDeliveries(
          { accountId: principal(req).accountId, applicationId: appId(req), limit, cursor, ...filters },
          callOptions(req),
        );
        return { items: page.deliveries, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        list.map((d) => deliveryJson(d)),
      );
    },
  });
}
