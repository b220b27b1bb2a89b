// The partitions of delivery records (docs/decisions/0009-delivery-partitions.md), one per day (of
// RETENTION_DAY_MS): the days to come are created ahead (at start and with every retention pass), a
// record stated at a time outside them (a late record) gets its day's partition before it is stored
// (orm's storeInPartitions, in record-attempts.ts), and retention drops whole days.
import type { MikroORM } from '@mikro-orm/postgresql';
import { dropPartitionsBefore, ensurePartitions } from '@switchboard/db';
import { DAY_MS, daysBefore } from '@switchboard/config';

export const DELIVERIES_TABLE = 'deliveries';
/** The kept bodies, partitioned by day the same way (migration 018). */
export const BODIES_TABLE = 'delivery_bodies';
/** Days after today whose partitions exist ahead (a pass is missed now and then without harm). */
export const DAYS_AHEAD = 3;

/** Creates the partitions of records and bodies of yesterday, today and DAYS_AHEAD days ahead when missing. */
export async function ensureDeliveryPartitions(orm: MikroORM, schema: string, dayMs = DAY_MS): Promise<void> {
  for (const table of [DELIVERIES_TABLE, BODIES_TABLE])
    await ensurePartitions(orm.em.fork(), schema, table, daysBefore(1, dayMs), DAYS_AHEAD, dayMs);
}

/** Drops the days of records and bodies older than the retention period (whole days ending by its cutoff); answers their names. */
export async function dropExpiredDeliveries(
  orm: MikroORM,
  schema: string,
  retentionDays: number,
  dayMs = DAY_MS,
): Promise<string[]> {
  const cutoff = daysBefore(retentionDays, dayMs);
  const records = await dropPartitionsBefore(orm.em.fork(), schema, DELIVERIES_TABLE, cutoff);
  return [...records, ...(await dropPartitionsBefore(orm.em.fork(), schema, BODIES_TABLE, cutoff))];
}
