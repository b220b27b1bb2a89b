import type { SessionRecord } from '@switchboard/contracts';
import { ensureDailyPartitions, isMissingPartition } from '@switchboard/orm';
import { ALERTS_TABLE } from '../alerts/repository.ts';
import type { Deps } from '../context.ts';
import { insertSession } from './repository.ts';

/** The partitioned table of session records. */
export const SESSIONS_TABLE = 'sessions';

/**
 * Stores a session record and counts it in its application's rollups (one transaction). The days
 * ahead have their partitions already (keep-sessions.ts, keep-alerts.ts); a record of a day without one (older, or
 * further ahead) gets its day's partition made, then is stored. Answers whether it was stored now
 * (false: stored before, or its application or account was deleted).
 */
export async function storeSession(deps: Pick<Deps, 'orm' | 'schema'>, r: SessionRecord): Promise<boolean> {
  try {
    return await insertSession(deps.orm.em, deps.schema, r);
  } catch (err) {
    if (!isMissingPartition(err)) throw err;
    await ensureDailyPartitions(deps.orm.em, deps.schema, SESSIONS_TABLE, new Date(r.startedAt), 0);
    await ensureDailyPartitions(deps.orm.em, deps.schema, ALERTS_TABLE, new Date(r.startedAt), 0);
    return insertSession(deps.orm.em, deps.schema, r);
  }
}
