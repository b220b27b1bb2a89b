import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import {
  type AuditContext,
  Coalescer,
  queryCoalesced,
  readOwnedRow,
  transactionPrepared,
  type PooledClient,
  type TransactionQuery,
  auditValues,
  insertAuditFromSql,
  poolOf,
  sql,
} from '@switchboard/db';
import { SubscriptionSchema, type Subscription } from '../db/entities.ts';
import type { DeliverySettings } from './delivery-settings.ts';
import { isAccountId, isSubscriptionId } from '@switchboard/events';

/** docs/api-rules.md#limits. */
export const MAX_ACCOUNT_LEVEL = 10;
export const MAX_PER_APPLICATION = 10;
/** First key of the advisory locks that serialise creates within one limit scope. */
const LIMIT_LOCK_CLASS = 0x5742;

/**
 * A subscription read by a raw query (readOwned): a detached, read-only row for
 * serialising. It is no managed entity: changing it would not be saved by flush(); writes load the
 * entity with findOwned.
 */
export type SubscriptionView = Readonly<Subscription>;

/** The path of a subscription (the target of its audit entries). */
export const webhookPath = (id: string) => `/v1/webhooks/${id}`;

/** The account id of an internal request; the gateway always sends the authenticated one. */
export function requireAccount(accountId: string): string {
  if (!isAccountId(accountId)) throw AppError.invalid([{ field: 'accountId', message: 'is required' }]);
  return accountId;
}

/**
 * The managed subscription with this id owned by this account (and, when given, attached to this
 * application). Anything else, including another account's subscription, is "not found".
 */
export async function findOwned(
  em: EntityManager,
  accountId: string,
  id: string,
  applicationId?: string,
): Promise<Subscription> {
  requireAccount(accountId);
  if (!isSubscriptionId(id)) throw AppError.notFound('webhook');
  const sub = await em.findOne(SubscriptionSchema, { id, accountId });
  if (!sub || (applicationId && sub.applicationId !== applicationId)) throw AppError.notFound('webhook');
  return sub;
}

/** The scope a limit of docs/api-rules.md#limits counts in: the account's account-level subscriptions, or one application's. */
export function limitScope(accountId: string, applicationId: string | null): string {
  return applicationId ? `app:${applicationId}` : `account:${accountId}`;
}

/**
 * Takes the transaction-level advisory lock of a limit scope: creates (and the deletion cascade)
 * in one scope run one at a time, so count-then-insert cannot overshoot, across any number of replicas.
 */
export async function lockScope(em: EntityManager, scope: string): Promise<void> {
  await sql(em, lockScopeSql(scope));
}

/** Writes the tombstone of a deleted account, in the caller's transaction (a create in flight checks it under the scope's lock). */
export async function buryAccount(em: EntityManager, schema: string, accountId: string): Promise<void> {
  await sql(em, `insert into "${schema}".deleted_accounts (account_id) values ($1) on conflict do nothing`, [
    accountId,
  ]);
}

/** Writes the tombstone of a deleted application, in the caller's transaction. */
export async function buryApplication(em: EntityManager, schema: string, applicationId: string): Promise<void> {
  await sql(em, `insert into "${schema}".deleted_applications (application_id) values ($1) on conflict do nothing`, [
    applicationId,
  ]);
}

/** Turns a subscription off with a reason inside the caller's transaction; answers its row when it was enabled (nothing when already off). */
export function disableIfEnabled(
  query: TransactionQuery,
  schema: string,
  subscriptionId: string,
  reason: string,
): Promise<{ id: string; account_id: string; application_id: string | null; target_url: string; updated_at: Date }[]> {
  return query(
    `update "${schema}".subscriptions set enabled = false, disabled_reason = $1, updated_at = now()
     where id = $2 and enabled returning id, account_id, application_id, target_url, updated_at`,
    [reason, subscriptionId],
  );
}

/** Limit scopes are made of checked ids ("app:" + an application id, "account:" + digits): safe to write into SQL as a literal. */
const SCOPE = /^(app|account):[A-Za-z0-9_-]{1,64}$/;

/** The statement that takes a limit scope's lock, with the scope as a literal (it rides with BEGIN in one round trip). */
export function lockScopeSql(scope: string): string {
  if (!SCOPE.test(scope)) throw new Error(`bad limit scope ${JSON.stringify(scope)}`);
  return `select pg_advisory_xact_lock(${LIMIT_LOCK_CLASS}, hashtext('${scope}'))`;
}

export type NewSubscription = Omit<Subscription, 'seq'>;

/** What insertWithinLimit found: the application deleted, the scope at its limit, or the subscription stored. */
export type InsertOutcome =
  | { outcome: 'scope_deleted' }
  | { outcome: 'limit_reached' }
  | { outcome: 'created'; subscription: SubscriptionView };

/**
 * Inserts a subscription, its sealed secret and its audit entry (`webhook.create`, by `audit`) in
 * one statement, unless its application was deleted or its limit scope already holds `max`
 * subscriptions. Run it inside a transaction that
 * holds the scope's lock (lockScopeSql) taken by an earlier statement, so the count sees every
 * create committed before and none can commit in between.
 */
export async function insertWithinLimit(
  query: TransactionQuery,
  schema: string,
  sub: NewSubscription,
  sealedSecret: string,
  max: number,
  audit: AuditContext | undefined,
): Promise<InsertOutcome> {
  const inScope = sub.applicationId ? 'application_id = $3' : 'account_id = $2 and application_id is null';
  const rows = await query<{ deleted: boolean; n: number; seq: string | null }>(
    `with d as (
       -- The application was deleted, or (account-level) the whole account was.
       select case when $3::text is null
         then exists (select 1 from "${schema}".deleted_accounts where account_id = $2)
         else exists (select 1 from "${schema}".deleted_applications where application_id = $3) end as deleted
     ), c as (
       select count(*)::int as n from "${schema}".subscriptions where ${inScope}
     ), s as (
       insert into "${schema}".subscriptions (id, account_id, application_id, name, event, resource, target_url, payload, headers, enabled, created_at, updated_at, settings)
       select $1, $2, $3, $4, $5, $6, $7, $8::json, $9::json, $10, $11, $12, $24::json from d, c where not d.deleted and c.n < $13
       returning seq::text as seq
     ), k as (
       insert into "${schema}".subscription_secrets (subscription_id, secret, created_at) select $1, $14, $11 from s
     ), a as (
       ${insertAuditFromSql(`"${schema}"`, 15, 's')}
     )
     select d.deleted, c.n, (select seq from s) as seq from d, c`,
    [
      sub.id,
      sub.accountId,
      sub.applicationId,
      sub.name,
      sub.event,
      sub.resource,
      sub.targetUrl,
      sub.payload === null ? null : JSON.stringify(sub.payload),
      JSON.stringify(sub.headers),
      sub.enabled,
      sub.createdAt,
      sub.updatedAt,
      max,
      sealedSecret,
      ...auditValues(
        { accountId: sub.accountId, action: 'webhook.create', target: webhookPath(sub.id), outcome: 'success' },
        audit,
      ),
      // $24, after the 9 audit values from $15.
      JSON.stringify(sub.settings),
    ],
  );
  const row = rows[0]!;
  if (row.deleted) return { outcome: 'scope_deleted' };
  if (row.seq === null) return { outcome: 'limit_reached' };
  return { outcome: 'created', subscription: { ...sub, seq: row.seq } };
}

/** One create as createWithinLimit queues it. */
export interface NewSubscriptionInScope {
  /** Its limit scope (limitScope), whose lock the create holds while it counts and inserts. */
  scope: string;
  subscription: NewSubscription;
  sealedSecret: string;
  max: number;
  /** Who creates it: its audit entry is written in the create's transaction. */
  audit: AuditContext | undefined;
}

const creators = new WeakMap<PooledClient, Coalescer<NewSubscriptionInScope, InsertOutcome>>();

/**
 * Stores a subscription within its scope's limit (insertWithinLimit) in a transaction that holds
 * the scope's lock. Creates asked for together (the calls of one gRPC batch) share one transaction:
 * BEGIN with the locks of all their scopes (in one order, so two such transactions cannot deadlock
 * on each other), their statements one after another, one COMMIT; each statement still counts
 * every create committed before and the ones before it in the same transaction. When such a
 * transaction fails, each create is done again alone, so only the one at fault fails.
 */
export function createWithinLimit(em: EntityManager, create: NewSubscriptionInScope): Promise<InsertOutcome> {
  const pool = poolOf(em);
  let creator = creators.get(pool);
  if (!creator) {
    const schema = em.config.get('schema') as string;
    creator = new Coalescer(
      (creates) => {
        const scopes = [...new Set(creates.map((c) => c.scope))].sort();
        return transactionPrepared(pool, `begin; ${scopes.map(lockScopeSql).join('; ')}`, async (query) => {
          const outcomes: InsertOutcome[] = [];
          for (const c of creates)
            outcomes.push(await insertWithinLimit(query, schema, c.subscription, c.sealedSecret, c.max, c.audit));
          return outcomes;
        });
      },
      { retryAlone: true },
    );
    creators.set(pool, creator);
  }
  return creator.load(create);
}

// Read-only lookups on the hot path (GET by id, lists) run one prepared statement on a connection of
// the ORM's pool: no unit of work, identity map or query building for rows that are only serialised.

/** A subscription row as read from webhooks.subscriptions (the benchmark baseline reads the same rows). */
export interface SubscriptionRow {
  seq: string;
  id: string;
  account_id: string;
  application_id: string | null;
  name: string | null;
  event: string;
  resource: string;
  target_url: string;
  payload: Record<string, unknown> | null;
  headers: Record<string, string>;
  settings: DeliverySettings;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  consecutive_failures: number;
  last_attempt_at: Date | null;
  last_status: number | null;
  disabled_reason: string | null;
  first_failure_at: Date | null;
}

const COLUMNS =
  'seq::text, id, account_id::text, application_id, name, event, resource, target_url, payload, headers, settings, enabled, created_at, updated_at, consecutive_failures, last_attempt_at, last_status, disabled_reason, first_failure_at';

/**
 * A row of a list page: what the list's messages show (listMessage), with the timestamps as
 * Postgres writes them (`created_at::text`), which become ISO text (isoTimestamp) without a Date
 * per column read, copied and written out again; without account_id (the account the page was
 * read for) and first_failure_at (no message shows it).
 */
export interface SubscriptionListRow
  extends Omit<SubscriptionRow, 'account_id' | 'created_at' | 'updated_at' | 'last_attempt_at' | 'first_failure_at'> {
  created_at: string;
  updated_at: string;
  last_attempt_at: string | null;
}

const LIST_COLUMNS =
  'seq::text, id, application_id, name, event, resource, target_url, payload, headers, settings, enabled, created_at::text as created_at, updated_at::text as updated_at, consecutive_failures, last_attempt_at::text as last_attempt_at, last_status, disabled_reason';

function fromRow(r: SubscriptionRow): SubscriptionView {
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
    headers: r.headers,
    settings: r.settings,
    enabled: r.enabled,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    consecutiveFailures: r.consecutive_failures,
    lastAttemptAt: r.last_attempt_at ? new Date(r.last_attempt_at) : null,
    lastStatus: r.last_status,
    disabledReason: r.disabled_reason,
    firstFailureAt: r.first_failure_at ? new Date(r.first_failure_at) : null,
  };
}

function table(em: EntityManager): string {
  return `"${em.config.get('schema')}".subscriptions`;
}

/** The subscription with this id owned by this account (and this application, when given), as a detached read-only row. */
export async function readOwned(
  em: EntityManager,
  accountId: string,
  id: string,
  applicationId?: string,
): Promise<SubscriptionView> {
  requireAccount(accountId);
  if (!isSubscriptionId(id)) throw AppError.notFound('webhook');
  const row = await readOwnedRow<SubscriptionRow>(poolOf(em), table(em), COLUMNS, id, accountId);
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

/** One page in creation order, with the filters of docs/api-rules.md#lists: rows as read, for the list's messages. */
export async function readPage(em: EntityManager, q: PageQuery): Promise<SubscriptionListRow[]> {
  const params: unknown[] = [q.accountId];
  const types = ['bigint'];
  const p = (v: unknown, type: string) => {
    types.push(type);
    return `$${params.push(v)}`;
  };
  const where = [
    'account_id = $1',
    q.applicationId ? `application_id = ${p(q.applicationId, 'text')}` : 'application_id is null',
  ];
  if (q.afterSeq) where.push(`seq > ${p(q.afterSeq, 'bigint')}`);
  if (q.event) where.push(`event = ${p(q.event, 'text')}`);
  // Resource names hold no comma: the list travels as one text.
  if (q.resources)
    where.push(`string_to_array(resource, ',') && string_to_array(${p(q.resources.join(','), 'text')}, ',')`);
  const limit = p(q.limit, 'int');
  // Pages asked for together (a batch of List calls) are read by one statement (queryCoalesced).
  return queryCoalesced<SubscriptionListRow>(
    poolOf(em),
    `select ${LIST_COLUMNS} from ${table(em)} where ${where.join(' and ')} order by ${table(em)}.seq limit ${limit}`,
    types,
    params,
  );
}
