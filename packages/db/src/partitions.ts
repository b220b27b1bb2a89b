// Range partitions of a table partitioned by a timestamp column (native Postgres partitioning),
// one per span of time (a UTC day unless the service's RETENTION_DAY_MS makes days shorter, as the
// soak does): the spans to come are created ahead, and retention detaches and drops whole spans
// instead of deleting rows. A partition of `<table>` for the UTC day D is named `<table>_pYYYYMMDD`;
// one of a shorter span starting at instant T is named `<table>_pYYYYMMDDHHMMSS` after T. A span
// already covered by partitions of another length (the span was changed) is not made again; only
// its uncovered part is.
//
// The statements are DDL whose text names the span, so they run as plain (unnamed) statements on a
// pooled connection, not as the named prepared statements of `sql`. Concurrent callers (replicas)
// are serialised by an advisory lock keyed by the table.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS } from '@switchboard/config';
import type { PooledClient } from './db.ts';
import { poolOf } from './sql.ts';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** The bounds of a partition in its `for values from (...) to (...)` expression. */
const BOUNDS_SQL = `(regexp_match(pg_get_expr(c.relpartbound, c.oid), $$FROM \\('([^']+)'\\)$$))[1]::timestamptz as from_at,
  (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$TO \\('([^']+)'\\)$$))[1]::timestamptz as to_at`;

function quoted(schema: string, table: string): string {
  if (!IDENTIFIER.test(schema) || !IDENTIFIER.test(table)) throw new Error(`bad table name ${schema}.${table}`);
  return `"${schema}"."${table}"`;
}

/** The start of the span (`spanMs` long, counted from the epoch) that `at` falls in. */
function spanStart(at: Date | number, spanMs: number): number {
  return Math.floor((typeof at === 'number' ? at : at.getTime()) / spanMs) * spanMs;
}

/**
 * Postgres found no partition for a row (SQLSTATE 23514 with that message): its span was never made,
 * or another replica's retention dropped it; the caller makes the span and stores again.
 */
export function isMissingPartition(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e?.code === '23514' && /no partition/i.test(String(e.message ?? ''));
}

/** The name of `table`'s partition starting at `start` (ms) and `spanMs` long (a UTC day by default). */
export function partitionName(table: string, start: Date | number, spanMs = DAY_MS): string {
  const at = new Date(typeof start === 'number' ? start : spanStart(start, spanMs));
  const stamp = at.toISOString().replace(/[-:T]/g, '');
  return `${table}_p${spanMs === DAY_MS && at.getTime() % DAY_MS === 0 ? stamp.slice(0, 8) : stamp.slice(0, 14)}`;
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

/**
 * Creates the partitions of the spans starting at `starts` (ms) that are not covered yet, in one
 * transaction under the table's lock: the part of a span that existing partitions (of any length)
 * leave uncovered gets one partition per gap.
 */
async function createMissing(
  em: EntityManager,
  schema: string,
  table: string,
  starts: readonly number[],
  spanMs: number,
): Promise<void> {
  const name = quoted(schema, table);
  await withClient(em, async (client) => {
    await client.query('begin');
    try {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`switchboard-partitions-${name}`]);
      // Bounds as epoch ms (a default partition has none).
      const { rows } = await client.query<{ name: string; from_ms: string | null; to_ms: string | null }>(
        `select c.relname as name, (extract(epoch from b.from_at) * 1000)::bigint::text as from_ms,
                (extract(epoch from b.to_at) * 1000)::bigint::text as to_ms
         from pg_inherits i join pg_class c on c.oid = i.inhrelid, lateral (select ${BOUNDS_SQL}) b
         where i.inhparent = $1::regclass`,
        [name],
      );
      let taken = rows
        .filter((r) => r.from_ms !== null && r.to_ms !== null)
        .map((r) => ({ name: r.name, range: [Number(r.from_ms), Number(r.to_ms)] as const }))
        .sort((a, b) => a.range[0] - b.range[0]);
      // A partition of another length over the spans wanted (made before the span was changed, or
      // by a migration) is replaced when it holds no row yet; one that holds rows stays until
      // retention drops it, and only the spans around it are made.
      const wanted = [Math.min(...starts), Math.max(...starts) + spanMs];
      for (const p of taken) {
        const [from, to] = p.range;
        if (to - from === spanMs || to <= wanted[0]! || from >= wanted[1]!) continue;
        const { rows: any } = await client.query(`select 1 from "${schema}"."${p.name}" limit 1`);
        if (any.length === 0) {
          await client.query(`drop table "${schema}"."${p.name}"`);
          taken = taken.filter((t) => t !== p);
        }
      }
      const ranges = taken.map((t) => t.range);
      for (const start of starts) {
        for (const [from, to] of gaps(start, start + spanMs, ranges)) {
          const part = `"${schema}"."${partitionName(table, from, to - from === spanMs ? spanMs : 1000)}"`;
          await client.query(
            `create table ${part} partition of ${name} for values from ('${new Date(from).toISOString()}') to ('${new Date(to).toISOString()}')`,
          );
        }
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    }
  });
}

/** The parts of [from, to) that no range of `taken` (sorted by start) covers. */
function gaps(from: number, to: number, taken: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let at = from;
  for (const [a, b] of taken) {
    if (b <= at || a >= to) continue;
    if (a > at) out.push([at, a]);
    at = Math.max(at, b);
    if (at >= to) break;
  }
  if (at < to) out.push([at, to]);
  return out;
}

/**
 * Creates the missing partitions of `schema.table`, from the span of `from` to `spansAhead` spans
 * after the current one, in one transaction.
 */
export async function ensurePartitions(
  em: EntityManager,
  schema: string,
  table: string,
  from: Date,
  spansAhead: number,
  spanMs = DAY_MS,
): Promise<void> {
  const last = spanStart(Date.now(), spanMs) + Math.max(0, spansAhead) * spanMs;
  const starts: number[] = [];
  for (let s = spanStart(from, spanMs); s <= last; s += spanMs) starts.push(s);
  await createMissing(em, schema, table, starts, spanMs);
  const known = knownSpans(em, schema, table);
  for (const s of starts) known.add(s);
}

/** The spans (their starts, ms) known to have a partition, per pool and table: a process's view (another replica's retention may drop one). */
const known = new WeakMap<PooledClient, Map<string, Set<number>>>();

function knownSpans(em: EntityManager, schema: string, table: string): Set<number> {
  const pool = poolOf(em);
  let tables = known.get(pool);
  if (!tables) {
    tables = new Map();
    known.set(pool, tables);
  }
  const name = `${schema}.${table}`;
  let spans = tables.get(name);
  if (!spans) {
    spans = new Set();
    tables.set(name, spans);
  }
  return spans;
}

/** Spans a process remembers per table; the oldest are forgotten past it (retention drops them anyway). */
const KNOWN_SPANS_MAX = 400;

/**
 * Makes sure rows of these instants have a partition of `schema.table` to go into, whatever their
 * span (past, current or ahead): the spans this process does not know to exist are created when
 * missing. `recheck` forgets what the process knew first (after an insert found a span missing).
 * The one way the services make partitions for the rows they store (deliveries, bodies, sessions).
 */
export async function ensurePartitionFor(
  em: EntityManager,
  schema: string,
  table: string,
  instants: readonly Date[],
  opts: { recheck?: boolean; spanMs?: number } = {},
): Promise<void> {
  const spanMs = opts.spanMs ?? DAY_MS;
  const spans = knownSpans(em, schema, table);
  if (opts.recheck) spans.clear();
  const missing = [...new Set(instants.map((at) => spanStart(at, spanMs)))]
    .filter((s) => !spans.has(s))
    .sort((a, b) => a - b);
  if (missing.length === 0) return;
  await createMissing(em, schema, table, missing, spanMs);
  for (const s of missing) spans.add(s);
  if (spans.size > KNOWN_SPANS_MAX)
    for (const s of [...spans].sort((a, b) => a - b).slice(0, spans.size - KNOWN_SPANS_MAX)) spans.delete(s);
}

/** Rows a store writes into a partitioned table: the table and the instants of its partition key. */
export interface PartitionedRows {
  table: string;
  instants: readonly Date[];
}

/**
 * Runs `store` (which writes rows of these instants into these tables of `schema`, in one
 * transaction) after ensurePartitionFor of each; when Postgres still finds a span missing (dropped
 * by another replica's retention), every table's spans are checked again and `store` runs once more.
 */
export async function storeInPartitions<T>(
  em: EntityManager,
  schema: string,
  rows: readonly PartitionedRows[],
  store: () => Promise<T>,
  spanMs = DAY_MS,
): Promise<T> {
  for (const r of rows) await ensurePartitionFor(em, schema, r.table, r.instants, { spanMs });
  try {
    return await store();
  } catch (err) {
    if (!isMissingPartition(err)) throw err;
    for (const r of rows) await ensurePartitionFor(em, schema, r.table, r.instants, { recheck: true, spanMs });
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
