// Delivery jobs: one per (event, target). A first attempt runs straight from the inbound event;
// a retry, or a job that must wait, is a JetStream message on the dispatcher's own work-queue
// stream carrying the validated event, the target's id, the number of the attempt it will make
// and a `notBefore` time, so a scheduled retry is durable state and survives any restart.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { ensureConsumer, ensureStream, ensureStreams, STREAMS } from '@switchboard/platform';
import { deliveriesRetentionMs } from './delivery/retry';
import { cdrEventSchema, sessionNewSchema } from './events/schemas';

export const DELIVERIES_STREAM = 'SWITCHBOARD_DELIVERIES';
export const JOB_SUBJECTS = {
  retry: 'deliveries.retry',
  /** Batches of attempt records on their way to the webhooks service. */
  records: 'deliveries.records',
} as const;
export const CONSUMERS = {
  /** Inbound events (the whole SWITCHBOARD_EVENTS stream): validated, first attempts made. */
  events: 'dispatcher-events',
  /** Retries and deferred jobs; held by JetStream (nak with delay) until due. */
  retry: 'dispatcher-deliveries-retry',
  /** Attempt records, stored through the webhooks service. */
  records: 'dispatcher-records',
} as const;

const base = {
  v: z.literal(1),
  /** The webhook-id header: the same on every attempt and every duplicate of this job. */
  webhookId: z.string().min(1).max(100),
  attempt: z.number().int().min(1).max(1000),
  /** Epoch ms before which no attempt is made. */
  notBefore: z.number().int().optional(),
  /** When JetStream stored the inbound event (ISO 8601). */
  receivedAt: z.string(),
};

export const jobSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('session'), event: sessionNewSchema }),
  z.object({
    ...base,
    kind: z.literal('notification'),
    subject: z.enum(['cdr.created', 'cdr.rated', 'sms.dlr']),
    subscriptionId: z.string().min(1),
    event: cdrEventSchema,
    /**
     * The subscription's name and payload as the first attempt sent them. Retries send the same
     * bytes under the same webhook-id even if the subscription is edited meanwhile; its target
     * and signing secrets are still read afresh. Absent until the first attempt is made.
     */
    sent: z.object({ name: z.string().nullable(), payload: z.unknown() }).optional(),
  }),
]);

export type Job = z.output<typeof jobSchema>;
export type SessionJob = Extract<Job, { kind: 'session' }>;
export type NotificationJob = Extract<Job, { kind: 'notification' }>;

export function parseJob(data: Uint8Array): Job {
  return jobSchema.parse(JSON.parse(Buffer.from(data).toString('utf8')));
}

/**
 * The webhook-id of the delivery of one stored event to one target. Derived from where JetStream
 * stored the event (stream, sequence, time), so a re-delivered event yields the same id.
 */
export function webhookIdFor(stream: string, seq: number, timestampNanos: bigint | string, target: string): string {
  const digest = createHash('sha256').update(`${stream}\n${seq}\n${String(timestampNanos)}\n${target}`).digest('base64url');
  return `msg_${digest.slice(0, 24)}`;
}

const nanos = (ms: number) => ms * 1_000_000;

export interface StreamSettings {
  replicas: number;
  retrySchedule: readonly number[];
  ackWaitMs: number;
  maxScheduled: number;
}

/** Creates or updates the streams and durable consumers the dispatcher uses (idempotent). */
export async function ensureDispatcherStreams(jsm: JetStreamManager, s: StreamSettings): Promise<void> {
  await ensureStreams(jsm, [STREAMS.events, STREAMS.internal], s.replicas);
  // Jobs live until acknowledged (work queue), at most as long as the whole schedule plus slack.
  const config = {
    name: DELIVERIES_STREAM,
    subjects: [JOB_SUBJECTS.retry, JOB_SUBJECTS.records],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    max_age: nanos(deliveriesRetentionMs(s.retrySchedule)),
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
    max_ack_pending: 2000,
  });
  // Every scheduled retry is an unacknowledged message of this consumer until it is due, so its
  // limit is the number of retries that can wait at once; first attempts never wait behind them.
  await ensureConsumer(jsm, DELIVERIES_STREAM, {
    durable_name: CONSUMERS.retry,
    filter_subject: JOB_SUBJECTS.retry,
    ack_wait: ackWait,
    max_ack_pending: s.maxScheduled,
  });
  await ensureConsumer(jsm, DELIVERIES_STREAM, {
    durable_name: CONSUMERS.records,
    filter_subject: JOB_SUBJECTS.records,
    ack_wait: ackWait,
    max_ack_pending: 1000,
  });
}
