// Writes from another site: a browser sends a page's form POST or fetch to this API with whatever
// credential it keeps for it (a session cookie, or Basic credentials it cached), so any write
// (POST, PUT, PATCH, DELETE) that a browser marks as coming from another origin is refused before
// authentication, whatever it carries. Clients that send no Origin (curl, the Tropo libraries) are
// unaffected.
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@switchboard/errors';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * 403 `forbidden` for a write whose `Origin` is present and is not `origin` (PUBLIC_BASE_URL's;
 * `null`, a sandboxed or privacy-sensitive context, is refused too), or whose `Sec-Fetch-Site` is
 * `cross-site`.
 */
export function refuseCrossSiteWrites(origin: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    next(WRITES.has(req.method) ? crossSiteRefusal(req, origin) : undefined);
  };
}

/** The refusal of a write from another site, or undefined. */
function crossSiteRefusal(req: Request, origin: string): AppError | undefined {
  const given = req.headers.origin;
  if (given !== undefined && given !== origin)
    return new AppError('forbidden', `a write is accepted only from ${origin} (the Origin header)`);
  if (req.headers['sec-fetch-site'] === 'cross-site')
    return new AppError('forbidden', `a write is accepted only from ${origin} (Sec-Fetch-Site: cross-site)`);
  return undefined;
}
