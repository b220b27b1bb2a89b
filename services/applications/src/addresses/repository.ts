// Addresses in Postgres: numbers of the inventory (table numbers) and generated tokens and SIP
// addresses (table addresses). Reads answer detached, read-only views; writes run inside the
// caller's transaction so the outbox event commits with them.
import { isAccountId, isAddressToken, isApplicationId } from '@switchboard/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import type { AddressType, Channel } from './rules.ts';
import { sql } from '@switchboard/db';

/** An address as read: a number (free when applicationId is null), a token or a SIP address. */
export interface AddressRecord {
  type: AddressType;
  value: string;
  applicationId: string | null;
  accountId: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  smsEnabled: boolean | null;
  channel: Channel | null;
}
export type AddressView = Readonly<AddressRecord>;

interface AddressRow {
  type: AddressType;
  value: string;
  application_id: string | null;
  account_id: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  sms_enabled: boolean | null;
  channel: Channel | null;
}

function fromRow(r: AddressRow): AddressView {
  return {
    type: r.type,
    value: r.value,
    applicationId: r.application_id,
    accountId: r.account_id,
    city: r.city,
    state: r.state,
    country: r.country,
    smsEnabled: r.sms_enabled,
    channel: r.channel,
  };
}

function schema(em: EntityManager): string {
  return `"${em.config.get('schema')}"`;
}

/** Columns of a number joined to its (optional) application `a`, in AddressRow's names. */
const NUMBER_COLUMNS = `'number' as type, n.number as value, n.application_id, a.account_id::text as account_id, n.city, n.state, n.country, n.sms_enabled, null::text as channel`;
const GENERATED_COLUMNS = `d.type, d.value, d.application_id, a.account_id::text as account_id, null::text as city, null::text as state, null::text as country, null::boolean as sms_enabled, d.channel`;

/** Every address of the account's application, numbers first, each kind in the order claimed. */
export async function listOfApplication(
  em: EntityManager,
  accountId: string,
  applicationId: string,
): Promise<AddressView[]> {
  if (!isAccountId(accountId) || !isApplicationId(applicationId)) return [];
  const s = schema(em);
  const rows = await sql<AddressRow>(
    em,
    `select * from (
       (select ${NUMBER_COLUMNS}, 0 as kind, n.claimed_at as at from ${s}.numbers n join ${s}.applications a on a.id = n.application_id
         where n.application_id = $1 and a.account_id = $2)
       union all
       (select ${GENERATED_COLUMNS}, 1 as kind, d.created_at as at from ${s}.addresses d join ${s}.applications a on a.id = d.application_id
         where d.application_id = $1 and a.account_id = $2)
     ) x order by kind, at, value`,
    [applicationId, accountId],
  );
  return rows.map(fromRow);
}

/** The address of this type and stored value, whoever owns it (undefined: none, or a free number). */
export async function readByValue(
  em: EntityManager,
  type: AddressType,
  value: string,
): Promise<AddressView | undefined> {
  const s = schema(em);
  const rows =
    type === 'number'
      ? await sql<AddressRow>(
          em,
          `select ${NUMBER_COLUMNS} from ${s}.numbers n join ${s}.applications a on a.id = n.application_id where n.number = $1`,
          [value],
        )
      : await sql<AddressRow>(
          em,
          `select ${GENERATED_COLUMNS} from ${s}.addresses d join ${s}.applications a on a.id = d.application_id where d.value = $1 and d.type = $2`,
          [value, type],
        );
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** The address of the account's application; anything else (another owner, none) is "not found". */
export async function readOwned(
  em: EntityManager,
  accountId: string,
  applicationId: string,
  type: AddressType,
  value: string,
): Promise<AddressView> {
  const a = await readByValue(em, type, value);
  if (!a || a.accountId !== accountId || a.applicationId !== applicationId) throw AppError.notFound('address');
  return a;
}

/**
 * What a session token launches, for the Session API: its application, that application's
 * account and the token's channel; undefined for a token nobody holds.
 */
export async function resolveToken(
  em: EntityManager,
  token: string,
): Promise<{ applicationId: string; accountId: string; channel: Channel } | undefined> {
  if (!isAddressToken(token)) return undefined;
  const a = await readByValue(em, 'token', token);
  return a?.applicationId && a.accountId && a.channel
    ? { applicationId: a.applicationId, accountId: a.accountId, channel: a.channel }
    : undefined;
}

// ---- inventory reads -------------------------------------------------------------------------

/** Free numbers whose E.164 digits start with `prefix` ('' for all), in number order, after `after` (digits). */
export async function readFreeNumbers(
  em: EntityManager,
  prefix: string,
  after: string | undefined,
  limit: number,
): Promise<(AddressView & { seq: string })[]> {
  const s = schema(em);
  const rows = await sql<AddressRow>(
    em,
    `select 'number' as type, number as value, null::text as application_id, null::text as account_id, city, state, country, sms_enabled, null::text as channel
       from ${s}.numbers where application_id is null and number like $1 and number >= $4 and number > $2 order by number limit $3`,
    // `number >= "+prefix"` starts the index scan at the prefix (LIKE alone cannot, outside the C collation).
    [`+${prefix}%`, after ? `+${after}` : '', limit, `+${prefix}`],
  );
  return rows.map((r) => ({ ...fromRow(r), seq: r.value.slice(1) }));
}

export interface ExchangeRow {
  prefix: string;
  city: string | null;
  state: string | null;
  country: string | null;
}

/** The exchanges (first `digits` digits, with city, state and country) that have free numbers. */
export async function readExchanges(em: EntityManager, digits: number): Promise<ExchangeRow[]> {
  const s = schema(em);
  return sql<ExchangeRow>(
    em,
    `select substr(number, 2, $1) as prefix, city, state, country from ${s}.numbers where application_id is null
      group by 1, 2, 3, 4 order by 1, 2 nulls first, 3 nulls first, 4 nulls first`,
    [digits],
  );
}

// ---- writes (inside the caller's transaction) -----------------------------------------------

/** Rethrows "the application was deleted meanwhile" (foreign key violation) as not found. */
function applicationGone(err: unknown): never {
  if ((err as { code?: string }).code === '23503') throw AppError.notFound('application');
  throw err;
}

/**
 * Claims one free number starting with `prefix` (and in the city / state, when given). Concurrent
 * claimers skip the rows others have locked, so no number is handed out twice and none waits.
 */
export async function claimByPrefix(
  tx: EntityManager,
  applicationId: string,
  prefix: string,
  city: string | undefined,
  state: string | undefined,
): Promise<string | undefined> {
  const s = schema(tx);
  const rows = await sql<{ number: string }>(
    tx,
    `with pick as (
       select number from ${s}.numbers
        where application_id is null and number like $1 and number >= $2
          and ($3::text is null or lower(city) = lower($3::text)) and ($4::text is null or lower(state) = lower($4::text))
        order by number limit 1 for update skip locked)
     update ${s}.numbers n set application_id = $5, claimed_at = now() from pick
      where n.number = pick.number and n.application_id is null returning n.number`,
    // `number >= "+prefix"` starts the scan of the free numbers at the prefix instead of at the first one.
    [`+${prefix}%`, `+${prefix}`, city ?? null, state ?? null, applicationId],
  ).catch(applicationGone);
  return rows[0]?.number;
}

/** Claims exactly this number if it is in the inventory and free. */
export async function claimExact(tx: EntityManager, applicationId: string, number: string): Promise<boolean> {
  const s = schema(tx);
  const rows = await sql<{ number: string }>(
    tx,
    `update ${s}.numbers set application_id = $1, claimed_at = now() where number = $2 and application_id is null returning number`,
    [applicationId, number],
  ).catch(applicationGone);
  return rows.length === 1;
}

/**
 * Throws 409 limit_exceeded when the application already holds `max` tokens. Locks the application
 * row first, so two claims at once cannot both pass the count.
 */
export async function checkTokenCap(tx: EntityManager, applicationId: string, max: number): Promise<void> {
  const s = schema(tx);
  await sql(tx, `select 1 from ${s}.applications where id = $1 for update`, [applicationId]);
  const [row] = await sql<{ n: string }>(
    tx,
    `select count(*) as n from ${s}.addresses where application_id = $1 and type = 'token'`,
    [applicationId],
  );
  if (Number(row?.n ?? 0) >= max)
    throw new AppError('limit_exceeded', `an application holds at most ${max} session tokens; release one first`);
}

export async function insertGenerated(
  tx: EntityManager,
  type: 'token' | 'sip',
  value: string,
  applicationId: string,
  channel: Channel | null,
): Promise<void> {
  const s = schema(tx);
  await sql(tx, `insert into ${s}.addresses (value, type, application_id, channel) values ($1, $2, $3, $4)`, [
    value,
    type,
    applicationId,
    channel,
  ]).catch(applicationGone);
}

/**
 * Locks the address if the account owns it and answers its application's id; undefined when the
 * account does not own it (or it does not exist).
 */
export async function lockOwned(
  tx: EntityManager,
  accountId: string,
  type: AddressType,
  value: string,
): Promise<string | undefined> {
  if (!isAccountId(accountId)) return undefined;
  const s = schema(tx);
  const rows =
    type === 'number'
      ? await sql<{ application_id: string }>(
          tx,
          `select n.application_id from ${s}.numbers n join ${s}.applications a on a.id = n.application_id where n.number = $1 and a.account_id = $2 for update of n`,
          [value, accountId],
        )
      : await sql<{ application_id: string }>(
          tx,
          `select d.application_id from ${s}.addresses d join ${s}.applications a on a.id = d.application_id where d.value = $1 and d.type = $2 and a.account_id = $3 for update of d`,
          [value, type, accountId],
        );
  return rows[0]?.application_id;
}

/** Gives a (locked) address to another application. */
export async function setOwner(
  tx: EntityManager,
  type: AddressType,
  value: string,
  applicationId: string,
): Promise<void> {
  const s = schema(tx);
  if (type === 'number')
    await sql(tx, `update ${s}.numbers set application_id = $1, claimed_at = now() where number = $2`, [
      applicationId,
      value,
    ]).catch(applicationGone);
  else
    await sql(tx, `update ${s}.addresses set application_id = $1 where value = $2 and type = $3`, [
      applicationId,
      value,
      type,
    ]).catch(applicationGone);
}

/** Releases a (locked) address: a number goes back to the inventory, a token or SIP address is gone. */
export async function release(tx: EntityManager, type: AddressType, value: string): Promise<void> {
  const s = schema(tx);
  if (type === 'number')
    await sql(tx, `update ${s}.numbers set application_id = null, claimed_at = null where number = $1`, [value]);
  else await sql(tx, `delete from ${s}.addresses where value = $1 and type = $2`, [value, type]);
}

/** Every address of an application (to announce their release when it is deleted). */
export async function valuesOfApplication(
  tx: EntityManager,
  applicationId: string,
): Promise<{ type: AddressType; value: string }[]> {
  const s = schema(tx);
  return sql<{ type: AddressType; value: string }>(
    tx,
    `select 'number' as type, number as value from ${s}.numbers where application_id = $1 union all select type, value from ${s}.addresses where application_id = $1`,
    [applicationId],
  );
}
