// The sessions part of an application's statistics: its sessions by outcome per bucket, read from
// the session rollups (one row per application and minute: answered, fallback, failed) that the
// session records write. The hook answers no sessions until those rollups are read here.
import type { Deps } from '../context.ts';

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
  _deps: Deps,
  _applicationId: string,
  _from: Date,
  _to: Date,
  _bucketSeconds: number,
): Promise<Map<number, SessionCounts>> {
  return new Map();
}
