// Delivery records of deleted subscriptions (and session records of deleted applications) are
// deleted in the background: a deletion only queues a row in delivery_purges and answers at once,
// however many records there are. Each batch is one short transaction, so the sweep never holds
// locks for long; the queue is in the database, so a restart carries on where it stopped, and
// several replicas share the work (FOR UPDATE SKIP LOCKED).
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { poolOf } from '@switchboard/orm';
import { startBackgroundLoop, transactionPrepared, type BackgroundLoop, type Logger } from '@switchboard/platform';

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
  return transactionPrepared(poolOf(orm.em), 'begin', async (query) => {
    const [purge] = await query<{ seq: string; subscription_id: string | null; application_id: string | null }>(
      `select seq, subscription_id, application_id from "${schema}".delivery_purges order by seq limit 1 for update skip locked`,
      [],
    );
    if (!purge) return undefined;
    // Both select through an index: deliveries_subscription or deliveries_application_sessions.
    const [deleted] = purge.subscription_id
      ? await query<{ n: number }>(
          `with d as (delete from "${schema}".deliveries where seq in (select seq from "${schema}".deliveries where subscription_id = $1 limit ${batch}) returning 1) select count(*)::int as n from d`,
          [purge.subscription_id],
        )
      : await query<{ n: number }>(
          `with d as (delete from "${schema}".deliveries where seq in (select seq from "${schema}".deliveries where application_id = $1 and kind = 'session' limit ${batch}) returning 1) select count(*)::int as n from d`,
          [purge.application_id],
        );
    // The bodies kept for resends go with their records (target: the subscription or the application).
    const [bodies] = await query<{ n: number }>(
      `with d as (delete from "${schema}".delivery_bodies where ctid in (select ctid from "${schema}".delivery_bodies where target = $1 limit ${batch}) returning 1) select count(*)::int as n from d`,
      [purge.subscription_id ?? purge.application_id],
    );
    if (deleted!.n < batch && bodies!.n < batch) await query(`delete from "${schema}".delivery_purges where seq = $1`, [purge.seq]);
    return deleted!.n;
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
