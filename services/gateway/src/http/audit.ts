// The account's audit log: GET /v1/audit-events, newest first, filtered by action, actor and time,
// paged like the other lists: the entries of the applications and webhooks services merged
// (audit-log.ts). A `read` key may read it.
import type { Router } from 'express';
import { AppError } from '@switchboard/errors';
import type { AuditClient, WebhooksClient } from '@switchboard/proto';
import { readMergedAuditPage, type SourcedAuditEvent } from '../audit-log.ts';
import type { Hrefs } from '../hrefs.ts';
import { callOptions, principal } from './context.ts';
import type { AuditEventBody } from './response-bodies.ts';
import { queryString, readList, sendJson } from './routing.ts';
import { type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { json, listHeaders, listParams, ref } from '../openapi-parts.ts';

export interface AuditRouteDeps {
  hrefs: Hrefs;
  audit: AuditClient;
  webhooks: WebhooksClient;
}

/** The services whose entries the log merges, in this order (the index is SourcedAuditEvent.source). */
const APPLICATIONS = 0;

/** An entry as it reads: the webhooks service's ids are told apart from the applications service's by a `w`. */
function eventBody(hrefs: Hrefs, { source, event: e }: SourcedAuditEvent): AuditEventBody {
  return {
    id: source === APPLICATIONS ? e.id : `w${e.id}`,
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

/** The audit log route, declared once for the router and the OpenAPI document. */
export const auditRouteDeclarations: readonly RouteDeclaration<AuditRouteDeps>[] = [
  {
    method: 'GET',
    path: '/audit-events',
    tags: ['Credentials'],
    description:
      'Changes made through the API and sign-ins (with their failures), each written in the transaction of the change it records. The entries of the applications and webhooks services merged, every entry once across pages; 503 while either service is down. Kept `AUDIT_RETENTION_DAYS` (default 90). A `read` key may read it.',
    request: {
      parameters: [
        ...listParams,
        { name: 'action', in: 'query', required: false, schema: { type: 'string' }, description: 'Only this action.' },
        {
          name: 'actor',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'Only this actor id (a key id, a session id, an account id).',
        },
        {
          name: 'since',
          in: 'query',
          required: false,
          schema: { type: 'string', format: 'date-time' },
          description: 'Entries at or after.',
        },
        {
          name: 'until',
          in: 'query',
          required: false,
          schema: { type: 'string', format: 'date-time' },
          description: 'Entries before.',
        },
      ],
    },
    responses: {
      '200': json({ type: 'array', items: ref('AuditEvent') }, 'Entries, newest first.', listHeaders),
    },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1('listAuditEvents', "The account's audit log, newest first"),
    handler: (deps) => async (req, res) => {
      const filter = {
        action: queryString(req, 'action'),
        actor: queryString(req, 'actor'),
        since: timeParam(queryString(req, 'since'), 'since'),
        until: timeParam(queryString(req, 'until'), 'until'),
      };
      const accountId = principal(req).accountId;
      const items = await readList(req, res, deps.hrefs.base, (limit, cursor) =>
        readMergedAuditPage(
          [
            (n, c) => deps.audit.listAuditEvents({ accountId, limit: n, cursor: c, ...filter }, callOptions(req)),
            (n, c) => deps.webhooks.listAuditEvents({ accountId, limit: n, cursor: c, ...filter }, callOptions(req)),
          ],
          limit,
          cursor,
        ),
      );
      sendJson(
        res,
        items.map((e) => eventBody(deps.hrefs, e)),
      );
    },
  },
];

/** Registers this route on the API router. */
export function auditRoutes(router: Router, deps: AuditRouteDeps): void {
  registerDeclared(router, deps, auditRouteDeclarations);
}
