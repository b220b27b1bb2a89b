// One opossum circuit breaker per key, created on first use and dropped when idle. The key is a
// lane (signed-sender.ts: an account on a target host). While a lane's breaker is open its
// deliveries wait (the caller defers them); other lanes, the same host's for other accounts
// included, are unaffected. At most `maxEntries` breakers are kept: beyond, the least recently used
// idle ones are dropped, closed ones first.
import { type BackgroundLoop, type Logger, startBackgroundLoop } from '@switchboard/observability';
import CircuitBreaker from 'opossum';
import type { Gate } from './host-limiter.ts';

export interface BreakerOptions {
  /** Percentage of failed attempts in the window above which the breaker opens (1..100). */
  errorThresholdPercentage: number;
  /** Attempts in the window before the breaker may open at all. */
  volumeThreshold: number;
  /** Time the breaker stays open before a probe attempt (half-open). */
  resetTimeoutMs: number;
  /** Rolling statistics window and its number of buckets (window % buckets === 0). */
  windowMs: number;
  windowBuckets: number;
  /** A breaker unused this long (and not open) is dropped. */
  idleEvictMs: number;
  /** Most breakers kept; beyond, the least recently used without an attempt in flight are dropped. */
  maxEntries?: number;
}

export function validateBreakerOptions(o: BreakerOptions): void {
  const bad = (m: string) => {
    throw new Error(`invalid breaker options: ${m}`);
  };
  if (
    !Number.isInteger(o.errorThresholdPercentage) ||
    o.errorThresholdPercentage < 1 ||
    o.errorThresholdPercentage > 100
  )
    bad('errorThresholdPercentage must be 1..100');
  if (!Number.isInteger(o.volumeThreshold) || o.volumeThreshold < 1) bad('volumeThreshold must be a positive integer');
  if (!(o.resetTimeoutMs >= 100)) bad('resetTimeoutMs must be at least 100');
  if (!Number.isInteger(o.windowBuckets) || o.windowBuckets < 1) bad('windowBuckets must be a positive integer');
  if (!(o.windowMs >= 100) || o.windowMs % o.windowBuckets !== 0)
    bad('windowMs must be at least 100 and a multiple of windowBuckets');
  if (!(o.idleEvictMs >= 1000)) bad('idleEvictMs must be at least 1000');
  if (o.maxEntries !== undefined && !(Number.isInteger(o.maxEntries) && o.maxEntries >= 1))
    bad('maxEntries must be a positive integer');
}

export type BreakerState = 'closed' | 'open' | 'half_open';

/** Thrown inside the breaker's action for outcomes that count against the host's health. */
export class HostFailure<T> extends Error {
  constructor(readonly result: T) {
    super('target host failure');
  }
}

interface Entry {
  breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
  lastUsed: number;
  inflight: number;
  openedAt: number;
}

export type FireResult<T> = { rejected: true; retryInMs: number } | { rejected: false; value: T };

export class BreakerMap {
  private readonly entries = new Map<string, Entry>();
  /** Drops idle breakers every so often. */
  private readonly sweeper: BackgroundLoop;

  constructor(
    private readonly opts: BreakerOptions,
    logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly onStateChange?: (host: string, state: BreakerState) => void,
  ) {
    validateBreakerOptions(opts);
    this.sweeper = startBackgroundLoop(
      async () => {
        this.evictIdle();
        return false;
      },
      { intervalMs: Math.min(opts.idleEvictMs, 60_000), logger, failure: 'dropping idle circuit breakers failed' },
    );
  }

  private entry(host: string): Entry {
    let e = this.entries.get(host);
    if (!e) {
      const breaker = new CircuitBreaker((action: () => Promise<unknown>) => action(), {
        timeout: false,
        errorThresholdPercentage: this.opts.errorThresholdPercentage,
        volumeThreshold: this.opts.volumeThreshold,
        resetTimeout: this.opts.resetTimeoutMs,
        rollingCountTimeout: this.opts.windowMs,
        rollingCountBuckets: this.opts.windowBuckets,
        rollingPercentilesEnabled: false,
        enableSnapshots: false,
      });
      const entry: Entry = { breaker, lastUsed: this.now(), inflight: 0, openedAt: 0 };
      breaker.on('open', () => {
        entry.openedAt = this.now();
        this.onStateChange?.(host, 'open');
      });
      breaker.on('halfOpen', () => this.onStateChange?.(host, 'half_open'));
      breaker.on('close', () => this.onStateChange?.(host, 'closed'));
      this.makeRoom();
      this.entries.set(host, entry);
      e = entry;
    } else {
      // Map order is the order of last use: the first entries are the least recently used.
      this.entries.delete(host);
      this.entries.set(host, e);
    }
    return e;
  }

  /** Drops least recently used breakers without attempts in flight until one more fits: closed ones, then any. */
  private makeRoom(): void {
    const max = this.opts.maxEntries;
    if (max === undefined) return;
    for (const closedOnly of [true, false]) {
      for (const [key, e] of this.entries) {
        if (this.entries.size < max) return;
        if (e.inflight > 0 || (closedOnly && !e.breaker.closed)) continue;
        e.breaker.shutdown();
        this.entries.delete(key);
      }
    }
  }

  /** Milliseconds until an open breaker lets a probe through; 0 when attempts may go now. */
  waitFor(host: string): number {
    const e = this.entries.get(host);
    if (!e || e.breaker.closed || e.breaker.pendingClose) return 0;
    return Math.max(0, e.openedAt + this.opts.resetTimeoutMs - this.now());
  }

  /** What the host's breaker lets through now, for the host limiter: everything, one probe, or nothing for `waitMs`. */
  gate(host: string): Gate {
    const b = this.entries.get(host)?.breaker;
    if (!b || b.closed) return { state: 'closed' };
    if (b.halfOpen) return { state: 'half_open' };
    // Open; the reset timer half-opens it (a moment late at worst).
    return { state: 'open', waitMs: Math.max(this.waitFor(host), 50) };
  }

  state(host: string): BreakerState {
    const b = this.entries.get(host)?.breaker;
    if (!b || b.closed) return 'closed';
    return b.halfOpen ? 'half_open' : 'open';
  }

  /**
   * Runs `action` under the host's breaker. The action throws HostFailure(result) for unhealthy
   * outcomes: they count as failures and the result is returned all the same.
   */
  async fire<T>(host: string, action: () => Promise<T>): Promise<FireResult<T>> {
    const e = this.entry(host);
    e.lastUsed = this.now();
    e.inflight++;
    try {
      const value = (await e.breaker.fire(action)) as T;
      return { rejected: false, value };
    } catch (err) {
      if (err instanceof HostFailure) return { rejected: false, value: err.result as T };
      if ((err as { code?: string }).code === 'EOPENBREAKER')
        return { rejected: true, retryInMs: Math.max(this.waitFor(host), 100) };
      throw err;
    } finally {
      e.inflight--;
      e.lastUsed = this.now();
    }
  }

  counts(): Record<BreakerState, number> {
    const c: Record<BreakerState, number> = { closed: 0, open: 0, half_open: 0 };
    for (const host of this.entries.keys()) c[this.state(host)]++;
    return c;
  }

  size(): number {
    return this.entries.size;
  }

  evictIdle(): void {
    const now = this.now();
    for (const [host, e] of this.entries) {
      if (
        e.inflight === 0 &&
        now - e.lastUsed > this.opts.idleEvictMs &&
        (e.breaker.closed || now - e.openedAt > this.opts.idleEvictMs)
      ) {
        e.breaker.shutdown();
        this.entries.delete(host);
      }
    }
  }

  close(): void {
    void this.sweeper.stop();
    for (const e of this.entries.values()) e.breaker.shutdown();
    this.entries.clear();
  }
}
