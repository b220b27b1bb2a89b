// Attempt records travel through JetStream: the dispatcher publishes them in batches to
// `deliveries.records` (durable as soon as JetStream acknowledges), and this consumer hands each
// batch to the webhooks service (RecordAttempts), acknowledging it once stored. Deliveries never
// wait for the database, and records survive a crash of the dispatcher or an outage of the
// webhooks service. Storing is idempotent (an attempt is unique by message id, subscription and
// attempt number), so a batch delivered twice is harmless.
import { AppError, type JsMsg, type Logger } from '@switchboard/platform';
import type { Delivery } from '@switchboard/proto';
import { batchJson, type DisableRequest } from './attempt-recorder';
import { terminate } from '../events/terminate';
import type { DispatcherMetrics } from '../metrics';

export interface RecordBatch {
  attempts: Delivery[];
  disable: DisableRequest[];
}

export function encodeBatch(batch: RecordBatch): string {
  return batchJson(
    batch.attempts.map((a) => JSON.stringify(a)),
    batch.disable.map((d) => JSON.stringify(d)),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A batch as the recorder wrote it. Checked for its shape only, without copying the records: the
 * webhooks service validates every record it stores (and rejects, one by one, what it refuses).
 */
export function decodeBatch(data: Uint8Array): RecordBatch {
  const b: unknown = JSON.parse(Buffer.from(data).toString('utf8'));
  if (!isObject(b) || !Array.isArray(b.attempts) || !Array.isArray(b.disable)) throw new Error('expected {"attempts": [...], "disable": [...]}');
  b.attempts.forEach((a, i) => {
    if (!isObject(a)) throw new Error(`attempts.${i}: expected an object`);
  });
  b.disable.forEach((d, i) => {
    if (!isObject(d) || typeof d.subscriptionId !== 'string' || typeof d.reason !== 'string') throw new Error(`disable.${i}: expected {subscriptionId, reason} strings`);
  });
  return b as unknown as RecordBatch;
}

/** Largest batch to publish: well under the server's max_payload (room for headers and size estimates). */
export function recordBatchBytes(maxPayload: number | undefined): number {
  return Math.floor((maxPayload ?? 1024 * 1024) * 0.75) - 256;
}

export interface ForwarderDeps {
  /** RecordAttempts on the webhooks service. */
  store: (attempts: Delivery[], disable: DisableRequest[]) => Promise<void>;
  metrics: DispatcherMetrics;
  logger: Logger;
}

const permanent = (err: unknown) => err instanceof AppError && err.code === 'invalid_request';

export async function forwardRecords(msg: JsMsg, deps: ForwarderDeps): Promise<void> {
  let batch: RecordBatch;
  try {
    batch = decodeBatch(msg.data);
  } catch (err) {
    return terminate(msg, `invalid record batch: ${(err as Error).message}`, deps);
  }
  try {
    await deps.store(batch.attempts, batch.disable);
  } catch (err) {
    if (!permanent(err)) {
      const delay = Math.min(250 * 2 ** Math.min(msg.info.deliveryCount - 1, 5), 5000);
      deps.logger.warn({ err: (err as Error).message, records: batch.attempts.length, retryInMs: delay }, 'storing attempt records failed; they wait in JetStream');
      msg.nak(delay);
      return;
    }
    // One bad record must not hold up the others: store them one by one, drop what is rejected.
    for (const a of batch.attempts) {
      try {
        await deps.store([a], []);
      } catch (e) {
        if (!permanent(e)) {
          msg.nak(1000);
          return;
        }
        deps.logger.error({ err: (e as Error).message, attempt: a }, 'attempt record rejected by the webhooks service; dropped');
      }
    }
    if (batch.disable.length > 0) await deps.store([], batch.disable).catch((e: unknown) => deps.logger.error({ err: (e as Error).message }, 'disabling subscriptions rejected'));
  }
  msg.ack();
}
