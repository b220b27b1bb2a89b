/** Token bucket per key (account, client address): `perSecond` sustained, bursts up to `burst` (default twice that). 0 disables it. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
    burst?: number,
  ) {
    this.capacity = Math.max(1, burst ?? perSecond * 2);
  }

  /** Takes one token; returns 0, or the ms to wait before a token is available. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const capacity = this.capacity;
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    if (this.buckets.size > 100_000) this.buckets.clear();
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
    const b = this.buckets.get(key);
    if (!b) return 0;
    const tokens = Math.min(this.capacity, b.tokens + ((this.now() - b.at) / 1000) * this.perSecond);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.perSecond) * 1000);
  }

  /** Gives back a token taken for something that turned out not to count. */
  refund(key: string): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.capacity, b.tokens + 1);
  }
}
