// The failure memory of ordering by key, bounded in time (docs/decisions/0022-ordering-by-key.md).
// When a key's last pending delivery ends failed, its line is kept with nothing pending (`f`), so
// that the key's next event carries `previousFailed` and its webhook-sequence goes on from the
// failed one. Such an entry is written once and never again while the key stays idle: left alone it
// would stay the bucket's 25 h, and a tenant whose endpoint fails every event of a million keys
// would fill the bucket (a full bucket refuses joins, and ordering then fails open for everyone).
//
// The sweep forgets them after DELIVERY_ORDERING_FAILURE_MEMORY: it reads the bucket's key lines
// in stream order (the order they were last written), oldest first, from where its last pass
// stopped, up to the first one written inside the window, and deletes each line that has nothing
// pending, by its sequence. A line that changed meanwhile has a new sequence, so the delete misses
// it; a join that read the line before the delete fails its compare-and-set and starts the key
// afresh (its next event without `previousFailed`, its numbers above the old ones: firstSequence).
// Each line is read once per write, whichever replica sweeps; every replica sweeps (a delete of a
// line already deleted is a no-op).
//
// It also removes held markers that no line points at. A marker is written when a key's head begins
// to wait and deleted when that head ends; one whose delete failed, or whose line moved on before
// it pointed at it, would otherwise stay the bucket's 25 h and count as a held key of its
// subscription. Once the lines are caught up, and at most once a sweep interval, a pass reads the
// markers older than a grace (a marker is pointed at within moments of its write) and deletes each
// whose key's line does not hold its sequence.
import type { JetStreamManager } from '@nats-io/jetstream';
import { ORDERING_BUCKET, ORDERING_STREAM } from '@switchboard/contracts';
import { type BackgroundLoop, type Logger, startBackgroundLoop } from '@switchboard/observability';
import type { DispatcherMetrics } from '../metrics.ts';
import { isNotFound } from './ordering.ts';
import type { KeyState } from './ordering-state.ts';

/** Every key line of the bucket (not the held markers). */
const LINES = `$KV.${ORDERING_BUCKET}.k.>`;
/** Every held marker; a marker's key line is its subject with `h.` for `k.`. */
const MARKERS = `$KV.${ORDERING_BUCKET}.h.>`;
const lineOfMarker = (subject: string) => subject.replace(`$KV.${ORDERING_BUCKET}.h.`, `$KV.${ORDERING_BUCKET}.k.`);
/** How old a marker must be before it may be judged orphaned (at most): its line points at it within moments. */
const MARKER_GRACE_MS = 60_000;
/** Lines read per batch; the loop goes on at once while lines older than the window remain. */
const BATCH = 500;

export interface OrderingSweepOptions {
  jsm: JetStreamManager;
  metrics: DispatcherMetrics;
  logger: Logger;
  /** How long a failed key's line is kept with nothing pending (DELIVERY_ORDERING_FAILURE_MEMORY, ms). */
  memoryMs: number;
  now?: () => number;
}

/** Starts the sweep: a pass every quarter of the memory (at least 1 s, at most a minute). */
export function startOrderingSweep(o: OrderingSweepOptions): BackgroundLoop {
  const now = o.now ?? Date.now;
  const intervalMs = Math.max(1000, Math.min(60_000, Math.floor(o.memoryMs / 4)));
  const firstSeq = async () => (await o.jsm.streams.info(ORDERING_STREAM)).state.first_seq || 1;
  const remove = async (seq: number) => {
    o.metrics.orderingOps.inc({ op: 'delete' });
    return o.jsm.streams.deleteMessage(ORDERING_STREAM, seq, false).catch(notFoundFalse);
  };
  /** The stream sequence the next pass starts from: every line below it was looked at. */
  let from = 0;
  const lines = async (): Promise<boolean> => {
    if (from === 0) from = await firstSeq();
    const before = now() - o.memoryMs;
    for (let i = 0; i < BATCH; i++) {
      const m = await o.jsm.direct.getMessage(ORDERING_STREAM, { seq: from, next_by_subj: LINES }).catch(notFound);
      if (!m || m.time.getTime() > before) return false;
      from = m.seq + 1;
      if (idle(m.data) && (await remove(m.seq))) o.metrics.orderingFailuresForgotten.inc();
    }
    return true;
  };
  /** Where the marker pass under way stands (0: none under way), and when the next may start. */
  let markersFrom = 0;
  let markersDueAt = 0;
  let orphans = 0;
  const markers = async (): Promise<boolean> => {
    if (markersFrom === 0) {
      if (now() < markersDueAt) return false;
      markersFrom = await firstSeq();
    }
    const before = now() - Math.min(MARKER_GRACE_MS, o.memoryMs);
    for (let i = 0; i < BATCH; i++) {
      const m = await o.jsm.direct
        .getMessage(ORDERING_STREAM, { seq: markersFrom, next_by_subj: MARKERS })
        .catch(notFound);
      if (!m || m.time.getTime() > before) {
        if (orphans > 0) o.logger.info({ removed: orphans }, 'held ordering markers no line points at removed');
        markersFrom = 0;
        markersDueAt = now() + intervalMs;
        orphans = 0;
        return false;
      }
      markersFrom = m.seq + 1;
      const line = await o.jsm.direct
        .getMessage(ORDERING_STREAM, { last_by_subj: lineOfMarker(m.subject) })
        .catch(notFound);
      if (stateOf(line?.data)?.h !== m.seq && (await remove(m.seq))) orphans++;
    }
    return true;
  };
  const batch = async (): Promise<boolean> => (await lines()) || (await markers());
  return startBackgroundLoop(batch, {
    intervalMs,
    logger: o.logger,
    failure: 'forgetting failed ordering keys failed',
  });
}

/** A line's state as stored, or undefined when empty or unreadable. */
function stateOf(data: Uint8Array | undefined): KeyState | undefined {
  if (!data || data.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(data).toString()) as KeyState;
  } catch {
    return undefined;
  }
}

/** A line with nothing pending: only the failure of its last delivery is kept. */
const idle = (data: Uint8Array) => stateOf(data)?.q.length === 0;

function notFound(err: unknown): null {
  if (isNotFound(err)) return null;
  throw err;
}
function notFoundFalse(err: unknown): false {
  if (isNotFound(err)) return false;
  throw err;
}
