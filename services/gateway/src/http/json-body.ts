// JSON request bodies: a POST/PUT body must declare application/json (415), stay under the size limit
// (413) and nest at most JSON_MAX_DEPTH arrays and objects deep (400). A POST/PUT without a body
// passes with a JSON Content-Type or none. Only POST and PUT carry a body this API reads; a body on GET
// or DELETE is ignored.
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '@switchboard/errors';
import { JSON_MAX_DEPTH } from '../limits.ts';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Throws a 400 when the JSON text nests deeper than `max`: checked on the raw bytes before parsing,
 * so no later step (JSON.stringify, the services) ever recurses through a hostile depth. Brackets
 * inside strings do not count; the bytes are UTF-8, where every byte that matters here is ASCII.
 */
export function checkJsonDepth(buf: Buffer, max = JSON_MAX_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        throw AppError.invalid(
          [{ field: '(body)', message: `nests deeper than ${max} levels` }],
          `the request body nests arrays and objects deeper than the limit of ${max} levels`,
        );
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** req.is() answers null for a request without a body, whatever its Content-Type: read the header itself. */
function declaresJson(req: Request): boolean {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export function jsonBody(opts: { limitBytes: number }) {
  const parse = express.json({
    limit: opts.limitBytes,
    type: JSON_TYPES,
    strict: false,
    verify: (_req, _res, buf) => checkJsonDepth(buf),
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' && req.method !== 'PUT') {
      next();
      return;
    }
    // No body: nothing to parse. Actions need none; a route that reads a body answers 400 naming
    // it. A declared type must still be JSON: a browser sends a cross-site form or text/plain POST
    // without asking first (no CORS preflight), and an empty one must not reach an action.
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody && (req.headers['content-type'] === undefined || declaresJson(req))) {
      next();
      return;
    }
    if (!hasBody) {
      next(
        new AppError(
          'unsupported_media_type',
          'a request without a body may declare no Content-Type but application/json; send none, or the body as JSON',
        ),
      );
      return;
    }
    if (!req.is(JSON_TYPES)) {
      next(new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json'));
      return;
    }
    parse(req, res, next);
  };
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The Session API's bodies: JSON as jsonBody reads it, or a form (application/x-www-form-urlencoded,
 * flat: a repeated name is a list, which the routes refuse). Any other type is a 415.
 */
export function jsonOrFormBody(opts: { limitBytes: number }) {
  const json = jsonBody(opts);
  const form = express.urlencoded({ extended: false, limit: opts.limitBytes, parameterLimit: 1000 });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === 'POST' && req.is(FORM_TYPE)) {
      form(req, res, next);
      return;
    }
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    // Without a body the fields come in the query, whatever the Content-Type says: the token is
    // the credential, not anything a browser keeps.
    if (!hasBody) {
      next();
      return;
    }
    if (req.method === 'POST' && !req.is(JSON_TYPES)) {
      next(
        new AppError(
          'unsupported_media_type',
          'send the fields as JSON (Content-Type: application/json), as a form (application/x-www-form-urlencoded) or in the query',
        ),
      );
      return;
    }
    json(req, res, next);
  };
}
