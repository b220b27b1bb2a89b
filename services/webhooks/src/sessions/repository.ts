// The SQL of session records (docs/data-access.md): the sessions table partitioned by day on
// started_at, the signals queued for sessions (joined on read: a signal may come first), and the
// per-minute counts by outcome (session_rollups) and the session's alerts (alerts/), written in the
// transaction that stores a session.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, sqlTransaction } from '@switchboard/db';
import { Filters, type TimePosition } from '../db/filters.ts';
import type { SessionRecord } from '@switchboard/contracts';
import { raiseAlerts } from '../alerts/raise-alerts.ts';
import { sessionAlerts } from '../alerts/session-alerts.ts';
import { sessionUsage, sortIncrements } from '../usage/counts.ts';
import { addUsage } from '../usage/repository.ts';
import { enqueueEndedEvent, enqueueSessionEvents, enqueueSignalEvent } from './session-status.ts';

/** A stored session as read. */
export interface SessionRow {
  seq: string;
  id: string;
  started_at: Date;
  application_id: string | null;
  account_id: string;
  channel: string;
  from_id: string | null;
  to_id: string | null;
  routed_by_type: string;
  routed_by_value: string | null;
  outcome: string;
  attempt_count: number;
  failure_reason: string | null;
}

/**
 * A session with its attempts, as GetSession reads it. Its instructions are kept without their
 * excerpt: they are the answer of its last attempt, whose excerpt is kept already.
 */
export interface FullSessionRow extends SessionRow {
  attempts: SessionRecord['attempts'];
  instructions: { at: string; bytes: number } | null;
}

export interface SignalRow {
  at: Date;
  value: string;
  status: string;
}

const COLUMNS = `s.seq::text as seq, s.id, s.started_at, s.application_id, s.account_id::text as account_id, s.channel,
  s.from_id, s.to_id, s.routed_by_type, s.routed_by_value, s.outcome, s.attempt_count, s.failure_reason`;

/**
 * Stores a session and counts it in its application's minute, in one transaction. A session
 * already stored is left as it is (and not counted again); so is one of a deleted application or
 * account. Answers whether it was stored now.
 */
export async function insertSession(
  em: EntityManager,
  schema: string,
  baseUrl: string,
  r: SessionRecord,
): Promise<boolean> {
  return sqlTransaction(em, 'begin', async (query) => {
    const rows = await query<{ outcome: string }>(
      `insert into "${schema}".sessions
         (id, started_at, application_id, account_id, channel, from_id, to_id, routed_by_type, routed_by_value,
          outcome, attempt_count, attempts, instructions, failure_reason, status_callback_url)
       select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15
       where not exists (select 1 from "${schema}".deleted_applications g where g.application_id = $3)
         and not exists (select 1 from "${schema}".deleted_accounts g where g.account_id = $4)
       on conflict do nothing
       returning outcome`,
      [
        r.id,
        r.startedAt,
        r.applicationId,
        r.accountId,
        r.channel,
        r.from,
        r.to,
        r.routedBy.type,
        r.routedBy.value,
        r.outcome,
        r.attempts.length,
        JSON.stringify(r.attempts),
        r.instructions ? JSON.stringify({ at: r.instructions.at, bytes: r.instructions.bytes }) : null,
        r.failure?.reason ?? null,
        r.statusCallbackUrl ?? null,
      ],
    );
    const stored = rows[0];
    if (!stored) return false;
    if (r.accountId) {
      const s = { ...r, accountId: r.accountId };
      await raiseAlerts(
        query,
        schema,
        baseUrl,
        sessionAlerts(r).map((a) => ({
          ...a,
          accountId: s.accountId,
          applicationId: r.applicationId,
          subscriptionId: null,
          sessionId: r.id,
          deliveryId: null,
          foldAt: r.startedAt,
        })),
      );
      // The account's usage counts the session (its alerts count where they are raised).
      await addUsage(query, schema, sortIncrements(sessionUsage(s)));
      await enqueueSessionEvents(query, schema, baseUrl, s);
      // Signals stored before their session: their events go now.
      const signals = await query<{ at: Date; value: string }>(
        `select at, value from "${schema}".session_signals where session_id = $1 order by at, seq`,
        [r.id],
      );
      const ref = {
        id: r.id,
        accountId: s.accountId,
        applicationId: r.applicationId,
        statusCallbackUrl: r.statusCallbackUrl ?? null,
      };
      for (const [i, g] of signals.entries())
        await enqueueSignalEvent(query, schema, baseUrl, ref, { at: new Date(g.at), value: g.value, ordinal: i + 1 });
    }
    if (r.applicationId)
      await query(
        `insert into "${schema}".session_rollups as u (application_id, account_id, minute, answered, fallback, failed)
         values ($1, $2, date_trunc('minute', $3::timestamptz), ($4 = 'answered')::int, ($4 = 'fallback')::int, ($4 = 'failed')::int)
         on conflict (application_id, minute) do update set
           answered = u.answered + excluded.answered,
           fallback = u.fallback + excluded.fallback,
           failed = u.failed + excluded.failed`,
        [r.applicationId, r.accountId, r.startedAt, stored.outcome],
      );
    return true;
  });
}

/**
 * Keeps a signal queued for a session (its session may not be stored yet, or ever), once per
 * sequence number of the stream it came from; answers whether it was stored now.
 */
export async function insertSignal(
  em: EntityManager,
  schema: string,
  baseUrl: string,
  s: { seq: number; sessionId: string; at: Date; value: string; status: string },
): Promise<boolean> {
  return sqlTransaction(em, 'begin', async (query) => {
    const rows = await query(
      `insert into "${schema}".session_signals (seq, session_id, at, value, status) values ($1, $2, $3, $4, $5)
       on conflict do nothing returning seq`,
      [s.seq, s.sessionId, s.at, s.value, s.status],
    );
    if (rows.length === 0) return false;
    // Its session stored already: its sessionStatus event goes now (else when the session is stored).
    const [session] = await query<{
      account_id: string;
      application_id: string | null;
      status_callback_url: string | null;
      ordinal: number;
    }>(
      `select s.account_id::text as account_id, s.application_id, s.status_callback_url,
         (select count(*)::int from "${schema}".session_signals g where g.session_id = $1) as ordinal
       from "${schema}".sessions s where s.id = $1 limit 1`,
      [s.sessionId],
    );
    if (session)
      await enqueueSignalEvent(
        query,
        schema,
        baseUrl,
        {
          id: s.sessionId,
          accountId: session.account_id,
          applicationId: session.application_id,
          statusCallbackUrl: session.status_callback_url,
        },
        { at: s.at, value: s.value, ordinal: session.ordinal },
      );
    return true;
  });
}

/**
 * Marks a stored session ended, once, and writes its sessionStatus `ended` event (sequence after its
 * outcome and its signals). Answers 'ended', 'before' (ended already) or 'unknown' (not stored yet).
 */
export function endSession(
  em: EntityManager,
  schema: string,
  baseUrl: string,
  e: { sessionId: string; at: string; reason?: string | undefined },
): Promise<'ended' | 'before' | 'unknown'> {
  return sqlTransaction(em, 'begin', async (query) => {
    const rows = await query<{
      account_id: string;
      application_id: string | null;
      status_callback_url: string | null;
      ended: boolean;
      signals: number;
    }>(
      `with s as (select id, started_at, ended_at from "${schema}".sessions where id = $1 order by started_at desc limit 1),
       u as (update "${schema}".sessions x set ended_at = $2 from s
             where x.id = s.id and x.started_at = s.started_at and x.ended_at is null
             returning x.account_id, x.application_id, x.status_callback_url)
       select u.account_id::text as account_id, u.application_id, u.status_callback_url, true as ended,
         (select count(*)::int from "${schema}".session_signals g where g.session_id = $1) as signals
       from u
       union all
       select null, null, null, false, 0 from s where s.ended_at is not null`,
      [e.sessionId, e.at],
    );
    const row = rows[0];
    if (!row) return 'unknown';
    if (!row.ended) return 'before';
    await enqueueEndedEvent(
      query,
      schema,
      baseUrl,
      {
        id: e.sessionId,
        accountId: row.account_id,
        applicationId: row.application_id,
        statusCallbackUrl: row.status_callback_url,
      },
      { at: e.at, sequence: 3 + row.signals, reason: e.reason },
    );
    return 'ended';
  });
}

export interface SessionFilters {
  outcome: string | null;
  channel: string | null;
  since: Date | null;
  until: Date | null;
  from: string | null;
}

/**
 * Up to `limit` sessions of an application of the account, newest first (by start, then by
 * arrival), after the cursor position `before` when given. The statement names only the filters
 * given (at most 64 texts), so each is planned on the index that serves it: the application's
 * sessions by time, or by outcome, channel or caller and time.
 */
export function listSessionRows(
  em: EntityManager,
  schema: string,
  accountId: string,
  applicationId: string,
  f: SessionFilters,
  before: TimePosition | null,
  limit: number,
): Promise<SessionRow[]> {
  const where = new Filters(['s.application_id = $1', 's.account_id = $2'], [applicationId, accountId, limit]);
  if (f.outcome) where.add((n) => `s.outcome = $${n}`, f.outcome);
  if (f.channel) where.add((n) => `s.channel = $${n}`, f.channel);
  if (f.from) where.add((n) => `s.from_id = $${n}`, f.from);
  where.window('s.started_at', f.since, f.until);
  where.before('s.started_at', 's.seq', before);
  return sql<SessionRow>(
    em,
    `select ${COLUMNS} from "${schema}".sessions s where ${where}
     order by s.started_at desc, s.seq desc limit $3`,
    where.values,
  );
}

/** The account's session with this id (the newest, were one id stored twice), with its signals; undefined when none. */
export async function findSession(
  em: EntityManager,
  schema: string,
  accountId: string,
  id: string,
): Promise<{ session: FullSessionRow; signals: SignalRow[] } | undefined> {
  const [session] = await sql<FullSessionRow>(
    em,
    `select ${COLUMNS}, s.attempts, s.instructions from "${schema}".sessions s
     where s.id = $1 and s.account_id = $2
       and not exists (select 1 from "${schema}".deleted_applications g where g.application_id = s.application_id)
     order by s.started_at desc limit 1`,
    [id, accountId],
  );
  if (!session) return undefined;
  const signals = await sql<SignalRow>(
    em,
    `select at, value, status from "${schema}".session_signals where session_id = $1 order by at, seq limit 1000`,
    [id],
  );
  return { session, signals };
}

/** Sessions of an application by outcome, per bucket of `bucketSeconds` from `from` (inclusive) to `to` (exclusive). */
export interface SessionBucket {
  start: Date;
  answered: number;
  fallback: number;
  failed: number;
}

/**
 * The counts of an application's sessions by outcome in buckets of `bucketSeconds` (a multiple of
 * 60) over [from, to), read from the per-minute rollups only; buckets without sessions are left
 * out. Buckets start at multiples of `bucketSeconds` since the epoch.
 */
export function sessionBuckets(
  em: EntityManager,
  schema: string,
  applicationId: string,
  from: Date,
  to: Date,
  bucketSeconds: number,
): Promise<SessionBucket[]> {
  return sql<SessionBucket>(
    em,
    `select to_timestamp(floor(extract(epoch from minute) / $4) * $4) as start,
       sum(answered)::int as answered, sum(fallback)::int as fallback, sum(failed)::int as failed
     from "${schema}".session_rollups
     where application_id = $1 and minute >= $2 and minute < $3
     group by 1 order by 1`,
    [applicationId, from, to, bucketSeconds],
  );
}

/** Deletes signals older than `signalsBefore` and rollups older than `rollupsBefore`; answers the rows deleted. */
export async function pruneSessionExtras(
  em: EntityManager,
  schema: string,
  signalsBefore: Date,
  rollupsBefore: Date,
): Promise<number> {
  const signals = await sql<{ n: number }>(
    em,
    `with d as (delete from "${schema}".session_signals where at < $1 returning 1) select count(*)::int as n from d`,
    [signalsBefore],
  );
  const rollups = await sql<{ n: number }>(
    em,
    `with d as (delete from "${schema}".session_rollups where minute < $1 returning 1) select count(*)::int as n from d`,
    [rollupsBefore],
  );
  return (signals[0]?.n ?? 0) + (rollups[0]?.n ?? 0);
}

/**
 * Deletes up to `batch` sessions of a deleted application, or the sessions without an application
 * of a deleted account, with their signals; the application's rollups and alerts (the account's
 * alerts) go with its last batch.
 * Answers the sessions deleted (fewer than `batch`: none left).
 */
export function deleteSessionsOnce(
  em: EntityManager,
  schema: string,
  owner: { applicationId: string } | { accountId: string },
  batch: number,
): Promise<number> {
  return sqlTransaction(em, 'begin', async (query) => {
    const deleted =
      'applicationId' in owner
        ? await query<{ id: string }>(
            `delete from "${schema}".sessions where (id, started_at) in (
               select id, started_at from "${schema}".sessions where application_id = $1 limit ${batch}
             ) returning id`,
            [owner.applicationId],
          )
        : await query<{ id: string }>(
            `delete from "${schema}".sessions where (id, started_at) in (
               select id, started_at from "${schema}".sessions where account_id = $1 and application_id is null limit ${batch}
             ) returning id`,
            [owner.accountId],
          );
    if (deleted.length > 0)
      await query(`delete from "${schema}".session_signals where session_id = any($1::text[])`, [
        deleted.map((d) => d.id),
      ]);
    if (deleted.length < batch && 'applicationId' in owner) {
      await query(`delete from "${schema}".session_rollups where application_id = $1`, [owner.applicationId]);
      await query(`delete from "${schema}".alerts where application_id = $1`, [owner.applicationId]);
    }
    if (deleted.length < batch && 'accountId' in owner)
      await query(`delete from "${schema}".alerts where account_id = $1`, [owner.accountId]);
    return deleted.length;
  });
}
