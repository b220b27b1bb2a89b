// Browser sessions of the console: the `__Host-sb_session` cookie (an opaque token the
// applications service keeps hashed), and the rule that a write made with it carries the API's own
// Origin.
import type { Request, Response } from 'express';
import { AppError } from '@switchboard/errors';
import type { ClientCallOptions } from '@switchboard/rpc';
import type { ConsoleSessionsClient } from '@switchboard/proto';
import type { Principal } from '../auth.ts';
import type { Credential } from './credential.ts';

/**
 * The `__Host-` prefix makes a browser keep the cookie only when it is Secure, Path=/ and has no
 * Domain, so no other host (a sibling subdomain) can set or overwrite it. Browsers treat loopback
 * addresses as secure, so it works over http on localhost too.
 */
export const SESSION_COOKIE = '__Host-sb_session';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session token of the request's cookie, or undefined. A request carrying the session cookie
 * twice is refused (401): which of the two was sent first says nothing of which one is the user's.
 */
export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  let found: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      if (found !== undefined)
        throw new AppError('unauthenticated', `the request carries the ${SESSION_COOKIE} cookie more than once`);
      found = part.slice(eq + 1).trim();
    }
  }
  return found !== undefined && TOKEN.test(found) ? found : undefined;
}

/** The cookie's attributes: HttpOnly, SameSite=Strict, and Secure and Path=/ as its prefix requires. */
const ATTRIBUTES = 'Path=/; HttpOnly; SameSite=Strict; Secure';

export function setSessionCookie(res: Response, token: string, maxAgeS: number): void {
  res.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeS))}; ${ATTRIBUTES}`);
}

export function clearSessionCookie(res: Response): void {
  res.append('Set-Cookie', `${SESSION_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`);
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write (POST, PUT, DELETE) that a browser session authenticates must come from the API's own
 * origin (`PUBLIC_BASE_URL`): 403 otherwise, so another site cannot make the browser write with
 * its cookie. `always`: check any Origin that is present, whatever the method (sign-in).
 */
export function checkOrigin(req: Request, origin: string, always = false): void {
  if (!always && !WRITES.has(req.method)) return;
  const given = req.headers.origin;
  if (always && given === undefined) return;
  if (given !== origin)
    throw new AppError('forbidden', `a browser session may only write from ${origin} (the Origin header)`);
}

export class SessionVerifier {
  constructor(private readonly sessions: ConsoleSessionsClient) {}

  /** The session's account and credential; 401 for an unknown, ended or expired session. */
  async verify(
    token: string,
    call: Pick<ClientCallOptions, 'requestId' | 'trace'>,
  ): Promise<{ principal: Principal; credential: Credential }> {
    const res = await this.sessions.verifyConsoleSession({ token }, call);
    const a = res.account!;
    return {
      principal: { accountId: a.id, username: a.username },
      credential: { type: 'session', id: res.sessionId, name: a.username, scope: 'full' },
    };
  }
}
