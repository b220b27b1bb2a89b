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
import { DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { LRUCache } from 'lru-cache';
import { ensureStream, type JetStreamClient } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import {
  bodyKey,
  keyHash,
  keyValueOf,
  RESEND_SUBJECT,
  type ResendJob,
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
import { BucketFill } from './ordering-fill.ts';
import { ended, joined, placeOf, type Entry, type KeyState, type Position } from './ordering-state.ts';
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
export type UnorderedReason = 'no_key' | 'held_keys_full' | 'key_full' | 'bucket_full' | 'store_unavailable';

/**
 * The bucket's fill (bytes over its max_bytes) from which no new line is started: the room left is
 * for the lines under way (their waiting deliveries, their ends). NATS 2.9 does not refuse a write
 * to a full discard-new stream reliably: it may take it and drop the oldest message (nats-io/nats-server#4771,
 * fixed in 2.10.5), which here could be a line with deliveries waiting.
 */
export const ORDERING_BUCKET_FULL = 0.9;

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
export const isNotFound = (err: unknown) => /no message found|not found/i.test(String((err as Error)?.message ?? err));
const TRIES = 30;

/** Where a delivery stands once it asked for its turn. */
export type Gate =
  | { kind: 'send'; job: NotificationJob }
  | { kind: 'held' }
  /** Waiting in this process behind the head it runs: `turn` settles when its turn comes (or it is stored to wait elsewhere). */
  | { kind: 'wait'; turn: Promise<Gate> };

/** A resend's turn: `seq` its webhook-sequence (absent when it goes unordered), `k` its key. */
export type ResendGate =
  | { kind: 'send'; ordered?: { k: string; seq: number } }
  | { kind: 'held' }
  | { kind: 'wait'; turn: Promise<ResendGate> };

/** One pending delivery of a key, as the line knows it: its id and subscription. */
interface Ref {
  subject: string;
  id: string;
  subscriptionId: string;
}

/** A waiting copy stored on the held subject. */
interface Stored {
  seq: number;
  /** Deletes it (it was not needed after all). */
  drop(): void;
}

type Turn = { kind: 'turn'; state: KeyState; seq: number };
type Outcome = Turn | { kind: 'held' } | { kind: 'gone' };
type Joined = Outcome | { kind: 'wait'; turn: Promise<Outcome> } | { kind: 'unordered'; reason: UnorderedReason };

/** A delivery waiting in this process's memory behind the head it runs (its source message unacknowledged). */
interface Waiter {
  ref: Ref;
  /** Stores a copy, when the head leaves this process without ending. */
  store(): Promise<Stored>;
  settle(o: Outcome | Error): void;
}

/**
 * A key whose head this process runs: the line as this process last wrote or read it (its
 * compare-and-set needs no read while nobody else wrote it), and the deliveries of the key it got
 * meanwhile, waiting here in line order. Kept from the head's turn until it ends or leaves.
 */
interface LocalLine {
  head: string;
  state: KeyState;
  seq: number;
  waiters: Map<string, Waiter>;
}

/** Where a resend waits for its turn; woken back to the resends. */
export const HELD_RESEND_SUBJECT = 'deliveries.held.resend';

export class Ordering {
  private readonly now: () => number;
  /** The keys whose head this process runs, by bucket subject. Bounded by the deliveries in flight. */
  private readonly local = new Map<string, LocalLine>();
  private readonly heldCounts = new LRUCache<string, number>({ max: 10_000, ttl: 1000 });
  /** The bucket's fill: as last read, with the lines this process started since (ordering-fill.ts). */
  readonly bucket: BucketFill;

  constructor(private readonly d: OrderingDeps) {
    this.now = d.now ?? Date.now;
    this.bucket = new BucketFill(async () => {
      const info = await d.jsm.streams.info(ORDERING_STREAM);
      return { bytes: info.state.bytes, maxBytes: info.config.max_bytes };
    }, this.now);
  }

  /**
   * Where a notification of an ordered subscription goes now: a first attempt (`settings` its
   * subscription's) joins its key's line; a retry or a woken delivery checks that it is its turn.
   * `send`: attempt it (with its sequence), `held`: it waits for its turn (its stored copy will be
   * woken), the message that carried it may be acknowledged; `wait`: it waits in this process.
   */
  async gate(job: NotificationJob, settings: SubscriptionSettings | undefined, pos?: Position): Promise<Gate> {
    if (job.ordering) return this.resume(job);
    const ordering = settings?.ordering;
    if (!ordering) return { kind: 'send', job };
    const value = keyValueOf(job.event.data, ordering.key);
    if (value === undefined) return this.unordered(job, 'no_key');
    const o: JobOrdering = { k: keyHash(value), h: ordering.maxHoldSeconds * 1000 };
    const ordered = { ...job, ordering: o };
    let r: Joined;
    try {
      r = await this.join(refOf(ordered), () => this.store(ordered), pos);
    } catch (err) {
      this.d.logger.warn(
        { err: (err as Error).message, webhookId: job.webhookId },
        'ordering store unavailable; delivered unordered',
      );
      return this.unordered(job, 'store_unavailable');
    }
    if (r.kind === 'unordered') return this.unordered(job, r.reason);
    if (r.kind === 'wait') return { kind: 'wait', turn: r.turn.then((t) => gateOf(ordered, t)) };
    return gateOf(ordered, r);
  }

  private unordered<T>(job: T, reason: UnorderedReason): { kind: 'send'; job: T } {
    this.d.metrics.orderingUnordered.inc({ reason });
    return { kind: 'send', job };
  }

  /**
   * A resend (one delivery, or one of a recovery) of an ordered subscription joins its key's line
   * like a first attempt: it waits for the key's pending deliveries, and the key's later ones wait
   * for it. Its stored copy is woken back to the resends. The key is read from the stored body.
   */
  async gateResend(job: ResendJob, ordering: { key: string } | undefined, seq?: number): Promise<ResendGate> {
    if (!ordering || job.target.kind !== 'notification') return { kind: 'send' };
    const k = resendKey(job, ordering.key);
    if (k === undefined) return this.unorderedResend('no_key');
    const subscriptionId = job.target.subscriptionId;
    const ref: Ref = { subject: stateSubject(subscriptionId, k), id: job.deliveryId, subscriptionId };
    const of = (t: Outcome): ResendGate =>
      t.kind === 'turn' ? { kind: 'send', ordered: { k, seq: t.state.n } } : t.kind === 'held' ? t : { kind: 'send' };
    try {
      const r = await this.join(
        ref,
        () => this.storeResend(job),
        seq === undefined ? undefined : { seq, resend: true },
      );
      if (r.kind === 'unordered') return this.unorderedResend(r.reason);
      if (r.kind === 'wait') return { kind: 'wait', turn: r.turn.then(of) };
      return of(r);
    } catch (err) {
      this.d.logger.warn(
        { err: (err as Error).message, deliveryId: job.deliveryId },
        'ordering store unavailable; resent unordered',
      );
      return this.unorderedResend('store_unavailable');
    }
  }

  private unorderedResend(reason: UnorderedReason): ResendGate {
    this.d.metrics.orderingUnordered.inc({ reason });
    return { kind: 'send' };
  }

  /** The resend ended (sent, failed, or not sent): out of its key's line, and the next in line gets its turn. */
  releaseResend(job: ResendJob, k: string, failed: boolean): Promise<void> {
    if (job.target.kind !== 'notification') return Promise.resolve();
    const subscriptionId = job.target.subscriptionId;
    return this.end({ subject: stateSubject(subscriptionId, k), id: job.deliveryId, subscriptionId }, failed);
  }

  /** The resend goes back to JetStream to wait for its host: the deliveries waiting here behind it are stored. */
  letGoResend(job: ResendJob, k: string): Promise<void> {
    if (job.target.kind !== 'notification') return Promise.resolve();
    const subscriptionId = job.target.subscriptionId;
    return this.letGoRef({ subject: stateSubject(subscriptionId, k), id: job.deliveryId, subscriptionId });
  }

  /**
   * Joins the key's line. A key nobody has pending (the common case) is created without a read; a
   * key whose head this process runs is appended to from what it last wrote (no read) and the
   * delivery waits here; otherwise a copy is stored and its place points at it.
   */
  private async join(ref: Ref, storeCopy: () => Promise<Stored>, pos?: Position): Promise<Joined> {
    const { subject, id } = ref;
    let stored: Stored | undefined;
    const cached = this.local.get(subject);
    let current: { state: KeyState | null; seq: number } = cached
      ? { state: cached.state, seq: cached.seq }
      : { state: null, seq: 0 };
    for (let tries = 1; ; tries++) {
      const s = current.state;
      const mine = this.local.get(subject);
      const here = s && mine && s.q[0]?.[0] === mine.head ? mine : undefined;
      const at = s ? placeOf(s, id) : -1;
      let next: KeyState;
      let turn = false;
      let inMemory = false;
      if (s && at === 0) {
        stored?.drop();
        return this.took(ref, s, current.seq);
      }
      if (s && at > 0) {
        // Already in the line (its message came again): its stored copy will be woken; one that
        // waited in a process's memory (that process stopped, or gave it up) waits here, or is stored.
        if (s.q[at]![1] > 0) return { kind: 'held' };
        if (here) return here.waiters.has(id) ? { kind: 'held' } : this.waitHere(here, ref, storeCopy);
        stored ??= await storeCopy();
        next = { ...s, q: s.q.map((e): Entry => (e[0] === id ? withHeld(e, stored!.seq) : e)) };
      } else {
        if (s?.u && s.q.length > 0) return { kind: 'unordered', reason: 'held_keys_full' };
        const newLine = !(s && s.q.length > 0);
        if (newLine) {
          this.bucket.refresh();
          if (this.bucket.fill >= ORDERING_BUCKET_FULL) return { kind: 'unordered', reason: 'bucket_full' };
        }
        if (s && s.q.length - 1 >= this.d.limits.maxWaitingPerKey) return { kind: 'unordered', reason: 'key_full' };
        const behind = !!s && s.q.length > 0;
        inMemory = behind && !!here && !stored;
        if (behind && !inMemory) stored ??= await storeCopy();
        const j = joined(s, id, behind && !inMemory ? stored!.seq : 0, this.now(), pos);
        next = j.state;
        turn = j.turn;
        if (newLine) this.bucket.add(subject, JSON.stringify(next));
      }
      // Registered before the write: the head may end as soon as the write lands.
      const waiting = inMemory ? this.waitHere(here!, ref, storeCopy) : undefined;
      try {
        const seq = await this.put(subject, next, current.seq);
        if (here && this.local.get(subject) === here && seq > here.seq) {
          here.state = next;
          here.seq = seq;
        }
        if (turn) {
          stored?.drop();
          return this.took(ref, next, seq);
        }
        this.d.metrics.orderingHeld.inc();
        return waiting ?? { kind: 'held' };
      } catch (err) {
        if (waiting) here!.waiters.delete(id);
        if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
      }
      current = await this.load(subject);
    }
  }

  /** Waits in this process behind the head it runs (no copy stored while the head stays here). */
  private waitHere(line: LocalLine, ref: Ref, store: () => Promise<Stored>): { kind: 'wait'; turn: Promise<Outcome> } {
    const turn = new Promise<Outcome>((resolve, reject) => {
      line.waiters.set(ref.id, { ref, store, settle: (o) => (o instanceof Error ? reject(o) : resolve(o)) });
    });
    return { kind: 'wait', turn };
  }

  /** Its turn: this process runs the key's head now; its stored copy, if any, is deleted. */
  private took(ref: Ref, state: KeyState, seq: number): Turn {
    const heldSeq = state.q[0]![1];
    if (heldSeq > 0) this.deleteHeld(heldSeq);
    const old = this.local.get(ref.subject);
    const waiters = old?.waiters ?? new Map<string, Waiter>();
    waiters.delete(ref.id);
    this.local.set(ref.subject, { head: ref.id, state, seq, waiters });
    return { kind: 'turn', state, seq };
  }

  /** A retry, or a woken delivery: sent when it is its turn; a delivery whose key has no line any more goes on unordered. */
  private async resume(job: NotificationJob & { ordering?: JobOrdering }): Promise<Gate> {
    const o = job.ordering!;
    const ref = refOf(job as NotificationJob & { ordering: JobOrdering });
    const { state, seq } = await this.load(ref.subject);
    const at = state ? placeOf(state, job.webhookId) : -1;
    if (!state || at < 0) return { kind: 'send', job };
    if (at > 0) return { kind: 'held' };
    const t = this.took(ref, state, seq);
    return { kind: 'send', job: withTurn({ ...job, ordering: o }, t.state) };
  }

  /** Stores the job to wait for its turn, counted in its account's backlog like any waiting delivery. */
  private async store(job: NotificationJob): Promise<Stored> {
    let waiting = job;
    let mark: NotificationJob['waiting'];
    if (!job.waiting) {
      mark = this.d.backlog.mark(job, Buffer.byteLength(JSON.stringify(job)) + 48);
      waiting = { ...job, waiting: mark };
    }
    this.op('store');
    const ack = await this.d.js.publish(HELD_SUBJECT, JSON.stringify(waiting), { msgID: `held:${job.webhookId}` });
    if (mark && !ack.duplicate) await this.d.backlog.add(job.event.accountId, mark);
    return {
      seq: ack.seq,
      drop: () => {
        this.deleteHeld(ack.seq);
        if (mark) void this.d.backlog.remove(job.event.accountId, mark);
      },
    };
  }

  /** Stores a resend to wait for its turn; its wake goes back to the resends. */
  private async storeResend(job: ResendJob): Promise<Stored> {
    this.op('store');
    const ack = await this.d.js.publish(HELD_RESEND_SUBJECT, JSON.stringify(job), { msgID: `held:${job.deliveryId}` });
    return { seq: ack.seq, drop: () => this.deleteHeld(ack.seq) };
  }

  private deleteHeld(seq: number): void {
    this.op('store');
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
        const marker = heldSubject(job.subscriptionId, o.k);
        const value = JSON.stringify({ at: this.now() });
        this.bucket.add(marker, value);
        const ack = await this.d.js.publish(marker, value);
        this.op('write');
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
   * next in line, if any, gets its turn (here when it waits in this process, else its copy is
   * woken). Throws when the bucket cannot be written (the message that carried the delivery is
   * then handled again).
   */
  release(job: NotificationJob, failed: boolean): Promise<void> {
    const o = job.ordering;
    if (!o) return Promise.resolve();
    return this.end(refOf({ ...job, ordering: o }), failed);
  }

  /**
   * The head leaves this process without ending (it waits for a retry, or for its host, in
   * JetStream, or its handling failed): the deliveries of its key waiting here are stored, to be
   * woken wherever its end comes.
   */
  letGo(job: NotificationJob): Promise<void> {
    const o = job.ordering;
    if (!o) return Promise.resolve();
    return this.letGoRef(refOf({ ...job, ordering: o }));
  }

  private async letGoRef(ref: Ref): Promise<void> {
    const line = this.local.get(ref.subject);
    if (line?.head !== ref.id) return;
    this.local.delete(ref.subject);
    await this.spill(ref.subject, line);
  }

  private async end(ref: Ref, failed: boolean): Promise<void> {
    const { subject, id } = ref;
    const cached = this.local.get(subject);
    const mine = cached?.head === id ? cached : undefined;
    let current: { state: KeyState | null; seq: number } | undefined = mine && { state: mine.state, seq: mine.seq };
    for (let tries = 1; ; tries++) {
      current ??= await this.load(subject);
      const { state, seq } = current;
      const r = state ? ended(state, id, failed, this.now()) : undefined;
      if (!state || !r?.changed) {
        // Already out of the line (this end is done again after a crash): the wake may not have
        // been published; a woken head deletes its stored copy, so one still stored was not woken.
        const head = state?.q[0];
        if (head && head[1] > 0) await this.wake(head[1], head[0], true);
        if (mine) await this.letGoRef(ref);
        return;
      }
      let written = 0;
      let done: boolean;
      try {
        done = r.state
          ? ((written = await this.put(subject, r.state, seq)), true)
          : await this.drop(ORDERING_STREAM, seq);
      } catch (err) {
        if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
        done = false;
      }
      if (done) {
        if (state.h && placeOf(state, id) === 0) {
          this.heldCounts.delete(ref.subscriptionId);
          void this.drop(ORDERING_STREAM, state.h).catch(() => undefined);
        }
        const w = r.next && mine?.waiters.get(r.next[0]);
        if (mine && w && r.state) {
          // The next one waits here: its turn, without a wake.
          mine.waiters.delete(w.ref.id);
          mine.head = w.ref.id;
          mine.state = r.state;
          mine.seq = written;
          this.d.metrics.orderingWoken.inc();
          w.settle({ kind: 'turn', state: r.state, seq: written });
          return;
        }
        if (mine && this.local.get(subject) === mine) this.local.delete(subject);
        if (r.next && r.next[1] > 0) await this.wake(r.next[1], r.next[0]);
        if (mine && mine.waiters.size > 0) await this.spill(subject, mine);
        return;
      }
      if (tries >= TRIES) throw new Error(`the ordering line of ${subject} kept changing`);
      current = undefined;
    }
  }

  /**
   * The deliveries waiting in this process behind a head that left it: each is stored and its place
   * in the line pointed at its copy (one that got its turn meanwhile goes now; one whose line is gone
   * goes unordered). One that cannot be stored fails, so its message is handled again.
   */
  private async spill(subject: string, line: LocalLine): Promise<void> {
    const waiters = [...line.waiters.values()];
    line.waiters.clear();
    for (const w of waiters) {
      try {
        const stored = await w.store();
        for (let tries = 1; ; tries++) {
          const { state, seq } = await this.load(subject);
          const at = state ? placeOf(state, w.ref.id) : -1;
          if (!state || at < 0) {
            stored.drop();
            w.settle({ kind: 'gone' });
            break;
          }
          if (at === 0) {
            stored.drop();
            this.d.metrics.orderingWoken.inc();
            w.settle(this.took(w.ref, state, seq));
            break;
          }
          const next: KeyState = { ...state, q: state.q.map((e) => (e[0] === w.ref.id ? withHeld(e, stored.seq) : e)) };
          try {
            await this.put(subject, next, seq);
            w.settle({ kind: 'held' });
            break;
          } catch (err) {
            if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
          }
        }
      } catch (err) {
        w.settle(err as Error);
      }
    }
  }

  /** Republishes the stored job of the delivery whose turn came to its wake subject. */
  private async wake(heldSeq: number, id: string, quiet = false): Promise<void> {
    this.op('store', 2);
    const m = await this.d.jsm.streams.getMessage(DELIVERIES_STREAM, { seq: heldSeq });
    if (!m) {
      if (!quiet) this.d.logger.warn({ webhookId: id, heldSeq }, 'the delivery whose turn came is no longer stored');
      return;
    }
    await this.d.js.publish(m.subject === HELD_RESEND_SUBJECT ? RESEND_SUBJECT : WAKE_SUBJECT, m.data, {
      msgID: `wake:${id}`,
    });
    this.d.metrics.orderingWoken.inc();
  }

  /** Changes the line of the key while `id` is its head (`change` answers undefined to leave it). */
  private async update(subject: string, id: string, change: (s: KeyState) => KeyState | undefined): Promise<void> {
    for (let tries = 1; ; tries++) {
      const { state, seq } = await this.load(subject);
      const next = state && placeOf(state, id) === 0 ? change(state) : undefined;
      if (!next) return;
      try {
        const written = await this.put(subject, next, seq);
        const line = this.local.get(subject);
        if (line?.head === id && written > line.seq) {
          line.state = next;
          line.seq = written;
        }
        return;
      } catch (err) {
        if (!isWrongLastSequence(err) || tries >= TRIES) throw err;
      }
    }
  }

  private op(op: 'write' | 'read' | 'delete' | 'store', n = 1): void {
    this.d.metrics.orderingOps.inc({ op }, n);
  }

  private async load(subject: string): Promise<{ state: KeyState | null; seq: number }> {
    this.op('read');
    const m = await this.d.jsm.streams.getMessage(ORDERING_STREAM, { last_by_subj: subject });
    if (!m || m.data.length === 0) return { state: null, seq: 0 };
    return { state: m.json<KeyState>(), seq: m.seq };
  }

  private async put(subject: string, state: KeyState, expect: number): Promise<number> {
    this.op('write');
    const ack = await this.d.js.publish(subject, JSON.stringify(state), { expect: { lastSubjectSequence: expect } });
    return ack.seq;
  }

  /** Deletes the entry at `seq` if it is still there (false: it was replaced, or is gone). */
  private async drop(stream: string, seq: number): Promise<boolean> {
    this.op('delete');
    try {
      return await this.d.jsm.streams.deleteMessage(stream, seq, false);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }
}

/** The entry pointed at its stored copy. */
function withHeld(e: Entry, heldSeq: number): Entry {
  const out = [...e] as Entry;
  out[1] = heldSeq;
  return out;
}

function refOf(job: NotificationJob & { ordering: JobOrdering }): Ref {
  return {
    subject: stateSubject(job.subscriptionId, job.ordering.k),
    id: job.webhookId,
    subscriptionId: job.subscriptionId,
  };
}

/** The job as it goes once it has its turn: its sequence, whether the one before failed, when its hold began. */
function withTurn(job: NotificationJob & { ordering: JobOrdering }, s: KeyState): NotificationJob {
  return { ...job, ordering: { ...job.ordering, seq: s.n, pf: s.f === 1, since: s.t } };
}

function gateOf(job: NotificationJob & { ordering: JobOrdering }, o: Outcome): Gate {
  if (o.kind === 'turn') return { kind: 'send', job: withTurn(job, o.state) };
  // Its line is gone (deleted by an operator, or past the bucket's max age): it goes on unordered.
  if (o.kind === 'gone') return { kind: 'send', job };
  return { kind: 'held' };
}

/** The ordering key of a resend, from the `data` of its stored body. */
export const resendKey = (job: ResendJob, field: string): string | undefined => bodyKey(job.body, field);

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
