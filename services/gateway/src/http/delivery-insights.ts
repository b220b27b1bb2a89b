// docs/api.md#delivery-search-and-statistics: one delivery record of the account by id (with the
// receiver's answer), and the statistics of a subscription's or an application's deliveries. The
// webhooks service checks the parameters and the ownership; these routes only translate.
import type { Request, Router } from 'express';
import type { GetDeliveryStatsResponse__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetDeliveryStatsResponse';
import type { DeliveryStatsBucket__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeliveryStatsBucket';
import { callOptions, principal } from './context.ts';
import type { RouteDeps } from './deps.ts';
import type { DeliveryStatsBody } from './response-bodies.ts';
import { queryString, sendJson } from './routing.ts';
import { accountItem } from './list-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { json, type Parameter, ref } from '../openapi-parts.ts';
import { deliveryJson } from './webhooks.ts';
import { readOnly } from './exposure.ts';

function countsJson(b: DeliveryStatsBucket__Output, withSessions: boolean): DeliveryStatsBody['totals'] {
  return {
    attempts: Number(b.attempts),
    succeeded: Number(b.succeeded),
    retrying: Number(b.retrying),
    failed: Number(b.failed),
    cancelled: Number(b.cancelled),
    throttled: Number(b.throttled ?? 0),
    p50Ms: b.p50Ms ?? null,
    p95Ms: b.p95Ms ?? null,
    ...(withSessions
      ? {
          sessions: {
            answered: b.sessions?.answered ?? 0,
            fallback: b.sessions?.fallback ?? 0,
            failed: b.sessions?.failed ?? 0,
          },
        }
      : {}),
  };
}

function statsJson(r: GetDeliveryStatsResponse__Output, withSessions: boolean): DeliveryStatsBody {
  return {
    window: r.window as DeliveryStatsBody['window'],
    bucket: r.bucket as DeliveryStatsBody['bucket'],
    buckets: r.buckets.map((b) => ({ start: b.start, ...countsJson(b, withSessions) })),
    totals: countsJson(r.totals ?? ({} as DeliveryStatsBucket__Output), withSessions),
    ...(r.heldKeys !== undefined && r.heldKeys !== null ? { ordering: { heldKeys: r.heldKeys } } : {}),
  };
}

const p = (req: Request, name: string) => String(req.params[name]);
const shape = (req: Request) => ({ window: queryString(req, 'window'), bucket: queryString(req, 'bucket') });
const tags = ['Deliveries'];
const statsParams: Parameter[] = [
  {
    name: 'window',
    in: 'query',
    schema: { type: 'string', enum: ['1h', '24h', '7d'], default: '24h' },
    description: 'How far back from now.',
  },
  {
    name: 'bucket',
    in: 'query',
    schema: { type: 'string', enum: ['1m', '5m', '1h'], default: '1h' },
    description: 'Width of each bucket; at most 300 buckets (400 beyond: `7d` by `1m` or `5m`, `24h` by `1m`).',
  },
];

/** What differs between the statistics of a subscription's deliveries and of an application's session deliveries. */
const STATS_OF = {
  subscription: {
    path: '/webhooks/:id/stats',
    description:
      'Every bucket of the window, the last one holding now: attempt records, their outcomes, and latency p50/p95 of the attempts made. Read from per-minute rollups written as the records are stored, so the buckets add up to the records. 400 naming `window` or `bucket` for an unknown value or too many buckets.',
    id: 'Subscription id.',
    operationId: 'getWebhookStats',
    summary: "Statistics of a subscription's deliveries over a window",
    owner: 'subscriptionId',
  },
  application: {
    path: '/applications/:id/stats',
    description:
      'As `GET /v1/webhooks/{id}/stats`, for the session deliveries of the application, with `sessions` (answered, fallback, failed) in each bucket and the totals.',
    id: 'Application id.',
    operationId: 'getApplicationStats',
    summary: "Statistics of an application's session deliveries and sessions over a window",
    owner: 'applicationId',
  },
} as const;

/** The statistics route of a subscription's deliveries, or of an application's (which counts its sessions too). */
function statsDeclaration(of: keyof typeof STATS_OF): RouteDeclaration<RouteDeps> {
  const { path, description, id, operationId, summary, owner } = STATS_OF[of];
  return {
    method: 'GET',
    path,
    tags,
    description,
    request: { params: pathParams({ id }), parameters: statsParams },
    responses: { '200': json(ref('DeliveryStats'), 'The statistics.') },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1(operationId, summary),
    handler:
      ({ webhooks }) =>
      async (req, res) => {
        const r = await webhooks.getDeliveryStats(
          { accountId: principal(req).accountId, [owner]: p(req, 'id'), ...shape(req) },
          callOptions(req),
        );
        sendJson(res, statsJson(r, of === 'application'));
      },
  };
}

/** The delivery record and statistics routes, declared once for the router and the OpenAPI document. */
export const deliveryInsightRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/deliveries/:deliveryId',
    tags,
    description:
      "Any attempt record of the account (a subscription's or an application's session), with `response`: the receiver's Content-Type and the first 4 KiB of its answer as UTF-8 text, and whether it was cut. Another account's record is 404.",
    request: { params: pathParams({ deliveryId: 'Delivery attempt id.' }) },
    responses: { '200': json(ref('Delivery'), 'The attempt.') },
    errors: 'read',
    mounts: v1('getDelivery', "One delivery attempt of the account, with the receiver's answer"),
    handler: accountItem({
      params: ['deliveryId'],
      get: ({ webhooks }: RouteDeps, request, options) => webhooks.getDelivery(request, options),
      toJson: ({ delivery }, _deps, req) => deliveryJson(delivery!, true, readOnly(req)),
    }),
  },
  statsDeclaration('subscription'),
  statsDeclaration('application'),
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function deliveryInsightRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, deliveryInsightRouteDeclarations);
}
