// Hands queued resends to the dispatchers: rows of `resends` not yet published become jobs on the
// dispatchers' JetStream subject, with the stored body, in the order they were queued (a recovery
// task's in the original order of its deliveries). A row is marked published in the transaction
// that published it; a crash in between publishes it again under the same message id, which
// JetStream deduplicates. Replicas share the work (SKIP LOCKED). Runs when woken and every few
// seconds (rows left by a crash, or while no dispatcher stream exists yet). An account has at most
// RESEND_IN_FLIGHT_PER_ACCOUNT resends published and not yet recorded: the rest of a large recovery
// waits in Postgres, so a recovery towards a receiver that is still down cannot fill the shared stream.
// A resend of a subscription with ordering by key is first keyed (its key read from the kept body),
// and a key's resends are published one at a time, each once the one before it has been attempted:
// whichever dispatchers take them, they join their key's line in the order they were queued.
import type { MikroORM } from '@mikro-orm/postgresql';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/observability';
import type { JetStreamClient } from '@switchboard/messaging';
import { bodyKey, RESEND_SUBJECT, type ResendJob } from '@switchboard/contracts';
import { decompressBody } from '../deliveries/bodies.ts';
import { claimResends, countDroppedResends, keyResends, markResendsDone, markResendsPublished } from './repository.ts';

const BATCH = 200;
const EVERY_MS = 2000;

/** The resend relay: kick() after a commit that queued resends. */
export type ResendRelay = BackgroundLoop;

export function startResendRelay(
  orm: MikroORM,
  schema: string,
  js: JetStreamClient,
  logger: Logger,
  inFlightPerAccount: number,
): ResendRelay {
  /** Publishes one batch; true when there may be more. */
  const batch = () =>
    orm.em.fork().transactional(async (em) => {
      const keyed = await keyResends(em, schema, BATCH, (body, field) => bodyKey(decompressBody(body), field));
      const rows = await claimResends(em, schema, BATCH, inFlightPerAccount);
      if (rows.length === 0) return keyed === BATCH;
      const gone = rows.filter((r) => !r.body);
      await Promise.all(
        rows
          .filter((r) => r.body)
          .map((r) => {
            const job: ResendJob = {
              v: 1,
              deliveryId: r.id,
              webhookId: r.message_id,
              trigger: r.trigger,
              ...(r.task_id ? { taskId: r.task_id } : {}),
              accountId: r.account_id,
              target:
                r.kind === 'notification'
                  ? { kind: 'notification', subscriptionId: r.subscription_id! }
                  : { kind: 'session', applicationId: r.application_id! },
              event: r.event,
              body: decompressBody(r.body!),
              queuedAt: new Date(r.created_at).toISOString(),
            };
            return js.publish(RESEND_SUBJECT, JSON.stringify(job), { msgID: `resend:${r.id}` });
          }),
      );
      await markResendsPublished(
        em,
        schema,
        rows.map((r) => r.id),
      );
      // A body pruned since the resend was queued: nothing to send; a recovery counts it as failed.
      if (gone.length > 0) {
        logger.warn({ resends: gone.map((r) => r.id) }, 'resend dropped: the body is no longer kept');
        await markResendsDone(
          em,
          schema,
          gone.map((r) => r.id),
        );
        await countDroppedResends(
          em,
          schema,
          gone.map((r) => r.task_id),
        );
      }
      return rows.length === BATCH || keyed === BATCH;
    });

  return startBackgroundLoop(batch, { intervalMs: EVERY_MS, logger, failure: 'publishing resends failed; will retry' });
}
