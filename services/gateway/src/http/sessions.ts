// The Session API on the paths the Tropo clients call: launch a session with an application's token
// (GET or POST /1.0/sessions, /v1/sessions), and queue a signal for a running session
// (/1.0/sessions/:id/signals). No Basic auth: the token, or the session id, is the credential
// (docs/api-rules.md#session-api). Fields come in the query, a JSON body or a form, in any mix.
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { AppError } from '@switchboard/errors';
import type { SessionsClient } from '@switchboard/proto';
import type { Limiter } from '../rate-limit.ts';
import { callOptions } from './context.ts';
import { notFoundHandler } from './problem.ts';
import { requestBodySchema, sessionLaunch, sessionSignal } from './request-bodies.ts';
import { type Handler, sendJson } from './routing.ts';
import { pathParams, type RouteDeclaration, registerDeclared } from './declare.ts';
import { json, type Parameter, problemResponse, ref, type Schema } from '../openapi-parts.ts';
import { noStore } from './exposure.ts';
import { SESSION_LIMITS, SESSION_RATE_LIMIT_DEFAULT_PER_SECOND } from '../limits.ts';

export interface SessionRouteDeps {
  sessions: SessionsClient;
  /** Per token (launches) and per session id (signals). */
  limiter: Limiter;
}

/** The query's and the body's fields together; one field given twice with different values is a 400. */
function requestFields(req: Request): Map<string, unknown> {
  const fields = new Map<string, unknown>(Object.entries(req.query));
  const body: unknown = req.body;
  if (body === undefined) return fields;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw AppError.invalid([{ field: '(body)', message: 'must be a JSON object or a form' }]);
  for (const [k, v] of Object.entries(body)) {
    if (fields.has(k) && fields.get(k) !== v)
      throw AppError.invalid([{ field: k, message: 'is given in the query and in the body with different values' }]);
    fields.set(k, v);
  }
  return fields;
}

/** Decodes the fields with a schema of request-bodies.ts: 400 naming every field in error. */
function decodeFields<S extends z.ZodObject>(fields: Map<string, unknown>, schema: S): z.output<S> {
  const result = schema.safeParse(Object.fromEntries(fields));
  if (!result.success)
    throw AppError.invalid(
      result.error.issues.map((i) => ({ field: String(i.path[0] ?? '(body)'), message: i.message })),
    );
  return result.data;
}

function checkAction(action: string | null | undefined, expected: string): void {
  if (action != null && action.trim().toLowerCase() !== expected)
    throw AppError.invalid([{ field: 'action', message: `must be ${expected} (or left out)` }]);
}

async function rateLimit(limiter: Limiter, key: string, what: string): Promise<void> {
  const wait = await limiter.take(key);
  if (wait > 0)
    throw new AppError('rate_limited', `rate limit exceeded for this ${what}`, undefined, { retryAfterS: wait / 1000 });
}

const SESSION_ID = new RegExp(`^[\\x21-\\x7e]{1,${SESSION_LIMITS.sessionIdChars}}$`);

/**
 * The session id of a signal's path, checked before anything is kept for it (its rate-limit
 * bucket): 1 to 200 visible ASCII characters, as the applications service accepts; else a 400.
 */
function sessionIdOf(req: Request): string {
  const id = String(req.params.sessionId);
  if (!SESSION_ID.test(id))
    throw AppError.invalid([
      {
        field: 'sessionId',
        message: `must be a session id: 1 to ${SESSION_LIMITS.sessionIdChars} visible ASCII characters`,
      },
    ]);
  return id;
}

const XML_TYPES = ['application/xml', 'text/xml'];

/**
 * The media type of a launch answer: XML when the Accept header prefers it to JSON; without a
 * stated preference (no Accept, or any type) XML on /1.0/sessions, where Tropo's Session API answered
 * XML, and JSON on /v1/sessions.
 */
function answerType(req: Request): 'application/json' | 'application/xml' | 'text/xml' {
  const accept = req.headers.accept?.trim();
  if (!accept || accept === '*/*') return req.baseUrl.startsWith('/1.0') ? 'application/xml' : 'application/json';
  const best = req.accepts(['application/json', ...XML_TYPES]);
  return best === 'application/xml' || best === 'text/xml' ? best : 'application/json';
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function sendLaunched(req: Request, res: Response, token: string, id: string): void {
  const type = answerType(req);
  // The token and the session id are credentials of this API.
  noStore(res);
  if (type === 'application/json') {
    sendJson(res, { success: true, token, id });
    return;
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<session><success>true</success><token>${escapeXml(token)}</token><id>${escapeXml(id)}</id></session>\n`;
  res.statusCode = 200;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(xml));
  res.end(xml);
}

/** GET launches and signals (Tropo's design), so HEAD, which Express would hand to GET, must not. */
function refuseHead(req: Request, res: Response): void {
  if (req.method !== 'HEAD') return;
  res.setHeader('Allow', 'GET, POST');
  throw new AppError('method_not_allowed', 'allowed methods: GET, POST');
}

const launch =
  ({ sessions, limiter }: SessionRouteDeps): Handler =>
  async (req, res) => {
    refuseHead(req, res);
    const { token, action, statusCallbackUrl, ...rest } = decodeFields(requestFields(req), sessionLaunch);
    checkAction(action, 'create');
    if (!token) {
      const inHeader = req.headers.authorization !== undefined;
      throw AppError.invalid(
        [
          {
            field: 'token',
            message: inHeader
              ? 'goes in the query or the body (token=...), not in the Authorization header'
              : 'is required: a session token of the application',
          },
        ],
        inHeader
          ? 'the Session API takes the application token as the token parameter (query or body), not as credentials in the Authorization header'
          : undefined,
      );
    }
    // Built with fromEntries, which defines own keys: no field name can set a prototype.
    const parameters: Record<string, string> = Object.fromEntries(
      Object.entries(rest).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, String(v)]])),
    );
    await rateLimit(limiter, `token:${token}`, 'token');
    const { sessionId } = await sessions.launchSession(
      { token, parameters, statusCallbackUrl: statusCallbackUrl ?? '' },
      callOptions(req),
    );
    sendLaunched(req, res, token, sessionId);
  };

const signal =
  ({ sessions, limiter }: SessionRouteDeps): Handler =>
  async (req, res) => {
    refuseHead(req, res);
    const sessionId = sessionIdOf(req);
    const { value, signal: alias, action } = decodeFields(requestFields(req), sessionSignal);
    checkAction(action, 'signal');
    if (value != null && alias != null && value !== alias)
      throw AppError.invalid([{ field: 'signal', message: 'is another name of value; give one of them' }]);
    await rateLimit(limiter, `session:${sessionId}`, 'session');
    const { queued } = await sessions.signalSession({ sessionId, value: value ?? alias ?? '' }, callOptions(req));
    sendJson(res, { status: queued ? 'QUEUED' : 'NOTFOUND' });
  };

// The document of the Session API (Tropo's paths), under /1.0, /v1 and /rest/v1: no Basic auth, the
// token or session id is the credential.
const tags = ['Sessions'];
const rate = `Rate limited (\`SESSION_RATE_LIMIT_PER_SECOND\`, default ${SESSION_RATE_LIMIT_DEFAULT_PER_SECOND} per second per token for launches and per session for signals, bursts of twice that; and \`SESSION_LAUNCH_RATE_PER_ACCOUNT\`, default 20 launches per second per account whatever its tokens, bursts of 40, across every gateway).`;
/** The Session API's own problem answers (its 400 and 429 read differently from the API's). */
const sessionProblems = {
  '400': problemResponse(
    `Invalid request: no token (or a token only in the Authorization header), an \`action\` other than the one of the path, a field given twice with different values, a field that is not a string, number or boolean, more than ${SESSION_LIMITS.parameters} parameters, a name over ${SESSION_LIMITS.parameterNameChars} or a value over ${SESSION_LIMITS.parameterValueChars} characters, a signal value over ${SESSION_LIMITS.signalValueChars} characters, a malformed session id, or a \`statusCallbackUrl\` that is not an http(s) URL or names a refused address.`,
  ),
  '429': problemResponse(rate, { 'Retry-After': { schema: { type: 'string' } } }),
} as Record<string, ResponseConfig>;
const sharedProblems = ['405', '413', '415', '500', '503'] as const;
/** The fields of a POST, as JSON or as a form. */
const fieldsIn = (schema: Schema) => ({
  required: false,
  content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
});
const launchParams: Parameter[] = [
  { name: 'token', in: 'query', schema: { type: 'string' }, description: 'The session token (or in the body).' },
  { name: 'action', in: 'query', schema: { type: 'string', enum: ['create'] }, description: 'Optional.' },
  {
    name: 'statusCallbackUrl',
    in: 'query',
    schema: { type: 'string', format: 'uri', maxLength: 2048 },
    description:
      "Optional (or in the body): the session's `sessionStatus` events also go there, signed with the application's secret (docs/events.md#status-callback). An https URL (or http where allowed); a private, loopback or link-local address is a 400 naming `statusCallbackUrl` unless `DELIVERY_ALLOWED_CIDRS` allows it.",
  },
  {
    name: 'fields',
    in: 'query',
    style: 'form',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    description: 'Any other field: a parameter of the session.',
  },
];
/** The launch's answer; under /1.0 XML is also the answer to no stated preference. */
const launched = (legacy: boolean): ResponseConfig => ({
  description: `Launched: the session goes to the application's \`voiceUrl\` (voice token) or \`messagingUrl\` (messaging token) as any session POST, with \`userType: "NONE"\` and the fields in \`parameters\`. JSON, or XML when the Accept header prefers \`application/xml\` or \`text/xml\`${legacy ? ' or states no preference (no Accept header, or `*/*`: the Tropo clients of this path read XML)' : ''}.`,
  content: {
    'application/json': { schema: ref('SessionLaunched') },
    'application/xml': {
      schema: { type: 'string' },
      example: '<session><success>true</success><token>TOKEN</token><id>SESSION_ID</id></session>',
    },
    'text/xml': { schema: { type: 'string' } },
  },
});
const signalParams = pathParams({
  sessionId: `The session id (1 to ${SESSION_LIMITS.sessionIdChars} visible ASCII characters).`,
});
const signalQuery: Parameter[] = [
  {
    name: 'value',
    in: 'query',
    schema: { type: 'string', maxLength: SESSION_LIMITS.signalValueChars },
    description: 'The signal, such as `exit` (or `signal`, or in the body).',
  },
  { name: 'action', in: 'query', schema: { type: 'string', enum: ['signal'] }, description: 'Optional.' },
];
const prefixes = [
  { prefix: '/1.0/sessions', op: 'Legacy' },
  { prefix: '/v1/sessions', op: '' },
  { prefix: '/rest/v1/sessions', op: 'Rest' },
] as const;

function launchDeclaration(method: 'GET' | 'POST'): RouteDeclaration<SessionRouteDeps> {
  const verb = method.toLowerCase();
  return {
    method,
    path: '/',
    tags,
    request: {
      parameters: launchParams,
      ...(method === 'POST' ? { body: fieldsIn(requestBodySchema(sessionLaunch)) } : {}),
    },
    responses: {
      '200': launched(false),
      ...sessionProblems,
      '404': problemResponse('No application holds this token (never claimed, released, or its application deleted).'),
    } as Record<string, ResponseConfig>,
    errors: sharedProblems,
    security: [],
    mounts: prefixes.map(({ prefix, op }) => ({
      prefix,
      operationId: `${verb}${op}LaunchSession`,
      summary: 'Launch a session with an application token',
      ...(op === 'Legacy' ? { responses: { '200': launched(true) } } : {}),
    })),
    handler: launch,
  };
}

function signalDeclaration(method: 'GET' | 'POST'): RouteDeclaration<SessionRouteDeps> {
  const verb = method.toLowerCase();
  return {
    method,
    path: '/:sessionId/signals',
    tags,
    request: {
      params: signalParams,
      parameters: signalQuery,
      ...(method === 'POST' ? { body: fieldsIn(requestBodySchema(sessionSignal)) } : {}),
    },
    responses: {
      '200': json(
        ref('SignalStatus'),
        '`QUEUED`: published on `sessions.signal` for the telephony core. `NOTFOUND`: this platform did not start or route that session in the last 24 h.',
      ),
      ...sessionProblems,
    },
    errors: sharedProblems,
    security: [],
    mounts: prefixes.map(({ prefix, op }) => ({
      prefix,
      operationId: `${verb}${op}SignalSession`,
      summary: 'Queue a signal for a running session',
    })),
    handler: signal,
  };
}

/** The Session API, declared once for the router and the OpenAPI document (paths relative to its router). */
export const sessionRouteDeclarations: readonly RouteDeclaration<SessionRouteDeps>[] = [
  launchDeclaration('GET'),
  launchDeclaration('POST'),
  signalDeclaration('GET'),
  signalDeclaration('POST'),
];

/** Registers the routes at the root of a router mounted on /1.0/sessions, /v1/sessions and /rest/v1/sessions. */
export function sessionRoutes(router: Router, deps: SessionRouteDeps): void {
  registerDeclared(router, deps, sessionRouteDeclarations);
  // A session's record (GET /v1/sessions/:id) is the authenticated API's (session-records.ts):
  // handed on, past these routes, to the routers mounted after this one.
  router.get('/:sessionId', (_req, _res, next) => next('router'));
  // Nothing else lives under these paths (and nothing here asks for Basic auth).
  router.use(notFoundHandler);
}
