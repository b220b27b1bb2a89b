import { AppError } from '@switchboard/errors';
import { isoTimestamp } from '@switchboard/db';
import type { VerifyConsoleSessionRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/VerifyConsoleSessionRequest';
import { keyedHash } from '../api-keys/keys.ts';
import type { SessionDeps } from './deps.ts';
import { touchSession } from './repository.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The account of a live browser session, whose idle clock restarts; anything else is unauthenticated. */
export async function verifyConsoleSession(deps: SessionDeps, req: VerifyConsoleSessionRequest__Output) {
  const row = TOKEN.test(req.token)
    ? await touchSession(
        deps.orm.em,
        keyedHash(deps.credentialKeys.sessions, req.token),
        deps.consoleSessions.idleMs,
        deps.consoleSessions.now(),
      )
    : undefined;
  if (!row) throw new AppError('unauthenticated', 'the session has ended; sign in again');
  return {
    account: { id: row.account_id, username: row.username, createdAt: isoTimestamp(row.account_created_at) },
    sessionId: row.id,
    expiresAt: isoTimestamp(row.expires_at),
  };
}
