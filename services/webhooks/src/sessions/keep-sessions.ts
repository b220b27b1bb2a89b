// Retention of session records (SESSION_RETENTION_DAYS, days of RETENTION_DAY_MS): at start and
// every PRUNE_INTERVAL_MS, by one replica at a time (orm's startPeriodicJob), the partitions of the
// next days are made ahead and those whose whole day is older than the retention
// are dropped (no rows are deleted one by one); the signals older than the retention, and the
// rollups older than both it and the longest statistics window (7 days), are deleted.
import { dropPartitionsBefore, ensurePartitions, startPeriodicJob } from '@switchboard/db';
import { DAY_MS, daysBefore } from '@switchboard/config';
import type { BackgroundLoop, Logger } from '@switchboard/observability';
import type { Deps } from '../context.ts';
import { pruneSessionExtras } from './repository.ts';
import { SESSIONS_TABLE } from './store-session.ts';

/** Days of partitions made ahead of today. */
export const DAYS_AHEAD = 3;
/** The longest statistics window, in days: rollups are kept at least this long. */
const ROLLUPS_KEPT_DAYS = 7;

export interface KeepSessionsOptions {
  retentionDays: number;
  /** How long a day lasts (RETENTION_DAY_MS): partitions span one. */
  dayMs: number;
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
  dayMs = DAY_MS,
): Promise<string[]> {
  const em = deps.orm.em;
  await ensurePartitions(em, deps.schema, SESSIONS_TABLE, now, DAYS_AHEAD, dayMs);
  const cutoff = daysBefore(retentionDays, dayMs, now.getTime());
  const dropped = await dropPartitionsBefore(em, deps.schema, SESSIONS_TABLE, cutoff);
  const rollupsCutoff = new Date(
    Math.min(cutoff.getTime(), daysBefore(ROLLUPS_KEPT_DAYS, dayMs, now.getTime()).getTime()),
  );
  await pruneSessionExtras(em, deps.schema, cutoff, rollupsCutoff);
  return dropped;
}

export function startKeepingSessions(deps: Pick<Deps, 'orm' | 'schema'>, opts: KeepSessionsOptions): BackgroundLoop {
  return startPeriodicJob(
    deps.orm,
    async () => {
      const dropped = await keepSessionsOnce(deps, opts.retentionDays, new Date(), opts.dayMs);
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
