// The audit log of a service that owns changes made through the API (docs/decisions/0006-audit-log.md):
// an `audit_events` table in the service's schema (made by its migrations), one row per change, written
// by the statement or transaction of the change itself, so a change and its entry never part; and
// the page of it that `ListAuditEvents` answers. The applications and webhooks services each keep
// their own table; the gateway merges their pages.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AUDIT_CURSOR_KIND, decodeCursor, pageSize, toPage } from '@switchboard/contracts';
import { AppError } from '@switchboard/errors';
import { DAY_MS, daysBefore } from '@switchboard/config';
import { isoTimestamp } from './timestamps.ts';
import type { AuditContext } from './audit-context.ts';
import type { TransactionQuery } from './db.ts';
import { sql } from './sql.ts';

export interface AuditEntry {
  accountId: string;
  action: string;
  /** The path of the resource (/v1/...), or ''. */
  target: string;
  outcome: 'success' | 'failure';
}

/** The entry of `action` done on the secret of the resource at `path` (/v1/...) of the account: a success. */
export const secretAuditEntry = (accountId: string, action: string, path: string): AuditEntry => ({
  accountId,
  action,
  target: `${path}/secret`,
  outcome: 'success',
});

const schemaOf = (em: EntityManager) => `"${em.config.get('schema')}"`;

/** The columns an entry is written with, in the order of auditValues. */
export const AUDIT_COLUMNS = 'account_id, actor_type, actor_id, actor_name, action, target, ip, request_id, outcome';

/** The insert of one entry ($1 account ... $9 outcome) into `schema`. */
export const insertAuditSql = (schema: string) =>
  `insert into ${schema}.audit_events (${AUDIT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/**
 * The insert of one entry per row of `from` (a CTE of the change's own statement, so the change and
 * its entry are one statement), with the values of auditValues as the parameters from $`first`.
 */
export function insertAuditFromSql(schema: string, first: number, from: string): string {
  const p = (i: number) => `$${first + i}`;
  return `insert into ${schema}.audit_events (${AUDIT_COLUMNS}) select ${p(0)}::bigint, ${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `${p(i)}::text`).join(', ')} from ${from}`;
}

/** The parameters of insertAuditSql. Without a caller's context the actor is the account's own password (the account command). */
export function auditValues(entry: AuditEntry, audit: AuditContext | undefined): unknown[] {
  const actor = audit?.actor ?? { type: 'password', id: entry.accountId };
  return [
    entry.accountId,
    actor.type,
    actor.id,
    actor.name ?? null,
    entry.action,
    entry.target,
    audit?.ip ?? '',
    audit?.requestId ?? '',
    entry.outcome,
  ];
}

/**
 * Writes an entry that records no change (a failed sign-in) on its own, unless one of the same
 * account, action, actor, client address and outcome was written in the last `windowMs`. Only the
 * account's 500 newest entries are looked at (its index, newest first), so the check costs the same
 * whatever the size of the account's log.
 */
export async function recordUnlessRecent(
  em: EntityManager,
  entry: AuditEntry,
  audit: AuditContext | undefined,
  windowMs: number,
): Promise<void> {
  const s = schemaOf(em);
  await sql(
    em,
    `insert into ${s}.audit_events (${AUDIT_COLUMNS})
     select $1::bigint, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text
     where not exists (
       select 1 from (select action, actor_id, ip, outcome, at from ${s}.audit_events where account_id = $1 order by id desc limit 500) r
       where action = $5 and actor_id = $3 and ip = $7 and outcome = $9 and at > now() - make_interval(secs => $10::float8 / 1000)
     )`,
    [...auditValues(entry, audit), windowMs],
  );
}

/** Writes the entry inside a transaction of transactionPrepared. */
export async function recordIn(
  query: TransactionQuery,
  schema: string,
  entry: AuditEntry,
  audit: AuditContext | undefined,
): Promise<void> {
  await query(insertAuditSql(schema), auditValues(entry, audit));
}

/**
 * Writes the entry through `em`: in its transaction when it is inside one (em.transactional: the
 * entry commits or rolls back with the change), alone otherwise (an entry that records no change,
 * such as a secret read, written before the secret is answered).
 */
export async function recordAlone(
  em: EntityManager,
  entry: AuditEntry,
  audit: AuditContext | undefined,
): Promise<void> {
  await sql(em, insertAuditSql(schemaOf(em)), auditValues(entry, audit));
}

interface AuditRow {
  seq: string;
  at: string;
  actor_type: string;
  actor_id: string;
  actor_name: string | null;
  action: string;
  target: string;
  ip: string;
  request_id: string;
  outcome: string;
}

/** An entry as `ListAuditEvents` answers it (the AuditEvent message). */
export interface AuditEventMessage {
  id: string;
  at: string;
  actorType: string;
  actorId: string;
  actorName: string;
  action: string;
  target: string;
  ip: string;
  requestId: string;
  outcome: string;
}

function toMessage(r: AuditRow): AuditEventMessage {
  return {
    id: r.seq,
    at: isoTimestamp(r.at),
    actorType: r.actor_type,
    actorId: r.actor_id,
    actorName: r.actor_name ?? '',
    action: r.action,
    target: r.target,
    ip: r.ip,
    requestId: r.request_id,
    outcome: r.outcome,
  };
}

export interface AuditFilter {
  action: string;
  actor: string;
  since: string;
  until: string;
}

/** Up to `limit` entries of the account, newest first, before `beforeSeq`, matching the filter (empty fields: any). */
async function readAuditPage(
  em: EntityManager,
  accountId: string,
  beforeSeq: string | undefined,
  limit: number,
  f: AuditFilter,
): Promise<AuditRow[]> {
  return sql<AuditRow>(
    em,
    `select id::text as seq, at::text as at, actor_type, actor_id, actor_name, action, target, ip, request_id, outcome from ${schemaOf(em)}.audit_events
     where account_id = $1 and ($2::bigint is null or id < $2) and ($3 = '' or action = $3) and ($4 = '' or actor_id = $4)
       and ($5::timestamptz is null or at >= $5) and ($6::timestamptz is null or at < $6)
     order by id desc limit $7`,
    [accountId, beforeSeq ?? null, f.action, f.actor, f.since || null, f.until || null, limit],
  );
}

const ACCOUNT_ID = /^\d{1,18}$/;

/** A `ListAuditEvents` request (the ListAuditEventsRequest message). */
export interface AuditPageRequest extends AuditFilter {
  accountId: string;
  limit: number;
  cursor: string;
}

/** One page of the account's audit log, newest first, filtered by action, actor and time (`ListAuditEvents`). */
export async function listAuditEvents(
  em: EntityManager,
  req: AuditPageRequest,
): Promise<{ events: AuditEventMessage[]; nextCursor: string }> {
  const n = pageSize(req.limit);
  const before = req.cursor ? decodeCursor(AUDIT_CURSOR_KIND, req.cursor) : undefined;
  const errors = [];
  for (const field of ['since', 'until'] as const) {
    if (req[field] && Number.isNaN(Date.parse(req[field])))
      errors.push({ field, message: 'must be an ISO 8601 date-time' });
  }
  if (errors.length) throw AppError.invalid(errors);
  if (!ACCOUNT_ID.test(req.accountId)) return { events: [], nextCursor: '' };
  const page = toPage(await readAuditPage(em, req.accountId, before, n + 1, req), n, AUDIT_CURSOR_KIND);
  return { events: page.items.map(toMessage), nextCursor: page.nextCursor };
}

/** Drops entries older than `days` days. */
export async function pruneAudit(em: EntityManager, days: number, dayMs = DAY_MS): Promise<number> {
  const rows = await sql<{ id: string }>(em, `delete from ${schemaOf(em)}.audit_events where at < $1 returning id`, [
    daysBefore(days, dayMs),
  ]);
  return rows.length;
}

/** Drops the entries of a deleted account (in the caller's transaction when there is one). */
export async function deleteAccountAudit(em: EntityManager, accountId: string): Promise<void> {
  await sql(em, `delete from ${schemaOf(em)}.audit_events where account_id = $1`, [accountId]);
}
