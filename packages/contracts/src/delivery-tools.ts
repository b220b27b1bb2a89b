// What the webhooks service and the dispatchers exchange for the delivery tools customers run
// themselves (docs/events.md#operating-your-endpoints): a test send (NATS request/reply, answered
// by any one dispatcher of the queue group) and resend jobs (JetStream, durable until a dispatcher
// has attempted and recorded them). One definition for both sides.
import { z } from 'zod';

/** Core NATS subject of test sends; dispatchers answer in the queue group DISPATCHER_QUEUE. */
export const TEST_SUBJECT = 'dispatcher.test';
export const DISPATCHER_QUEUE = 'dispatchers';
/** JetStream subject of resend jobs (in the dispatcher's deliveries stream). */
export const RESEND_SUBJECT = 'deliveries.resend';

export const testRequestSchema = z.object({
  accountId: z.string().min(1),
  subscriptionId: z.string().min(1),
  /** Id of the attempt record, given by the webhooks service. */
  deliveryId: z.string().min(1),
  /** The webhook-id header of the test message. */
  webhookId: z.string().min(1),
  message: z.string(),
});
export type TestRequest = z.output<typeof testRequestSchema>;

export const testReplySchema = z.object({
  /** The target's HTTP status; 0 when none was received. */
  status: z.number().int(),
  durationMs: z.number().int(),
  error: z.string().optional(),
});
export type TestReply = z.output<typeof testReplySchema>;

export const resendJobSchema = z.object({
  v: z.literal(1),
  /** The id of the attempt to record (the resend's id). */
  deliveryId: z.string().min(1),
  /** The original message's webhook-id: the same header on the resend. */
  webhookId: z.string().min(1),
  trigger: z.enum(['resend', 'recovery']),
  /** The recovery task of a `recovery` resend: the dispatcher skips it once the task is cancelled. */
  taskId: z.string().optional(),
  accountId: z.string().min(1),
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('notification'), subscriptionId: z.string().min(1) }),
    z.object({ kind: z.literal('session'), applicationId: z.string().min(1) }),
  ]),
  /** The event name its records carry. */
  event: z.string(),
  /** The body exactly as first sent. */
  body: z.string(),
  /** When the resend was asked for (ISO 8601): a job still waiting for its host long after gives up. */
  queuedAt: z.string(),
});
export type ResendJob = z.output<typeof resendJobSchema>;
