// Ordering by key (docs/decisions/0022-ordering-by-key.md). A subscription with
// `ordering: {key, maxHoldSeconds}` gets the events whose `data` carry the same value under `key` one
// after the other, in the order they reached the dispatchers; other keys (and events without the
// field) are not held up by them.
//
// Shared by every dispatcher replica through the bucket DELIVERY_ORDERING, one entry per
// (subscription, key) with pending deliveries, written with compare-and-set (ordering-state.ts): the
// line of pending deliveries, the head's webhook-sequence, and whether the delivery before it failed.
// A delivery whose turn has not come is stored as a job on `deliveries.held.retry` (no consumer) and
// its place in the line points at it; the acknowledged event or retry that carried it is done. When
// the head ends (delivered, failed, dropped), the dispatcher that ended it advances the line and
// republishes the next one's stored job to the retry subject (the wake): nothing polls while
// deliveries wait. A head that waits for a retry marks its key held (`h.` entries, counted per
// subscription for the cap and the stats); past the subscription's DELIVERY_ORDERING_MAX_HELD_KEYS,
// a key that begins to wait is not held, and its new events go out unordered until it is idle.
import { createHash } from 'node:crypto';
import { DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { LRUCache } from 'lru-cache';
import { ensureStream, type JetStreamClient, type Logger } from '@switchboard/platform';
import {
  ORDERING_BUCKET,
  ORDERING_STREAM,
  orderingHeldFilter,
  orderingHeldSubject,
  orderingStateSubject,
} from '@switchboard/contracts';
import type { JobOrdering, NotificationJob } from '../jobs.ts';
import type { DispatcherMetrics } from '../metrics.ts';
import { DELIVERIES_STREAM } from '../streams.ts';
import type { DeliveryBacklog } from './backlog.ts';
import { ended, joined, placeOf, type KeyState } from './ordering-state.ts';
import type { SubscriptionSettings } from './subscription-settings.ts';

/** The longest hold (24 h) and an hour more: an entry of a key with pending deliveries is rewritten at least once per hold. */
export const ORDERING_MAX_AGE_MS = 25 * 3_600_000;
export { ORDERING_STREAM };
const PREFIX = `$KV.${ORDERING_BUCKET}.`;
/** Where a delivery waits for its turn; woken to the retry subject. */
export const HELD_SUBJECT = 'deliveries.held.retry';
const WAKE_SUBJECT = 'deliveries.retry';
const stateSubject = orderingStateSubject;
const heldSubject = orderingHeldSubject;

/**
 * The bucket: like a KV bucket (one value per key, direct reads), but an entry may be deleted (a key
 * with nothing pending takes no room) and a full bucket refuses new entries instead of dropping the
 * oldest (which could be a key with deliveries waiting): ordering then fails open.
 */
export function ensureOrderingBucket(jsm: JetStreamManager, replicas: number, maxBytes: number): Promise<void> {
  return ensureStream(jsm, {
    name: ORDERING_STREAM,
    subjects: [`${PREFIX}>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: ORDERING_MAX_AGE_MS * 1_000_000,
    max_msgs_per_subject: 1,
    max_bytes: maxBytes,
    discard: DiscardPolicy.New,
    allow_rollup_hdrs: true,
    deny_delete: false,
    allow_direct: true,
    num_replicas: replicas,
  });
}

export interface OrderingLimits {
  /** Keys of one subscription held at once (DELIVERY_ORDERING_MAX_HELD_KEYS). */
  maxHeldKeys: number;
  /** Deliveries of one key waiting behind its head (DELIVERY_ORDERING_MAX_WAITING_PER_KEY). */
  maxWaitingPerKey: number;
}

/** Why a delivery of an ordered subscription went out unordered (dispatcher_ordering_unordered_total). */
export type UnorderedReason = 'no_key' | 'held_keys_full' | 'key_full' | 'store_unavailable';

export type Gate = { kind: 'send'; job: NotificationJob } | { kind: 'held' };

export interface OrderingDeps {
  js: JetStreamClient;
  jsm: JetStreamManager;
  backlog: DeliveryBacklog;
  metrics: DispatcherMetrics;
  logger: Logger;
  limits: OrderingLimits;
  now?: () => number;
}

const WRONG_LAST_SEQUENCE = 10071;
const isWrongLastSequence = (err: unknown) =>
  (err as { code?: number })?.code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(String(err));
const isNotFound = (err: unknown) => /no message found|not found/i.test(String((err as Error)?.message ?? err));
const TRIES = 30;

/** The text of an event's ordering key, or undefined when the event has none (delivered unordered). */
export function keyValueOf(data: Record<string, unknown>, field: string): string | undefined {
  const v = data[field];
  if (typeof v === 'string' && v.length > 0) return `s:${v}`;
  if (typeof v === 'number' && Number.isFinite(v)) return `n:${v}`;
  return undefined;
}

/** The key's name in the bucket: a hash of its value (any text, any length). */
export function keyHash(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

export class Ordering {
  private readonly now: () => number;
  /** The bucket sequence of the entry this process last wrote for a head it runs (saves a read when it ends). */
  private readonly written = new LRUCache<string, { state: KeyState; seq: number }>({ max: 100_000 });
  private readonly heldCounts = new LRUCache<string, number>({ max: 10_000, ttl: 1000 });

  constructor(private readonly d: OrderingDeps) {
    this.now = d.now ?? Date.now;
  }

  /**
   * Where a notification of an ordered subscription goes now: a first attempt (`settings` its
   * subscription's) joins its key's line; a retry or a woken delivery checks that it is its turn.
   * `send`: attempt it (with its sequence), `held`: it waits for its turn (its stored copy will be
   * woken), the message that carried it may be acknowledged.
   */
  async gate(job: NotificationJob, settings: SubscriptionSettings | undefined): Promise<Gate> {
    if (job.ordering) return this.resume(job);
    const ordering = settings?.ordering;
    if (!ordering) return { kind: 'send', job };
    const value = keyValueOf(job.event.data, ordering.key);
    if (value === undefined) return this.unordered(job, 'no_key');
    const o: JobOrdering = { k: keyHash(value), h: ordering.maxHoldSeconds * 1000 };
    try {
      return await this.join({ ...job, ordering: o });
    } catch (err) {
      this.d.logger.warn(
        { err: (err as Error).message, webhookId: job.webhookId },
        'ordering store unavailable; delivered unordered',
      );
      return this.unordered(job, 'store_unavailable');
    }
  }

  private unordered(job: NotificationJob, reason: UnorderedReason): Gate {
    this.d.metrics.orderingUnordered.inc({ reason });
    return { kind: 'send', job };
  }

  /** A first attempt joins its key's line: its turn at once, or stored to wait. */
  private async join(job: NotificationJob & { ordering: JobOrdering }): Promise<Gate> {
    const subject = stateSubject(job.subscriptionId, job.ordering.k);
    const id = job.webhookId;
    let held: { seq: number; job: NotificationJob } | undefined;
    // A key nobody has pending (the common case) is created without a read.
    let current: { state: KeyState | null; seq: number } = { state: null, seq: 0 };
    for (let tries = 1; ; tries++) {
      const s = current.state;
      const at = s ? placeOf(s, id) : -1;
      if (s && at === 0) return this.turn(job, s, current.seq, s.q[0]![1]);
      // Already waiting (the event came again after a crash): its stored copy will be woken.
      if (s && at > 0) return { kind: 'held' };
      if (s?.u && s.q.length > 0) return this.unordered(job, 'held_keys_full');
      if (s && s.q.length - 1 >= this.d.limits.maxWaitingPerKey) return this.unordered(job, 'key_full');
      if (s && s.q.length > 0 && !held) held = await this.store(job);
      const next = joined(s, id, s && s.q.length > 0 ? held!.seq : 0, this.now());
      try {
        const seq = await this.put(subject, next.state, current.seq);
        if (next.turn) {
          if (held) this.dropHeld(job, held);
          return this.turn(job, next.state, seq, 0);
        }
        this.d.metrics.orderingHeld.inc();
        return { kind: 'held' };
      } catch (err) {
        if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
      }
      current = await this.load(subject);
    }
  }

  /** Its turn: the job carries its sequence, whether the one before failed, and when its hold began. */
  private turn(job: NotificationJob & { ordering: JobOrdering }, s: KeyState, seq: number, heldSeq: number): Gate {
    this.written.set(job.webhookId, { state: s, seq });
    if (heldSeq > 0) this.deleteHeld(heldSeq);
    const o = job.ordering;
    return {
      kind: 'send',
      job: { ...job, ordering: { ...o, seq: s.n, pf: s.f === 1, since: s.t } },
    };
  }

  /** A retry, or a woken delivery: sent when it is its turn; a delivery whose key has no line any more goes on unordered. */
  private async resume(job: NotificationJob & { ordering?: JobOrdering }): Promise<Gate> {
    const o = job.ordering!;
    const { state, seq } = await this.load(stateSubject(job.subscriptionId, o.k));
    const at = state ? placeOf(state, job.webhookId) : -1;
    if (!state || at < 0) return { kind: 'send', job };
    if (at > 0) return { kind: 'held' };
    return this.turn(job as NotificationJob & { ordering: JobOrdering }, state, seq, state.q[0]![1]);
  }

  /** Stores the job to wait for its turn, counted in its account's backlog like any waiting delivery. */
  private async store(job: NotificationJob): Promise<{ seq: number; job: NotificationJob }> {
    let waiting = job;
    let mark: NotificationJob['waiting'];
    if (!job.waiting) {
      mark = this.d.backlog.mark(job, Buffer.byteLength(JSON.stringify(job)) + 48);
      waiting = { ...job, waiting: mark };
    }
    const ack = await this.d.js.publish(HELD_SUBJECT, JSON.stringify(waiting), { msgID: `held:${job.webhookId}` });
    if (mark && !ack.duplicate) await this.d.backlog.add(job.event.accountId, mark);
    return { seq: ack.seq, job: waiting };
  }

  /** A stored copy that was not needed after all (the line emptied meanwhile). */
  private dropHeld(job: NotificationJob, held: { seq: number; job: NotificationJob }): void {
    this.deleteHeld(held.seq);
    if (held.job.waiting && !job.waiting) void this.d.backlog.remove(job.event.accountId, held.job.waiting);
  }

  private deleteHeld(seq: number): void {
    this.d.jsm.streams.deleteMessage(DELIVERIES_STREAM, seq, false).catch((err) => {
      if (!isNotFound(err))
        this.d.logger.warn({ err: (err as Error).message, seq }, 'deleting a woken delivery failed');
    });
  }

  /**
   * The head begins to wait for a retry: its key is marked held, or, past the subscription's most
   * held keys, left unheld (its new events go out unordered). Returns the job marked, once.
   */
  async holding(job: NotificationJob): Promise<NotificationJob> {
    const o = job.ordering;
    if (!o || o.m || o.seq === undefined) return job;
    try {
      const count = await this.heldKeys(job.subscriptionId);
      const subject = stateSubject(job.subscriptionId, o.k);
      if (count >= this.d.limits.maxHeldKeys) {
        await this.update(subject, job.webhookId, (s) => ({ ...s, u: 1 }));
        this.d.metrics.orderingOverCap.inc();
      } else {
        const ack = await this.d.js.publish(heldSubject(job.subscriptionId, o.k), JSON.stringify({ at: this.now() }));
        this.heldCounts.set(job.subscriptionId, count + 1);
        await this.update(subject, job.webhookId, (s) => ({ ...s, h: ack.seq }));
      }
    } catch (err) {
      this.d.logger.warn(
        { err: (err as Error).message, webhookId: job.webhookId },
        'marking an ordering key held failed',
      );
    }
    return { ...job, ordering: { ...o, m: true } };
  }

  /** The subscription's held keys (read at most once a second per subscription). */
  async heldKeys(subscriptionId: string): Promise<number> {
    const cached = this.heldCounts.get(subscriptionId);
    if (cached !== undefined) return cached;
    const info = await this.d.jsm.streams.info(ORDERING_STREAM, {
      subjects_filter: orderingHeldFilter(subscriptionId),
    });
    const n = Object.keys(info.state.subjects ?? {}).length;
    this.heldCounts.set(subscriptionId, n);
    return n;
  }

  /** The most a retry of an ordered delivery waits: until its hold ends (it is then ended as held_too_long). */
  capDelay(job: NotificationJob, delayMs: number): number {
    const end = holdEnd(job);
    return end === undefined ? delayMs : Math.max(1, Math.min(delayMs, end - this.now()));
  }

  /** Whether a held delivery has waited its subscription's maxHoldSeconds. */
  endOf(job: NotificationJob): 'held_too_long' | undefined {
    const end = holdEnd(job);
    return end !== undefined && this.now() >= end ? 'held_too_long' : undefined;
  }

  /**
   * The delivery ended (delivered, failed, cancelled or dropped): it leaves its key's line, and the
   * next in line, if any, is woken. Throws when the bucket cannot be written (the message that
   * carried the delivery is then handled again).
   */
  async release(job: NotificationJob, failed: boolean): Promise<void> {
    const o = job.ordering;
    if (!o) return;
    const subject = stateSubject(job.subscriptionId, o.k);
    const id = job.webhookId;
    // The line as this process last wrote or read it: used as it is while nobody wrote it since.
    let current: { state: KeyState | null; seq: number } | undefined = this.written.get(id);
    this.written.delete(id);
    for (let tries = 1; ; tries++) {
      current ??= await this.load(subject);
      const { state, seq } = current;
      if (!state) return;
      const r = ended(state, id, failed, this.now());
      if (!r.changed) {
        // Already out of the line (this end is done again after a crash): the wake may not have
        // been published; a woken head deletes its stored copy, so one still stored was not woken.
        const head = state.q[0];
        if (head && head[1] > 0) await this.wake(head[1], head[0], true);
        return;
      }
      let done: boolean;
      try {
        done = r.state ? (await this.put(subject, r.state, seq), true) : await this.drop(ORDERING_STREAM, seq);
      } catch (err) {
        if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
        done = false;
      }
      if (done) {
        if (state.h && placeOf(state, id) === 0) {
          this.heldCounts.delete(job.subscriptionId);
          void this.drop(ORDERING_STREAM, state.h).catch(() => undefined);
        }
        if (r.next) await this.wake(r.next[1], r.next[0]);
        return;
      }
      if (tries >= TRIES) throw new Error(`the ordering line of ${subject} kept changing`);
      current = undefined;
    }
  }

  /** Republishes the stored job of the delivery whose turn came to the retry subject. */
  private async wake(heldSeq: number, id: string, quiet = false): Promise<void> {
    const m = heldSeq > 0 ? await this.d.jsm.streams.getMessage(DELIVERIES_STREAM, { seq: heldSeq }) : null;
    if (!m) {
      if (!quiet) this.d.logger.warn({ webhookId: id, heldSeq }, 'the delivery whose turn came is no longer stored');
      return;
    }
    await this.d.js.publish(WAKE_SUBJECT, m.data, { msgID: `wake:${id}` });
    this.d.metrics.orderingWoken.inc();
  }

  /** Changes the line of the key while `id` is its head (`change` answers undefined to leave it). */
  private async update(subject: string, id: string, change: (s: KeyState) => KeyState | undefined): Promise<void> {
    for (let tries = 1; ; tries++) {
      const { state, seq } = await this.load(subject);
      const next = state && placeOf(state, id) === 0 ? change(state) : undefined;
      if (!next) return;
      try {
        this.written.set(id, { state: next, seq: await this.put(subject, next, seq) });
        return;
      } catch (err) {
        if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
      }
    }
  }

  private async load(subject: string): Promise<{ state: KeyState | null; seq: number }> {
    const m = await this.d.jsm.streams.getMessage(ORDERING_STREAM, { last_by_subj: subject });
    if (!m || m.data.length === 0) return { state: null, seq: 0 };
    return { state: m.json<KeyState>(), seq: m.seq };
  }

  private async put(subject: string, state: KeyState, expect: number): Promise<number> {
    const ack = await this.d.js.publish(subject, JSON.stringify(state), { expect: { lastSubjectSequence: expect } });
    return ack.seq;
  }

  /** Deletes the entry at `seq` if it is still there (false: it was replaced, or is gone). */
  private async drop(stream: string, seq: number): Promise<boolean> {
    try {
      return await this.d.jsm.streams.deleteMessage(stream, seq, false);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }
}

/** When the head's hold ends (epoch ms), once it had its turn. */
function holdEnd(job: NotificationJob): number | undefined {
  const o = job.ordering;
  return o?.since === undefined ? undefined : o.since + o.h;
}

/** The `error` of the record of a delivery that was held past its subscription's maxHoldSeconds. */
export function heldTooLongReason(job: NotificationJob): string {
  const s = Math.round((job.ordering?.h ?? 0) / 1000);
  return `held_too_long: its turn came ${s}s ago (ordering.maxHoldSeconds) and it was not delivered; no further attempt`;
}
