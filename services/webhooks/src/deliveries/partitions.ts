// The daily partitions of delivery records (docs/decisions/0009-delivery-partitions.md): the days
// to come are created ahead (at start and with every retention pass), a record stated at a time
// outside them (a late record) gets its day's partition before it is stored, and retention drops
// whole days.
import type { MikroORM } from '@mikro-orm/postgresql';
import { dropPartitionsBefore, ensureDailyPartitions, ensurePartitionsFor } from '@switchboard/orm';

export const DELIVERIES_TABLE = 'deliveries';
/** Days after today whose partitions exist ahead (a pass is missed now and then without harm). */
export const DAYS_AHEAD = 3;
const DAY_MS = 86_400_000;

/** The days (ms) known to have a partition, per ORM (a process's view; another replica may drop days). */
const covered = new WeakMap<MikroORM, Set<number>>();

function coveredOf(orm: MikroORM): Set<number> {
  let days = covered.get(orm);
  if (!days) {
    days = new Set();
    covered.set(orm, days);
  }
  return days;
}

/** Creates the partitions of yesterday, today and DAYS_AHEAD days ahead when missing. */
export async function ensureDeliveryPartitions(orm: MikroORM, schema: string): Promise<void> {
  const from = new Date(Date.now() - DAY_MS);
  await ensureDailyPartitions(orm.em.fork(), schema, DELIVERIES_TABLE, from, DAYS_AHEAD);
  const days = coveredOf(orm);
  const first = Math.floor(from.getTime() / DAY_MS) * DAY_MS;
  for (let d = first; d <= first + (DAYS_AHEAD + 1) * DAY_MS; d += DAY_MS) days.add(d);
}

/**
 * Makes sure records of these times have a partition to go into; `recheck` forgets what this
 * process knew first (after an insert found a day missing).
 */
export async function coverRecordDays(
  orm: MikroORM,
  schema: string,
  times: readonly Date[],
  recheck = false,
): Promise<void> {
  const days = coveredOf(orm);
  if (recheck) days.clear();
  const missing = times.filter((t) => !days.has(Math.floor(t.getTime() / DAY_MS) * DAY_MS));
  if (missing.length === 0) return;
  for (const d of await ensurePartitionsFor(orm.em.fork(), schema, DELIVERIES_TABLE, missing)) days.add(d);
}

/** Drops the days of records older than the retention period (whole days ending by its cutoff); answers their names. */
export async function dropExpiredDeliveries(orm: MikroORM, schema: string, retentionDays: number): Promise<string[]> {
  const cutoff = new Date(Date.now() - retentionDays * DAY_MS);
  const dropped = await dropPartitionsBefore(orm.em.fork(), schema, DELIVERIES_TABLE, cutoff);
  const days = coveredOf(orm);
  for (const d of days) if (d + DAY_MS <= cutoff.getTime()) days.delete(d);
  return dropped;
}
