// One place maps every error to an RFC 9457 problem+json response (docs/api-rules.md#errors).
import type { NextFunction, Request, Response } from 'express';
import { AppError, ERROR_CODES } from '@switchboard/errors';
import type { Logger } from '@switchboard/observability';
import type { ProblemBody } from './response-bodies.ts';

export function problemBody(err: AppError, instance?: string): ProblemBody {
  const info = ERROR_CODES[err.code];
  return {
    type: `urn:switchboard:problem:${err.code}`,
    title: info.title,
    status: info.http,
    detail: err.detail,
    // The detail again, under the name the PHP Tropo client builds its exception message from.
    error: err.detail,
    code: err.code,
    ...(err.errors ? { errors: err.errors } : {}),
    ...(instance ? { instance } : {}),
  };
}

/** A fetch() of a page of the API's own origin (the console), by the browser's Fetch Metadata headers. */
function fromOwnPage(req: Request | undefined): boolean {
  return req?.headers['sec-fetch-site'] === 'same-origin' && req.headers['sec-fetch-dest'] === 'empty';
}

export function sendProblem(res: Response, err: AppError): void {
  // No Basic challenge for the console's own fetches (same origin, not a navigation): a browser would
  // answer it with its password dialog instead of letting the page show its sign-in form.
  if (err.code === 'unauthenticated' && !fromOwnPage(res.req))
    res.setHeader('WWW-Authenticate', 'Basic realm="switchboard"');
  if (err.retryAfterS !== undefined && !res.getHeader('Retry-After'))
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterS))));
  if (err.code === 'unavailable' && !res.getHeader('Retry-After')) res.setHeader('Retry-After', '1');
  res
    .status(err.httpStatus)
    .type('application/problem+json')
    .send(JSON.stringify(problemBody(err)));
}

/** Errors raised by the JSON body parser, by their `type`. */
function fromBodyParser(err: { type?: string; status?: number; message?: string }): AppError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return AppError.invalid(
        [{ field: '(body)', message: 'is not valid JSON' }],
        'the request body is not valid JSON',
      );
    case 'parameters.too.many':
      return AppError.invalid(
        [{ field: '(body)', message: 'has too many form fields' }],
        'the form has too many fields',
      );
    case 'entity.too.large':
      return new AppError('payload_too_large', 'the request body is larger than the limit');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('unsupported_media_type', 'send the body as UTF-8 JSON');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return new AppError('invalid_request', 'the request body could not be read');
  }
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    return new AppError('invalid_request', 'the request could not be read');
  }
  return undefined;
}

export function notFoundHandler(_req: Request, _res: Response, next: NextFunction): void {
  next(new AppError('not_found', 'no such resource'));
}

export function problemHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const log = req.state?.log ?? logger;
    let app: AppError;
    if (err instanceof AppError) app = err;
    // A path segment that is not valid percent-encoded UTF-8 names nothing that exists.
    else if (err instanceof URIError) app = new AppError('not_found', 'no such resource');
    else app = fromBodyParser(err as never) ?? new AppError('internal', 'internal error', undefined, { cause: err });
    if (app.code === 'internal') {
      log.error({ err: app.cause ?? err }, 'unhandled error');
      app = new AppError(
        'internal',
        `internal error; quote request id ${req.state?.requestId ?? ''} when reporting it`,
      );
    } else if (app.code === 'unavailable' || app.code === 'timeout') {
      log.warn({ err: (app.cause as Error | undefined)?.message }, 'dependency unavailable');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, app);
  };
}
