// Jobs admitted for delivery whose message is not acknowledged yet: waiting in their host's queue
// for a slot, attempting, or recording (attempt record stored, successor job published, source
// message acknowledged). They finish on their own so the consumer's concurrency slot is free for
// the next message; this bounds how many pile up and keeps their JetStream messages alive
// (in-progress signals) while they wait.
import type { JsMsg } from '@switchboard/messaging';
import { type BackgroundLoop, type Logger, startBackgroundLoop } from '@switchboard/observability';

export class InFlight {
  /** Finishing promises of jobs whose attempt is done. */
  private readonly finishing = new Set<Promise<unknown>>();
  /** Callers of track() waiting for the pile to shrink, woken one per finished job. */
  private readonly waiting: Array<() => void> = [];
  /** Messages whose jobs are finishing: since when, and how many jobs. One ticker keeps them alive. */
  private readonly working = new Map<JsMsg, { since: number; jobs: number }>();
  private readonly ticker: BackgroundLoop;

  /**
   * `ackWaitMs`: ack_wait of the consumers; in-progress signals are sent well within it.
   * `maxTracked`: messages tracked at once before new work waits (above what the host queues hold).
   */
  constructor(
    ackWaitMs: number,
    private readonly logger: Logger,
    private readonly maxTracked = 4096,
  ) {
    const every = Math.max(1000, Math.floor(ackWaitMs / 3));
    this.ticker = startBackgroundLoop(
      async () => {
        const now = Date.now();
        for (const [msg, w] of this.working) if (now - w.since >= every) msg.working();
        return false;
      },
      { intervalMs: every, logger, failure: 'keeping messages in progress alive failed' },
    );
  }

  /**
   * Lets `finishing` (wait for a slot, attempt, record, then acknowledge `msg`) run on its own,
   * keeping `msg` alive meanwhile; JetStream's max_ack_pending and `maxTracked` bound how many pile
   * up. A failure naks `msg` so it is re-delivered. Resolves at once, or when the pile is full,
   * once one of them ended.
   */
  track(msg: JsMsg, finishing: Promise<unknown>): Promise<void> {
    const t: Promise<unknown> = this.keepAlive(msg, () => finishing)
      .catch((err: unknown) => {
        this.logger.error(
          { err, subject: msg.subject, seq: msg.seq },
          'finishing a delivery failed; the message will be re-delivered',
        );
        msg.nak(1000);
      })
      .finally(() => {
        this.finishing.delete(t);
        this.waiting.shift()?.();
      });
    this.finishing.add(t);
    return this.finishing.size >= this.maxTracked ? new Promise<void>((r) => this.waiting.push(r)) : Promise.resolve();
  }

  /** Tells JetStream the message is still being worked on while `fn` runs (records may wait for the webhooks service). */
  async keepAlive<T>(msg: JsMsg, fn: () => Promise<T>): Promise<T> {
    const w = this.working.get(msg);
    if (w) w.jobs++;
    else this.working.set(msg, { since: Date.now(), jobs: 1 });
    try {
      return await fn();
    } finally {
      const cur = this.working.get(msg);
      if (cur && --cur.jobs === 0) this.working.delete(msg);
    }
  }

  /** Waits until every tracked job is recorded and acknowledged (shutdown). */
  async drain(): Promise<void> {
    while (this.finishing.size > 0) await Promise.allSettled([...this.finishing]);
    await this.ticker.stop();
  }
}
