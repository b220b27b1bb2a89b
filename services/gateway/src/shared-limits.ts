// Limits counted for the whole fleet of gateways (docs/security.md#per-tenant-limits): the
// per-account request limit, the per-address budget of failed logins and the Session API limits
// (launches per token, signals per session id) are token buckets whose state lives in the JetStream
// key-value bucket SWITCHBOARD_LIMITS, one key per limit and key (its SHA-256, never the key itself:
// tokens and session ids are credentials), written with compare-and-set on the key's last sequence.
//
// Leased quota: a replica does not ask the bucket for every request. It leases a small batch of
// tokens (LEASE_FRACTION of the per-second rate, at least 1) into a stock in its own memory and
// answers requests from it; a busy key's next batch is leased while the stock still has half a
// batch, so a request waits for the shared store only when its key's stock is empty (at most one
// read and one compare-and-set per batch). Leased tokens not used within LEASE_TTL_MS are
// forgotten, so a replica cannot bank a burst; a key the bucket found empty is not asked again (and
// is refused locally) until a batch has refilled.
//
// Failing open: while NATS or the bucket cannot be reached, each replica counts the limit in its
// own memory (RateLimiter), with the same rate and burst: an outage of NATS never refuses a request
// that the per-replica limit admits. Each such decision is counted in
// gateway_shared_limit_fallbacks_total; gateway_shared_limits_up is 0 meanwhile (app.ts).
import { createHash } from 'node:crypto';
import { backoffMs } from '@switchboard/config';
import { connectNats, ensureKvBucket, kvStream, type NatsHandle } from '@switchboard/messaging';
import type { KvBucketSpec } from '@switchboard/events';
import type { Counter, Logger } from '@switchboard/observability';
import { BoundedMap } from './bounded-map.ts';
import { RATE_LIMIT_TABLE_DEFAULT_BYTES, RateLimiter, type Limiter } from './rate-limit.ts';

/** The key-value bucket of the shared limits. */
export const LIMITS_BUCKET = 'SWITCHBOARD_LIMITS';

/** Share of the per-second rate one lease takes (at least one token). */
export const LEASE_FRACTION = 0.05;

/** How long leased tokens stay usable by the replica that leased them. */
export const LEASE_TTL_MS = 1000;

/** A key's bucket is forgotten this long after its last write at most (a key idle that long is full again anyway). */
const MAX_AGE_CEILING_MS = 24 * 60 * 60 * 1000;

/** Default of SHARED_LIMITS_MAX_BYTES. */
export const SHARED_LIMITS_DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** The rate and burst of a limit. */
export interface LimitRate {
  perSecond: number;
  burst: number;
}

/**
 * The bucket's max age for these limits: the longest time any of them takes to refill from empty to
 * its burst, plus a lease's lifetime (at least a second, at most a day). A key not written for that
 * long is full again, so forgetting it changes nothing.
 */
export function limitsBucketSpec(limits: readonly LimitRate[]): KvBucketSpec {
  const refill = Math.max(0, ...limits.filter((l) => l.perSecond > 0).map((l) => (l.burst / l.perSecond) * 1000));
  return {
    bucket: LIMITS_BUCKET,
    maxAgeMs: Math.min(MAX_AGE_CEILING_MS, Math.max(1000, Math.ceil(refill) + LEASE_TTL_MS)),
  };
}

export interface SharedLimitStoreOptions {
  nats: { url: string; user?: string | undefined; password?: string | undefined };
  logger: Logger;
  /** The bucket's settings (limitsBucketSpec). */
  spec: KvBucketSpec;
  /** The bucket's max_bytes: full, it drops the keys written longest ago. */
  maxBytes: number;
  /** Replicas of the bucket's stream (NATS_STREAM_REPLICAS). */
  replicas: number;
  /** Deadline of each read and write of the bucket, in ms. */
  timeoutMs: number;
  /** How long the store is left alone after a read or write failed, in ms (default 1000). */
  pauseMs?: number;
  now?: () => number;
}

/** A lease's answer: the tokens granted, and those left in the shared bucket (fractional). */
export interface Lease {
  granted: number;
  tokens: number;
}

const WRONG_LAST_SEQUENCE = 10071;
const isWrongLastSequence = (err: unknown) =>
  (err as { code?: number; api_error?: { err_code?: number } })?.api_error?.err_code === WRONG_LAST_SEQUENCE ||
  (err as { code?: number })?.code === WRONG_LAST_SEQUENCE ||
  /wrong last sequence/i.test(String(err));

/**
 * The shared buckets in NATS: connects in the background (start), makes the bucket, and leases
 * tokens with compare-and-set. `available` is false until then, while the connection is down and
 * for a short pause after a failed read or write: the limiters then count in their own memory.
 */
export class SharedLimitStore {
  private handle: NatsHandle | undefined;
  private connected = false;
  private ready = false;
  private pausedUntil = 0;
  private stopped = false;
  private ensuring: Promise<void> | undefined;
  private running: Promise<void> | undefined;
  private readonly stream: string;
  private readonly prefix: string;
  private readonly now: () => number;
  /** Whether the last change of state was logged as down (one line per outage, not per request). */
  private loggedDown = false;

  constructor(private readonly opts: SharedLimitStoreOptions) {
    ({ stream: this.stream, prefix: this.prefix } = kvStream(opts.spec));
    this.now = opts.now ?? Date.now;
  }

  /** Whether leases are made now (else every limiter counts in its own memory). */
  get available(): boolean {
    return this.connected && this.ready && this.pausedUntil <= this.now();
  }

  /** Connects and makes the bucket in the background; the limiters count locally until then. */
  start(): void {
    this.running = (async () => {
      const { nats, logger } = this.opts;
      const h = await connectNats(nats.url, logger, 'gateway-limits', { user: nats.user, password: nats.password });
      if (this.stopped) return h.close();
      this.handle = h;
      this.connected = true;
      (async () => {
        for await (const s of h.nc.status()) {
          if (s.type === 'disconnect') this.setConnected(false);
          else if (s.type === 'reconnect') {
            this.setConnected(true);
            // The servers may have lost the bucket (a restart without its store): make it again.
            this.ensureBucket();
          }
        }
      })().catch(() => undefined);
      this.ensureBucket();
    })().catch((err: unknown) => {
      if (!this.stopped)
        this.opts.logger.warn(
          { err: (err as Error).message },
          'connecting to NATS for the shared limits failed; every limit is counted per gateway replica',
        );
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.connected = false;
    // Still connecting (NATS unreachable): nothing to wait for; a late connection closes itself.
    if (!this.handle) return;
    await this.running;
    await this.ensuring?.catch(() => undefined);
    await this.handle.close();
  }

  private setConnected(up: boolean): void {
    this.connected = up;
    if (up) this.recovered();
  }

  /** Logs the end of an outage that was logged (once). */
  private recovered(): void {
    if (this.loggedDown && this.available) {
      this.loggedDown = false;
      this.opts.logger.info('the shared limits are counted in NATS again');
    }
  }

  /** Makes the bucket (again), retrying with growing pauses until it is there or the store stops. */
  private ensureBucket(): void {
    if (this.ensuring || this.stopped) return;
    this.ensuring = (async () => {
      for (let attempt = 1; !this.stopped; attempt++) {
        const h = this.handle;
        if (!h) return;
        try {
          await ensureKvBucket(h.jsm, this.opts.spec, this.opts.replicas, this.opts.maxBytes);
          this.ready = true;
          this.pausedUntil = 0;
          this.recovered();
          return;
        } catch (err) {
          this.down(err, 'making the bucket of the shared limits failed');
          await new Promise((r) => setTimeout(r, backoffMs(attempt, { firstMs: 500, maxMs: 30_000 })).unref());
        }
      }
    })().finally(() => {
      this.ensuring = undefined;
    });
  }

  private down(err: unknown, what: string): void {
    this.pausedUntil = this.now() + (this.opts.pauseMs ?? 1000);
    if (!this.loggedDown) {
      this.loggedDown = true;
      this.opts.logger.warn(
        { err: (err as Error)?.message ?? String(err) },
        `${what}; every limit is counted per gateway replica until NATS answers`,
      );
    }
  }

  /** A lease that failed: the limiters count locally for a pause, and the bucket is made again if it is gone. */
  failed(err: unknown): void {
    this.down(err, 'leasing from the shared limits failed');
    if (/stream not found|no responders|10059/i.test(String((err as Error)?.message ?? err))) {
      this.ready = false;
      this.ensureBucket();
    }
  }

  /** The connection and the subject of the bucket `key`; throws while the shared limits are not available. */
  private bucketOf(key: string): { h: NatsHandle; subject: string } {
    const h = this.handle;
    if (!h || !this.available) throw new Error('the shared limits are not connected');
    return { h, subject: this.prefix + key };
  }

  /**
   * The tokens of the shared bucket at `subject` now, when the answer came (refilled at `perSecond`,
   * never past the burst), that time, and the sequence of its last message, read by a direct get (any replica of the stream may
   * answer it: a stale answer only makes the caller's compare-and-set fail and its loop read again).
   * A key never written, or forgotten, is full, at sequence 0.
   */
  private async readTokens(
    h: NatsHandle,
    subject: string,
    rate: LimitRate,
  ): Promise<{ seq: number; tokens: number; now: number }> {
    const m = await h.nc.request(`$JS.API.DIRECT.GET.${this.stream}.${subject}`, '', { timeout: this.opts.timeoutMs });
    const code = m.headers?.code ?? 0;
    const now = this.now();
    if (code === 404) return { seq: 0, tokens: rate.burst, now };
    if (code !== 0) throw new Error(`reading ${subject}: ${code} ${m.headers?.description ?? ''}`);
    const state = m.json<{ t: number; at: number }>();
    return {
      seq: Number(m.headers?.get('Nats-Sequence')),
      tokens: Math.min(rate.burst, state.t + (Math.max(0, now - state.at) / 1000) * rate.perSecond),
      now,
    };
  }

  /**
   * Gives `n` tokens back to the shared bucket `key` (never past its burst): a read and a
   * compare-and-set, again when another replica wrote in between. A key not in the bucket is full.
   */
  async giveBack(key: string, n: number, rate: LimitRate): Promise<void> {
    const { h, subject } = this.bucketOf(key);
    const timeout = this.opts.timeoutMs;
    for (let tries = 1; ; tries++) {
      const { seq, tokens, now } = await this.readTokens(h, subject, rate);
      if (tokens >= rate.burst) return;
      try {
        await h.js.publish(subject, JSON.stringify({ t: Math.min(rate.burst, tokens + n), at: now }), {
          expect: { lastSubjectSequence: seq },
          timeout,
        });
        return;
      } catch (err) {
        if (!isWrongLastSequence(err) || tries >= 10) throw err;
      }
    }
  }

  /**
   * Takes up to `want` whole tokens from the shared bucket `key` (refilled at `perSecond` up to
   * `burst`; a key never written, or forgotten, is full): a read and a compare-and-set, again when
   * another replica wrote in between.
   */
  async lease(key: string, want: number, rate: LimitRate): Promise<Lease> {
    const { h, subject } = this.bucketOf(key);
    const timeout = this.opts.timeoutMs;
    for (let tries = 1; ; tries++) {
      const { seq, tokens, now } = await this.readTokens(h, subject, rate);
      const granted = Math.max(0, Math.min(want, Math.floor(tokens)));
      const left = tokens - granted;
      try {
        // Written even when nothing is granted: a key over its limit that keeps being asked stays
        // among the most recently written, so a flood of other keys filling the bucket drops idle
        // keys first, never it (at most one write per batch's refill per replica).
        await h.js.publish(subject, JSON.stringify({ t: left, at: now }), {
          expect: { lastSubjectSequence: seq },
          timeout,
        });
        this.recovered();
        return { granted, tokens: left };
      } catch (err) {
        // Another replica wrote this key in between: read it again (nothing granted: it is fresh anyway).
        if (isWrongLastSequence(err) && granted === 0) return { granted, tokens };
        if (!isWrongLastSequence(err) || tries >= 10) throw err;
      }
    }
  }
}

interface Entry {
  /** Tokens leased and not yet used. */
  stock: number;
  /** Until then the stock may be used. */
  stockUntil: number;
  /** The shared bucket had no token: until then no lease is made and requests are refused. */
  dryUntil: number;
  leasing: boolean;
  /** Requests waiting for the lease in flight: each gets 0 (allowed) or the ms to wait. */
  waiters: ((wait: number) => void)[];
}

export interface SharedLimitOptions {
  /** The limit's name: the first token of its keys in the bucket, the `limit` label of the metrics. */
  name: string;
  perSecond: number;
  /** Default twice the rate. */
  burst?: number;
  /** Memory this process's table of the limit may take (each of the local stocks and the fallback's). */
  maxBytes?: number;
  now?: () => number;
  metrics?: { fallbacks?: Counter<'limit'>; leases?: Counter<'limit' | 'result'> };
}

/**
 * A token bucket per key counted for every gateway replica (see the top of this file); without a
 * store (SHARED_LIMITS=false), or while the store is unavailable, counted in this process only.
 */
export class SharedRateLimiter implements Limiter {
  readonly name: string;
  private readonly rate: LimitRate;
  /** Tokens one lease takes. */
  readonly batch: number;
  private readonly prefetch: boolean;
  private readonly entries: BoundedMap<Entry>;
  private readonly fallback: RateLimiter;
  private readonly now: () => number;

  constructor(
    private readonly store: SharedLimitStore | undefined,
    private readonly opts: SharedLimitOptions,
  ) {
    this.name = opts.name;
    this.now = opts.now ?? Date.now;
    const burst = Math.max(1, opts.burst ?? opts.perSecond * 2);
    this.rate = { perSecond: opts.perSecond, burst };
    this.batch = Math.max(1, Math.min(burst, Math.floor(opts.perSecond * LEASE_FRACTION)));
    // A batch of one token is leased when needed, never ahead: a token leased ahead and not used
    // would be missing from a small burst (20 failed logins) at the other replicas.
    this.prefetch = this.batch >= 2;
    const maxBytes = opts.maxBytes ?? RATE_LIMIT_TABLE_DEFAULT_BYTES;
    this.entries = new BoundedMap({ maxEntries: Number.POSITIVE_INFINITY, maxBytes }, 96);
    this.fallback = new RateLimiter(opts.perSecond, this.now, burst, maxBytes);
  }

  /** The limit's rate and burst. */
  get limit(): LimitRate {
    return this.rate;
  }

  get table(): { entries: number; bytes: number } {
    return {
      entries: this.entries.size + this.fallback.table.entries,
      bytes: this.entries.bytes + this.fallback.table.bytes,
    };
  }

  /** The key of `key` in the bucket: the limit's name and the key's SHA-256 (a subject token, and no credential stored). */
  private sharedKey(key: string): string {
    return `${this.name}.${createHash('sha256').update(key).digest('base64url')}`;
  }

  private local(key: string): number {
    this.opts.metrics?.fallbacks?.inc({ limit: this.name });
    return this.fallback.take(key);
  }

  take(key: string): number | Promise<number> {
    if (this.rate.perSecond <= 0) return 0;
    if (!this.store?.available) return this.store ? this.local(key) : this.fallback.take(key);
    const now = this.now();
    let e = this.entries.get(key);
    if (!e) {
      e = { stock: 0, stockUntil: 0, dryUntil: 0, leasing: false, waiters: [] };
      this.entries.set(key, e);
    }
    if (e.stockUntil <= now) e.stock = 0;
    if (e.stock >= 1) {
      e.stock -= 1;
      // Ahead of need: the next batch is leased while half of this one is left.
      if (this.prefetch && !e.leasing && e.dryUntil <= now && e.stock <= this.batch / 2) void this.lease(key, e);
      return 0;
    }
    if (e.dryUntil > now && !e.leasing) return e.dryUntil - now;
    const entry = e;
    return new Promise<number>((resolve) => {
      entry.waiters.push(resolve);
      if (!entry.leasing) void this.lease(key, entry);
    });
  }

  peek(key: string): number {
    if (this.rate.perSecond <= 0) return 0;
    if (!this.store?.available) return this.fallback.peek(key);
    const e = this.entries.peek(key);
    if (!e) return 0;
    const now = this.now();
    if (e.stock >= 1 && e.stockUntil > now) return 0;
    return e.dryUntil > now ? e.dryUntil - now : 0;
  }

  /**
   * Gives a token back to the shared bucket (in the background): a token taken for a login that
   * succeeded counts for no replica. Where a batch is leased ahead (large rates), it goes back to
   * the replica's stock instead, which its next requests use within the lease's lifetime.
   */
  refund(key: string): void {
    if (this.rate.perSecond <= 0) return;
    const store = this.store;
    if (!store?.available) {
      this.fallback.refund(key);
      return;
    }
    const e = this.entries.peek(key);
    const now = this.now();
    if (this.prefetch && e && e.stockUntil > now) {
      e.stock = Math.min(this.rate.burst, e.stock + 1);
      return;
    }
    // Known dry here because of this token: not any more.
    if (e) e.dryUntil = 0;
    store.giveBack(this.sharedKey(key), 1, this.rate).catch((err: unknown) => {
      if (store.available) store.failed(err);
    });
  }

  /**
   * Leases for `e` until its waiters are answered: a batch, plus one token per waiter beyond the
   * first. Tokens go to the waiters in order, the rest to the stock; when the shared bucket runs dry
   * the waiters left are refused with the time a batch takes to refill.
   */
  private async lease(key: string, e: Entry): Promise<void> {
    const store = this.store!;
    e.leasing = true;
    try {
      for (;;) {
        const want = Math.min(this.rate.burst, this.batch + Math.max(0, e.waiters.length - 1));
        let answer: Lease;
        try {
          answer = await store.lease(this.sharedKey(key), want, this.rate);
        } catch (err) {
          if (store.available) store.failed(err);
          this.opts.metrics?.leases?.inc({ limit: this.name, result: 'failed' });
          for (const w of e.waiters.splice(0)) w(this.local(key));
          return;
        }
        const now = this.now();
        this.opts.metrics?.leases?.inc({ limit: this.name, result: answer.granted < want ? 'dry' : 'granted' });
        if (answer.granted > 0) {
          if (e.stockUntil <= now) e.stock = 0;
          e.stock += answer.granted;
          e.stockUntil = now + LEASE_TTL_MS;
        }
        while (e.waiters.length > 0 && e.stock >= 1) {
          e.stock -= 1;
          e.waiters.shift()!(0);
        }
        // Left without a whole token, the shared bucket is dry until a batch has refilled: the
        // replica neither asks it nor admits beyond its stock until then (a peek says so too).
        if (answer.granted < want || answer.tokens < 1) {
          const refill = ((Math.min(this.batch, this.rate.burst) - answer.tokens) / this.rate.perSecond) * 1000;
          const wait = Math.max(1, Math.ceil(refill));
          e.dryUntil = now + wait;
          for (const w of e.waiters.splice(0)) w(wait);
          return;
        }
        if (e.waiters.length === 0) return;
      }
    } finally {
      e.leasing = false;
    }
  }
}
