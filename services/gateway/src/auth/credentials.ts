// Every credential the API takes, to one Principal and Credential: the account password (HTTP
// Basic, auth.ts), an API key (Bearer, or Basic with the key's id as the username) and a browser
// session (the sb_session cookie, when no Authorization header is sent). `read` keys may only read.
import type { Request } from 'express';
import { AppError, type Counter } from '@switchboard/platform';
import { requestTrace } from '@switchboard/platform/tracing';
import { Authenticator, type Principal } from '../auth.ts';
import type { ApiKeyVerifier } from './api-keys.ts';
import { KEY_FORMAT, KEY_ID_FORMAT, type Credential, type CredentialType } from './credential.ts';
import { checkOrigin, sessionToken, type SessionVerifier } from './sessions.ts';

export interface Authenticated {
  principal: Principal;
  credential: Credential;
}

const READS = new Set(['GET', 'HEAD']);
const BEARER = /^Bearer\s+(\S{1,512})\s*$/i;

/** The outcome label of the auth metric for an error. */
function outcomeOf(err: unknown): string {
  if (err instanceof AppError) {
    if (err.code === 'unauthenticated') return 'unauthenticated';
    if (err.code === 'forbidden' || err.code === 'insufficient_scope') return 'forbidden';
    if (err.code === 'rate_limited') return 'rate_limited';
  }
  return 'error';
}

export class Credentials {
  constructor(
    private readonly passwords: Authenticator,
    private readonly keys: ApiKeyVerifier,
    private readonly sessions: SessionVerifier,
    /** PUBLIC_BASE_URL's origin: the Origin a write made with a browser session must carry. */
    private readonly origin: string,
    private readonly metric?: Counter<'credential' | 'outcome'>,
  ) {}

  async authenticate(req: Request, address: string): Promise<Authenticated> {
    const header = req.headers.authorization;
    const type: CredentialType =
      header === undefined ? 'session' : BEARER.test(header) || this.isKeyBasic(header) ? 'key' : 'password';
    try {
      const found = await this.resolve(req, header, type, address);
      if (found.credential.scope === 'read' && !READS.has(req.method)) {
        throw new AppError('insufficient_scope', 'this API key may only read (GET); use a key of scope "full"');
      }
      this.metric?.inc({ credential: type, outcome: 'ok' });
      return found;
    } catch (err) {
      this.metric?.inc({ credential: type, outcome: outcomeOf(err) });
      throw err;
    }
  }

  private isKeyBasic(header: string): boolean {
    if (!/^Basic\s/i.test(header)) return false;
    try {
      const { username, password } = Authenticator.parse(header);
      return KEY_ID_FORMAT.test(username) && KEY_FORMAT.test(password);
    } catch {
      return false;
    }
  }

  private async resolve(
    req: Request,
    header: string | undefined,
    type: CredentialType,
    address: string,
  ): Promise<Authenticated> {
    const call = { requestId: req.state.requestId, trace: requestTrace(req) };
    if (type === 'key') {
      const bearer = BEARER.exec(header!)?.[1];
      if (bearer !== undefined) {
        if (!KEY_FORMAT.test(bearer)) throw new AppError('unauthenticated', 'invalid or revoked API key');
        return this.keys.verify(bearer, call);
      }
      const { username, password } = Authenticator.parse(header);
      const found = await this.keys.verify(password, call);
      if (found.credential.id !== username) throw new AppError('unauthenticated', 'invalid or revoked API key');
      return found;
    }
    if (type === 'password') {
      const principal = await this.passwords.authenticate(header, req.state.requestId, address, call.trace);
      return {
        principal,
        credential: { type: 'password', id: principal.accountId, name: principal.username, scope: 'full' },
      };
    }
    const token = sessionToken(req);
    // No credential at all: the usual 401 with the Basic challenge.
    if (token === undefined) Authenticator.parse(undefined);
    const found = await this.sessions.verify(token!, call);
    checkOrigin(req, this.origin);
    return found;
  }
}
