// Per-minute rollups of delivery attempts (delivery_rollups): what the statistics read instead of
// the records. Each stored batch adds its records to the rollups of their target (the subscription
// of a notification, the application of a session) and minute, in the transaction that stores
// them, so the rollups count exactly the records stored. Latencies go into a fixed histogram, from
// which p50 and p95 are read (as the upper bound of the bucket they fall in).

/** Upper bounds (ms, inclusive) of the latency histogram's buckets; one more bucket holds the rest. */
export const LATENCY_BOUNDS_MS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 15_000, 30_000] as const;
/** Buckets of the histogram: one per bound and one above them all. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** One target's attempts of one minute, as a batch adds them. */
export interface RollupRow {
  target: string;
  minute: string;
  attempts: number;
  succeeded: number;
  retrying: number;
  failed: number;
  cancelled: number;
  latency: number[];
}

/** The histogram bucket of a duration. */
export function latencyBucket(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((upper) => ms <= upper);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

/** What the stored records of a batch add to the rollups, sorted by target and minute (the order rows are locked in). */
export function rollupsOf(
  records: readonly { target: string | null; createdAt: Date; outcome: string; durationMs: number }[],
): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const r of records) {
    if (!r.target) continue;
    const minute = new Date(Math.floor(r.createdAt.getTime() / 60_000) * 60_000).toISOString();
    const key = `${r.target}\u0000${minute}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        target: r.target,
        minute,
        attempts: 0,
        succeeded: 0,
        retrying: 0,
        failed: 0,
        cancelled: 0,
        latency: new Array<number>(LATENCY_BUCKETS).fill(0),
      };
      rows.set(key, row);
    }
    row.attempts += 1;
    if (r.outcome === 'succeeded' || r.outcome === 'retrying' || r.outcome === 'failed' || r.outcome === 'cancelled')
      row[r.outcome] += 1;
    // A cancelled retry made no HTTP attempt: it has no latency.
    if (r.outcome !== 'cancelled') row.latency[latencyBucket(r.durationMs)]! += 1;
  }
  return [...rows.values()].sort((a, b) =>
    a.target === b.target ? (a.minute < b.minute ? -1 : 1) : a.target < b.target ? -1 : 1,
  );
}

/**
 * The latency (ms) under which a share `q` (0..1) of the histogram's attempts fall: the upper bound
 * of the bucket holding that rank (above the last bound: the last bound). Null without attempts.
 */
export function percentileOf(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)]!;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}
