// What an answer may expose of the account's credentials: signing secrets only to a `full`
// credential, session tokens and session ids (which authenticate the Session API) masked for a
// `read` key, and no cache anywhere keeps an answer that carries a secret, a key or a token.
import type { Request, Response } from 'express';
import { AppError } from '@switchboard/errors';

/** What a credential reads in place of a token or session id it may not see. */
export const MASKED = '***';

/** True when the request was authenticated with a `read` key: tokens and session ids read as MASKED. */
export function readOnly(req: Request): boolean {
  return req.state.credential?.scope === 'read';
}

/** 403 `insufficient_scope` unless the request's credential is `full` (every one but a `read` key). */
export function requireFull(req: Request): void {
  if (readOnly(req))
    throw new AppError('insufficient_scope', 'reading a signing secret takes a credential of scope "full"');
}

/** Marks an answer that carries a secret, a key or a token: no browser or proxy cache may keep it. */
export function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}
