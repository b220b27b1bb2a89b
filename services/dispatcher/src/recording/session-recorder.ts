// Publishes session records (recording/session-record.ts) to the dispatcher's work-queue stream,
// one message each, for the webhooks service to store. record() resolves once JetStream has the
// record, so the session's event is acknowledged only after that: a crash before re-runs the
// session rather than losing its record. While NATS refuses, the record is tried again with
// backoff; nothing is dropped. The message id is the session's, so a session that runs again
// within the stream's duplicate window is stored once.
import { backoffMs } from '@switchboard/config';
import type { JetStreamClient } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { SESSION_RECORDS_SUBJECT, type SessionRecord } from '@switchboard/contracts';
import type { RecordBuffer } from './record-buffer.ts';

export interface SessionRecorderOptions {
  logger: Logger;
  /** Called with the number of records not yet published after each change (metrics). */
  onPending?: (n: number) => void;
  /** The memory bound the records count against until published (record-buffer.ts). */
  buffer?: RecordBuffer;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SessionRecorder {
  private pending = 0;
  private closing = false;

  constructor(
    private readonly js: Pick<JetStreamClient, 'publish'>,
    private readonly opts: SessionRecorderOptions,
  ) {}

  get buffered(): number {
    return this.pending;
  }

  /**
   * Resolves once JetStream has the record. `signal` stops the retries (the session failed to
   * publish its outcome: its event comes back and the session runs again, with a new record).
   */
  async record(r: SessionRecord, signal?: AbortSignal): Promise<void> {
    const json = JSON.stringify(r);
    const held = Buffer.byteLength(json);
    this.changed(1);
    this.opts.buffer?.hold(held);
    try {
      for (let failures = 1; ; failures++) {
        try {
          await this.js.publish(SESSION_RECORDS_SUBJECT, json, { msgID: `session-record:${r.id}` });
          return;
        } catch (err) {
          // At shutdown the record stays unpublished: its event is not acknowledged and comes back.
          if (this.closing || signal?.aborted) throw err;
          const delay = backoffMs(failures, { firstMs: 250, maxMs: 5000 });
          this.opts.logger.warn(
            { err: (err as Error).message, retryInMs: delay },
            'publishing a session record failed; trying again',
          );
          await sleep(delay);
        }
      }
    } finally {
      this.opts.buffer?.release(held);
      this.changed(-1);
    }
  }

  /** Waits up to `timeoutMs` for records being published; later failures are no longer retried. */
  async close(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending > 0 && Date.now() < deadline) await sleep(20);
    this.closing = true;
  }

  private changed(d: number): void {
    this.pending += d;
    this.opts.onPending?.(this.pending);
  }
}
