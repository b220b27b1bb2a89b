// Retention of alerts (ALERT_RETENTION_DAYS): every hour, and at start, the daily partitions of the
// next days are made ahead and those whose whole day is older than the retention are dropped.
import { dropPartitionsBefore, ensureDailyPartitions } from '@switchboard/orm';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/platform';
import type { Deps } from '../context.ts';
import { DAYS_AHEAD } from '../sessions/keep-sessions.ts';
import { ALERTS_TABLE } from './repository.ts';

const DAY_MS = 86_400_000;

/** One pass: partitions ahead, partitions older than the retention dropped; answers those dropped. */
export async function keepAlertsOnce(
  deps: Pick<Deps, 'orm' | 'schema'>,
  retentionDays: number,
  now = new Date(),
): Promise<string[]> {
  await ensureDailyPartitions(deps.orm.em, deps.schema, ALERTS_TABLE, now, DAYS_AHEAD);
  return dropPartitionsBefore(deps.orm.em, deps.schema, ALERTS_TABLE, new Date(now.getTime() - retentionDays * DAY_MS));
}

export function startKeepingAlerts(
  deps: Pick<Deps, 'orm' | 'schema'>,
  opts: { retentionDays: number; logger: Logger; intervalMs?: number },
): BackgroundLoop {
  return startBackgroundLoop(
    async () => {
      const dropped = await keepAlertsOnce(deps, opts.retentionDays);
      if (dropped.length > 0) opts.logger.info({ partitions: dropped }, 'old alerts dropped');
      return false;
    },
    {
      intervalMs: opts.intervalMs ?? 60 * 60 * 1000,
      logger: opts.logger,
      failure: 'keeping alerts (partitions, retention) failed; will retry',
    },
  );
}
