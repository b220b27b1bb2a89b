// Consumes applications.deleted (published by the applications service through its outbox) with a
// durable consumer: a webhooks service that was down when an application was deleted catches up
// when it starts, because the consumer's position is kept by JetStream.
import { z } from 'zod';
import {
  Counter,
  ensureConsumer,
  runConsumerLoop,
  STREAMS,
  SUBJECTS,
  type ConsumerLoop,
  type JsMsg,
  type Logger,
  type NatsHandle,
  type Registry,
} from '@switchboard/platform';
import type { Deps } from '../context';
import { deleteApplicationSubscriptions } from '../subscriptions/delete-application-subscriptions';

export const APPLICATIONS_DELETED_DURABLE = 'webhooks-applications-deleted';

const body = z.object({
  applicationId: z.string().min(1).max(200),
  accountId: z.union([z.string(), z.number()]).optional(),
  deletedAt: z.string().optional(),
});

export async function startApplicationsDeletedConsumer(deps: Deps, nats: NatsHandle, logger: Logger, registry: Registry): Promise<ConsumerLoop> {
  const handled = new Counter({
    name: 'webhooks_applications_deleted_events_total',
    help: 'applications.deleted events handled, by outcome (ok, rejected).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  await ensureConsumer(nats.jsm, STREAMS.internal.name, {
    durable_name: APPLICATIONS_DELETED_DURABLE,
    filter_subject: SUBJECTS.applicationDeleted,
  });
  const log = logger.child({ consumer: APPLICATIONS_DELETED_DURABLE });
  return runConsumerLoop({
    js: nats.js,
    stream: STREAMS.internal.name,
    durable: APPLICATIONS_DELETED_DURABLE,
    logger: log,
    concurrency: 4,
    async handle(msg: JsMsg) {
      let parsed: z.infer<typeof body>;
      try {
        parsed = body.parse(msg.json());
      } catch (err) {
        // A malformed event never becomes valid: drop it (counted, logged) instead of retrying forever.
        handled.inc({ outcome: 'rejected' });
        log.error({ seq: msg.seq, err: (err as Error).message }, 'malformed applications.deleted event; dropped');
        msg.term();
        return;
      }
      const removed = await deleteApplicationSubscriptions(deps, { applicationId: parsed.applicationId });
      handled.inc({ outcome: 'ok' });
      log.info({ applicationId: parsed.applicationId, subscriptions: removed.length }, 'application deleted: its webhook subscriptions removed');
      msg.ack();
    },
  });
}
