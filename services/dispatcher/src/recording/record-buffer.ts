// One memory bound for the records the dispatcher holds until JetStream has them: attempt records
// (attempt-recorder.ts, batched) and session records (session-recorder.ts), bodies and answers
// included, while their publishes are retried. A record is never refused or dropped at the bound:
// it belongs to an attempt already made, and its message is acknowledged only once it is stored.
// Instead no new attempt starts (the host limiter holds admitted jobs in their queues) and the
// consumers stop taking new messages (whileRecordsFit: a handler waits before it starts), until the
// held records are stored. What may pass the bound is the records of the attempts already in
// flight (at most DELIVERY_CONCURRENCY of them).
import type { JsMsg } from '@switchboard/messaging';

export class RecordBuffer {
  private bytes = 0;
  private waiters: (() => void)[] = [];
  private stopped = false;

  constructor(
    readonly maxBytes: number,
    private readonly onChange?: (bytes: number) => void,
  ) {}

  /** Bytes of records held now. */
  get held(): number {
    return this.bytes;
  }

  get full(): boolean {
    return this.bytes >= this.maxBytes;
  }

  /** Counts a record held until release(); never refused. */
  hold(bytes: number): void {
    this.bytes += bytes;
    this.onChange?.(this.bytes);
  }

  release(bytes: number): void {
    this.bytes = Math.max(0, this.bytes - bytes);
    this.onChange?.(this.bytes);
    if (!this.full) this.wake();
  }

  /** Resolves once the records held are below the bound, or the process stops. */
  whenRoom(): Promise<void> {
    if (!this.full || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The process stops: nobody waits for room any more (their messages are left to JetStream). */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/**
 * A consumer's handler that waits for room in the record buffer before it starts on a message
 * (telling JetStream the message is in progress meanwhile, so it is not re-delivered): the
 * consumer loop, with all its slots waiting, stops pulling. `onWait` counts each wait.
 */
export function whileRecordsFit(
  buffer: RecordBuffer,
  handle: (m: JsMsg) => Promise<void>,
  onWait?: () => void,
  keepAliveMs = 5000,
): (m: JsMsg) => Promise<void> {
  return async (m) => {
    if (buffer.full) {
      onWait?.();
      const timer = setInterval(() => m.working(), keepAliveMs);
      try {
        await buffer.whenRoom();
      } finally {
        clearInterval(timer);
      }
      // Stopping: the message is not acknowledged, and JetStream gives it to another replica.
      if (buffer.isStopped) return;
    }
    return handle(m);
  };
}
