// Periodic work on a service's database (retention passes: pruning, partitions ahead): a pass runs
// at start, so a process restarted more often than its interval still does it, then every
// `intervalMs`. Replicas coordinate through a session-level advisory lock keyed by the schema and
// the job's name: while one replica's pass runs, the others skip theirs instead of doing the same
// deletes at once. Built on startBackgroundLoop, the one periodic-job mechanism of the services.
import type { MikroORM } from '@mikro-orm/postgresql';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/observability';
import { poolOf } from './sql.ts';

export interface PeriodicJobOptions {
  /** Names the job (with the schema, the advisory lock's key). */
  name: string;
  schema: string;
  intervalMs: number;
  logger: Logger;
  /** Told after each pass whether this replica ran it (false: another replica held the lock). */
  ran?: (ran: boolean) => void;
}

/**
 * Runs `pass` once under the job's advisory lock; answers false without running it when another
 * replica holds the lock.
 */
export async function runExclusively(
  orm: MikroORM,
  opts: Pick<PeriodicJobOptions, 'name' | 'schema'>,
  pass: () => Promise<void>,
): Promise<boolean> {
  const key = `switchboard-job-${opts.schema}-${opts.name}`;
  const client = await poolOf(orm.em).connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [key]);
    if (!rows[0]?.ok) return false;
    try {
      await pass();
      return true;
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

/** Starts the job: a pass now, then one every `intervalMs`; a failed pass is logged and tried again at the next. */
export function startPeriodicJob(orm: MikroORM, pass: () => Promise<void>, opts: PeriodicJobOptions): BackgroundLoop {
  return startBackgroundLoop(
    async () => {
      const ran = await runExclusively(orm, opts, pass);
      opts.ran?.(ran);
      return false;
    },
    { intervalMs: opts.intervalMs, logger: opts.logger, failure: `${opts.name} failed; will retry` },
  );
}
