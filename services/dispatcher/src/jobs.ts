// Delivery jobs: one per (event, target). A first attempt runs straight from the inbound event;
// a retry, or a job that must wait, is a JetStream message on the dispatcher's own work-queue
// stream carrying the validated event, the target's id, the number of the attempt it will make
// and a `notBefore` time, so a scheduled retry is durable state and survives any restart. The
// stream and its consumers are set up in streams.ts.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { NOTIFICATION_SUBJECTS, notificationEventSchema, sessionNewSchema } from './events/schemas.ts';

const sentSchema = z.object({ name: z.string().nullable(), payload: z.unknown() });
/** What of the subscription a notification body carries; fixed at the first attempt. */
export type SentFields = z.output<typeof sentSchema>;

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

const jobSchema = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('session'),
    event: sessionNewSchema,
    /** How the session found its application (session records): by the one it named, its dialled address, or a token. */
    routedBy: z.object({ type: z.enum(['application', 'address', 'token']), value: z.string().nullable() }).optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('notification'),
    subject: z.enum(NOTIFICATION_SUBJECTS),
    subscriptionId: z.string().min(1),
    event: notificationEventSchema,
    /**
     * The subscription's name and payload as the first attempt sent them. Retries send the same
     * bytes under the same webhook-id even if the subscription is edited meanwhile; its target
     * and signing secrets are still read afresh. Absent until the first attempt is made.
     */
    sent: sentSchema.optional(),
    /**
     * Set once the delivery waits (a retry, or a job deferred): its place in its account's
     * backlog (delivery/backlog.ts), taken out of the count when the delivery ends.
     */
    waiting: z.object({ at: z.number().int(), bytes: z.number().int().min(0) }).optional(),
    /**
     * Set when the subscription orders its deliveries by a key of the event's data
     * (delivery/ordering.ts): the key's hash and the hold limit; once the delivery has its turn,
     * its webhook-sequence, whether the one before it failed and when its turn came.
     */
    ordering: z
      .object({
        k: z.string().min(1).max(64),
        h: z.number().int().min(1),
        seq: z.number().int().optional(),
        pf: z.boolean().optional(),
        since: z.number().int().optional(),
        /** Its key was marked held (or found past the subscription's most held keys) when it began to wait. */
        m: z.boolean().optional(),
      })
      .optional(),
    /**
     * The slot of its subscription's rate limit this job waits for (delivery/throttle.ts): the
     * attempt it was reserved for and its time (epoch ms). The attempt goes at it without reserving again.
     */
    slot: z.object({ attempt: z.number().int().min(1), at: z.number() }).optional(),
  }),
]);

export type Job = z.output<typeof jobSchema>;

/**
 * The `subscriptionId` of the job that POSTs a sessionStatus event to the statusCallbackUrl its
 * session was launched with (no subscription: signed with the application's secret, recorded in
 * the application's delivery log). Subscription ids are `wh_...`, so it names none of them.
 */
export const STATUS_CALLBACK = 'statusCallback';
export type SessionJob = Extract<Job, { kind: 'session' }>;
export type NotificationJob = Extract<Job, { kind: 'notification' }>;
export type JobOrdering = NonNullable<NotificationJob['ordering']>;

/** Whether the job POSTs to its session's statusCallbackUrl rather than to a subscription. */
export function isStatusCallback(job: NotificationJob): boolean {
  return job.subscriptionId === STATUS_CALLBACK;
}

export function parseJob(data: Uint8Array): Job {
  return jobSchema.parse(JSON.parse(Buffer.from(data).toString('utf8')));
}

/**
 * The webhook-id of the delivery of one stored event to one target. Derived from where JetStream
 * stored the event (stream, sequence, time), so a re-delivered event yields the same id.
 */
export function webhookIdFor(stream: string, seq: number, timestampNanos: bigint | string, target: string): string {
  const digest = createHash('sha256')
    .update(`${stream}\n${seq}\n${String(timestampNanos)}\n${target}`)
    .digest('base64url');
  return `msg_${digest.slice(0, 24)}`;
}
