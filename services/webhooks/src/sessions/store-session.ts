import type { SessionRecord } from '@switchboard/contracts';
import { storeInPartitions } from '@switchboard/db';
import { ALERTS_TABLE, alertMinutes } from '../alerts/repository.ts';
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
  deps: Pick<Deps, 'orm' | 'schema' | 'dayMs' | 'publicBaseUrl' | 'outbox'>,
  r: SessionRecord,
): Promise<boolean> {
  // The session's alerts go into the alerts table (by the minute of its start) in the same transaction.
  const day = [new Date(r.startedAt)];
  const rows = [
    { table: SESSIONS_TABLE, instants: day },
    { table: ALERTS_TABLE, instants: alertMinutes(day) },
  ];
  const stored = await storeInPartitions(
    deps.orm.em,
    deps.schema,
    rows,
    () => insertSession(deps.orm.em, deps.schema, deps.publicBaseUrl, r),
    deps.dayMs,
  );
  // Its sessionStatus and alert events are in the outbox.
  if (stored) deps.outbox.kick();
  return stored;
}
