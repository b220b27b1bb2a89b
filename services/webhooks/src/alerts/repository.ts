// The SQL of alerts (docs/data-access.md): the alerts table partitioned by day on `minute`; one row
// per account, code, application and minute, whose `count` grows with each alert folded into it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/orm';
import type { TransactionQuery } from '@switchboard/platform';
import type { RaisedAlert } from './session-alerts.ts';

/** The partitioned table of alerts. */
export const ALERTS_TABLE = 'alerts';

export interface AlertRow {
  seq: string;
  id: string;
  account_id: string;
  code: string;
  severity: string;
  application_id: string;
  subscription_id: string | null;
  session_id: string | null;
  delivery_id: string | null;
  attempt: number | null;
  message: string;
  minute: Date;
  at: Date;
  last_at: Date;
  count: number;
}

const COLUMNS = `a.seq::text as seq, a.id::text as id, a.account_id::text as account_id, a.code, a.severity,
  a.application_id, a.subscription_id, a.session_id, a.delivery_id, a.attempt, a.message, a.minute, a.at, a.last_at, a.count`;

/**
 * Stores a session's alerts in the caller's transaction: one of the same code, application and
 * minute (of the session's start) as a stored one adds to its count and its last time; the first
 * keeps its link. Answers every alert with the id of the row it is stored in, and whether it is
 * the first of its minute.
 */
export async function foldSessionAlerts(
  query: TransactionQuery,
  schema: string,
  s: { accountId: string; applicationId: string | null; sessionId: string; startedAt: string },
  alerts: RaisedAlert[],
): Promise<Array<RaisedAlert & { id: string; first: boolean }>> {
  const stored: Array<RaisedAlert & { id: string; first: boolean }> = [];
  for (const a of alerts) {
    const [row] = await query<{ id: string; first: boolean }>(
      `insert into "${schema}".alerts as x
         (account_id, code, severity, application_id, session_id, attempt, message, minute, at, last_at)
       values ($1, $2, $3, $4, $5, $6, $7, date_trunc('minute', $8::timestamptz), $9, $9)
       on conflict (account_id, code, application_id, minute) do update set
         count = x.count + 1, last_at = greatest(x.last_at, excluded.last_at)
       returning x.id::text as id, x.count = 1 as first`,
      [s.accountId, a.code, a.severity, s.applicationId ?? '', s.sessionId, a.attempt, a.message, s.startedAt, a.at],
    );
    if (row) stored.push({ ...a, id: row.id, first: row.first });
  }
  return stored;
}

export interface AlertFilters {
  code: string | null;
  severity: string | null;
  applicationId: string | null;
  since: Date | null;
  until: Date | null;
}

/** Up to `limit` alerts of the account, newest first, after the cursor position `before` when given. */
export function listAlertRows(
  em: EntityManager,
  schema: string,
  accountId: string,
  f: AlertFilters,
  before: { at: Date; seq: string } | null,
  limit: number,
): Promise<AlertRow[]> {
  const values: unknown[] = [accountId, limit];
  const where = ['a.account_id = $1'];
  const add = (condition: (n: number) => string, ...v: unknown[]) => {
    where.push(condition(values.length + 1));
    values.push(...v);
  };
  if (f.code) add((n) => `a.code = $${n}`, f.code);
  if (f.severity) add((n) => `a.severity = $${n}`, f.severity);
  if (f.applicationId) add((n) => `a.application_id = $${n}`, f.applicationId);
  if (f.since) add((n) => `a.at >= $${n}`, f.since);
  if (f.until) add((n) => `a.at < $${n}`, f.until);
  if (before) add((n) => `(a.at, a.seq) < ($${n}, $${n + 1}::bigint)`, before.at, before.seq);
  return sql<AlertRow>(
    em,
    `select ${COLUMNS} from "${schema}".alerts a where ${where.join(' and ')}
     order by a.at desc, a.seq desc limit $2`,
    values,
  );
}

/** The account's alert with this id; undefined when none. */
export async function findAlert(
  em: EntityManager,
  schema: string,
  accountId: string,
  id: string,
): Promise<AlertRow | undefined> {
  const [row] = await sql<AlertRow>(
    em,
    `select ${COLUMNS} from "${schema}".alerts a where a.id = $1::uuid and a.account_id = $2`,
    [id, accountId],
  );
  return row;
}
