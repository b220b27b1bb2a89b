// Retention of alerts (ALERT_RETENTION_DAYS, days of RETENTION_DAY_MS): at start and every
// PRUNE_INTERVAL_MS, by one replica at a time (orm's startPeriodicJob), the partitions of the next
// days are made ahead and those whose whole day is older than the retention are dropped.
import { dropPartitionsBefore, ensurePartitions, startPeriodicJob } from '@switchboard/db';
import { DAY_MS, daysBefore } from '@switchboard/config';
import type { BackgroundLoop, Logger } from '@switchboard/observability';
import type { Deps } from '../context.ts';
import { DAYS_AHEAD } from '../sessions/keep-sessions.ts';
import { ALERTS_TABLE } from './repository.ts';

/** One pass: partitions ahead, partitions older than the retention dropped; answers those dropped. */
export async function keepAlertsOnce(
  deps: Pick<Deps, 'orm' | 'schema'>,
  retentionDays: number,
  now = new Date(),
  dayMs = DAY_MS,
): Promise<string[]> {
  await ensurePartitions(deps.orm.em, deps.schema, ALERTS_TABLE, now, DAYS_AHEAD, dayMs);
  return dropPartitionsBefore(deps.orm.em, deps.schema, ALERTS_TABLE, daysBefore(retentionDays, dayMs, now.getTime()));
}

export function startKeepingAlerts(
  deps: Pick<Deps, 'orm' | 'schema'>,
  opts: { retentionDays: number; dayMs: number; logger: Logger; intervalMs?: number },
): BackgroundLoop {
  return startPeriodicJob(
    deps.orm,
    async () => {
      const dropped = await keepAlertsOnce(deps, opts.retentionDays, new Date(), opts.dayMs);
      if (dropped.length > 0) opts.logger.info({ partitions: dropped }, 'old alerts dropped');
    },
    {
      name: 'keeping alerts (partitions, retention)',
      schema: deps.schema,
      intervalMs: opts.intervalMs ?? 60 * 60 * 1000,
      logger: opts.logger,
    },
  );
}
