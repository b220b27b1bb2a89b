// Backlog gauges of the dispatcher's consumers, and how full each stream is, read from JetStream
// every few seconds (the ordering bucket's fill is also told to ordering by key, which stops
// starting lines near it).
import type { JetStreamManager } from '@nats-io/jetstream';
import { KV_BUCKETS, STREAMS } from '@switchboard/events';
import { kvStream } from '@switchboard/messaging';
import { type Logger, startBackgroundLoop } from '@switchboard/observability';
import { LEDGER_STREAM } from './delivery/backlog.ts';
import { ORDERING_STREAM } from './delivery/ordering.ts';
import { THROTTLE_STREAM } from './delivery/throttle.ts';
import type { DispatcherMetrics } from './metrics.ts';
import { CONSUMERS, DELIVERIES_STREAM } from './streams.ts';

const POLL_INTERVAL_MS = 5000;

/** Starts polling at once; returns the function that stops it. */
export function pollConsumerBacklog(
  jsm: JetStreamManager,
  metrics: DispatcherMetrics,
  logger: Logger,
  /** Told each stream's bytes and max_bytes as they are read. */
  onFill?: (stream: string, bytes: number, maxBytes: number) => void,
): () => Promise<void> {
  const poll = async (): Promise<boolean> => {
    for (const [stream, durable] of [
      [STREAMS.events.name, CONSUMERS.events],
      [DELIVERIES_STREAM, CONSUMERS.retry],
      [DELIVERIES_STREAM, CONSUMERS.parked],
      [DELIVERIES_STREAM, CONSUMERS.throttled],
      [DELIVERIES_STREAM, CONSUMERS.records],
      [DELIVERIES_STREAM, CONSUMERS.sessionRecords],
      [DELIVERIES_STREAM, CONSUMERS.resends],
    ] as const) {
      try {
        const info = await jsm.consumers.info(stream, durable);
        // A scheduled retry is an unacknowledged message of the retry consumer until it is due:
        // that is waiting by design, not backlog, so it is counted apart.
        if (durable === CONSUMERS.retry) {
          metrics.consumerPending.set({ consumer: durable }, info.num_pending);
          metrics.retriesWaiting.set(info.num_ack_pending);
        } else if (durable === CONSUMERS.throttled) {
          metrics.consumerPending.set({ consumer: durable }, info.num_pending);
          metrics.throttledWaiting.set(info.num_ack_pending);
        } else metrics.consumerPending.set({ consumer: durable }, info.num_pending + info.num_ack_pending);
      } catch {
        // NATS away: keep the last value
      }
    }
    for (const stream of [
      STREAMS.events.name,
      STREAMS.internal.name,
      STREAMS.core.name,
      DELIVERIES_STREAM,
      kvStream(KV_BUCKETS.sessions).stream,
      LEDGER_STREAM,
      THROTTLE_STREAM,
      ORDERING_STREAM,
    ]) {
      try {
        const info = await jsm.streams.info(stream);
        if (info.config.max_bytes > 0) {
          const fill = info.state.bytes / info.config.max_bytes;
          metrics.streamUsed.set({ stream }, fill);
          onFill?.(stream, info.state.bytes, info.config.max_bytes);
        }
      } catch {
        // NATS away: keep the last value
      }
    }
    return false;
  };
  const loop = startBackgroundLoop(poll, {
    intervalMs: POLL_INTERVAL_MS,
    logger,
    failure: 'reading consumer backlogs failed',
  });
  return () => loop.stop();
}
