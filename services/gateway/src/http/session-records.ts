// The session inspector (docs/api.md#sessions): an application's sessions, newest first and
// filtered, and one session whole, from the records the webhooks service keeps. GET /v1/sessions/:id
// shares its path with the Session API (sessions.ts), which hands such reads on to this router.
import type { Router } from 'express';
import type { SessionRecordMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import type { RouteDeps } from './deps.ts';
import { MASKED, readOnly } from './exposure.ts';
import type { SessionBody, SessionSummaryBody } from './response-bodies.ts';
import { queryStrings } from './routing.ts';
import { accountItem, accountList } from './list-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { json, listHeaders, listParams, type Parameter, ref, timeWindowParams } from '../openapi-parts.ts';

const excerpt = (text: string | undefined, truncated: boolean) => (text === undefined ? null : { text, truncated });

/**
 * A session as a list shows it. `masked`: its id, which signals the session (the Session API),
 * reads as `***`, in its href too (a `read` key). A launch's token is kept only as its first 8
 * characters (the dispatcher's record).
 */
export function sessionSummaryJson(s: SessionRecordMessage, hrefs: Hrefs, masked = false): SessionSummaryBody {
  const id = masked ? MASKED : s.id;
  return {
    href: hrefs.session(id),
    id,
    applicationId: s.applicationId || null,
    channel: s.channel as SessionSummaryBody['channel'],
    from: s.from ?? null,
    to: s.to ?? null,
    startedAt: s.startedAt,
    routedBy: { type: s.routedByType as SessionSummaryBody['routedBy']['type'], value: s.routedByValue ?? null },
    outcome: s.outcome as SessionSummaryBody['outcome'],
    attemptCount: s.attemptCount,
    failure: s.failureReason ? { reason: s.failureReason } : null,
  };
}

/** A session whole: its attempts with the application's answers, its instructions and signals. */
export function sessionJson(s: SessionRecordMessage, hrefs: Hrefs, masked = false): SessionBody {
  const { attemptCount: _count, ...summary } = sessionSummaryJson(s, hrefs, masked);
  return {
    ...summary,
    attempts: (s.attempts ?? []).map((a) => ({
      at: a.at,
      url: a.url || null,
      role: a.role as 'primary' | 'fallback',
      status: a.status === 0 ? null : a.status,
      durationMs: a.durationMs,
      error: a.error ?? null,
      responseContentType: a.responseContentType ?? null,
      responseExcerpt: excerpt(a.responseExcerpt, a.responseTruncated),
    })),
    instructions: s.instructions
      ? {
          at: s.instructions.at,
          bytes: s.instructions.bytes,
          excerpt: { text: s.instructions.excerpt, truncated: s.instructions.truncated },
        }
      : null,
    signals: (s.signals ?? []).map((g) => ({ at: g.at, value: g.value, status: g.status as 'queued' })),
  };
}

const tags = ['Session inspector'];
const sessionFilters: Parameter[] = [
  { name: 'outcome', in: 'query', schema: { type: 'string', enum: ['answered', 'fallback', 'failed'] } },
  { name: 'channel', in: 'query', schema: { type: 'string', enum: ['VOICE', 'TEXT'] } },
  ...timeWindowParams('Sessions started at or after this time.', 'Sessions started before this time.'),
  { name: 'from', in: 'query', schema: { type: 'string' }, description: 'The caller id (`session.from.id`), exactly.' },
];

/** The session inspector routes, declared once for the router and the OpenAPI document. */
export const sessionRecordRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/applications/:id/sessions',
    tags,
    description:
      'Every session delivered to the application (routed by the application id, by an address it owns, or launched with one of its tokens) in the last `SESSION_RETENTION_DAYS` days. A session shows here once it has ended (instructions or failure). Bad filters are a 400.',
    request: { params: pathParams({ id: 'Application id.' }), parameters: [...listParams, ...sessionFilters] },
    responses: { '200': json({ type: 'array', items: ref('SessionSummary') }, 'Sessions.', listHeaders) },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1('listApplicationSessions', 'Sessions of an application, newest first'),
    handler: accountList({
      fields: (req) => ({
        ...queryStrings(req, ['outcome', 'channel', 'since', 'until', 'from']),
        applicationId: String(req.params.id),
      }),
      page: ({ webhooks }, request, options) => webhooks.listSessions(request, options),
      items: (page) => page.sessions,
      noStore: true,
      toJson: (s, { hrefs }, req) => sessionSummaryJson(s, hrefs, readOnly(req)),
    }),
  },
  {
    method: 'GET',
    path: '/sessions/:sessionId',
    tags,
    request: { params: pathParams({ sessionId: 'The session id (`session.id` of the session POST).' }) },
    responses: { '200': json(ref('SessionRecord'), 'The session.') },
    errors: 'read',
    mounts: v1(
      'getSession',
      'One session: every attempt with what the application answered, its instructions and signals',
    ),
    handler: accountItem({
      params: ['sessionId'],
      get: ({ webhooks }, request, options) => webhooks.getSession(request, options),
      noStore: true,
      toJson: ({ session }, { hrefs }, req) => sessionJson(session!, hrefs, readOnly(req)),
    }),
  },
];

/** Registers these routes on the API router. */
export function sessionRecordRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, sessionRecordRouteDeclarations);
}
