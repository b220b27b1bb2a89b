// Attempt records travel through JetStream: the dispatcher publishes them in batches to
// `deliveries.records` (durable as soon as JetStream acknowledges), and this consumer hands each
// batch to the webhooks service (RecordAttempts), acknowledging it once stored. Deliveries never
// wait for the database, and records survive a crash of the dispatcher or an outage of the
// webhooks service. Storing is idempotent (an attempt is unique by message id, subscription and
// attempt number), so a batch delivered twice is harmless.
import { AppError, type JsMsg, type Logger } from '@switchboard/platform';
import type { Delivery } from '@switchboard/proto';
import { z } from 'zod';
import type { DisableRequest, RecordSink } from './attempt-recorder';
import { terminate } from '../events/terminate';
import type { DispatcherMetrics } from '../metrics';

export interface RecordBatch {
  attempts: Delivery[];
  disable: DisableRequest[];
}

const batchSchema = z.object({
  attempts: z.array(z.record(z.string(), z.unknown())),
  disable: z.array(z.object({ subscriptionId: z.string(), reason: z.string() })),
});

export function encodeBatch(batch: RecordBatch): string {
  return JSON.stringify(batch);
}

/** Largest batch to publish: well under the server's max_payload (room for headers and size estimates). */
export function recordBatchBytes(maxPayload: number | undefined): number {
  return Math.floor((maxPayload ?? 1024 * 1024) * 0.75) - 256;
}

export interface ForwarderDeps {
  /** RecordAttempts on the webhooks service. */
  store: RecordSink;
  metrics: DispatcherMetrics;
  logger: Logger;
}

const permanent = (err: unknown) => err instanceof AppError && err.code === 'invalid_request';

export async function forwardRecords(msg: JsMsg, deps: ForwarderDeps): Promise<void> {
  let batch: RecordBatch;
  try {
    batch = batchSchema.parse(JSON.parse(Buffer.from(msg.data).toString('utf8'))) as RecordBatch;
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
