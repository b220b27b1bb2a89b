import { randomBytes } from 'node:crypto';
import { AppError } from '@switchboard/errors';
import { isoTimestamp, type AuditContext } from '@switchboard/db';
import type { CreateConsoleSessionRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/CreateConsoleSessionRequest';
import { keyedHash } from '../api-keys/keys.ts';
import type { SessionDeps } from './deps.ts';
import { insertSession } from './repository.ts';

/**
 * Starts a browser session for an account the gateway has authenticated (its password checked with
 * the lockout of Basic auth). The token, 32 random bytes, is answered once; only its keyed hash is kept.
 */
export async function createConsoleSession(
  deps: SessionDeps,
  req: CreateConsoleSessionRequest__Output,
  audit?: AuditContext,
) {
  const token = randomBytes(32).toString('base64url');
  const row = await insertSession(
    deps.orm.em,
    {
      id: `cs_${randomBytes(12).toString('hex')}`,
      accountId: req.accountId,
      hash: keyedHash(deps.credentialKeys.sessions, token),
      absoluteMs: deps.consoleSessions.absoluteMs,
      now: deps.consoleSessions.now(),
    },
    audit,
  );
  if (!row) throw AppError.notFound('user');
  return {
    token,
    expiresAt: isoTimestamp(row.expires_at),
    account: { id: row.account_id, username: row.username, createdAt: isoTimestamp(row.account_created_at) },
  };
}
