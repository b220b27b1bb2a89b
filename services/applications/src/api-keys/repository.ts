// Storage of API keys: raw prepared statements on the ORM's pool. Verification, the hot path, is an
// index lookup by hash; lookups asked for together (a gRPC batch of VerifyApiKey calls) share one
// statement.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  sql,
  sqlTransaction,
  poolOf,
  Coalescer,
  isoTimestamp,
  queryPrepared,
  type AuditContext,
  type PooledClient,
} from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import { recordIn } from '../audit/repository.ts';
import type { ApiKey as Message } from '@switchboard/proto/generated/switchboard/applications/v1/ApiKey';
import { MAX_KEYS_PER_ACCOUNT } from './keys.ts';

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  scope: string;
  prefix: string;
  /** timestamptz as text (isoTimestamp). */
  created_at: string;
  last_used_at: string | null;
}

export interface VerifiedKeyRow extends ApiKeyRow {
  username: string;
  /** Whether its last use was recorded over a minute ago, or never (touchKey is due). */
  stale: boolean;
}

const COLUMNS =
  'k.id, k.account_id::text, k.name, k.scope, k.prefix, k.created_at::text as created_at, k.last_used_at::text as last_used_at';
const ACCOUNT_ID = /^\d{1,18}$/;

const schemaOf = (em: EntityManager) => `"${em.config.get('schema')}"`;

export function toMessage(r: ApiKeyRow): Message {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    scope: r.scope,
    prefix: r.prefix,
    createdAt: isoTimestamp(r.created_at),
    lastUsedAt: r.last_used_at ? isoTimestamp(r.last_used_at) : '',
  };
}

/**
 * Inserts a key unless the account has MAX_KEYS_PER_ACCOUNT already (limit_exceeded): the count and
 * the insert run in one transaction holding the account's row lock, so concurrent creates never
 * pass the limit together. not_found when the account does not exist.
 */
export async function insertKey(
  em: EntityManager,
  key: { id: string; accountId: string; name: string; scope: string; prefix: string; hash: Buffer },
  audit: AuditContext | undefined,
): Promise<ApiKeyRow> {
  const s = schemaOf(em);
  return sqlTransaction(em, 'begin', async (query) => {
    // The lock first, the count in a statement of its own: its snapshot (read committed) then sees
    // the keys of the transaction that held the lock before.
    const locked = await query<{ id: string }>(`select id::text from ${s}.accounts where id = $1 for update`, [
      key.accountId,
    ]);
    if (!locked[0]) throw AppError.notFound('user');
    const counted = await query<{ n: number }>(`select count(*)::int4 as n from ${s}.api_keys where account_id = $1`, [
      key.accountId,
    ]);
    if (counted[0]!.n >= MAX_KEYS_PER_ACCOUNT)
      throw new AppError('limit_exceeded', `an account has at most ${MAX_KEYS_PER_ACCOUNT} API keys; revoke one first`);
    const rows = await query<ApiKeyRow>(
      `insert into ${s}.api_keys as k (id, account_id, name, scope, prefix, key_hash) values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
      [key.id, key.accountId, key.name, key.scope, key.prefix, key.hash],
    );
    await recordIn(
      query,
      s,
      { accountId: key.accountId, action: 'api-key.create', target: `/v1/api-keys/${key.id}`, outcome: 'success' },
      audit,
    );
    return rows[0]!;
  });
}

export async function listKeys(em: EntityManager, accountId: string): Promise<ApiKeyRow[]> {
  if (!ACCOUNT_ID.test(accountId)) return [];
  return sql<ApiKeyRow>(
    em,
    `select ${COLUMNS} from ${schemaOf(em)}.api_keys k where k.account_id = $1 order by k.created_at, k.id`,
    [accountId],
  );
}

export async function readKey(em: EntityManager, accountId: string, id: string): Promise<ApiKeyRow | undefined> {
  if (!ACCOUNT_ID.test(accountId)) return undefined;
  const rows = await sql<ApiKeyRow>(
    em,
    `select ${COLUMNS} from ${schemaOf(em)}.api_keys k where k.id = $1 and k.account_id = $2`,
    [id, accountId],
  );
  return rows[0];
}

/** The key with this id, whatever its account (a failed sign-in named it): its account and name. */
export async function readKeyById(
  em: EntityManager,
  id: string,
): Promise<{ id: string; account_id: string; name: string } | undefined> {
  const rows = await sql<{ id: string; account_id: string; name: string }>(
    em,
    `select id, account_id::text, name from ${schemaOf(em)}.api_keys where id = $1`,
    [id],
  );
  return rows[0];
}

/** Deletes the key and writes its audit entry, in one transaction. */
export async function deleteKey(
  em: EntityManager,
  accountId: string,
  id: string,
  audit: AuditContext | undefined,
): Promise<ApiKeyRow | undefined> {
  if (!ACCOUNT_ID.test(accountId)) return undefined;
  const s = schemaOf(em);
  return sqlTransaction(em, 'begin', async (query) => {
    const rows = await query<ApiKeyRow>(
      `delete from ${s}.api_keys k where k.id = $1 and k.account_id = $2 returning ${COLUMNS}`,
      [id, accountId],
    );
    if (rows[0])
      await recordIn(
        query,
        s,
        { accountId, action: 'api-key.revoke', target: `/v1/api-keys/${id}`, outcome: 'success' },
        audit,
      );
    return rows[0];
  });
}

/** Whether a key's use is due to be recorded (touchKey), as a column of a statement reading `k`. */
export const KEY_STALE = `(k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as stale`;

const verifiers = new WeakMap<PooledClient, Coalescer<Buffer, VerifiedKeyRow | undefined>>();

/** The key stored with this hash, with its account's username; undefined when there is none. */
export function findByHash(em: EntityManager, hash: Buffer): Promise<VerifiedKeyRow | undefined> {
  const pool = poolOf(em);
  let verifier = verifiers.get(pool);
  if (!verifier) {
    const s = schemaOf(em);
    const select = `select ${COLUMNS}, k.key_hash, a.username, ${KEY_STALE} from ${s}.api_keys k join ${s}.accounts a on a.id = k.account_id`;
    type Row = VerifiedKeyRow & { key_hash: Buffer };
    verifier = new Coalescer(async (hashes) => {
      const rows =
        hashes.length === 1
          ? await queryPrepared<Row>(pool, `${select} where k.key_hash = $1`, [hashes[0]])
          : await queryPrepared<Row>(pool, `${select} where k.key_hash = any($1::bytea[])`, [hashes]);
      const byHash = new Map(rows.map((r) => [r.key_hash.toString('hex'), r]));
      return hashes.map((h) => byHash.get(h.toString('hex')));
    });
    verifiers.set(pool, verifier);
  }
  return verifier.load(hash);
}

/** Records a use of the key (lastUsedAt), unless one was recorded in the last minute already. */
export async function touchKey(em: EntityManager, id: string): Promise<void> {
  await sql(
    em,
    `update ${schemaOf(em)}.api_keys set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [id],
  );
}
