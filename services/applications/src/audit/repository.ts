// The audit log: one row per change made through the API (and per sign-in), written by the
// statement or transaction of the change itself, so a change and its entry never part.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/orm';
import { isoTimestamp, type AuditContext, type TransactionQuery } from '@switchboard/platform';
import { AuditEventSchema } from '../db/entities.ts';
import type { AuditEvent as Message } from '@switchboard/proto/generated/switchboard/applications/v1/AuditEvent';

export interface AuditEntry {
  accountId: string;
  action: string;
  /** The path of the resource (/v1/...), or ''. */
  target: string;
  outcome: 'success' | 'failure';
}

const schemaOf = (em: EntityManager) => `"${em.config.get('schema')}"`;

/** The columns an entry is written with, in the order of auditValues. */
export const AUDIT_COLUMNS = 'account_id, actor_type, actor_id, actor_name, action, target, ip, request_id, outcome';

/** The insert of one entry ($1 account ... $9 outcome) into `schema`. */
export const insertAuditSql = (schema: string) =>
  `insert into ${schema}.audit_events (${AUDIT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/** The parameters of insertAuditSql (AUDIT_COLUMNS). Without a caller's context the actor is the account's own password (the account command). */
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

/** Writes the entry inside a transaction of transactionPrepared. */
export async function recordIn(
  query: TransactionQuery,
  schema: string,
  entry: AuditEntry,
  audit: AuditContext | undefined,
): Promise<void> {
  await query(insertAuditSql(schema), auditValues(entry, audit));
}

/** Persists the entry with the entity manager's next flush (the change it records is in the same transaction). */
export function auditWithFlush(em: EntityManager, entry: AuditEntry, audit: AuditContext | undefined): void {
  const [accountId, actorType, actorId, actorName, action, target, ip, requestId, outcome] = auditValues(
    entry,
    audit,
  ) as string[];
  em.persist(
    em.create(AuditEventSchema, {
      accountId: accountId!,
      at: new Date(),
      actorType: actorType!,
      actorId: actorId!,
      actorName: actorName ?? null,
      action: action!,
      target: target!,
      ip: ip!,
      requestId: requestId!,
      outcome: outcome!,
    }),
  );
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

/** Writes an entry that records no change on its own. */
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

export function toMessage(r: AuditRow): Message {
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
export async function readAuditPage(
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

/** Drops entries older than `days` days. */
export async function pruneAudit(em: EntityManager, days: number): Promise<number> {
  const rows = await sql<{ id: string }>(
    em,
    `delete from ${schemaOf(em)}.audit_events where at < now() - make_interval(days => $1::int) returning id`,
    [days],
  );
  return rows.length;
}
