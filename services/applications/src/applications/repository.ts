import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, queryPrepared, readOwnedRow } from '@switchboard/platform';
import { ApplicationSchema, type Application } from '../db/entities';
import type { NewOutboxEvent } from '../outbox/outbox';

const ID = /^[0-9a-f]{24}$/;
const ACCOUNT_ID = /^\d{1,18}$/;

/**
 * An application read by a raw query (readOwned, readPage, readById): a detached, read-only row
 * for serialising. It is no managed entity: changing it would not be saved by flush(); writes load
 * the entity with findOwned.
 */
export type ApplicationView = Readonly<Application>;

/** The managed application with this id owned by this account (to change it); anything else is "not found". */
export async function findOwned(em: EntityManager, accountId: string, id: string): Promise<Application> {
  if (!ID.test(id) || !ACCOUNT_ID.test(accountId)) throw AppError.notFound('application');
  const app = await em.findOne(ApplicationSchema, { id, accountId });
  if (!app) throw AppError.notFound('application');
  return app;
}

interface ApplicationRow {
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

// `seq::text` is named "seq" in the result: ORDER BY must name the table's column, or it sorts the text.
const COLUMNS =
  'seq::text, id, account_id::text, name, voice_url, messaging_url, voice_fallback_url, messaging_fallback_url, environment_id::text, api_type, partition, created_at, updated_at';

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
  if (!ID.test(id) || !ACCOUNT_ID.test(accountId)) throw AppError.notFound('application');
  const row = await readOwnedRow<ApplicationRow>(em.getConnection().getKnex(), table(em), COLUMNS, id, accountId);
  if (!row) throw AppError.notFound('application');
  return fromRow(row);
}

export async function readPage(em: EntityManager, accountId: string, afterSeq: string | undefined, limit: number): Promise<ApplicationView[]> {
  if (!ACCOUNT_ID.test(accountId)) return [];
  const rows = afterSeq
    ? await queryPrepared<ApplicationRow>(em.getConnection().getKnex(), `select ${COLUMNS} from ${table(em)} where account_id = $1 and seq > $2 order by ${table(em)}.seq limit $3`, [accountId, afterSeq, limit])
    : await queryPrepared<ApplicationRow>(em.getConnection().getKnex(), `select ${COLUMNS} from ${table(em)} where account_id = $1 order by ${table(em)}.seq limit $2`, [accountId, limit]);
  return rows.map(fromRow);
}

export async function readById(em: EntityManager, id: string): Promise<ApplicationView | undefined> {
  if (!ID.test(id)) return undefined;
  const rows = await queryPrepared<ApplicationRow>(em.getConnection().getKnex(), `select ${COLUMNS} from ${table(em)} where id = $1`, [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/**
 * Inserts a new application, its sealed signing secret and the outbox row of its event in one
 * statement: one round trip, atomic like a transaction (the secret's foreign key is checked at the
 * statement's commit). Answers the application as stored.
 */
export async function insertApplication(em: EntityManager, app: Omit<ApplicationView, 'seq'>, sealedSecret: string, event: NewOutboxEvent): Promise<ApplicationView> {
  const schema = `"${em.config.get('schema')}"`;
  const rows = await queryPrepared<{ seq: string }>(
    em.getConnection().getKnex(),
    `with a as (
       insert into ${schema}.applications (id, account_id, name, voice_url, messaging_url, voice_fallback_url, messaging_fallback_url, environment_id, api_type, partition, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning seq::text as seq
     ), s as (
       insert into ${schema}.application_secrets (application_id, secret, created_at) values ($1, $13, $11)
     ), o as (
       insert into ${schema}.outbox (message_id, subject, payload, created_at) values ($14, $15, $16::jsonb, $17)
     )
     select seq from a`,
    [
      app.id,
      app.accountId,
      app.name,
      app.voiceUrl,
      app.messagingUrl,
      app.voiceFallbackUrl,
      app.messagingFallbackUrl,
      app.environmentId,
      app.apiType,
      app.partition,
      app.createdAt,
      app.updatedAt,
      sealedSecret,
      event.messageId,
      event.subject,
      JSON.stringify(event.payload),
      event.createdAt,
    ],
  );
  return { ...app, seq: rows[0]!.seq };
}

function table(em: EntityManager): string {
  return `"${em.config.get('schema')}".applications`;
}
