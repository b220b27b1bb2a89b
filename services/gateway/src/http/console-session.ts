// Browser sign-in for the console: GET /v1/console/session answers the browser's session (204
// when it has none); POST /v1/console/session checks the password with the lockout
// and the verification limits of Basic auth and sets the __Host-sb_session cookie; DELETE ends it. And
// PUT /v1/users/me/password, which ends every browser session of the account.
import type { RequestHandler, Router } from 'express';
import { AppError } from '@switchboard/errors';
import type { Cidr } from '@switchboard/security';
import { requestTrace } from '@switchboard/observability/tracing';
import type { AccountsClient, ConsoleSessionsClient } from '@switchboard/proto';
import type { Authenticator, Principal } from '../auth.ts';
import type { ApiKeyVerifier } from '../auth/api-keys.ts';
import type { FailedSignIns } from '../auth/failed-sign-ins.ts';
import { checkOrigin, clearSessionCookie, sessionToken, setSessionCookie } from '../auth/sessions.ts';
import { clientAddress, clientGroup } from '../client-address.ts';
import type { Hrefs } from '../hrefs.ts';
import { userJson } from './accounts.ts';
import { auditOptions, callOptions, principal } from './context.ts';
import { consoleSignIn, decodeFields, passwordChange } from './request-bodies.ts';
import type { ConsoleSessionBody } from './response-bodies.ts';
import { sendJson } from './routing.ts';
import { type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { json, jsonBody, ref } from '../openapi-parts.ts';

export interface ConsoleRouteDeps {
  hrefs: Hrefs;
  accounts: AccountsClient;
  consoleSessions: ConsoleSessionsClient;
  /** Where a refused sign-in is recorded. */
  failedSignIns: FailedSignIns;
  passwords: Authenticator;
  trustedProxies: readonly Cidr[];
  /** PUBLIC_BASE_URL's origin. */
  origin: string;
}

const tags = ['Credentials'];

/** Sign-in, sign-out and the browser's session, declared once for the router and the OpenAPI document. */
export const consoleSessionRouteDeclarations: readonly RouteDeclaration<ConsoleRouteDeps>[] = [
  {
    // The browser's own session, if any: how the console learns at load whether it is signed in
    // (204 instead of a 401, which a browser would log as an error).
    method: 'GET',
    path: '/console/session',
    tags,
    description:
      'Reads the `__Host-sb_session` cookie without requiring it: 200 with the session while it is valid (a use, like any request it authenticates), 204 when there is no cookie or the session ended or expired. The console asks it once at load.',
    responses: {
      '200': json(ref('ConsoleSession'), 'The session of the cookie.'),
      '204': { description: 'No valid browser session.' },
    },
    errors: ['401', '405', '500', '503'],
    security: [],
    mounts: v1('getConsoleSession', "The browser's session: its user and end, or 204 when it has none"),
    handler:
      ({ hrefs, consoleSessions }) =>
      async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        const token = sessionToken(req);
        if (token === undefined) return void res.status(204).end();
        let s: Awaited<ReturnType<ConsoleSessionsClient['verifyConsoleSession']>>;
        try {
          s = await consoleSessions.verifyConsoleSession({ token }, callOptions(req));
        } catch (err) {
          if (err instanceof AppError && err.code === 'unauthenticated') return void res.status(204).end();
          throw err;
        }
        const session: ConsoleSessionBody = { user: userJson(s.account!, hrefs), expiresAt: s.expiresAt };
        sendJson(res, session);
      },
  },
  {
    method: 'POST',
    path: '/console/session',
    tags,
    description:
      "Checks the password with the lockout and limits of Basic auth. The cookie `__Host-sb_session` is HttpOnly, SameSite=Strict, Secure, Path=/ (browsers keep Secure cookies of loopback hosts over http too); a request carrying it twice is a 401; the session lasts 12 h at most and ends after 30 min unused (`CONSOLE_SESSION_TTL_MS`, `CONSOLE_SESSION_IDLE_MS`). It authenticates every `/v1` route; a write made with it (POST, PUT, DELETE) must carry this API's `Origin`, or it answers 403.",
    request: { body: jsonBody(ref('ConsoleSignIn')) },
    responses: {
      '200': json(ref('ConsoleSession'), 'Signed in.', { 'Set-Cookie': { schema: { type: 'string' } } }),
    },
    errors: ['400', '401', '403', '405', '413', '415', '429', '500', '503'],
    security: [],
    mounts: v1('signIn', 'Sign in a browser: sets the __Host-sb_session cookie'),
    handler: (deps) => async (req, res) => {
      checkOrigin(req, deps.origin, true);
      const body = decodeFields(req, consoleSignIn);
      // The failure budget is keyed by the client's group (an IPv6 /64), as for HTTP Basic.
      const address = clientGroup(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustedProxies);
      req.state.clientAddress = address;
      let account: Principal;
      try {
        // The pair as typed: encoded as Basic, "alice:x" and a password would check alice.
        account = await deps.passwords.authenticatePair(
          { username: body.username, password: body.password },
          req.state.requestId,
          address,
          requestTrace(req),
          { fresh: true },
        );
      } catch (err) {
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
        // A refused password goes to the named account's audit log (nothing when there is no such
        // account); a refusal during a lockout, which checked nothing, does not.
        if (err instanceof AppError && err.code === 'unauthenticated')
          await deps.failedSignIns.record({ action: 'session.sign-in', username: body.username }, address, {
            requestId: req.state.requestId,
            trace: requestTrace(req),
          });
        throw err;
      }
      req.state.principal = account;
      req.state.credential = { type: 'password', id: account.accountId, name: account.username, scope: 'full' };
      const s = await deps.consoleSessions.createConsoleSession({ accountId: account.accountId }, auditOptions(req));
      setSessionCookie(res, s.token, (Date.parse(s.expiresAt) - Date.now()) / 1000);
      res.setHeader('Cache-Control', 'no-store');
      const session: ConsoleSessionBody = { user: userJson(s.account!, deps.hrefs), expiresAt: s.expiresAt };
      sendJson(res, session);
    },
  },
  {
    method: 'DELETE',
    path: '/console/session',
    tags,
    responses: { '204': { description: 'Signed out (also when no session was open).' } },
    errors: ['401', '403', '405', '500', '503'],
    security: [],
    mounts: v1('signOut', 'Sign out: ends the browser session and clears the cookie'),
    handler: (deps) => async (req, res) => {
      const token = sessionToken(req);
      if (token !== undefined) {
        checkOrigin(req, deps.origin);
        // The session's id, unknown here, is filled in by the applications service.
        const ip = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustedProxies);
        await deps.consoleSessions.endConsoleSession(
          { token },
          { ...callOptions(req), audit: { actor: { type: 'session', id: '' }, ip, requestId: req.state.requestId } },
        );
      }
      clearSessionCookie(res);
      res.status(204).end();
    },
  },
];

/**
 * Sign-in and sign-out: on a router mounted before authentication (they carry no credential, or
 * one being ended); `body` reads their JSON body.
 */
export function consoleSessionRoutes(router: Router, deps: ConsoleRouteDeps, body: RequestHandler): void {
  router.use('/console/session', body);
  registerDeclared(router, deps, consoleSessionRouteDeclarations);
}

/** The dependencies of the password change. */
export type PasswordRouteDeps = Pick<
  ConsoleRouteDeps,
  'accounts' | 'hrefs' | 'passwords' | 'failedSignIns' | 'trustedProxies'
> & {
  keys: Pick<ApiKeyVerifier, 'forget'>;
};

/** The password change, declared once for the router and the OpenAPI document. */
export const passwordRouteDeclarations: readonly RouteDeclaration<PasswordRouteDeps>[] = [
  {
    method: 'PUT',
    path: '/users/me/password',
    tags,
    request: { body: jsonBody(ref('PasswordChange')) },
    responses: { '200': json(ref('User'), 'Changed.') },
    errors: 'write',
    mounts: v1('changePassword', 'Change the password; every browser session of the account ends'),
    handler: (deps) => async (req, res) => {
      const body = decodeFields(req, passwordChange);
      const me = principal(req);
      const address = clientGroup(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustedProxies);
      const trace = requestTrace(req);
      try {
        const checked = await deps.passwords.authenticatePair(
          { username: me.username, password: body.current },
          req.state.requestId,
          address,
          trace,
          { fresh: true },
        );
        if (checked.accountId !== me.accountId) throw new AppError('unauthenticated', 'invalid credentials');
      } catch (err) {
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
        if (!(err instanceof AppError && err.code === 'unauthenticated')) throw err;
        await deps.failedSignIns.record({ action: 'password.change', username: me.username }, address, {
          requestId: req.state.requestId,
          trace,
        });
        throw AppError.invalid([{ field: 'current', message: 'is not the current password' }]);
      }
      const { account } = await deps.accounts.changePassword({ accountId: me.accountId, ...body }, auditOptions(req));
      // This replica forgets the old password (and the keys) before answering; the others hear it over NATS.
      deps.passwords.forget(account!.username);
      if (body.revokeKeys) deps.keys.forget(me.accountId);
      sendJson(res, userJson(account!, deps.hrefs));
    },
  },
];

/**
 * The password change: mounted with the authenticated API. `current` is checked by the
 * authenticator first, as a browser sign-in is (the username's lockout, the client address's budget
 * of failed logins, the verifier's bounded queue; never a cached check), so a stolen session or key
 * cannot use it to guess the password faster than sign-in allows; a wrong one is audited.
 */
export function passwordRoutes(router: Router, deps: PasswordRouteDeps): void {
  registerDeclared(router, deps, passwordRouteDeclarations);
}
