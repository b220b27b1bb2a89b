import type { SessionRecord } from '@switchboard/contracts';
import { ensureDailyPartitions, isMissingPartition } from '@switchboard/orm';
import { ALERTS_TABLE } from '../alerts/repository.ts';
import type { Deps } from '../context.ts';
import { insertSession } from './repository.ts';

/** The partitioned table of session records. */
export const SESSIONS_TABLE = 'sessions';

/**
 * Stores a session record, counts it in its application's rollups and stores its alerts and its
 * sessionStatus and alert events (one transaction; session-status.ts). The days
 * ahead have their partitions already (keep-sessions.ts, keep-alerts.ts); a record of a day without one (older, or
 * further ahead) gets its day's partition made, then is stored. Answers whether it was stored now
 * (false: stored before, or its application or account was deleted).
 */
export async function storeSession(
  deps: Pick<Deps, 'orm' | 'schema' | 'publicBaseUrl' | 'outbox'>,
  r: SessionRecord,
): Promise<boolean> {
  let stored: boolean;
  try {
    stored = await insertSession(deps.orm.em, deps.schema, deps.publicBaseUrl, r);
  } catch (err) {
    if (!isMissingPartition(err)) throw err;
    await ensureDailyPartitions(deps.orm.em, deps.schema, SESSIONS_TABLE, new Date(r.startedAt), 0);
    await ensureDailyPartitions(deps.orm.em, deps.schema, ALERTS_TABLE, new Date(r.startedAt), 0);
    stored = await insertSession(deps.orm.em, deps.schema, deps.publicBaseUrl, r);
  }
  // Its sessionStatus and alert events are in the outbox.
  if (stored) deps.outbox.kick();
  return stored;
}
