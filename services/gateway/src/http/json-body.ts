// JSON request bodies: POST/PUT must declare application/json (415) and stay under the size limit
// (413). Only POST and PUT carry a body this API reads; a body on GET or DELETE is ignored.
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '@switchboard/platform';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** `application/json` or `application/<x>+json` (parameters such as charset are checked by the body parser). */
function isJsonType(header: string | undefined): boolean {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

export function jsonBody(opts: { limitBytes: number }) {
  const parse = express.json({ limit: opts.limitBytes, type: JSON_TYPES, strict: false });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' && req.method !== 'PUT') return next();
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody && /\/secret\/rotate\/?$/.test(req.path)) return next();
    if (hasBody ? !req.is(JSON_TYPES) : !isJsonType(req.headers['content-type'])) {
      return next(new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json'));
    }
    // Declared as JSON but empty: the client's body is missing, not of the wrong type.
    if (!hasBody) return next(AppError.invalid([{ field: 'body', message: 'is required: a JSON object' }]));
    parse(req, res, next);
  };
}
