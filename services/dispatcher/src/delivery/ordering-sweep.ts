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
import type { JetStreamManager } from '@nats-io/jetstream';
import { ORDERING_BUCKET, ORDERING_STREAM } from '@switchboard/contracts';
import { type BackgroundLoop, type Logger, startBackgroundLoop } from '@switchboard/observability';
import type { DispatcherMetrics } from '../metrics.ts';
import { isNotFound } from './ordering.ts';
import type { KeyState } from './ordering-state.ts';

/** Every key line of the bucket (not the held markers). */
const LINES = `$KV.${ORDERING_BUCKET}.k.>`;
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
  /** The stream sequence the next pass starts from: every line below it was looked at. */
  let from = 0;
  const batch = async (): Promise<boolean> => {
    if (from === 0) from = (await o.jsm.streams.info(ORDERING_STREAM)).state.first_seq || 1;
    const before = now() - o.memoryMs;
    for (let i = 0; i < BATCH; i++) {
      const m = await o.jsm.direct.getMessage(ORDERING_STREAM, { seq: from, next_by_subj: LINES }).catch(notFound);
      if (!m || m.time.getTime() > before) return false;
      from = m.seq + 1;
      if (!idle(m.data)) continue;
      o.metrics.orderingOps.inc({ op: 'delete' });
      const gone = await o.jsm.streams.deleteMessage(ORDERING_STREAM, m.seq, false).catch(notFoundFalse);
      if (gone) o.metrics.orderingFailuresForgotten.inc();
    }
    return true;
  };
  return startBackgroundLoop(batch, {
    intervalMs: Math.max(1000, Math.min(60_000, Math.floor(o.memoryMs / 4))),
    logger: o.logger,
    failure: 'forgetting failed ordering keys failed',
  });
}

/** A line with nothing pending: only the failure of its last delivery is kept. */
function idle(data: Uint8Array): boolean {
  if (data.length === 0) return false;
  try {
    return (JSON.parse(Buffer.from(data).toString()) as KeyState).q.length === 0;
  } catch {
    return false;
  }
}

function notFound(err: unknown): null {
  if (isNotFound(err)) return null;
  throw err;
}
function notFoundFalse(err: unknown): false {
  if (isNotFound(err)) return false;
  throw err;
}
