// The dispatcher's JetStream layout: its own work-queue stream (retry jobs and attempt records)
// and the durable consumers of inbound events, retries and records. ensureDispatcherStreams
// creates or updates them at start.
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import {
  ensureConsumer,
  ensureKvBucket,
  ensureStream,
  ensureStreams,
  STORE_LIMITS_DEFAULT,
  type StoreLimits,
} from '@switchboard/messaging';
import { KV_BUCKETS, STREAMS } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';
import {
  DELIVERIES_STREAM,
  RECORDS_CONSUMER,
  RECORDS_SUBJECT,
  RESEND_SUBJECT,
  SESSION_RECORDS_CONSUMER,
  SESSION_RECORDS_SUBJECT,
} from '@switchboard/contracts';
import { deliveriesRetentionMs } from './delivery/retry.ts';

export { DELIVERIES_STREAM };
export const JOB_SUBJECTS = {
  retry: 'deliveries.retry',
  /** Retry jobs of a target whose share of the retry consumer's window is full (delivery/scheduled-shares.ts). */
  parked: 'deliveries.parked',
  /**
   * Deliveries waiting for their turn behind an earlier delivery of their ordering key
   * (delivery/ordering.ts): no consumer reads them; the delivery before them republishes one to the
   * retry subject when it ends (`deliveries.held.retry`), or a resend to the resends
   * (`deliveries.held.resend`).
   */
  held: 'deliveries.held.>',
  /** Jobs waiting for their slot of their subscription's rate limit (delivery/throttle.ts). */
  throttled: 'deliveries.throttled',
  /** Batches of attempt records on their way to the webhooks service (packages/contracts/src/delivery-records.ts). */
  records: RECORDS_SUBJECT,
  /** Resends and recoveries, published by the webhooks service (delivery/resend-worker.ts). */
  resend: RESEND_SUBJECT,
  /** One record per session that ended, on its way to the webhooks service (recording/session-recorder.ts). */
  sessions: SESSION_RECORDS_SUBJECT,
} as const;
export const CONSUMERS = {
  /** Inbound events (the whole SWITCHBOARD_INBOUND stream): validated, first attempts made. */
  events: 'dispatcher-events',
  /** Retries and deferred jobs; held by JetStream (nak with delay) until due. */
  retry: 'dispatcher-deliveries-retry',
  /** Parked retry jobs, moved back to the retry subject as their target's share frees up. */
  parked: 'dispatcher-deliveries-parked',
  /** Jobs waiting for their rate-limit slot; held by JetStream (nak with delay) until it comes. */
  throttled: 'dispatcher-deliveries-throttled',
  /** Attempt records: created here with the stream, read by the webhooks service, which stores them. */
  records: RECORDS_CONSUMER,
  /** Session records: created here with the stream, read by the webhooks service, which stores them. */
  sessionRecords: SESSION_RECORDS_CONSUMER,
  /** Resend jobs: one attempt each, held by JetStream while their host cannot take them. */
  resends: 'dispatcher-resends',
} as const;

const nanos = (ms: number) => ms * 1_000_000;

export interface StreamSettings {
  replicas: number;
  retrySchedule: readonly number[];
  ackWaitMs: number;
  maxScheduled: number;
  /** Events the events consumer may hold un-acknowledged (waiting in the host queues included). */
  eventsWindow: number;
  /** max_bytes of every stream and of the session registry (NATS_STREAM_MAX_BYTES, NATS_KV_MAX_BYTES). */
  limits?: StoreLimits;
  /** Where moving a former stream is logged. */
  logger?: Logger;
}

/** Creates or updates the streams and durable consumers the dispatcher uses (idempotent). */
export async function ensureDispatcherStreams(jsm: JetStreamManager, s: StreamSettings): Promise<void> {
  const limits = s.limits ?? STORE_LIMITS_DEFAULT;
  // The dispatcher owns the configuration of every stream and bucket of the system
  // (docs/decisions/0015-stream-retention.md): the other services only create one that is missing.
  await ensureStreams(jsm, [STREAMS.events, STREAMS.internal, STREAMS.core], s.replicas, limits.streamMaxBytes, {
    own: true,
    logger: s.logger,
  });
  // Every session delivered is registered there, for the Session API's signals.
  await ensureKvBucket(jsm, KV_BUCKETS.sessions, s.replicas, limits.kvMaxBytes);
  // Jobs live until acknowledged (work queue), at most as long as the whole schedule plus slack.
  const config = {
    name: DELIVERIES_STREAM,
    subjects: [
      JOB_SUBJECTS.retry,
      JOB_SUBJECTS.parked,
      JOB_SUBJECTS.held,
      JOB_SUBJECTS.throttled,
      JOB_SUBJECTS.records,
      JOB_SUBJECTS.resend,
      JOB_SUBJECTS.sessions,
    ],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    max_age: nanos(deliveriesRetentionMs(s.retrySchedule)),
    max_bytes: limits.streamMaxBytes,
    discard: DiscardPolicy.New,
    num_replicas: s.replicas,
    // Re-publishing a job after a crash (before the source was acknowledged) is deduplicated.
    duplicate_window: nanos(10 * 60_000),
  };
  await ensureStream(jsm, config);
  const ackWait = nanos(s.ackWaitMs);
  await ensureConsumer(jsm, STREAMS.events.name, {
    durable_name: CONSUMERS.events,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ackWait,
    max_ack_pending: s.eventsWindow,
  });
  // The consumers of the jobs stream, each on its subject, with its window (max_ack_pending).
  const jobConsumers: [durable: string, subject: string, window: number][] = [
    // Every scheduled retry is an unacknowledged message of this consumer until it is due, so its
    // limit is the number of retries that can wait at once; first attempts never wait behind them.
    [CONSUMERS.retry, JOB_SUBJECTS.retry, s.maxScheduled],
    // Parked jobs wait in the stream; the few at its head that were looked at and must wait longer
    // are handed back (nak with delay) within this small window.
    [CONSUMERS.parked, JOB_SUBJECTS.parked, 1000],
    // Jobs waiting for their subscription's rate-limit slot, each an unacknowledged message until its
    // slot comes: a window of their own, so throttled subscriptions never take the retries' (each
    // account's are bounded by its DELIVERY_BACKLOG_PER_ACCOUNT).
    [CONSUMERS.throttled, JOB_SUBJECTS.throttled, s.maxScheduled],
    [CONSUMERS.resends, JOB_SUBJECTS.resend, 10_000],
    [CONSUMERS.records, JOB_SUBJECTS.records, 1000],
    [CONSUMERS.sessionRecords, JOB_SUBJECTS.sessions, 1000],
  ];
  for (const [durable, subject, window] of jobConsumers)
    await ensureConsumer(jsm, DELIVERIES_STREAM, {
      durable_name: durable,
      filter_subject: subject,
      ack_wait: ackWait,
      max_ack_pending: window,
    });
}
