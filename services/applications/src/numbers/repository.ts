// The SQL of the number inventory (docs/data-access.md), through @switchboard/db's `sql`.
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@switchboard/db';

function schema(em: EntityManager): string {
  return `"${em.config.get('schema')}"`;
}

/** Inserts numbers (E.164) not in the inventory yet with the same details; answers the ones it added. */
export async function insertNumbers(
  em: EntityManager,
  numbers: readonly string[],
  details: { city: string | null; state: string | null; country: string | null; smsEnabled: boolean },
): Promise<string[]> {
  const rows = await sql<{ number: string }>(
    em,
    `insert into ${schema(em)}.numbers (number, city, state, country, sms_enabled)
     select unnest($1::text[]), $2, $3, $4, $5 on conflict (number) do nothing returning number`,
    [numbers, details.city, details.state, details.country, details.smsEnabled],
  );
  return rows.map((r) => r.number);
}

export interface NumberRow {
  number: string;
  city: string | null;
  state: string | null;
  country: string | null;
  sms_enabled: boolean;
  application_id: string | null;
}

/** Every number of the inventory, in order. */
export function selectNumbers(em: EntityManager): Promise<NumberRow[]> {
  return sql<NumberRow>(
    em,
    `select number, city, state, country, sms_enabled, application_id from ${schema(em)}.numbers order by number`,
  );
}

/** Locks a number of the inventory (in the caller's transaction) and answers who holds it; undefined when it is not there. */
export async function lockNumber(
  tx: EntityManager,
  number: string,
): Promise<{ application_id: string | null; account_id: string | null } | undefined> {
  const s = schema(tx);
  const [row] = await sql<{ application_id: string | null; account_id: string | null }>(
    tx,
    `select n.application_id, a.account_id::text as account_id from ${s}.numbers n left join ${s}.applications a on a.id = n.application_id where n.number = $1 for update of n`,
    [number],
  );
  return row;
}

/** Deletes a number from the inventory, in the caller's transaction. */
export async function deleteNumber(tx: EntityManager, number: string): Promise<void> {
  await sql(tx, `delete from ${schema(tx)}.numbers where number = $1`, [number]);
}
