// Authentication and the per-account rate limit, before any body is read.
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@switchboard/platform';
import type { Cidr } from '@switchboard/platform';
import type { Authenticator } from '../auth';
import { clientAddress } from '../client-address';
import type { RateLimiter } from '../rate-limit';

export function authenticate(authenticator: Authenticator, limiter: RateLimiter, trustedProxies: readonly Cidr[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    authenticator.authenticate(req.headers.authorization, req.state.requestId, address).then(
      (p) => {
        req.state.principal = p;
        const wait = limiter.take(p.accountId);
        if (wait > 0) {
          res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
          return next(new AppError('rate_limited', 'rate limit exceeded for this account'));
        }
        next();
      },
      (err: unknown) => {
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
        next(err);
      },
    );
  };
}
