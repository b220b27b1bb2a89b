// First middleware of every request: its id (the client's X-Request-Id when well-formed, else a new
// UUID), echoed in the answer, and req.state with a logger that carries it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@switchboard/observability';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-Id when well-formed, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function requestId(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = requestIdOf(req);
    res.setHeader('X-Request-Id', id);
    // The child logger is made on first use: most requests never log before they finish.
    let child: Logger | undefined;
    req.state = {
      requestId: id,
      get log() {
        child ??= logger.child({ requestId: id });
        return child;
      },
    };
    next();
  };
}
