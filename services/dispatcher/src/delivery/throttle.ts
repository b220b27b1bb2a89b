// Each subscription's rate limit (`rateLimit.perSecond`, docs/api.md#delivery-settings), shared by
// every dispatcher replica: a generic cell rate algorithm. One key per throttled subscription in the
// JetStream key-value bucket DELIVERY_THROTTLE holds its "theoretical arrival time" (TAT, epoch ms):
// the earliest time its next attempt may be made. A delivery reserves a slot with compare-and-set
// (expected last subject sequence): its slot is max(now, TAT), and the TAT moves one interval
// (1000 / perSecond ms) past it. Slots are spaced evenly, with no burst: at 2 per second, one
// attempt every 500 ms however many replicas make them.
//
// A delivery whose slot is in the future waits for it as a retry job with `notBefore` = its slot,
// held by JetStream (nak with delay): no timer and no polling per held delivery, no attempt used,
// nothing failed. The job carries its slot (`slot`, for that attempt number) and goes when it comes
// back at it without reserving again; one that comes back much later than its slot (it waited for
// its host meanwhile, or the dispatchers were away) reserves a new one, so a late crowd never
// bursts past the rate.
//
// Reservations of one subscription in one process are coalesced: while one compare-and-set is in
// flight the next ones queue, and the whole queue takes consecutive slots with the next one. At
// 1,000 per second and a compare-and-set round trip of about 1 ms, each write carries one or a few
// reservations; several replicas writing one key retry on a conflict with a fresh read.
//
// Failing open: when the bucket cannot be read or written, the delivery goes without waiting
// (counted in dispatcher_delivery_throttle_errors_total); the receiver's answer (429) and the
// circuit breaker still hold.
import { ensureKvBucket, kvStream, type JetStreamClient, type JetStreamManager } from '@switchboard/messaging';
import type { KvBucketSpec } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';
import type { NotificationJob } from '../jobs.ts';

const THROTTLE_BUCKET = 'DELIVERY_THROTTLE';

/**
 * The bucket of the subscriptions' TATs. A key not written for the max age is of no use any more:
 * every delivery that reserved a slot from it has expired (DELIVERY_MAX_AGE) by then.
 */
export function throttleBucketSpec(maxAgeMs: number): KvBucketSpec {
  return { bucket: THROTTLE_BUCKET, maxAgeMs: maxAgeMs + 60_000 };
}

/** The stream behind the bucket (how full it is: dispatcher_stream_used_ratio). */
export const THROTTLE_STREAM = kvStream({ bucket: THROTTLE_BUCKET, maxAgeMs: 0 }).stream;

/** A delivery's slot: the attempt it was reserved for and its time (epoch ms). */
export interface Slot {
  attempt: number;
  at: number;
}

/** A slot due within this many ms is now (the retry consumer's own tolerance, worker.ts). */
const EARLY_MS = 5;

/** Whether a job due at `notBefore` waits for its own rate-limit slot (not for its host, nor a retry's delay). */
export function waitsForSlot(job: { attempt: number; slot?: Slot | undefined; notBefore?: number | undefined }) {
  return !!job.slot && job.slot.attempt === job.attempt && Math.abs(job.slot.at - (job.notBefore ?? 0)) <= EARLY_MS;
}

export interface ThrottleOptions {
  logger: Logger;
  /** A delivery that comes back later than this after its slot reserves a new one (default 1 s). */
  lateMs?: number;
  /** Counts a read or write of the bucket that failed (the delivery then went without waiting). */
  onError?: () => void;
  /** Counts a delivery held for its slot (and its subscription, for the statistics). */
  onHeld?: (subscriptionId: string) => void;
  now?: () => number;
}

interface Waiter {
  perSecond: number;
  resolve: (slot: number) => void;
}

/** The last TAT this process wrote or read for a key, with the sequence of its message. */
interface Known {
  seq: number;
  tat: number;
}

const WRONG_LAST_SEQUENCE = 10071;
const isWrongLastSequence = (err: unknown) =>
  (err as { code?: number })?.code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(String(err));

/** Most keys whose last TAT is remembered (beyond them the oldest is read again before its next write). */
const MAX_KNOWN = 10_000;

export class Throttle {
  private readonly stream: string;
  private readonly prefix: string;
  private readonly pending = new Map<string, Waiter[]>();
  private readonly known = new Map<string, Known>();
  private readonly now: () => number;
  private readonly lateMs: number;

  constructor(
    private readonly js: Pick<JetStreamClient, 'publish'>,
    private readonly jsm: JetStreamManager,
    maxAgeMs: number,
    private readonly opts: ThrottleOptions,
  ) {
    ({ stream: this.stream, prefix: this.prefix } = kvStream(throttleBucketSpec(maxAgeMs)));
    this.now = opts.now ?? Date.now;
    this.lateMs = opts.lateMs ?? 1000;
  }

  /** Creates or updates the bucket of the TATs. */
  static ensureBucket(jsm: JetStreamManager, maxAgeMs: number, replicas: number, maxBytes: number): Promise<void> {
    return ensureKvBucket(jsm, throttleBucketSpec(maxAgeMs), replicas, maxBytes);
  }

  /**
   * Whether a delivery of a subscription limited to `perSecond` may be attempted now: undefined when
   * it may (its slot has come), else the job to hold until its slot (`notBefore` and `slot` set).
   */
  async hold(job: NotificationJob, subscriptionId: string, perSecond: number): Promise<NotificationJob | undefined> {
    const held = job.slot;
    if (held && held.attempt === job.attempt) {
      const now = this.now();
      if (held.at - now > EARLY_MS) return { ...job, notBefore: Math.round(held.at) };
      if (now - held.at <= this.lateMs) return undefined;
    }
    const at = await this.reserve(subscriptionId, perSecond);
    if (at - this.now() <= EARLY_MS) return undefined;
    this.opts.onHeld?.(subscriptionId);
    return { ...job, notBefore: Math.round(at), slot: { attempt: job.attempt, at } };
  }

  /** Reserves the next slot of `key` at `perSecond`; resolves with its time (now when the bucket fails). */
  reserve(key: string, perSecond: number): Promise<number> {
    return new Promise((resolve) => {
      const queued = this.pending.get(key);
      if (queued) {
        queued.push({ perSecond, resolve });
        return;
      }
      this.pending.set(key, [{ perSecond, resolve }]);
      void this.flush(key);
    });
  }

  /** Writes the key's queued reservations, one compare-and-set at a time, until none are queued. */
  private async flush(key: string): Promise<void> {
    // The entry stays in `pending` while its write runs, so reservations queued meanwhile wait for the next.
    for (;;) {
      const queued = this.pending.get(key);
      if (!queued || queued.length === 0) {
        this.pending.delete(key);
        return;
      }
      const batch = queued.splice(0);
      const perSecond = Math.min(1000, Math.max(1, batch[batch.length - 1]!.perSecond));
      let first: number;
      try {
        first = await this.write(key, batch.length, 1000 / perSecond);
      } catch (err) {
        this.failed(err, key);
        for (const w of batch) w.resolve(this.now());
        continue;
      }
      batch.forEach((w, i) => {
        w.resolve(first + (i * 1000) / perSecond);
      });
    }
  }

  /** Takes `n` consecutive slots `intervalMs` apart; returns the first. */
  private async write(key: string, n: number, intervalMs: number): Promise<number> {
    let known = this.known.get(key);
    for (let tries = 1; ; tries++) {
      known ??= await this.load(key);
      const first = Math.max(this.now(), known.tat);
      const tat = first + n * intervalMs;
      try {
        const ack = await this.js.publish(this.prefix + key, String(tat), {
          expect: { lastSubjectSequence: known.seq },
        });
        this.remember(key, { seq: ack.seq, tat });
        return first;
      } catch (err) {
        // Another replica wrote the key in between (or it expired): read it again.
        if (!isWrongLastSequence(err) || tries >= 20) throw err;
        known = undefined;
      }
    }
  }

  private async load(key: string): Promise<Known> {
    const m = await this.jsm.streams.getMessage(this.stream, { last_by_subj: this.prefix + key });
    if (!m) return { seq: 0, tat: 0 };
    const tat = Number(m.string());
    return { seq: m.seq, tat: Number.isFinite(tat) ? tat : 0 };
  }

  private remember(key: string, k: Known): void {
    this.known.delete(key);
    this.known.set(key, k);
    if (this.known.size > MAX_KNOWN) this.known.delete(this.known.keys().next().value!);
  }

  private failed(err: unknown, key: string): void {
    this.known.delete(key);
    this.opts.onError?.();
    this.opts.logger.warn(
      { err: (err as Error).message, subscriptionId: key },
      "reserving a slot of a subscription's rate limit failed; the delivery goes without waiting",
    );
  }
}
