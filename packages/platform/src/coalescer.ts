// Work asked for together, done as one: the calls of a gRPC batch (BatchService) reach their
// handlers in one synchronous loop, so their reads by id can share one statement and round trip,
// and their inserts one statement and one commit.
import { queryPrepared, type PooledClient } from './db.ts';
import { coalescedWork, recordedContext, type TraceContext } from './tracing.ts';

interface Waiting<K, V> {
  key: K;
  resolve(value: V): void;
  reject(err: unknown): void;
  /** The caller's trace when it is recorded (tracing/coalesced.ts coalescedWork). */
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
 * done again alone). A lone key costs one `loadMany`, as before. With tracing, `loadMany` runs in
 * the trace of a caller that is recorded, and the spans it makes link to the other recorded callers.
 */
export class Coalescer<K, V> {
  private queue: Waiting<K, V>[] = [];
  private readonly maxKeys: number;

  constructor(
    private readonly loadMany: (keys: K[]) => Promise<V[]>,
    private readonly opts: CoalescerOptions = {},
  ) {
    this.maxKeys = opts.maxKeys ?? 64;
  }

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) process.nextTick(this.flush);
      this.queue.push({ key, resolve, reject, trace: recordedContext() });
    });
  }

  private readonly flush = (): void => {
    const queued = this.queue;
    this.queue = [];
    for (let i = 0; i < queued.length; i += this.maxKeys) {
      this.run(queued.length <= this.maxKeys ? queued : queued.slice(i, i + this.maxKeys));
    }
  };

  private run(part: Waiting<K, V>[]): void {
    // In a recorded caller's trace, linked to the other recorded callers (not only the first
    // caller's, which process.nextTick would carry on, recorded or not).
    coalescedWork(
      part.map((w) => w.trace),
      () => this.loadMany(part.map((w) => w.key)),
    ).then(
      (values) => {
        for (let j = 0; j < part.length; j++) part[j]!.resolve(values[j]!);
      },
      (err: unknown) => {
        if (this.opts.retryAlone && part.length > 1) for (const w of part) this.run([w]);
        else for (const w of part) w.reject(err);
      },
    );
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
