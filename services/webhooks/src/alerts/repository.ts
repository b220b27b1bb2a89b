// The SQL of alerts (docs/data-access.md): the alerts table partitioned by day on `minute`; one row
// per account, code, application and minute, whose `count` grows with each alert folded into it.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';
import type { TransactionQuery } from '@switchboard/db';
import { Filters, type TimePosition } from '../db/filters.ts';

/** The partitioned table of alerts. */
export const ALERTS_TABLE = 'alerts';

/**
 * The values of the alerts table's partition key (`minute`) of alerts folded at these times. An
 * alert's minute can lie in an earlier span than the alert (a span shorter than a minute, as the
 * soak sets, or the first minute of a day), whose partition retention may have dropped: a store
 * makes the partitions of these, not of the times themselves.
 */
export function alertMinutes(times: readonly Date[]): Date[] {
  return times.map((t) => new Date(Math.floor(t.getTime() / 60_000) * 60_000));
}

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

/** One alert to fold into its row (raise-alerts.ts). */
export interface AlertToFold {
  accountId: string;
  code: string;
  severity: string;
  applicationId: string | null;
  subscriptionId: string | null;
  sessionId: string | null;
  deliveryId: string | null;
  /** Index (0-based) of the session attempt it links to. */
  attempt: number | null;
  message: string;
  /** When it happened (ISO 8601). */
  at: string;
  /** The time whose minute it folds into: a session's start, else `at`. */
  foldAt: string;
  /** How many occurrences it stands for (1 unless a batch folds several, such as deliveries ended together). */
  count: number;
}

/**
 * Stores an alert in the caller's transaction: one of the same account, code, application,
 * subscription and minute as a stored one adds to its count and its last time; the first keeps
 * its links. Answers its row's id and whether it is the first of its minute (a row made now has
 * the count it was given; one added to has more: a partitioned table cannot return `xmax`).
 */
export async function foldAlert(
  query: TransactionQuery,
  schema: string,
  a: AlertToFold,
): Promise<{ id: string; first: boolean }> {
  const [row] = await query<{ id: string; count: number }>(
    `insert into "${schema}".alerts as x
       (account_id, code, severity, application_id, subscription_key, subscription_id, session_id, delivery_id,
        attempt, message, minute, at, last_at, count)
     values ($1, $2, $3, $4, coalesce($5, ''), $5, $6, $7, $8, $9, date_trunc('minute', $10::timestamptz), $11, $11, $12)
     on conflict (account_id, code, application_id, subscription_key, minute) do update set
       count = x.count + excluded.count, last_at = greatest(x.last_at, excluded.last_at)
     returning x.id::text as id, x.count`,
    [
      a.accountId,
      a.code,
      a.severity,
      a.applicationId ?? '',
      a.subscriptionId,
      a.sessionId,
      a.deliveryId,
      a.attempt,
      a.message,
      a.foldAt,
      a.at,
      a.count,
    ],
  );
  return { id: row!.id, first: row!.count === a.count };
}

/**
 * Whether any enabled subscription of the account could take `event` for this application
 * (account level, or of the application): events nobody subscribes to are not written at all.
 * One read of the subscriptions_match index.
 */
export async function anySubscription(
  query: TransactionQuery,
  schema: string,
  accountId: string,
  applicationId: string | null,
  event: string,
): Promise<boolean> {
  const rows = await query<{ n: number }>(
    `select 1 as n from "${schema}".subscriptions
      where account_id = $1 and event = $2 and enabled and (application_id is null or application_id = $3) limit 1`,
    [accountId, event, applicationId],
  );
  return rows.length > 0;
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
  before: TimePosition | null,
  limit: number,
): Promise<AlertRow[]> {
  const where = new Filters(['a.account_id = $1'], [accountId, limit]);
  if (f.code) where.add((n) => `a.code = $${n}`, f.code);
  if (f.severity) where.add((n) => `a.severity = $${n}`, f.severity);
  if (f.applicationId) where.add((n) => `a.application_id = $${n}`, f.applicationId);
  where.window('a.at', f.since, f.until);
  where.before('a.at', 'a.seq', before);
  return sql<AlertRow>(
    em,
    `select ${COLUMNS} from "${schema}".alerts a where ${where}
     order by a.at desc, a.seq desc limit $2`,
    where.values,
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
