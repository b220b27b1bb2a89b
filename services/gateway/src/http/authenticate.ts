// Authentication and the per-account rate limit, before any body is read.
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@switchboard/platform';
import type { Authenticator } from '../auth';
import type { RateLimiter } from '../rate-limit';

export function authenticate(authenticator: Authenticator, limiter: RateLimiter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    authenticator.authenticate(req.headers.authorization, req.state.requestId).then(
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
