// docs/api.md#delivery-search-and-statistics: one delivery record of the account by id (with the
// receiver's answer), and the statistics of a subscription's or an application's deliveries. The
// webhooks service checks the parameters and the ownership; these routes only translate.
import type { Request, Router } from 'express';
import type { GetDeliveryStatsResponse__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetDeliveryStatsResponse';
import type { DeliveryStatsBucket__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeliveryStatsBucket';
import { callOptions, principal } from './context.ts';
import type { RouteDeps } from './deps.ts';
import type { DeliveryStatsBody } from './response-bodies.ts';
import { queryString, route, sendJson } from './routing.ts';
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

export function deliveryInsightRoutes(router: Router, deps: RouteDeps): void {
  const { webhooks } = deps;
  const p = (req: Request, name: string) => String(req.params[name]);
  const shape = (req: Request) => ({ window: queryString(req, 'window'), bucket: queryString(req, 'bucket') });

  route(router, '/deliveries/:deliveryId', {
    GET: async (req, res) => {
      const { delivery } = await webhooks.getDelivery(
        { accountId: principal(req).accountId, deliveryId: p(req, 'deliveryId') },
        callOptions(req),
      );
      sendJson(res, deliveryJson(delivery!, true, readOnly(req)));
    },
  });

  route(router, '/webhooks/:id/stats', {
    GET: async (req, res) => {
      const r = await webhooks.getDeliveryStats(
        { accountId: principal(req).accountId, subscriptionId: p(req, 'id'), ...shape(req) },
        callOptions(req),
      );
      sendJson(res, statsJson(r, false));
    },
  });

  route(router, '/applications/:appId/stats', {
    GET: async (req, res) => {
      const r = await webhooks.getDeliveryStats(
        { accountId: principal(req).accountId, applicationId: p(req, 'appId'), ...shape(req) },
        callOptions(req),
      );
      sendJson(res, statsJson(r, true));
    },
  });
}
