// Batches attempt records for their sink (in the dispatcher: a JetStream publish to
// deliveries.records). A batch goes out every `flushIntervalMs` or as soon as `batchSize` records
// wait, with up to `concurrency` batches in flight. record() resolves once the sink has the record,
// so the caller acknowledges its message only after that (a crash before the acknowledgement
// re-delivers the message instead of losing the record). When the sink fails, records stay
// buffered and are retried with backoff; nothing is dropped.
// Batches are capped by encoded size too (`maxBatchBytes`: NATS refuses a message over its
// max_payload, and a refused batch at the front of the queue would block it forever). A record too
// large on its own is stored truncated (attempt-record.ts truncateRecord); a batch the sink refuses
// as too large is split in halves.
// Each record is encoded as JSON once, when it is recorded: its size is measured on that text and a
// batch is the records' texts joined (batchJson), not encoded again.
import { backoffMs } from '@switchboard/config';
import type { Logger } from '@switchboard/observability';
import { BATCH_ENVELOPE_BYTES as ENVELOPE_BYTES, batchJson, type DisableRequest } from '@switchboard/contracts';
import type { Delivery } from '@switchboard/proto';
import { jsonBytes, truncateRecord } from './attempt-record.ts';
import type { RecordBuffer } from './record-buffer.ts';

export type { DisableRequest };

/** Stores a batch: the records, the subscriptions to disable, and both as one JSON text (batchJson). */
export type RecordSink = (attempts: Delivery[], disable: DisableRequest[], json: string) => Promise<void>;

interface Pending {
  attempt: Delivery;
  /** The record as JSON. */
  json: string;
  disable: DisableRequest | undefined;
  disableJson: string | undefined;
  /** Encoded size of the record and its disable request (with separators). */
  bytes: number;
  /** What the record holds of the memory bound (RecordBuffer) until it is stored. */
  held: number;
  resolve: () => void;
}

/** Largest batch to publish: well under the server's max_payload (room for headers and size estimates). */
export function recordBatchBytes(maxPayload: number | undefined): number {
  return Math.floor((maxPayload ?? 1024 * 1024) * 0.75) - 256;
}

/** Whether the sink refused a batch for its size (NATS: max_payload exceeded). */
export function isTooLarge(err: unknown): boolean {
  return /max_payload|maximum payload/i.test((err as Error)?.message ?? '');
}

export interface AttemptRecorderOptions {
  flushIntervalMs: number;
  batchSize: number;
  /** Batches in flight at once (default 1). */
  concurrency?: number;
  logger: Logger;
  /** Called with the number of records not yet stored after each change (metrics). */
  onBuffered?: (n: number) => void;
  /** Largest batch in bytes as JSON (read on every batch: the connection may change); default unbounded. */
  maxBatchBytes?: () => number;
  /** The memory bound the records count against until stored (record-buffer.ts). */
  buffer?: RecordBuffer;
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

  private maxBytes(): number {
    return this.opts.maxBatchBytes?.() ?? Number.POSITIVE_INFINITY;
  }

  record(attempt: Delivery, disable?: DisableRequest): Promise<void> {
    return new Promise((resolve) => {
      const disableJson = disable ? JSON.stringify(disable) : undefined;
      const disableBytes = disableJson ? Buffer.byteLength(disableJson) + 1 : 0;
      const room = this.maxBytes() - ENVELOPE_BYTES - disableBytes;
      let fitted = attempt;
      let json = JSON.stringify(attempt);
      let bytes = Buffer.byteLength(json);
      if (bytes > room) {
        fitted = truncateRecord(attempt, room);
        this.opts.logger.warn(
          { messageId: attempt.messageId, attempt: attempt.attempt, bytes, maxBytes: room },
          'attempt record too large for one message; stored truncated',
        );
        json = JSON.stringify(fitted);
        bytes = Buffer.byteLength(json);
      }
      const size = bytes + 1 + disableBytes;
      this.opts.buffer?.hold(size);
      this.buffer.push({ attempt: fitted, json, disable, disableJson, bytes: size, held: size, resolve });
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
      const batch = this.buffer.splice(0, this.batchLength());
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

  /** How many records at the front of the buffer make the next batch: at most batchSize and maxBatchBytes, at least one. */
  private batchLength(): number {
    const max = this.maxBytes();
    let bytes = ENVELOPE_BYTES;
    let n = 0;
    while (n < this.buffer.length && n < this.opts.batchSize) {
      bytes += this.buffer[n]!.bytes;
      if (n > 0 && bytes > max) break;
      n++;
    }
    return n;
  }

  private async send(batch: Pending[]): Promise<void> {
    try {
      const attempts: Delivery[] = [];
      const jsons: string[] = [];
      const disable: DisableRequest[] = [];
      const disableJsons: string[] = [];
      for (const p of batch) {
        attempts.push(p.attempt);
        jsons.push(p.json);
        if (p.disable) {
          disable.push(p.disable);
          disableJsons.push(p.disableJson!);
        }
      }
      await this.sink(attempts, disable, batchJson(jsons, disableJsons));
    } catch (err) {
      if (isTooLarge(err)) return this.refusedAsTooLarge(batch, err);
      this.failures++;
      this.inflightRecords -= batch.length;
      this.buffer.unshift(...batch);
      const delay = backoffMs(this.failures, { firstMs: 250, maxMs: 5000 });
      this.opts.logger.warn(
        { err: (err as Error).message, buffered: this.buffered, retryInMs: delay },
        'recording attempts failed; keeping them buffered',
      );
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
    for (const p of batch) this.stored(p);
  }

  /**
   * The sink refused the batch for its size (the limit shrank, or the estimate was off): halves are
   * sent on their own; a single record is cut down to a quarter of the limit, and if even that is
   * refused it is dropped with an error, so the queue behind it never blocks.
   */
  private async refusedAsTooLarge(batch: Pending[], err: unknown): Promise<void> {
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      this.opts.logger.warn(
        { records: batch.length, err: (err as Error).message },
        'record batch refused as too large; split in halves',
      );
      await this.send(batch.slice(0, half));
      await this.send(batch.slice(half));
      return;
    }
    const p = batch[0]!;
    const smaller = truncateRecord(p.attempt, Math.floor(this.maxBytes() / 4));
    if (smaller !== p.attempt && jsonBytes(smaller) < jsonBytes(p.attempt)) {
      this.opts.logger.warn(
        { messageId: p.attempt.messageId, err: (err as Error).message },
        'attempt record refused as too large; stored truncated',
      );
      const json = JSON.stringify(smaller);
      return this.send([{ ...p, attempt: smaller, json, bytes: Buffer.byteLength(json) + 1 }]);
    }
    this.inflightRecords -= 1;
    this.opts.logger.error(
      { attempt: p.attempt, err: (err as Error).message },
      'attempt record refused as too large even truncated; dropped',
    );
    this.stored(p);
  }

  /** The record is no longer held here: its memory is given back and its caller told. */
  private stored(p: Pending): void {
    this.opts.buffer?.release(p.held);
    p.resolve();
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
    if (this.buffered > 0)
      this.opts.logger.error(
        { notStored: this.buffered },
        'attempt records not stored at shutdown; their jobs stay unacknowledged and will be retried',
      );
  }
}
