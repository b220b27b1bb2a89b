// Each account's backlog of waiting deliveries (docs/decisions/0013-delivery-backlog-per-account.md).
// A notification that must wait (a retry, or a job deferred while its host cannot take it) is a
// job in the shared deliveries stream; a receiver that stays down would otherwise keep thousands of
// them there for days. Each account may have at most DELIVERY_BACKLOG_PER_ACCOUNT of them and
// DELIVERY_BACKLOG_BYTES_PER_ACCOUNT bytes: past either, its OLDEST waiting deliveries end as failed
// (`backlog_full`); past DELIVERY_MAX_AGE, any waiting delivery ends as failed (`expired`).
//
// The count is shared by every dispatcher replica: one key per account in the JetStream key-value
// bucket DELIVERY_BACKLOG, written with compare-and-set (expected last subject sequence). A key
// holds the account's waiting deliveries by the time their event was stored, in buckets of
// DELIVERY_MAX_AGE / 128: counts and bytes. A job that starts waiting carries its bucket and size
// (`waiting`), adds itself, and takes itself out when it ends. Buckets older than the max age
// are dropped (every job in them has expired), so a count lost in a crash (a job counted twice,
// or never taken out) is gone within DELIVERY_MAX_AGE. Writes of one account in one process are
// coalesced into one compare-and-set; reads are cached for a second.
//
// Failing open: when the bucket cannot be read or written, a delivery is neither counted nor ended
// because of it (counted in dispatcher_delivery_backlog_ledger_errors_total); the max age still
// holds.
import { LRUCache } from 'lru-cache';
import { ensureKvBucket, kvStream, type JetStreamClient, type JetStreamManager } from '@switchboard/messaging';
import type { KvBucketSpec } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';
import type { WaitingEndReason } from '@switchboard/contracts';
import type { Job } from '../jobs.ts';

/** A waiting job's place in its account's backlog: the bucket of its event's time, and its size. */
export interface WaitingMark {
  /** Start (epoch ms) of the bucket of the time JetStream stored the event. */
  at: number;
  /** Size of the job as published, in bytes. */
  bytes: number;
}

/** One bucket of an account's backlog: [start (epoch ms), deliveries, bytes]. */
export type Bucket = [start: number, count: number, bytes: number];

/** An account's waiting deliveries, oldest bucket first. */
export interface Ledger {
  b: Bucket[];
}

export interface BacklogLimits {
  /** Waiting deliveries of one account (DELIVERY_BACKLOG_PER_ACCOUNT). */
  maxCount: number;
  /** Bytes of one account's waiting deliveries (DELIVERY_BACKLOG_BYTES_PER_ACCOUNT). */
  maxBytes: number;
  /** Age of a delivery (since its event was stored) past which it ends as `expired` (DELIVERY_MAX_AGE). */
  maxAgeMs: number;
}

/** Why a waiting delivery ended without another attempt (the start of its record's `error`). */
export type WaitingEnd = WaitingEndReason;

/** Buckets per max age: the resolution of "oldest". */
export const LEDGER_BUCKETS = 128;

export function bucketWidthMs(maxAgeMs: number): number {
  return Math.max(1000, Math.ceil(maxAgeMs / LEDGER_BUCKETS));
}

const LEDGER_BUCKET = 'DELIVERY_BACKLOG';

/** The key-value bucket of the ledgers: a key not written for the max age (and a bucket more) has nothing left to count. */
export function ledgerBucketSpec(maxAgeMs: number): KvBucketSpec {
  return { bucket: LEDGER_BUCKET, maxAgeMs: maxAgeMs + bucketWidthMs(maxAgeMs) + 60_000 };
}

/** The stream behind the ledgers' bucket (how full it is: dispatcher_stream_used_ratio). */
export const LEDGER_STREAM = kvStream({ bucket: LEDGER_BUCKET, maxAgeMs: 0 }).stream;

/** The ledger after adding `deltas` (count and bytes per bucket), without empty buckets or buckets past the max age. */
export function applyDeltas(ledger: Ledger, deltas: readonly Bucket[], now: number, maxAgeMs: number): Ledger {
  const oldest = now - maxAgeMs - bucketWidthMs(maxAgeMs);
  const by = new Map<number, Bucket>();
  for (const [start, count, bytes] of ledger.b) by.set(start, [start, count, bytes]);
  for (const [start, count, bytes] of deltas) {
    const b = by.get(start);
    if (b) {
      b[1] += count;
      b[2] += bytes;
    } else by.set(start, [start, count, bytes]);
  }
  const b = [...by.values()]
    .filter(([start, count, bytes]) => start >= oldest && count > 0 && bytes > 0)
    .sort((x, y) => x[0] - y[0]);
  return { b };
}

export function totals(ledger: Ledger): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const [, c, b] of ledger.b) {
    count += c;
    bytes += b;
  }
  return { count, bytes };
}

/**
 * Whether a waiting delivery at `mark` is among its account's oldest that go past a limit: the
 * account is over its count or bytes, and the deliveries in older buckets than the delivery's do
 * not make up the excess on their own. Every delivery of a bucket that is partly in the excess
 * ends when it is next looked at, until the account is within its limits again.
 */
export function isPastCap(ledger: Ledger, mark: WaitingMark, limits: Pick<BacklogLimits, 'maxCount' | 'maxBytes'>) {
  const t = totals(ledger);
  const excessCount = t.count - limits.maxCount;
  const excessBytes = t.bytes - limits.maxBytes;
  if (excessCount <= 0 && excessBytes <= 0) return false;
  let olderCount = 0;
  let olderBytes = 0;
  for (const [start, count, bytes] of ledger.b) {
    if (start >= mark.at) break;
    olderCount += count;
    olderBytes += bytes;
  }
  return olderCount < excessCount || olderBytes < excessBytes;
}

/** How full the account is: the larger of its count and bytes over their limits. */
export function fullness(ledger: Ledger, limits: Pick<BacklogLimits, 'maxCount' | 'maxBytes'>): number {
  const t = totals(ledger);
  return Math.max(t.count / limits.maxCount, t.bytes / limits.maxBytes);
}

export interface BacklogOptions {
  logger: Logger;
  /** Counts a read or write of the bucket that failed (the delivery then goes on uncounted). */
  onError?: () => void;
  /** How long a read ledger is used before it is read again. */
  cacheMs?: number;
  /** Most ledgers cached (accounts). */
  maxCached?: number;
  now?: () => number;
}

interface PendingWrite {
  deltas: Bucket[];
  done: (() => void)[];
}

const WRONG_LAST_SEQUENCE = 10071;
const isWrongLastSequence = (err: unknown) =>
  (err as { code?: number })?.code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(String(err));

export class DeliveryBacklog {
  private readonly stream: string;
  private readonly prefix: string;
  private readonly bucketMs: number;
  private readonly cache: LRUCache<string, Ledger>;
  /** How full each account was when last read or written, for a minute (the fullest is a metric). */
  private readonly seen: LRUCache<string, number>;
  private readonly pending = new Map<string, PendingWrite>();
  private readonly now: () => number;

  constructor(
    private readonly js: Pick<JetStreamClient, 'publish'>,
    private readonly jsm: JetStreamManager,
    readonly limits: BacklogLimits,
    private readonly opts: BacklogOptions,
  ) {
    ({ stream: this.stream, prefix: this.prefix } = kvStream(ledgerBucketSpec(limits.maxAgeMs)));
    this.bucketMs = bucketWidthMs(limits.maxAgeMs);
    this.now = opts.now ?? Date.now;
    this.cache = new LRUCache({ max: opts.maxCached ?? 10_000, ttl: opts.cacheMs ?? 1000 });
    this.seen = new LRUCache({ max: opts.maxCached ?? 10_000, ttl: 60_000 });
  }

  /** Creates or updates the bucket of the ledgers. */
  static ensureBucket(jsm: JetStreamManager, maxAgeMs: number, replicas: number, maxBytes: number): Promise<void> {
    return ensureKvBucket(jsm, ledgerBucketSpec(maxAgeMs), replicas, maxBytes);
  }

  /** Whether the delivery is past DELIVERY_MAX_AGE (since JetStream stored its event). */
  expired(job: Pick<Job, 'receivedAt'>): boolean {
    const received = Date.parse(job.receivedAt);
    return Number.isFinite(received) && this.now() - received > this.limits.maxAgeMs;
  }

  /** Milliseconds until the delivery expires (at least 1). */
  expiresInMs(job: Pick<Job, 'receivedAt'>): number {
    const received = Date.parse(job.receivedAt);
    if (!Number.isFinite(received)) return Number.POSITIVE_INFINITY;
    return Math.max(1, received + this.limits.maxAgeMs - this.now() + 1);
  }

  /** The mark of a job that starts waiting, `bytes` its size as published. */
  mark(job: Pick<Job, 'receivedAt'>, bytes: number): WaitingMark {
    const received = Date.parse(job.receivedAt);
    const t = Number.isFinite(received) ? received : this.now();
    return { at: t - (t % this.bucketMs), bytes };
  }

  /** Counts a delivery that started waiting; resolves once the shared count has it (or failed). */
  add(accountId: string, mark: WaitingMark): Promise<void> {
    return this.queue(accountId, [mark.at, 1, mark.bytes]);
  }

  /** Takes a delivery that stopped waiting out of the count. */
  remove(accountId: string, mark: WaitingMark): Promise<void> {
    return this.queue(accountId, [mark.at, -1, -mark.bytes]);
  }

  /** Why a waiting delivery ends now, if it does: past the max age, or among the oldest past its account's cap. */
  async endOf(job: Pick<Job, 'receivedAt'> & { waiting?: WaitingMark | undefined }, accountId: string) {
    if (this.expired(job)) return 'expired' as const;
    if (!job.waiting) return undefined;
    const ledger = await this.read(accountId);
    return ledger && isPastCap(ledger, job.waiting, this.limits) ? ('backlog_full' as const) : undefined;
  }

  /** The fullest account among those whose ledger was read or written in the last minute (0 when none). */
  fullest(): number {
    let max = 0;
    for (const f of this.seen.values()) max = Math.max(max, f);
    return max;
  }

  private cached(accountId: string, ledger: Ledger): void {
    this.cache.set(accountId, ledger);
    this.seen.set(accountId, fullness(ledger, this.limits));
  }

  /** The account's ledger (cached for a second); undefined when it cannot be read. */
  async read(accountId: string): Promise<Ledger | undefined> {
    const cached = this.cache.get(accountId);
    if (cached) return cached;
    try {
      const { ledger } = await this.load(accountId);
      this.cached(accountId, ledger);
      return ledger;
    } catch (err) {
      this.failed(err, accountId, 'reading');
      return undefined;
    }
  }

  private async load(accountId: string): Promise<{ ledger: Ledger; seq: number }> {
    const m = await this.jsm.streams.getMessage(this.stream, { last_by_subj: this.prefix + accountId });
    if (!m || m.data.length === 0) return { ledger: { b: [] }, seq: m?.seq ?? 0 };
    return { ledger: m.json<Ledger>(), seq: m.seq };
  }

  private queue(accountId: string, delta: Bucket): Promise<void> {
    return new Promise((resolve) => {
      const p = this.pending.get(accountId);
      if (p) {
        p.deltas.push(delta);
        p.done.push(resolve);
        return;
      }
      this.pending.set(accountId, { deltas: [delta], done: [resolve] });
      void this.flush(accountId);
    });
  }

  /** Writes the account's queued changes, one compare-and-set at a time, until none are queued. */
  private async flush(accountId: string): Promise<void> {
    // The entry stays in `pending` while its write runs, so changes queued meanwhile wait for the next.
    for (;;) {
      const p = this.pending.get(accountId);
      if (!p) return;
      const deltas = p.deltas;
      const done = p.done;
      p.deltas = [];
      p.done = [];
      try {
        await this.write(accountId, deltas);
      } catch (err) {
        this.failed(err, accountId, 'writing');
      }
      for (const d of done) d();
      if (p.deltas.length === 0) {
        this.pending.delete(accountId);
        return;
      }
    }
  }

  private async write(accountId: string, deltas: Bucket[]): Promise<void> {
    for (let tries = 1; ; tries++) {
      const { ledger, seq } = await this.load(accountId);
      const next = applyDeltas(ledger, deltas, this.now(), this.limits.maxAgeMs);
      try {
        await this.js.publish(this.prefix + accountId, JSON.stringify(next), { expect: { lastSubjectSequence: seq } });
        this.cached(accountId, next);
        return;
      } catch (err) {
        // Another replica wrote the key in between: read it again and re-apply.
        if (!isWrongLastSequence(err) || tries >= 20) throw err;
      }
    }
  }

  private failed(err: unknown, accountId: string, what: string): void {
    this.opts.onError?.();
    this.opts.logger.warn(
      { err: (err as Error).message, accountId },
      `${what} the delivery backlog of an account failed; the delivery goes on uncounted`,
    );
  }
}

/** The `error` of the record of a delivery that ended waiting: its reason first, then what it means. */
export function endReason(end: WaitingEnd, limits: BacklogLimits): string {
  if (end === 'expired')
    return `expired: still waiting ${formatMs(limits.maxAgeMs)} after the event was received (DELIVERY_MAX_AGE); no further attempt`;
  return `backlog_full: the account had more than ${limits.maxCount} deliveries or ${limits.maxBytes} bytes waiting (DELIVERY_BACKLOG_PER_ACCOUNT, DELIVERY_BACKLOG_BYTES_PER_ACCOUNT); its oldest end without a further attempt`;
}

function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
