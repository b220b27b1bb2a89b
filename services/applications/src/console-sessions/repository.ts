// Storage of the console's browser sessions: raw prepared statements on the ORM's pool, each
// session found by the keyed hash of its token (a unique index).
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, sqlTransaction } from '@switchboard/db';
import type { AuditContext } from '@switchboard/db';
import { recordIn } from '../audit/repository.ts';

export interface SessionRow {
  id: string;
  account_id: string;
  username: string;
  /** timestamptz as text (isoTimestamp). */
  account_created_at: string;
  expires_at: string;
}

const schemaOf = (em: EntityManager) => `"${em.config.get('schema')}"`;

/** Starts a session and writes the sign-in's audit entry, in one transaction; undefined when there is no such account. */
export async function insertSession(
  em: EntityManager,
  s: { id: string; accountId: string; hash: Buffer; absoluteMs: number; now: Date },
  audit: AuditContext | undefined,
): Promise<SessionRow | undefined> {
  const schema = schemaOf(em);
  return sqlTransaction(em, 'begin', async (query) => {
    const rows = await query<SessionRow>(
      `with s as (insert into ${schema}.console_sessions (id, account_id, token_hash, created_at, last_seen_at, expires_at)
         select $1, a.id, $3, $5::timestamptz, $5::timestamptz, $5::timestamptz + make_interval(secs => $4::float8 / 1000) from ${schema}.accounts a where a.id = $2
         returning id, account_id, expires_at)
       select s.id, s.account_id::text, a.username, a.created_at::text as account_created_at, s.expires_at::text as expires_at from s join ${schema}.accounts a on a.id = s.account_id`,
      [s.id, s.accountId, s.hash, s.absoluteMs, s.now],
    );
    if (rows[0])
      await recordIn(
        query,
        schema,
        { accountId: s.accountId, action: 'session.sign-in', target: '/v1/console/session', outcome: 'success' },
        audit,
      );
    return rows[0];
  });
}

/** The longest a session's idle clock goes without being restarted while it is used. */
export const TOUCH_EVERY_MS = 60_000;

/**
 * The live session with this token hash, its idle clock restarted; undefined when there is none,
 * or it is past its absolute end or idle for longer than `idleMs`. The lookup is a read: the clock
 * is written only when it is older than a minute (a quarter of `idleMs` when that is shorter), so a
 * busy session costs one UPDATE a minute and a guessed token none. `now` is the clock's time.
 */
export async function touchSession(
  em: EntityManager,
  hash: Buffer,
  idleMs: number,
  now: Date,
): Promise<SessionRow | undefined> {
  const schema = schemaOf(em);
  const rows = await sql<SessionRow & { stale: boolean }>(
    em,
    `select s.id, s.account_id::text, a.username, a.created_at::text as account_created_at, s.expires_at::text as expires_at,
       s.last_seen_at <= $4::timestamptz - make_interval(secs => $3::float8 / 1000) as stale
     from ${schema}.console_sessions s join ${schema}.accounts a on a.id = s.account_id
     where s.token_hash = $1 and s.expires_at > $4::timestamptz and s.last_seen_at > $4::timestamptz - make_interval(secs => $2::float8 / 1000)`,
    [hash, idleMs, Math.min(TOUCH_EVERY_MS, idleMs / 4), now],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.stale)
    await sql(
      em,
      `update ${schema}.console_sessions set last_seen_at = $2::timestamptz where id = $1 and last_seen_at < $2::timestamptz`,
      [row.id, now],
    );
  const { stale: _, ...session } = row;
  return session;
}

/** Ends a session and writes the sign-out's audit entry, in one transaction. */
export async function deleteSession(em: EntityManager, hash: Buffer, audit: AuditContext | undefined): Promise<void> {
  const schema = schemaOf(em);
  await sqlTransaction(em, 'begin', async (query) => {
    const rows = await query<{ id: string; account_id: string; username: string }>(
      `delete from ${schema}.console_sessions s using ${schema}.accounts a where s.token_hash = $1 and a.id = s.account_id returning s.id, s.account_id::text, a.username`,
      [hash],
    );
    const ended = rows[0];
    if (!ended) return;
    const actor = { type: 'session' as const, id: ended.id, name: ended.username };
    await recordIn(
      query,
      schema,
      { accountId: ended.account_id, action: 'session.sign-out', target: '/v1/console/session', outcome: 'success' },
      { ip: audit?.ip ?? '', requestId: audit?.requestId ?? '', actor },
    );
  });
}

/** Ends sessions that can no longer be used at `now` (past their end, or idle too long). */
export async function pruneSessions(em: EntityManager, idleMs: number, now: Date): Promise<number> {
  const rows = await sql<{ id: string }>(
    em,
    `delete from ${schemaOf(em)}.console_sessions where expires_at <= $2::timestamptz or last_seen_at <= $2::timestamptz - make_interval(secs => $1::float8 / 1000) returning id`,
    [idleMs, now],
  );
  return rows.length;
}

/** Ends every browser session of the account (a password change), in the caller's transaction. */
export async function endAccountSessions(em: EntityManager, accountId: string): Promise<void> {
  await sql(em, `delete from ${schemaOf(em)}.console_sessions where account_id = $1`, [accountId]);
}
