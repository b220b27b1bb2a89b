// Counts of deliveries held by their subscription's rate limit (delivery/throttle.ts), on their way
// to the webhooks service's statistics (`throttled`). A held delivery makes no attempt, so no record
// stands for it: its count goes instead, per subscription and minute, in a batch of its own on the
// records subject (`{"attempts":[],"disable":[],"throttled":[...]}`), every flush interval. The
// counts are a statistic: when they cannot be sent they wait for the next flush, at most
// `maxEntries` (subscription, minute) pairs of them; past that, further ones are dropped and counted
// (dispatcher_throttled_counts_dropped_total), and a crash loses at most one flush interval of them.
import { throttledBatchJson, type ThrottledCount } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';

export interface ThrottledCountsOptions {
  flushIntervalMs: number;
  /** Most (subscription, minute) counts held while they cannot be sent. */
  maxEntries: number;
  logger: Logger;
  /** Counts held deliveries dropped because the buffer was full. */
  onDropped?: (n: number) => void;
  now?: () => number;
}

const MINUTE = 60_000;

export class ThrottledCounts {
  private counts = new Map<string, ThrottledCount>();
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly publish: (json: string) => Promise<unknown>,
    private readonly opts: ThrottledCountsOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Counts pairs held (for tests and the capacity figures). */
  get size(): number {
    return this.counts.size;
  }

  /** Counts one delivery of the subscription held now. */
  add(subscriptionId: string): void {
    const t = this.now();
    const at = new Date(t - (t % MINUTE)).toISOString();
    const key = `${subscriptionId} ${at}`;
    const c = this.counts.get(key);
    if (c) c.count += 1;
    else if (this.counts.size >= this.opts.maxEntries) this.opts.onDropped?.(1);
    else this.counts.set(key, { subscriptionId, at, count: 1 });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.counts.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.opts.flushIntervalMs);
    this.timer.unref();
  }

  /** Sends the counts held now (one batch); those that fail are merged back for the next flush. */
  flush(): Promise<void> {
    this.sending ??= this.send().finally(() => {
      this.sending = undefined;
      this.schedule();
    });
    return this.sending;
  }

  private async send(): Promise<void> {
    if (this.counts.size === 0) return;
    const batch = this.counts;
    this.counts = new Map();
    try {
      await this.publish(throttledBatchJson([...batch.values()]));
    } catch (err) {
      this.opts.logger.warn(
        { err: (err as Error).message, counts: batch.size },
        'sending throttled counts failed; they wait for the next flush',
      );
      let dropped = 0;
      for (const [key, c] of batch) {
        const newer = this.counts.get(key);
        if (newer) newer.count += c.count;
        else if (this.counts.size < this.opts.maxEntries) this.counts.set(key, c);
        else dropped += c.count;
      }
      if (dropped > 0) this.opts.onDropped?.(dropped);
    }
  }

  /** Sends what is held (once; at stop). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sending;
    await this.flush();
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
