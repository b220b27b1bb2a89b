// Retention of session records (SESSION_RETENTION_DAYS): at start and every PRUNE_INTERVAL_MS, by
// one replica at a time (orm's startPeriodicJob), the daily
// partitions of the next days are made ahead and those whose whole day is older than the retention
// are dropped (no rows are deleted one by one); the signals older than the retention, and the
// rollups older than both it and the longest statistics window (7 days), are deleted.
import { dropPartitionsBefore, ensureDailyPartitions, startPeriodicJob } from '@switchboard/orm';
import type { BackgroundLoop, Logger } from '@switchboard/platform';
import type { Deps } from '../context.ts';
import { pruneSessionExtras } from './repository.ts';
import { SESSIONS_TABLE } from './store-session.ts';

const DAY_MS = 86_400_000;
/** Days of partitions made ahead of today. */
export const DAYS_AHEAD = 3;
/** The longest statistics window: rollups are kept at least this long. */
const ROLLUPS_KEPT_MS = 7 * DAY_MS;

export interface KeepSessionsOptions {
  retentionDays: number;
  intervalMs?: number;
  logger: Logger;
  /** Told the partitions dropped after each pass. */
  dropped?: (n: number) => void;
}

/** One pass: partitions ahead, old partitions dropped, old signals and rollups deleted. */
export async function keepSessionsOnce(
  deps: Pick<Deps, 'orm' | 'schema'>,
  retentionDays: number,
  now = new Date(),
): Promise<string[]> {
  const em = deps.orm.em;
  await ensureDailyPartitions(em, deps.schema, SESSIONS_TABLE, now, DAYS_AHEAD);
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const dropped = await dropPartitionsBefore(em, deps.schema, SESSIONS_TABLE, cutoff);
  const rollupsCutoff = new Date(Math.min(cutoff.getTime(), now.getTime() - ROLLUPS_KEPT_MS));
  await pruneSessionExtras(em, deps.schema, cutoff, rollupsCutoff);
  return dropped;
}

export function startKeepingSessions(deps: Pick<Deps, 'orm' | 'schema'>, opts: KeepSessionsOptions): BackgroundLoop {
  return startPeriodicJob(
    deps.orm,
    async () => {
      const dropped = await keepSessionsOnce(deps, opts.retentionDays);
      if (dropped.length > 0) opts.logger.info({ partitions: dropped }, 'old session records dropped');
      opts.dropped?.(dropped.length);
    },
    {
      name: 'keeping session records (partitions, retention)',
      schema: deps.schema,
      intervalMs: opts.intervalMs ?? 60 * 60 * 1000,
      logger: opts.logger,
    },
  );
}
