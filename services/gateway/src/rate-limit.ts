/** Token bucket per account: `perSecond` sustained, bursts up to twice that. 0 disables it. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token; returns 0, or the ms to wait before a token is available. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const capacity = this.perSecond * 2;
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
}
