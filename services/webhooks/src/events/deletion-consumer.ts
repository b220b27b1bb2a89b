// A durable JetStream consumer of one deletion event published by the applications service
// through its outbox (applications.deleted, accounts.deleted): a webhooks service that was down
// when the deletion happened catches up when it starts, because JetStream keeps the position.
// deleteOwned: what both deletions remove of their owner.
import type { z } from 'zod';
import { Counter, type Logger, type Registry } from '@switchboard/observability';
import {
  ensureConsumer,
  runConsumerLoop,
  type ConsumerLoop,
  type JsMsg,
  type NatsHandle,
} from '@switchboard/messaging';
import { STREAMS } from '@switchboard/events';
import type { Deps } from '../context.ts';
import { deleteSessions } from '../sessions/delete-sessions.ts';
import { deleteAccountSubscriptions } from '../subscriptions/delete-account-subscriptions.ts';
import { deleteApplicationSubscriptions } from '../subscriptions/delete-application-subscriptions.ts';

export interface DeletionConsumer<S extends z.ZodType> {
  durable: string;
  subject: string;
  /** Name of the counter of events handled, by outcome (ok, rejected). */
  metric: string;
  body: S;
  /** Removes what the deleted thing had here; answers a log line's fields. Idempotent. */
  handle(event: z.infer<S>): Promise<Record<string, unknown>>;
  /** The log message of a handled event. */
  done: string;
}

export async function startDeletionConsumer<S extends z.ZodType>(
  spec: DeletionConsumer<S>,
  nats: NatsHandle,
  logger: Logger,
  registry: Registry,
): Promise<ConsumerLoop> {
  const handled = new Counter({
    name: spec.metric,
    help: `${spec.subject} events handled, by outcome (ok, rejected).`,
    labelNames: ['outcome'],
    registers: [registry],
  });
  await ensureConsumer(nats.jsm, STREAMS.internal.name, { durable_name: spec.durable, filter_subject: spec.subject });
  const log = logger.child({ consumer: spec.durable });
  return runConsumerLoop({
    js: nats.js,
    stream: STREAMS.internal.name,
    durable: spec.durable,
    logger: log,
    concurrency: 4,
    async handle(msg: JsMsg) {
      let parsed: z.infer<S>;
      try {
        parsed = spec.body.parse(msg.json());
      } catch (err) {
        // A malformed event never becomes valid: drop it (counted, logged) instead of retrying forever.
        handled.inc({ outcome: 'rejected' });
        log.error({ seq: msg.seq, err: (err as Error).message }, `malformed ${spec.subject} event; dropped`);
        msg.term();
        return;
      }
      const fields = await spec.handle(parsed);
      handled.inc({ outcome: 'ok' });
      log.info(fields, spec.done);
      msg.ack();
    },
  });
}

/**
 * What both deletions remove of their owner (an account, or an application): its subscriptions,
 * then its session records; how many of each, for the log line. Idempotent.
 */
export async function deleteOwned(
  deps: Deps,
  owner: { accountId: string } | { applicationId: string },
): Promise<{ subscriptions: number; sessions: number }> {
  const removed =
    'accountId' in owner
      ? await deleteAccountSubscriptions(deps, owner)
      : await deleteApplicationSubscriptions(deps, owner);
  return { subscriptions: removed.length, sessions: await deleteSessions(deps, owner) };
}
