// Batches attempt records for their sink (in the dispatcher: a JetStream publish to
// deliveries.records). A batch goes out every `flushIntervalMs` or as soon as `batchSize` records
// wait, with up to `concurrency` batches in flight. record() resolves once the sink has the record,
// so the caller acknowledges its message only after that (a crash before the acknowledgement
// re-delivers the message instead of losing the record). When the sink fails, records stay
// buffered and are retried with backoff; nothing is dropped.
import type { Logger } from '@switchboard/platform';
import type { Delivery } from '@switchboard/proto';

export interface DisableRequest {
  subscriptionId: string;
  reason: string;
}

export type RecordSink = (attempts: Delivery[], disable: DisableRequest[]) => Promise<void>;

interface Pending {
  attempt: Delivery;
  disable: DisableRequest | undefined;
  resolve: () => void;
}

export interface AttemptRecorderOptions {
  flushIntervalMs: number;
  batchSize: number;
  /** Batches in flight at once (default 1). */
  concurrency?: number;
  logger: Logger;
  /** Called with the number of records not yet stored after each change (metrics). */
  onBuffered?: (n: number) => void;
}

export class AttemptRecorder {
  /** Records not yet sent (or sent and failed, back at the front). */
  private buffer: Pending[] = [];
  private sending = 0;
  private inflightRecords = 0;
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly concurrency: number;

  constructor(
    private readonly sink: RecordSink,
    private readonly opts: AttemptRecorderOptions,
  ) {
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
  }

  /** Records not yet stored. */
  get buffered(): number {
    return this.buffer.length + this.inflightRecords;
  }

  record(attempt: Delivery, disable?: DisableRequest): Promise<void> {
    return new Promise((resolve) => {
      this.buffer.push({ attempt, disable, resolve });
      this.changed();
      if (this.buffer.length >= this.opts.batchSize) this.pump();
      else this.schedule();
    });
  }

  private changed(): void {
    this.opts.onBuffered?.(this.buffered);
  }

  private schedule(): void {
    if (this.timer || this.retryTimer || this.buffer.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, this.opts.flushIntervalMs);
  }

  private pump(): void {
    if (this.retryTimer) return; // backing off after a failure
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.sending < this.concurrency && this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.opts.batchSize);
      this.sending++;
      this.inflightRecords += batch.length;
      void this.send(batch).finally(() => {
        this.sending--;
        this.changed();
        if (this.buffer.length >= this.opts.batchSize) this.pump();
        else this.schedule();
      });
    }
  }

  private async send(batch: Pending[]): Promise<void> {
    try {
      await this.sink(
        batch.map((p) => p.attempt),
        batch.flatMap((p) => (p.disable ? [p.disable] : [])),
      );
    } catch (err) {
      this.failures++;
      this.inflightRecords -= batch.length;
      this.buffer.unshift(...batch);
      const delay = Math.min(250 * 2 ** Math.min(this.failures - 1, 5), 5000);
      this.opts.logger.warn({ err: (err as Error).message, buffered: this.buffered, retryInMs: delay }, 'recording attempts failed; keeping them buffered');
      if (!this.retryTimer) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.pump();
        }, delay);
      }
      return;
    }
    this.failures = 0;
    this.inflightRecords -= batch.length;
    for (const p of batch) p.resolve();
  }

  /** Flushes what is buffered; resolves when everything is stored or after `timeoutMs`. */
  async close(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.buffered > 0 && Date.now() < deadline) {
      this.pump();
      await new Promise((r) => setTimeout(r, 20));
    }
    clearTimeout(this.timer);
    clearTimeout(this.retryTimer);
    if (this.buffered > 0) this.opts.logger.error({ notStored: this.buffered }, 'attempt records not stored at shutdown; their jobs stay unacknowledged and will be retried');
  }
}
