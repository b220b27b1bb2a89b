// Delivery records of deleted subscriptions (and session records of deleted applications) are
// deleted in the background: a deletion only queues a row in delivery_purges and answers at once,
// however many records there are. Each batch is one short transaction, so the sweep never holds
// locks for long; the queue is in the database, so a restart carries on where it stopped, and
// several replicas share the work (FOR UPDATE SKIP LOCKED).
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/platform';

export const SWEEP_BATCH = 5000;

/** Queues the deletion of a subscription's delivery records, in the caller's transaction. */
export async function queueSubscriptionPurge(em: EntityManager, schema: string, subscriptionIds: string[]): Promise<void> {
  if (subscriptionIds.length === 0) return;
  await em.execute(`insert into "${schema}".delivery_purges (subscription_id) values ${subscriptionIds.map(() => '(?)').join(', ')}`, subscriptionIds);
}

/** Queues the deletion of an application's session delivery records, in the caller's transaction. */
export async function queueApplicationPurge(em: EntityManager, schema: string, applicationId: string): Promise<void> {
  await em.execute(`insert into "${schema}".delivery_purges (application_id) values (?)`, [applicationId]);
}

/**
 * Deletes up to `batch` records of the oldest queued purge nobody else is working on, and the purge
 * itself once nothing of it is left, in one transaction. Returns the records deleted, or undefined
 * when there was nothing to do.
 */
export async function sweepOnce(orm: MikroORM, schema: string, batch = SWEEP_BATCH): Promise<number | undefined> {
  return orm.em.getConnection().getKnex().transaction(async (trx) => {
    const queued = (await trx.raw(
      `select seq, subscription_id, application_id from "${schema}".delivery_purges order by seq limit 1 for update skip locked`,
    )) as { rows: { seq: string; subscription_id: string | null; application_id: string | null }[] };
    const purge = queued.rows[0];
    if (!purge) return undefined;
    // Both select through an index: deliveries_subscription or deliveries_application_sessions.
    const deleted = purge.subscription_id
      ? ((await trx.raw(
          `delete from "${schema}".deliveries where seq in (select seq from "${schema}".deliveries where subscription_id = ? limit ${batch})`,
          [purge.subscription_id],
        )) as { rowCount: number })
      : ((await trx.raw(
          `delete from "${schema}".deliveries where seq in (select seq from "${schema}".deliveries where application_id = ? and kind = 'session' limit ${batch})`,
          [purge.application_id],
        )) as { rowCount: number });
    // The bodies kept for resends go with their records (target: the subscription or the application).
    const bodies = (await trx.raw(
      `delete from "${schema}".delivery_bodies where ctid in (select ctid from "${schema}".delivery_bodies where target = ? limit ${batch})`,
      [purge.subscription_id ?? purge.application_id],
    )) as { rowCount: number };
    // A gone application's queued session resends (a subscription's go with it by cascade).
    if (purge.application_id) await trx.raw(`delete from "${schema}".resends where application_id = ? and kind = 'session'`, [purge.application_id]);
    if (deleted.rowCount < batch && bodies.rowCount < batch) await trx.raw(`delete from "${schema}".delivery_purges where seq = ?`, [purge.seq]);
    return deleted.rowCount;
  });
}

/** The sweeper: kick() after a commit that queued a purge. */
export type Sweeper = BackgroundLoop;

/**
 * Runs sweepOnce until the queue is empty, when kicked and every `intervalMs` (purges queued by
 * another replica, or left by a restart). `deleted` is told the records each batch deleted.
 */
export function startSweeper(orm: MikroORM, schema: string, logger: Logger, deleted: (n: number) => void, intervalMs = 10_000): Sweeper {
  const batch = async (): Promise<boolean> => {
    const n = await sweepOnce(orm, schema);
    if (n === undefined) return false;
    deleted(n);
    return true;
  };
  return startBackgroundLoop(batch, { intervalMs, logger, failure: 'sweeping delivery records failed; will retry' });
}
