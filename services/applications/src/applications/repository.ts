import { isAccountId, isApplicationId } from '@switchboard/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import {
  Coalescer,
  queryCoalesced,
  queryPrepared,
  readOwnedRow,
  type AuditContext,
  type PooledClient,
  poolOf,
  sql,
} from '@switchboard/db';
import { ApplicationSchema, type Application } from '../db/entities.ts';
import type { NewOutboxEvent } from '../outbox/outbox.ts';
import { AUDIT_COLUMNS, auditValues } from '../audit/repository.ts';

/**
 * An application read by a raw query (readOwned, readById): a detached, read-only row
 * for serialising. It is no managed entity: changing it would not be saved by flush(); writes load
 * the entity with findOwned.
 */
export type ApplicationView = Readonly<Application>;

/** The managed application with this id owned by this account (to change it); anything else is "not found". */
export async function findOwned(em: EntityManager, accountId: string, id: string): Promise<Application> {
  if (!isApplicationId(id) || !isAccountId(accountId)) throw AppError.notFound('application');
  const app = await em.findOne(ApplicationSchema, { id, accountId });
  if (!app) throw AppError.notFound('application');
  return app;
}

export interface ApplicationRow {
  seq: string;
  id: string;
  account_id: string;
  name: string;
  voice_url: string | null;
  messaging_url: string | null;
  voice_fallback_url: string | null;
  messaging_fallback_url: string | null;
  environment_id: string;
  api_type: string;
  partition: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A row of a list page: the columns of ApplicationRow with the timestamps as Postgres writes them
 * (`created_at::text`), which the list's message takes as ISO text (isoTimestamp) without a Date
 * per column read, copied and written out again; without account_id, which is the account the
 * page was read for.
 */
export interface ApplicationListRow extends Omit<ApplicationRow, 'account_id' | 'created_at' | 'updated_at'> {
  created_at: string;
  updated_at: string;
}

// `seq::text` is named "seq" in the result: ORDER BY must name the table's column, or it sorts the text.
const COLUMNS =
  'seq::text, id, account_id::text, name, voice_url, messaging_url, voice_fallback_url, messaging_fallback_url, environment_id::text, api_type, partition, created_at, updated_at';
const LIST_COLUMNS =
  'seq::text, id, name, voice_url, messaging_url, voice_fallback_url, messaging_fallback_url, environment_id::text, api_type, partition, created_at::text as created_at, updated_at::text as updated_at';

function fromRow(r: ApplicationRow): ApplicationView {
  return {
    seq: r.seq,
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    voiceUrl: r.voice_url,
    messagingUrl: r.messaging_url,
    voiceFallbackUrl: r.voice_fallback_url,
    messagingFallbackUrl: r.messaging_fallback_url,
    environmentId: r.environment_id,
    apiType: r.api_type,
    partition: r.partition,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/**
 * Read-only lookups on the hot path (GET by id, lists) run one prepared statement on a connection
 * of the ORM's pool: no unit of work, identity map or query building for data that is only serialised.
 */
export async function readOwned(em: EntityManager, accountId: string, id: string): Promise<ApplicationView> {
  if (!isApplicationId(id) || !isAccountId(accountId)) throw AppError.notFound('application');
  const row = await readOwnedRow<ApplicationRow>(poolOf(em), table(em), COLUMNS, id, accountId);
  if (!row) throw AppError.notFound('application');
  return fromRow(row);
}

/**
 * Up to `limit` rows of the account's applications after `afterSeq`, in list order: rows as read,
 * for the list's messages (listMessage), with no view or Date made of them.
 */
export async function readPage(
  em: EntityManager,
  accountId: string,
  afterSeq: string | undefined,
  limit: number,
): Promise<ApplicationListRow[]> {
  if (!isAccountId(accountId)) return [];
  // Pages asked for together (a batch of List calls) are read by one statement (queryCoalesced).
  return afterSeq
    ? queryCoalesced<ApplicationListRow>(
        poolOf(em),
        `select ${LIST_COLUMNS} from ${table(em)} where account_id = $1 and seq > $2 order by ${table(em)}.seq limit $3`,
        ['bigint', 'bigint', 'int'],
        [accountId, afterSeq, limit],
      )
    : queryCoalesced<ApplicationListRow>(
        poolOf(em),
        `select ${LIST_COLUMNS} from ${table(em)} where account_id = $1 order by ${table(em)}.seq limit $2`,
        ['bigint', 'int'],
        [accountId, limit],
      );
}

export async function readById(em: EntityManager, id: string): Promise<ApplicationView | undefined> {
  if (!isApplicationId(id)) return undefined;
  const rows = await sql<ApplicationRow>(em, `select ${COLUMNS} from ${table(em)} where id = $1`, [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/**
 * Inserts a new application, its sealed signing secret, the outbox row of its event and its audit
 * entry in one statement: one round trip, atomic like a transaction (the secret's foreign key is
 * checked at the statement's commit). Answers the application as stored. Creates asked for together
 * (the calls of one gRPC batch) go as one statement of several rows and one commit; when such a
 * statement fails, each create is done again alone, so only the one at fault fails.
 */
export function insertApplication(
  em: EntityManager,
  app: Omit<ApplicationView, 'seq'>,
  sealedSecret: string,
  event: NewOutboxEvent,
  audit: AuditContext | undefined,
): Promise<ApplicationView> {
  const pool = poolOf(em);
  let inserter = inserters.get(pool);
  if (!inserter) {
    inserter = new Coalescer((creates) => insertMany(pool, `"${em.config.get('schema')}"`, creates), {
      retryAlone: true,
    });
    inserters.set(pool, inserter);
  }
  const entry = auditValues(
    { accountId: app.accountId, action: 'application.create', target: applicationPath(app.id), outcome: 'success' },
    audit,
  );
  return inserter.load({ app, sealedSecret, event, audit: entry });
}

interface NewApplication {
  app: Omit<ApplicationView, 'seq'>;
  sealedSecret: string;
  event: NewOutboxEvent;
  /** The audit entry's values (auditValues: AUDIT_COLUMNS), the account first. */
  audit: unknown[];
}

/** The path of an application as audit entries name it (the gateway puts PUBLIC_BASE_URL before it). */
export const applicationPath = (id: string) => `/rest/v1/applications/${id}`;

const inserters = new WeakMap<PooledClient, Coalescer<NewApplication, ApplicationView>>();

/** The columns of a create, in the order of both statements' parameters (and of unnest's arrays). */
const CREATE_COLUMNS: readonly [string, string, (c: NewApplication) => unknown][] = [
  ['id', 'text', (c) => c.app.id],
  ['account_id', 'bigint', (c) => c.app.accountId],
  ['name', 'text', (c) => c.app.name],
  ['voice_url', 'text', (c) => c.app.voiceUrl],
  ['messaging_url', 'text', (c) => c.app.messagingUrl],
  ['voice_fallback_url', 'text', (c) => c.app.voiceFallbackUrl],
  ['messaging_fallback_url', 'text', (c) => c.app.messagingFallbackUrl],
  ['environment_id', 'bigint', (c) => c.app.environmentId],
  ['api_type', 'text', (c) => c.app.apiType],
  ['partition', 'text', (c) => c.app.partition],
  ['created_at', 'timestamptz', (c) => c.app.createdAt],
  ['updated_at', 'timestamptz', (c) => c.app.updatedAt],
  ['secret', 'text', (c) => c.sealedSecret],
  ['message_id', 'uuid', (c) => c.event.messageId],
  ['subject', 'text', (c) => c.event.subject],
  ['payload', 'jsonb', (c) => JSON.stringify(c.event.payload)],
  ['event_at', 'timestamptz', (c) => c.event.createdAt],
  // The audit entry's columns after its account (AUDIT_COLUMNS), prefixed.
  ...AUDIT_COLUMNS.split(', ')
    .slice(1)
    .map((name, i): [string, string, (c: NewApplication) => unknown] => [
      `audit_${name}`,
      'text',
      (c) => c.audit[i + 1],
    ]),
];

async function insertMany(pool: PooledClient, schema: string, creates: NewApplication[]): Promise<ApplicationView[]> {
  // One create: its values as parameters. Several: one array per column, turned into rows by unnest.
  const rows =
    creates.length === 1
      ? `(values (${CREATE_COLUMNS.map(([, type], i) => `$${i + 1}::${type}`).join(', ')}))`
      : `unnest(${CREATE_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`;
  const params =
    creates.length === 1
      ? CREATE_COLUMNS.map(([, , get]) => get(creates[0]!))
      : CREATE_COLUMNS.map(([, , get]) => creates.map(get));
  const stored = await queryPrepared<{ id: string; seq: string }>(
    pool,
    `with v (${CREATE_COLUMNS.map(([name]) => name).join(', ')}) as (select * from ${rows} as t),
     a as (
       insert into ${schema}.applications (id, account_id, name, voice_url, messaging_url, voice_fallback_url, messaging_fallback_url, environment_id, api_type, partition, created_at, updated_at)
       select id, account_id, name, voice_url, messaging_url, voice_fallback_url, messaging_fallback_url, environment_id, api_type, partition, created_at, updated_at from v
       returning id, seq::text as seq
     ), s as (
       insert into ${schema}.application_secrets (application_id, secret, created_at) select id, secret, created_at from v
     ), o as (
       insert into ${schema}.outbox (message_id, subject, payload, created_at) select message_id, subject, payload, event_at from v
     ), e as (
       insert into ${schema}.audit_events (${AUDIT_COLUMNS}) select account_id, ${AUDIT_COLUMNS.split(', ')
         .slice(1)
         .map((name) => `audit_${name}`)
         .join(', ')} from v
     )
     select id, seq from a`,
    params,
  );
  const seqs = new Map(stored.map((r) => [r.id, r.seq]));
  return creates.map((c) => ({ ...c.app, seq: seqs.get(c.app.id)! }));
}

function table(em: EntityManager): string {
  return `"${em.config.get('schema')}".applications`;
}

/** An application's sealed signing secrets (secret-store.ts opens them): the current one, and the previous one while it is valid. */
export async function readSealedSecrets(
  em: EntityManager,
  applicationId: string,
): Promise<{ secret: string; previous_secret: string | null; previous_valid: boolean } | undefined> {
  const [row] = await sql<{ secret: string; previous_secret: string | null; previous_valid: boolean }>(
    em,
    `select secret, previous_secret, coalesce(previous_expires_at > now(), false) as previous_valid from "${em.config.get('schema')}".application_secrets where application_id = $1`,
    [applicationId],
  );
  return row;
}
