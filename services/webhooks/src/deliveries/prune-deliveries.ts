import type { MikroORM } from '@mikro-orm/postgresql';

const BATCH = 5000;
/** Tombstones of deleted applications only need to outlive a create that was in flight. */
const TOMBSTONE_DAYS = 7;

/**
 * Deletes delivery records older than the retention period, in batches so that no statement holds
 * locks for long, and old tombstones of deleted applications. Returns the number of deliveries deleted.
 */
export async function pruneDeliveries(orm: MikroORM, schema: string, retentionDays: number): Promise<number> {
  const conn = orm.em.getConnection();
  let total = 0;
  if (retentionDays > 0) {
    for (;;) {
      const res = await conn.execute<{ seq: string }[]>(
        `delete from "${schema}".deliveries where seq in (
           select seq from "${schema}".deliveries where created_at < now() - make_interval(days => ?) limit ${BATCH}
         ) returning seq`,
        [retentionDays],
      );
      total += res.length;
      if (res.length < BATCH) break;
    }
    // Bodies, finished recovery tasks and their resends go with the records (test sends after an hour).
    for (;;) {
      const res = await conn.execute<{ n: number }[]>(
        `delete from "${schema}".delivery_bodies where (message_id, target) in (
           select message_id, target from "${schema}".delivery_bodies where created_at < now() - make_interval(days => ?) limit ${BATCH}
         ) returning 1 as n`,
        [retentionDays],
      );
      if (res.length < BATCH) break;
    }
    await conn.execute(`delete from "${schema}".recovery_tasks where created_at < now() - make_interval(days => ?)`, [retentionDays]);
    await conn.execute(`delete from "${schema}".resends where task_id is null and created_at < now() - make_interval(days => ?)`, [retentionDays]);
  }
  await conn.execute(`delete from "${schema}".test_sends where sent_at < now() - interval '1 hour'`);
  await conn.execute(`delete from "${schema}".deleted_applications where deleted_at < now() - make_interval(days => ?)`, [TOMBSTONE_DAYS]);
  return total;
}
