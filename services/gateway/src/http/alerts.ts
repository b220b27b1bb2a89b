// Alerts (docs/api.md#alerts): the account's, newest first and filtered, and one alert, from the
// webhooks service, each linked to the attempt that raised it.
import type { Router } from 'express';
import { alertLink } from '@switchboard/contracts';
import { ALERT_CODES } from '@switchboard/events';
import type { Alert__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/Alert';
import type { Hrefs } from '../hrefs.ts';
import type { AlertBody } from './alert-bodies.ts';
import type { RouteDeps } from './deps.ts';
import { queryStrings } from './routing.ts';
import { accountItem, accountList } from './list-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { json, listHeaders, listParams, type Parameter, ref, timeWindowParams } from '../openapi-parts.ts';

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

const tags = ['Alerts'];
const alertFilters: Parameter[] = [
  { name: 'code', in: 'query', schema: { type: 'string', enum: [...ALERT_CODES] } },
  { name: 'severity', in: 'query', schema: { type: 'string', enum: ['error', 'warning'] } },
  { name: 'applicationId', in: 'query', schema: { type: 'string' }, description: "The application's alerts only." },
  ...timeWindowParams('Alerts at or after this time.', 'Alerts before this time.'),
];

/** The alert routes (docs/api.md#alerts), declared once for the router and the OpenAPI document. */
export const alertRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/alerts',
    tags,
    description:
      'Alerts of one code and application within one minute are one alert with their `count`. Filters combine; an invalid value is a 400 naming the parameter.',
    request: { parameters: [...listParams, ...alertFilters] },
    responses: { '200': json({ type: 'array', items: ref('Alert') }, 'Alerts.', listHeaders) },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1('listAlerts', 'Alerts of the account, newest first'),
    handler: accountList({
      fields: (req) => queryStrings(req, ['code', 'severity', 'applicationId', 'since', 'until']),
      page: ({ webhooks }, request, options) => webhooks.listAlerts(request, options),
      items: (page) => page.alerts,
      toJson: (a, { hrefs }) => alertJson(a, hrefs),
    }),
  },
  {
    method: 'GET',
    path: '/alerts/:alertId',
    tags,
    request: { params: pathParams({ alertId: 'Alert id.' }) },
    responses: { '200': json(ref('Alert'), 'The alert.') },
    errors: 'read',
    mounts: v1('getAlert', 'One alert, with the link to the attempt that raised it'),
    handler: accountItem({
      params: ['alertId'],
      get: ({ webhooks }, request, options) => webhooks.getAlert(request, options),
      toJson: ({ alert }, { hrefs }) => alertJson(alert!, hrefs),
    }),
  },
];

/** Registers these routes on the API router. */
export function alertRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, alertRouteDeclarations);
}
