// Read-only lookups on the hot path (GET by id, lists) run one prepared statement on a connection of
// the ORM's pool: no unit of work, identity map or query building for rows that are only serialised.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, queryPrepared } from '@switchboard/platform';
import type { Subscription } from '../db/entities';
import { isSubscriptionId } from './ids';
import { requireAccount } from './repository';

interface Row {
  seq: string;
  id: string;
  account_id: string;
  application_id: string | null;
  name: string | null;
  event: string;
  resource: string;
  target_url: string;
  payload: Record<string, unknown> | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  consecutive_failures: number;
  last_attempt_at: Date | null;
  last_status: number | null;
  disabled_reason: string | null;
}

const COLUMNS =
  'seq::text, id, account_id::text, application_id, name, event, resource, target_url, payload, enabled, created_at, updated_at, consecutive_failures, last_attempt_at, last_status, disabled_reason';

function fromRow(r: Row): Subscription {
  return {
    seq: r.seq,
    id: r.id,
    accountId: r.account_id,
    applicationId: r.application_id,
    name: r.name,
    event: r.event,
    resource: r.resource,
    targetUrl: r.target_url,
    payload: r.payload,
    enabled: r.enabled,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    consecutiveFailures: r.consecutive_failures,
    lastAttemptAt: r.last_attempt_at ? new Date(r.last_attempt_at) : null,
    lastStatus: r.last_status,
    disabledReason: r.disabled_reason,
  };
}

function table(em: EntityManager): string {
  return `"${em.config.get('schema')}".subscriptions`;
}

/** The subscription with this id owned by this account (and this application, when given). */
export async function readOwned(em: EntityManager, accountId: string, id: string, applicationId?: string): Promise<Subscription> {
  requireAccount(accountId);
  if (!isSubscriptionId(id)) throw AppError.notFound('webhook');
  const rows = await queryPrepared<Row>(em.getConnection().getKnex(), `select ${COLUMNS} from ${table(em)} where id = $1 and account_id = $2`, [id, accountId]);
  const row = rows[0];
  if (!row || (applicationId && row.application_id !== applicationId)) throw AppError.notFound('webhook');
  return fromRow(row);
}

export interface PageQuery {
  accountId: string;
  /** Null lists account-level subscriptions. */
  applicationId: string | null;
  afterSeq?: string;
  event?: string;
  /** Resources any of which (or `all`) a subscription must list. */
  resources?: string[];
  limit: number;
}

/** One page in creation order, with the filters of CONTRACTS 3. */
export async function readPage(em: EntityManager, q: PageQuery): Promise<Subscription[]> {
  const params: unknown[] = [q.accountId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = ['account_id = $1', q.applicationId ? `application_id = ${p(q.applicationId)}` : 'application_id is null'];
  if (q.afterSeq) where.push(`seq > ${p(q.afterSeq)}`);
  if (q.event) where.push(`event = ${p(q.event)}`);
  if (q.resources) where.push(`string_to_array(resource, ',') && ${p(q.resources)}::text[]`);
  const limit = p(q.limit);
  const rows = await queryPrepared<Row>(em.getConnection().getKnex(), `select ${COLUMNS} from ${table(em)} where ${where.join(' and ')} order by ${table(em)}.seq limit ${limit}`, params);
  return rows.map(fromRow);
}
