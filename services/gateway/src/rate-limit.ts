import { BoundedMap } from './bounded-map.ts';

/** Memory one limiter's table takes by default (RATE_LIMIT_TABLE_BYTES). */
export const RATE_LIMIT_TABLE_DEFAULT_BYTES = 16 * 1024 * 1024;

/**
 * A limit per key: `take` answers 0 (allowed) or the ms to wait, `peek` the same without taking,
 * `refund` gives back a token taken for something that turned out not to count. A limiter counted
 * in this process answers `take` at once; one counted for the fleet (shared-limits.ts) may answer
 * a promise when it has to lease tokens first.
 */
export interface Limiter {
  take(key: string): number | Promise<number>;
  peek(key: string): number;
  refund(key: string): void;
  /** Keys and estimated bytes of its table in this process (for metrics and tests). */
  readonly table: { entries: number; bytes: number };
}

/**
 * Token bucket per key (account, client address, token, session id): `perSecond` sustained, bursts up
 * to `burst` (default twice that). 0 disables it. The table is bounded by the memory its keys take
 * (`maxBytes`): past it the least recently used keys are dropped one by one, never all at once.
 */
export class RateLimiter implements Limiter {
  private readonly buckets: BoundedMap<{ tokens: number; at: number }>;
  private readonly capacity: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
    burst?: number,
    maxBytes = RATE_LIMIT_TABLE_DEFAULT_BYTES,
  ) {
    this.capacity = Math.max(1, burst ?? perSecond * 2);
    this.buckets = new BoundedMap({ maxEntries: Number.POSITIVE_INFINITY, maxBytes }, 32);
  }

  /** Keys and estimated bytes of the table (for metrics and tests). */
  get table(): { entries: number; bytes: number } {
    return { entries: this.buckets.size, bytes: this.buckets.bytes };
  }

  /** Takes one token; returns 0, or the ms to wait before a token is available. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const capacity = this.capacity;
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / this.perSecond) * 1000);
  }

  /** The ms to wait before `key` has a token (0: it has one now), taking nothing. */
  peek(key: string): number {
    if (this.perSecond <= 0) return 0;
    const b = this.buckets.peek(key);
    if (!b) return 0;
    const tokens = Math.min(this.capacity, b.tokens + ((this.now() - b.at) / 1000) * this.perSecond);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.perSecond) * 1000);
  }

  /** Gives back a token taken for something that turned out not to count. */
  refund(key: string): void {
    const b = this.buckets.peek(key);
    if (b) b.tokens = Math.min(this.capacity, b.tokens + 1);
  }
}
