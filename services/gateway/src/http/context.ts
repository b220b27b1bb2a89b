import type { Request } from 'express';
import type { Logger } from '@switchboard/platform';
import type { Principal } from '../auth';

/** Per-request values set by the middleware chain. */
export interface RequestState {
  requestId: string;
  log: Logger;
  principal?: Principal;
}

declare module 'express-serve-static-core' {
  interface Request {
    state: RequestState;
  }
}

/** The authenticated caller; the auth middleware guarantees it on every API route. */
export function principal(req: Request): Principal {
  const p = req.state.principal;
  if (!p) throw new Error('route reached without authentication');
  return p;
}

/** Options for every gRPC call made on behalf of this request. */
export function callOptions(req: Request): { requestId: string } {
  return { requestId: req.state.requestId };
}
