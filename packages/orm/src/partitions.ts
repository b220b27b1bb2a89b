// Daily range partitions of a table partitioned by a timestamp column (native Postgres
// partitioning): the partitions of the days to come are created ahead, and retention detaches and
// drops whole days instead of deleting rows. A partition of `<table>` for the UTC day D is named
// `<table>_pYYYYMMDD` and holds [D 00:00Z, D+1 00:00Z) of the table's partition column.
//
// The statements are DDL whose text names the day, so they run as plain (unnamed) statements on a
// pooled connection, not as the named prepared statements of `sql`. Concurrent callers (replicas)
// are serialised by an advisory lock keyed by the table.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PooledClient } from '@switchboard/platform';
import { poolOf } from './sql.ts';

const DAY_MS = 86_400_000;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function quoted(schema: string, table: string): string {
  if (!IDENTIFIER.test(schema) || !IDENTIFIER.test(table)) throw new Error(`bad table name ${schema}.${table}`);
  return `"${schema}"."${table}"`;
}

/** Midnight UTC of the day `at` falls in. */
function utcDay(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS) * DAY_MS;
}

/** The name of `table`'s partition of the UTC day starting at `day` (ms). */
/**
 * Postgres found no partition for a row (SQLSTATE 23514 with that message): its day was never made,
 * or another replica's retention dropped it; the caller makes the day and stores again.
 */
export function isMissingPartition(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e?.code === '23514' && /no partition/i.test(String(e.message ?? ''));
}

export function dailyPartitionName(table: string, day: Date | number): string {
  const d = new Date(typeof day === 'number' ? day : utcDay(day));
  return `${table}_p${d.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The statement creating `table`'s partition of the UTC day starting at `day` (ms), when it is missing. */
export function dailyPartitionSql(schema: string, table: string, day: number): string {
  const from = new Date(day).toISOString();
  const to = new Date(day + DAY_MS).toISOString();
  return `create table if not exists "${schema}"."${dailyPartitionName(table, day)}" partition of ${quoted(schema, table)} for values from ('${from}') to ('${to}')`;
}

async function withClient<T>(
  em: EntityManager,
  work: (client: Awaited<ReturnType<PooledClient['connect']>>) => Promise<T>,
): Promise<T> {
  const client = await poolOf(em).connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

/** Creates the missing partitions of the UTC days starting at `days` (ms), in one transaction under the table's lock. */
async function createMissing(em: EntityManager, schema: string, table: string, days: readonly number[]): Promise<void> {
  const name = quoted(schema, table);
  await withClient(em, async (client) => {
    await client.query('begin');
    try {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`switchboard-partitions-${name}`]);
      const { rows } = await client.query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = $1::regclass`,
        [name],
      );
      const existing = new Set(rows.map((r) => r.name));
      for (const day of days) {
        if (!existing.has(dailyPartitionName(table, day))) await client.query(dailyPartitionSql(schema, table, day));
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Creates the missing daily partitions of `schema.table`, from the UTC day of `from` to `daysAhead`
 * days after today (UTC), in one transaction.
 */
export async function ensureDailyPartitions(
  em: EntityManager,
  schema: string,
  table: string,
  from: Date,
  daysAhead: number,
): Promise<void> {
  const last = utcDay(new Date()) + Math.max(0, daysAhead) * DAY_MS;
  const days: number[] = [];
  for (let day = utcDay(from); day <= last; day += DAY_MS) days.push(day);
  await createMissing(em, schema, table, days);
  const known = knownDays(em, schema, table);
  for (const day of days) known.add(day);
}

/** The days (ms) known to have a partition, per pool and table: a process's view (another replica's retention may drop a day). */
const known = new WeakMap<PooledClient, Map<string, Set<number>>>();

function knownDays(em: EntityManager, schema: string, table: string): Set<number> {
  const pool = poolOf(em);
  let tables = known.get(pool);
  if (!tables) {
    tables = new Map();
    known.set(pool, tables);
  }
  const name = `${schema}.${table}`;
  let days = tables.get(name);
  if (!days) {
    days = new Set();
    tables.set(name, days);
  }
  return days;
}

/**
 * Makes sure rows of these instants have a partition of `schema.table` to go into, whatever their
 * day (past, today or ahead): the days this process does not know to exist are created when
 * missing. `recheck` forgets what the process knew first (after an insert found a day missing).
 * The one way the services make partitions for the rows they store (deliveries, bodies, sessions).
 */
export async function ensurePartitionFor(
  em: EntityManager,
  schema: string,
  table: string,
  instants: readonly Date[],
  recheck = false,
): Promise<void> {
  const days = knownDays(em, schema, table);
  if (recheck) days.clear();
  const missing = [...new Set(instants.map(utcDay))].filter((d) => !days.has(d)).sort((a, b) => a - b);
  if (missing.length === 0) return;
  await createMissing(em, schema, table, missing);
  for (const d of missing) days.add(d);
  // Days before the oldest kept by any retention are forgotten with time: the set stays small.
  if (days.size > 400) for (const d of [...days].sort((a, b) => a - b).slice(0, days.size - 400)) days.delete(d);
}

/**
 * Runs `store` (which writes rows of these instants into `schema.table`) after ensurePartitionFor;
 * when Postgres still finds a day missing (dropped by another replica's retention), the days are
 * checked again and `store` runs once more.
 */
export async function storeInPartitions<T>(
  em: EntityManager,
  schema: string,
  table: string,
  instants: readonly Date[],
  store: () => Promise<T>,
): Promise<T> {
  await ensurePartitionFor(em, schema, table, instants);
  try {
    return await store();
  } catch (err) {
    if (!isMissingPartition(err)) throw err;
    await ensurePartitionFor(em, schema, table, instants, true);
    return store();
  }
}

/**
 * Detaches and drops the partitions of `schema.table` whose range ends at or before `cutoff` (a
 * default partition is never dropped). Each partition is detached CONCURRENTLY, so reads and writes
 * of the table go on meanwhile; a detach left pending by an interrupted pass is finished first.
 * Returns the names of the partitions dropped, oldest first.
 */
export async function dropPartitionsBefore(
  em: EntityManager,
  schema: string,
  table: string,
  cutoff: Date,
): Promise<string[]> {
  const name = quoted(schema, table);
  return withClient(em, async (client) => {
    const lock = `switchboard-partitions-drop-${name}`;
    const { rows: locked } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [
      lock,
    ]);
    // Another replica is at it.
    if (!locked[0]?.ok) return [];
    try {
      const { rows } = await client.query<{ name: string; pending: boolean }>(
        `select c.relname as name, i.inhdetachpending as pending
         from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = $1::regclass
           and (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$TO \\('([^']+)'\\)$$))[1]::timestamptz <= $2
         order by (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$TO \\('([^']+)'\\)$$))[1]::timestamptz`,
        [name, cutoff],
      );
      const dropped: string[] = [];
      for (const row of rows) {
        const partition = `"${schema}"."${row.name}"`;
        await client.query(
          `alter table ${name} detach partition ${partition} ${row.pending ? 'finalize' : 'concurrently'}`,
        );
        await client.query(`drop table ${partition}`);
        dropped.push(row.name);
      }
      return dropped;
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [lock]).catch(() => undefined);
    }
  });
}
