// GET /v1/applications/:id with a Bearer API key: the key is verified by the read's own call (the
// applications service verifies it and reads the application of its account in one statement)
// instead of by a VerifyApiKey call before it. Every request still verifies its key: an unknown or
// revoked key is refused (401) as on any other route. Any other credential goes on to the API's
// authentication (authenticate.ts) and routes.
import type { NextFunction, Request, Response } from 'express';
import { AppError, type Cidr } from '@switchboard/platform';
import { keyPrincipal } from '../auth/api-keys.ts';
import type { Credentials } from '../auth/credentials.ts';
import { clientGroup } from '../client-address.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { applicationJson } from './applications.ts';
import { admit } from './authenticate.ts';
import { callOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { sendJson } from './routing.ts';

/** The paths it serves, under each API prefix. */
export const APPLICATION_READ_PATHS = ['/v1/applications/:id', '/rest/v1/applications/:id'];

/**
 * The request is counted against its account's rate limit once the key is known (with the answer):
 * over the limit it is answered 429, as it would have been before the read.
 */
export function applicationReadWithKey(
  credentials: Credentials,
  limiter: RateLimiter,
  trustedProxies: readonly Cidr[],
  { applications, hrefs }: Pick<RouteDeps, 'applications' | 'hrefs'>,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = credentials.bearerKey(req);
    if (key === undefined) {
      next();
      return;
    }
    const address = clientGroup(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    applications.getApplication({ id: String(req.params.id), apiKey: key }, callOptions(req)).then(
      (answer) => {
        credentials.countKey();
        const refused = admit(req, keyPrincipal(answer.key!), address, limiter);
        if (refused) next(refused);
        else if (!answer.application) next(AppError.notFound('application'));
        else sendJson(res, applicationJson(answer.application, hrefs));
      },
      (err: unknown) => {
        credentials.countKey(err);
        next(
          err instanceof AppError && err.code === 'unauthenticated'
            ? new AppError('unauthenticated', 'invalid or revoked API key')
            : err,
        );
      },
    );
  };
}
