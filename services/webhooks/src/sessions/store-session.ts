import type { SessionRecord } from '@switchboard/contracts';
import { storeInPartitions } from '@switchboard/orm';
import type { Deps } from '../context.ts';
import { insertSession } from './repository.ts';

/** The partitioned table of session records. */
export const SESSIONS_TABLE = 'sessions';

/**
 * Stores a session record and counts it in its application's rollups (one transaction). The days
 * ahead have their partitions already (keep-sessions.ts); a record of a day without one (older, or
 * further ahead) gets its day's partition made, then is stored. Answers whether it was stored now
 * (false: stored before, or its application or account was deleted).
 */
export async function storeSession(deps: Pick<Deps, 'orm' | 'schema'>, r: SessionRecord): Promise<boolean> {
  return storeInPartitions(deps.orm.em, deps.schema, SESSIONS_TABLE, [new Date(r.startedAt)], () =>
    insertSession(deps.orm.em, deps.schema, r),
  );
}
