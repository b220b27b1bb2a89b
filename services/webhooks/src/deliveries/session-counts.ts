// The sessions part of an application's statistics: its sessions by outcome per bucket, read from
// the session rollups (one row per application and minute: answered, fallback, failed) that are
// written in the transaction storing each session record (sessions/repository.ts).
import type { Deps } from '../context.ts';
import { sessionBuckets } from '../sessions/repository.ts';

export interface SessionCounts {
  answered: number;
  fallback: number;
  failed: number;
}

/**
 * An application's sessions from `from` (inclusive) to `to` (exclusive) by buckets of
 * `bucketSeconds` aligned on the epoch, keyed by bucket start (ms); buckets without sessions are
 * absent.
 */
export async function readSessionCounts(
  deps: Deps,
  applicationId: string,
  from: Date,
  to: Date,
  bucketSeconds: number,
): Promise<Map<number, SessionCounts>> {
  const rows = await sessionBuckets(deps.orm.em, deps.schema, applicationId, from, to, bucketSeconds);
  return new Map(
    rows.map((r) => [new Date(r.start).getTime(), { answered: r.answered, fallback: r.fallback, failed: r.failed }]),
  );
}
