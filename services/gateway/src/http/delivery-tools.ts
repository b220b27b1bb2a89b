// Tools customers run on their own endpoints (docs/events.md#operating-your-endpoints): a test
// send, resending one delivery, recovering every failed delivery of a window, and reading one
// attempt or a recovery task. Each POST is one call to the webhooks service (Idempotency-Key applies).
import type { Request, Router } from 'express';
import type { RecoveryMessage } from '@switchboard/proto';
import type { ClientCallOptions } from '@switchboard/rpc';
import type { Hrefs } from '../hrefs.ts';
import { callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { decodeBody, requestBodySchema, webhookRecover, webhookTest } from './request-bodies.ts';
import type { RecoveryBody, TestResultBody } from './response-bodies.ts';
import { type Handler, sendHref, sendJson } from './routing.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { hrefHeaders, json, jsonBody, ref } from '../openapi-parts.ts';
import { deliveryJson } from './webhooks.ts';
import { readOnly } from './exposure.ts';

/**
 * Deadline of a test send: the webhooks service waits for a dispatcher up to its
 * TEST_REPLY_TIMEOUT_MS (default 20 s, above the default delivery timeout of 15 s) and answers 504 then.
 */
const TEST_DEADLINE_MS = 60_000;

function recoveryJson(r: RecoveryMessage, hrefs: Hrefs): RecoveryBody {
  return {
    href: hrefs.recovery(r.subscriptionId, r.id),
    id: r.id,
    state: r.state as RecoveryBody['state'],
    total: r.total,
    sent: r.sent,
    failed: r.failed,
    skipped: r.skipped,
    since: r.since,
    until: r.until,
    createdAt: r.createdAt,
    completedAt: r.completedAt ?? null,
  };
}

type Owner = 'subscription' | 'application';
const p = (req: Request, name: string) => String(req.params[name]);

/**
 * The handler of a read or a cancel of one recovery task (`/webhooks/:id/recoveries/:taskId`): the
 * service call with the task's path ids and the request's call options, answered with the task.
 */
const recoveryTask =
  (call: 'getRecovery' | 'cancelRecovery', options: (req: Request) => ClientCallOptions) =>
  ({ hrefs, webhooks }: RouteDeps): Handler =>
  async (req, res) => {
    const { recovery } = await webhooks[call](
      { accountId: principal(req).accountId, subscriptionId: p(req, 'id'), taskId: p(req, 'taskId') },
      options(req),
    );
    sendJson(res, recoveryJson(recovery!, hrefs));
  };

const tags = ['Operating your endpoints'];
const subscriptionParams = pathParams({ id: 'Subscription id.' });

/** The delivery a path names, under a subscription or under an application (`:id` both). */
const deliveryOf = (of: Owner, req: Request) => ({
  accountId: principal(req).accountId,
  subscriptionId: of === 'subscription' ? p(req, 'id') : '',
  applicationId: of === 'application' ? p(req, 'id') : '',
  deliveryId: p(req, 'deliveryId'),
});
const deliveryHref = (hrefs: Hrefs, of: Owner, req: Request, deliveryId: string) =>
  of === 'subscription'
    ? hrefs.webhookDelivery(p(req, 'id'), deliveryId)
    : hrefs.applicationDelivery(p(req, 'id'), deliveryId);

/** Reading one attempt and resending it, under a subscription or under an application. */
function deliveryDeclarations(of: Owner): RouteDeclaration<RouteDeps>[] {
  const subscription = of === 'subscription';
  const path = subscription ? '/webhooks/:id/deliveries/:deliveryId' : '/applications/:id/deliveries/:deliveryId';
  const owner = subscription ? 'Subscription id.' : 'Application id.';
  return [
    {
      method: 'GET',
      path,
      tags,
      request: { params: pathParams({ id: owner, deliveryId: 'Delivery attempt id.' }) },
      responses: { '200': json(ref('Delivery'), 'The attempt.') },
      errors: 'read',
      mounts: subscription
        ? v1('getWebhookDelivery', 'One delivery attempt (or a queued resend: outcome pending)')
        : v1('getApplicationDelivery', 'One session delivery attempt (or a queued resend: outcome pending)'),
      handler:
        ({ webhooks }) =>
        async (req, res) => {
          const { delivery } = await webhooks.getDelivery(deliveryOf(of, req), callOptions(req));
          sendJson(res, deliveryJson(delivery!, true, readOnly(req)));
        },
    },
    {
      method: 'POST',
      path: `${path}/resend`,
      tags,
      description: subscription
        ? 'Whatever its earlier outcome. Queued durably and sent as one attempt (not retried) through the normal path (host limits, circuit breaker); recorded with `trigger: "resend"`. The href reads the new attempt (`outcome: pending` until it is made). 409 when the subscription is disabled or the body is no longer kept (bodies are kept as long as the delivery records, `DELIVERY_RETENTION_DAYS`); 429 + Retry-After beyond `RESENDS_PER_HOUR` (1000) resends per account per hour. No body.'
        : "Sent as one attempt to the application's current URL for the session's channel (`voiceUrl` or `messagingUrl`, else the fallback), signed with its current secret. The application's answer is not passed on (the session is over). No body.",
      request: {
        params: pathParams({
          id: owner,
          deliveryId: subscription
            ? 'Any attempt of the delivery to resend.'
            : 'Any attempt of the session delivery to resend.',
        }),
      },
      responses: { '202': json(ref('Href'), 'Queued.', hrefHeaders) },
      errors: 'write',
      idempotent: true,
      mounts: subscription
        ? v1(
            'resendWebhookDelivery',
            'Resend one delivery: the same body bytes and webhook-id, a fresh timestamp and signature',
          )
        : v1(
            'resendApplicationDelivery',
            'Resend one session POST to the application (same body and webhook-id, fresh signature)',
          ),
      handler:
        ({ hrefs, webhooks }) =>
        async (req, res) => {
          const { deliveryId } = await webhooks.resendDelivery(deliveryOf(of, req), writeOptions(req));
          sendHref(res, deliveryHref(hrefs, of, req, deliveryId), {}, 202);
        },
    },
  ];
}

const recoveryParams = pathParams({ id: 'Subscription id.', taskId: 'Recovery task id.' });

/** The delivery tools, declared once for the router and the OpenAPI document (in registration order). */
export const deliveryToolRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'POST',
    path: '/webhooks/:id/test',
    tags,
    description:
      'Sends `{"event": "test", "resource": "test", "data": {"message": ...}}` in the notification envelope, signed with the subscription\'s secret and with its custom headers, to its `targetUrl` now (disabled subscriptions too), through the same SSRF guard and per-host circuit breaker as every delivery. Answers when the attempt ends, within `DELIVERY_TIMEOUT_MS`. Never retried; recorded with `trigger: "test"`; does not change the delivery health. At most 5 per subscription per minute (`TEST_SENDS_PER_MINUTE`). The body is optional.',
    request: {
      params: subscriptionParams,
      body: { required: false, content: { 'application/json': { schema: requestBodySchema(webhookTest) } } },
    },
    responses: { '200': json(ref('TestResult'), 'The attempt ended (successfully or not).') },
    errors: 'write',
    moreErrors: ['504'],
    idempotent: true,
    mounts: v1('testWebhook', 'Send a signed test notification now and answer how the attempt ended'),
    handler:
      ({ hrefs, webhooks }) =>
      async (req, res) => {
        const { message } = req.body === undefined ? {} : decodeBody(req, webhookTest);
        const r = await webhooks.testSubscription(
          { accountId: principal(req).accountId, id: p(req, 'id'), ...(message !== undefined ? { message } : {}) },
          { ...writeOptions(req), timeoutMs: TEST_DEADLINE_MS },
        );
        const result: TestResultBody = {
          status: r.status === 0 ? null : r.status,
          durationMs: r.durationMs,
          ...(r.error ? { error: r.error } : {}),
          href: hrefs.webhookDelivery(p(req, 'id'), r.deliveryId),
        };
        sendJson(res, result);
      },
  },
  ...deliveryDeclarations('subscription'),
  ...deliveryDeclarations('application'),
  {
    method: 'POST',
    path: '/webhooks/:id/recover',
    tags,
    description:
      'Each delivery whose last attempt failed between `since` (inclusive) and `until` (exclusive; now by default) is queued again, one attempt each (narrowed by the filters `event`, `statusFrom`/`statusTo` on the last HTTP status, `messageId`, and `sessionId`: the notifications about those sessions), in the order the deliveries were first made, through the normal queue (host limits and circuit breakers apply). The window spans at most 30 days and may hold at most `RECOVERY_MAX_DELIVERIES` (10,000) such deliveries (400 beyond: recover a narrower window). 409 when the subscription is disabled, or while another recovery of it is running (the problem names that task). 429 + Retry-After beyond `RECOVERIES_PER_HOUR` (20) recoveries per account per hour.',
    request: {
      params: subscriptionParams,
      body: jsonBody(requestBodySchema(webhookRecover, { required: ['since'] })),
    },
    responses: {
      '200': json(ref('RecoveryDryRun'), 'A dry run (`dryRun: true`): what a recovery would take; nothing queued.'),
      '202': json(ref('Href'), 'The recovery task.', hrefHeaders),
    },
    errors: 'write',
    idempotent: true,
    mounts: v1('recoverWebhook', 'Resend every delivery that ended failed in a window, in the original order'),
    handler:
      ({ hrefs, webhooks }) =>
      async (req, res) => {
        const body = decodeBody(req, webhookRecover);
        const status = body.status ?? body.outcome;
        const { recovery, matched, skipped } = await webhooks.recoverSubscription(
          {
            accountId: principal(req).accountId,
            id: p(req, 'id'),
            since: body.since ?? '',
            ...(body.until !== undefined ? { until: body.until } : {}),
            ...(status !== undefined && status !== null ? { status } : {}),
            ...(body.event !== undefined && body.event !== null ? { event: body.event } : {}),
            ...(body.statusFrom !== undefined && body.statusFrom !== null ? { statusFrom: body.statusFrom } : {}),
            ...(body.statusTo !== undefined && body.statusTo !== null ? { statusTo: body.statusTo } : {}),
            messageIds: body.messageId ?? [],
            sessionIds: body.sessionId ?? [],
            dryRun: body.dryRun === true,
          },
          writeOptions(req),
        );
        if (body.dryRun) {
          sendJson(res, { dryRun: true, matched, skipped });
          return;
        }
        sendHref(res, hrefs.recovery(p(req, 'id'), recovery!.id), {}, 202);
      },
  },
  {
    method: 'GET',
    path: '/webhooks/:id/recoveries/:taskId',
    tags,
    request: { params: recoveryParams },
    responses: { '200': json(ref('Recovery'), 'The task.') },
    errors: 'read',
    mounts: v1('getWebhookRecovery', 'Progress of a recovery task'),
    handler: recoveryTask('getRecovery', callOptions),
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id/recoveries/:taskId',
    tags,
    description:
      'The resends of the task not yet made are not sent (recorded as `cancelled`); the task reads `state: cancelled`. 409 when it is no longer running.',
    request: { params: recoveryParams },
    responses: { '200': json(ref('Recovery'), 'The cancelled task.') },
    errors: 'read',
    moreErrors: ['409'],
    mounts: v1('cancelWebhookRecovery', 'Cancel a running recovery'),
    handler: recoveryTask('cancelRecovery', writeOptions),
  },
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function deliveryToolRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, deliveryToolRouteDeclarations);
}
