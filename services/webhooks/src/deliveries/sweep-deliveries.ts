// Delivery records of deleted subscriptions (and session records of deleted applications) are
// deleted in the background: a deletion only queues a row in delivery_purges and answers at once,
// however many records there are. Each batch is one short transaction, so the sweep never holds
// locks for long; the queue is in the database, so a restart carries on where it stopped, and
// several replicas share the work (FOR UPDATE SKIP LOCKED).
import type { MikroORM } from '@mikro-orm/postgresql';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/observability';
import { sweepOnce } from './repository.ts';

export const SWEEP_BATCH = 5000;

/** The sweeper: kick() after a commit that queued a purge. */
export type Sweeper = BackgroundLoop;

/**
 * Runs sweepOnce until the queue is empty, when kicked and every `intervalMs` (purges queued by
 * another replica, or left by a restart). `deleted` is told the records each batch deleted.
 */
export function startSweeper(
  orm: MikroORM,
  schema: string,
  logger: Logger,
  deleted: (n: number) => void,
  intervalMs = 10_000,
): Sweeper {
  const batch = async (): Promise<boolean> => {
    const n = await sweepOnce(orm.em, schema, SWEEP_BATCH);
    if (n === undefined) return false;
    deleted(n);
    return true;
  };
  return startBackgroundLoop(batch, { intervalMs, logger, failure: 'sweeping delivery records failed; will retry' });
}
