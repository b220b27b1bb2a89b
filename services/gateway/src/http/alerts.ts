// Alerts (docs/api.md#alerts): the account's, newest first and filtered, and one alert, from the
// webhooks service, each linked to the attempt that raised it.
import type { Request, Router } from 'express';
import { alertLink } from '@switchboard/contracts';
import type { Alert__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/Alert';
import type { Hrefs } from '../hrefs.ts';
import type { AlertBody } from './alert-bodies.ts';
import { callOptions, principal } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { queryString, readList, route, sendJson } from './routing.ts';

/** The console's view of what raised the alert: the session attempt, the delivery, the subscription or the application. */
function linkOf(a: Alert__Output, hrefs: Hrefs): string | null {
  return alertLink(hrefs.base, a);
}

export function alertJson(a: Alert__Output, hrefs: Hrefs): AlertBody {
  return {
    href: `${hrefs.base}/v1/alerts/${a.id}`,
    id: a.id,
    code: a.code as AlertBody['code'],
    severity: a.severity as AlertBody['severity'],
    at: a.at,
    lastAt: a.lastAt,
    count: a.count,
    applicationId: a.applicationId ?? null,
    subscriptionId: a.subscriptionId ?? null,
    sessionId: a.sessionId ?? null,
    deliveryId: a.deliveryId ?? null,
    message: a.message,
    link: linkOf(a, hrefs),
    session: a.sessionId ? hrefs.session(a.sessionId) : null,
  };
}

/** Registers these routes on the API router. */
export function alertRoutes(router: Router, deps: RouteDeps): void {
  const { hrefs, webhooks } = deps;

  route(router, '/alerts', {
    GET: async (req: Request, res) => {
      const filters = {
        code: queryString(req, 'code'),
        severity: queryString(req, 'severity'),
        applicationId: queryString(req, 'applicationId'),
        since: queryString(req, 'since'),
        until: queryString(req, 'until'),
      };
      const list = await readList(req, res, hrefs.base, async (limit, cursor) => {
        const page = await webhooks.listAlerts(
          { accountId: principal(req).accountId, limit, cursor, ...filters },
          callOptions(req),
        );
        return { items: page.alerts, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        list.map((a) => alertJson(a, hrefs)),
      );
    },
  });

  route(router, '/alerts/:alertId', {
    GET: async (req: Request, res) => {
      const { alert } = await webhooks.getAlert(
        { accountId: principal(req).accountId, alertId: String(req.params.alertId) },
        callOptions(req),
      );
      sendJson(res, alertJson(alert!, hrefs));
    },
  });
}
