// Authentication and the per-account rate limit, before any body is read; and, before Express sees
// a request at all, the refusal of guesses from a client address over its budget of failed logins.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@switchboard/errors';
import type { Cidr } from '@switchboard/security';
import type { Authenticator } from '../auth.ts';
import { clientGroup } from '../client-address.ts';
import type { Limiter } from '../rate-limit.ts';
import { problemBody } from './problem.ts';
import { requestIdOf } from './request-id.ts';
import type { Authenticated, Credentials } from '../auth/credentials.ts';

export function authenticate(credentials: Credentials, limiter: Limiter, trustedProxies: readonly Cidr[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const address = clientGroup(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    credentials.authenticate(req, address).then(
      (found) => {
        const refusal = admit(req, found, address, limiter);
        if (refusal instanceof Promise) refusal.then(next, next);
        else next(refusal);
      },
      (err: unknown) => {
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
        next(err);
      },
    );
  };
}

const overLimit = (wait: number) =>
  wait > 0
    ? new AppError('rate_limited', 'rate limit exceeded for this account', undefined, { retryAfterS: wait / 1000 })
    : undefined;

/**
 * Records who an authenticated request is from, and takes a request of its account's rate limit:
 * the error to answer when the account is over it. Answered at once while the replica holds tokens
 * of the account (the hot path); a promise when it has to lease some first.
 */
export function admit(
  req: Request,
  { principal, credential }: Authenticated,
  address: string,
  limiter: Limiter,
): AppError | undefined | Promise<AppError | undefined> {
  req.state.principal = principal;
  req.state.credential = credential;
  req.state.clientAddress = address;
  const wait = limiter.take(principal.accountId);
  return typeof wait === 'number' ? overLimit(wait) : wait.then(overLimit);
}

const SHED = {
  429: JSON.stringify(
    problemBody(new AppError('rate_limited', 'too many failed logins from this address; try again later')),
  ),
  503: JSON.stringify(
    problemBody(new AppError('unavailable', 'too many logins are being verified; try again shortly')),
  ),
};

/**
 * The first look at every request, before routing, logging or the body: an API request that
 * authenticate() would refuse before verifying it (its client address over its budget of failed
 * logins, or the verifier's queue full, and credentials the gateway does not already know) is
 * answered 429 or 503 + Retry-After at once, at a fraction of the cost. True when it answered.
 */
export function shedBeforeWork(
  authenticator: Authenticator,
  trustedProxies: readonly Cidr[],
  apiPrefixes: readonly string[],
) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (req.headers.authorization === undefined || !apiPrefixes.some((p) => url.startsWith(p))) return false;
    const address = clientGroup(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    const refusal = authenticator.shedBeforeWork(req.headers.authorization, address);
    if (!refusal) return false;
    const body = SHED[refusal.status];
    res.writeHead(refusal.status, {
      'Content-Type': 'application/problem+json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Retry-After': String(refusal.retryAfter),
      'X-Request-Id': requestIdOf(req),
    });
    res.end(body);
    return true;
  };
}
