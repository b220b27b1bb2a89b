// Work asked for together, done as one: the calls of a gRPC batch (BatchService) reach their
// handlers in one synchronous loop, so their reads by id can share one statement and round trip,
// and their inserts one statement and one commit.
import DataLoader from 'dataloader';
import { queryPrepared, type PooledClient } from './db.ts';
import { coalescedWork, recordedContext, type TraceContext } from '@switchboard/observability';

/** One load as it waits for its batch: the key, and the caller's trace when it is recorded (tracing/coalesced.ts). */
interface Queued<K> {
  key: K;
  trace: TraceContext | undefined;
}

export interface CoalescerOptions {
  /** Most keys one `loadMany` gets (default 64). */
  maxKeys?: number;
  /**
   * When a `loadMany` of several keys fails, do each again alone, so only the key at fault fails
   * (for writes that are all-or-nothing as a group and must not fail their neighbours).
   */
  retryAlone?: boolean;
}

/**
 * `load(key)` queues the key; the first load of a turn schedules `loadMany` (on process.nextTick)
 * for every key queued by then, at most `maxKeys` at a time. `loadMany` answers one value per key,
 * in the keys' order; when it fails, every load it carried fails (or, with `retryAlone`, each is
 * done again alone). A lone key costs one `loadMany`. With tracing, `loadMany` runs in the trace of
 * a caller that is recorded, and the spans it makes link to the other recorded callers. The batching
 * is dataloader's, without its cache (decision 0019).
 */
export class Coalescer<K, V> {
  private readonly loader: DataLoader<Queued<K>, V>;

  constructor(
    private readonly loadMany: (keys: K[]) => Promise<V[]>,
    private readonly opts: CoalescerOptions = {},
  ) {
    this.loader = new DataLoader<Queued<K>, V>((queued) => this.run(queued), {
      cache: false,
      maxBatchSize: opts.maxKeys ?? 64,
      batchScheduleFn: (dispatch) => process.nextTick(dispatch),
    });
  }

  load(key: K): Promise<V> {
    return this.loader.load({ key, trace: recordedContext() });
  }

  // In a recorded caller's trace, linked to the other recorded callers (not only the first caller's,
  // which process.nextTick would carry on, recorded or not).
  private async run(part: readonly Queued<K>[]): Promise<(V | Error)[]> {
    try {
      return await coalescedWork(
        part.map((q) => q.trace),
        () => this.loadMany(part.map((q) => q.key)),
      );
    } catch (err) {
      if (!this.opts.retryAlone || part.length === 1) throw err;
      // dataloader fails one key for each Error in the answer.
      return Promise.all(
        part.map((q) =>
          this.run([q]).then(
            ([value]) => value as V,
            (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
          ),
        ),
      );
    }
  }
}

interface OwnedRow {
  id: string;
  account_id: string;
}

/** Coalescers kept per pool and per key (a statement, a table). */
type CoalescerCache<K, V> = WeakMap<PooledClient, Map<string, Coalescer<K, V>>>;

/** The coalescer of `key` on `pool`, made by `make` the first time it is asked for. */
function coalescerOf<K, V>(
  cache: CoalescerCache<K, V>,
  pool: PooledClient,
  key: string,
  make: () => Coalescer<K, V>,
): Coalescer<K, V> {
  let byKey = cache.get(pool);
  if (!byKey) {
    byKey = new Map();
    cache.set(pool, byKey);
  }
  let coalescer = byKey.get(key);
  if (!coalescer) {
    coalescer = make();
    byKey.set(key, coalescer);
  }
  return coalescer;
}

const ownedReaders: CoalescerCache<{ id: string; accountId: string }, OwnedRow | undefined> = new WeakMap();

/**
 * The row of `from` (a schema-qualified table with text `id` and `account_id` columns) with this id
 * and account, or undefined: another account's row is not found. Reads asked for together (a batch
 * of Get calls) go as one prepared statement (`id = any($1)`), a lone one as `id = $1 and account_id = $2`.
 */
export function readOwnedRow<R extends OwnedRow>(
  pool: PooledClient,
  from: string,
  columns: string,
  id: string,
  accountId: string,
): Promise<R | undefined> {
  const reader = coalescerOf(
    ownedReaders,
    pool,
    `${from} ${columns}`,
    () =>
      new Coalescer(async (keys) => {
        const rows =
          keys.length === 1
            ? await queryPrepared<OwnedRow>(pool, `select ${columns} from ${from} where id = $1 and account_id = $2`, [
                keys[0]!.id,
                keys[0]!.accountId,
              ])
            : await queryPrepared<OwnedRow>(pool, `select ${columns} from ${from} where id = any($1::text[])`, [
                keys.map((k) => k.id),
              ]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        return keys.map((k) => {
          const row = byId.get(k.id);
          return row && row.account_id === k.accountId ? row : undefined;
        });
      }),
  );
  return reader.load({ id, accountId }) as Promise<R | undefined>;
}

const statementReaders: CoalescerCache<unknown[], unknown[]> = new WeakMap();

/**
 * The rows of a read statement (`$1`, `$2`, ... its parameters, of the Postgres `types` given in
 * order). The same read asked for together with other parameters (a batch of List calls) goes as
 * one prepared statement: the calls' parameters as the rows of `unnest`, the statement joined
 * laterally to each, every call answered with its own rows in the statement's order (with two extra
 * columns, `?i` and `?n`). A lone read runs the statement itself. For reads whose statements are cheap per
 * row of parameters (an index scan with a limit); the parameters must not be arrays themselves.
 */
export function queryCoalesced<R>(
  pool: PooledClient,
  text: string,
  types: readonly string[],
  values: unknown[],
): Promise<R[]> {
  const reader = coalescerOf(statementReaders, pool, text, () => {
    const inner = text.replace(/\$(\d+)/g, (_, n: string) => `q.p${n}`);
    const params = types.map((_, i) => `p${i + 1}`).join(', ');
    // Each call's rows in its statement's order: numbered inside the lateral subquery, sorted by call
    // and number. Both numbers come back as int4, which pg reads with parseInt (int8 goes through a
    // regular expression per value).
    const together =
      `select x.*, q."?i"::int4 as "?i" from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) with ordinality as q(${params}, "?i") ` +
      `cross join lateral (select y.*, (row_number() over ())::int4 as "?n" from (${inner}) as y) as x order by q."?i", x."?n"`;
    return new Coalescer<unknown[], unknown[]>(async (calls) => {
      if (calls.length === 1) return [await queryPrepared(pool, text, calls[0]!)];
      const rows = await queryPrepared<{ '?i': number }>(
        pool,
        together,
        types.map((_, i) => calls.map((c) => c[i])),
      );
      const answers: unknown[][] = calls.map(() => []);
      for (const row of rows) answers[row['?i'] - 1]!.push(row);
      return answers;
    });
  });
  return reader.load(values) as Promise<R[]>;
}
