// Every credential the API takes, to one Principal and Credential: the account password (HTTP
// Basic, auth.ts), an API key (Bearer, or Basic with the key's id as the username) and a browser
// session (the __Host-sb_session cookie, when no Authorization header is sent). `read` keys may only read.
import type { Request } from 'express';
import { AppError } from '@switchboard/errors';
import type { Counter } from '@switchboard/observability';
import { requestTrace } from '@switchboard/observability/tracing';
import { Authenticator, type Principal } from '../auth.ts';
import type { ApiKeyVerifier } from './api-keys.ts';
import { KEY_FORMAT, KEY_ID_FORMAT, type Credential, type CredentialType } from './credential.ts';
import type { FailedSignIns } from './failed-sign-ins.ts';
import { checkOrigin, sessionToken, type SessionVerifier } from './sessions.ts';

export interface Authenticated {
  principal: Principal;
  credential: Credential;
}

const READS = new Set(['GET', 'HEAD']);

/** The request's session token, or undefined (none, malformed, or the cookie twice). */
function sessionTokenOrNone(req: Request): string | undefined {
  try {
    return sessionToken(req);
  } catch {
    return undefined;
  }
}
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
    /** The audit log's failed sign-ins: a refused password or key id (HTTP Basic). */
    private readonly failures?: FailedSignIns,
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
      if (err instanceof AppError && err.code === 'unauthenticated') {
        // A refused key or cookie is a guess like a refused password (which the authenticator counts).
        if (type !== 'password' && (type === 'key' || sessionTokenOrNone(req) !== undefined))
          await this.passwords.countGuess(address);
        this.recordFailure(req, header, type, address);
      }
      throw err;
    }
  }

  /**
   * A refused HTTP Basic sign-in goes to the audit log of the account it named (in the background,
   * failed-sign-ins.ts): the username's for a password, the key id's for a key. A Bearer key names
   * no account, and a malformed header names nothing.
   */
  private recordFailure(req: Request, header: string | undefined, type: CredentialType, address: string): void {
    if (!this.failures || header === undefined || type === 'session' || BEARER.test(header)) return;
    let username: string;
    try {
      ({ username } = Authenticator.parse(header));
    } catch {
      return;
    }
    const call = { requestId: req.state.requestId, trace: requestTrace(req) };
    void this.failures.record(
      type === 'key' ? { action: 'api-key.sign-in', keyId: username } : { action: 'password.sign-in', username },
      address,
      call,
    );
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
        if (!this.keys.knows(bearer)) this.passwords.checkAddress(address);
        return this.keys.verify(bearer, call);
      }
      const { username, password } = Authenticator.parse(header);
      if (!this.keys.knows(password)) this.passwords.checkAddress(address);
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
    this.passwords.checkAddress(address);
    const found = await this.sessions.verify(token!, call);
    checkOrigin(req, this.origin);
    return found;
  }
}
