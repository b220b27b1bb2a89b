// The account's audit log: GET /v1/audit-events, newest first, filtered by action, actor and time,
// paged like the other lists. A `read` key may read it.
import type { Router } from 'express';
import { AppError } from '@switchboard/platform';
import type { AuditClient, AuditEventMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import { callOptions, principal } from './context.ts';
import type { AuditEventBody } from './response-bodies.ts';
import { queryString, readList, route, sendJson } from './routing.ts';

export interface AuditRouteDeps {
  hrefs: Hrefs;
  audit: AuditClient;
}

function eventBody(hrefs: Hrefs, e: AuditEventMessage): AuditEventBody {
  return {
    id: e.id,
    at: e.at,
    actor: {
      type: e.actorType as AuditEventBody['actor']['type'],
      id: e.actorId,
      ...(e.actorName ? { name: e.actorName } : {}),
    },
    action: e.action,
    target: e.target ? `${hrefs.base}${e.target}` : null,
    ip: e.ip,
    requestId: e.requestId,
    outcome: e.outcome as AuditEventBody['outcome'],
  };
}

/** An ISO 8601 date-time query parameter, or ''. */
function timeParam(value: string, field: string): string {
  if (value && Number.isNaN(Date.parse(value)))
    throw AppError.invalid([{ field, message: 'must be an ISO 8601 date-time' }]);
  return value;
}

export function auditRoutes(router: Router, deps: AuditRouteDeps): void {
  route(router, '/audit-events', {
    GET: async (req, res) => {
      const filter = {
        action: queryString(req, 'action'),
        actor: queryString(req, 'actor'),
        since: timeParam(queryString(req, 'since'), 'since'),
        until: timeParam(queryString(req, 'until'), 'until'),
      };
      const accountId = principal(req).accountId;
      const items = await readList(req, res, deps.hrefs.base, async (limit, cursor) => {
        const page = await deps.audit.listAuditEvents({ accountId, limit, cursor, ...filter }, callOptions(req));
        return { items: page.events, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        items.map((e) => eventBody(deps.hrefs, e)),
      );
    },
  });
}
