// Hands queued resends to the dispatchers: rows of `resends` not yet published become jobs on the
// dispatchers' JetStream subject, with the stored body, in the order they were queued (a recovery
// task's in the original order of its deliveries). A row is marked published in the transaction
// that published it; a crash in between publishes it again under the same message id, which
// JetStream deduplicates. Replicas share the work (SKIP LOCKED). Runs when woken and every few
// seconds (rows left by a crash, or while no dispatcher stream exists yet).
import type { MikroORM } from '@mikro-orm/postgresql';
import { startBackgroundLoop, type BackgroundLoop, type JetStreamClient, type Logger } from '@switchboard/platform';
import { RESEND_SUBJECT, type ResendJob } from '@switchboard/contracts';
import { decompressBody, type BodyEncoding } from '../deliveries/bodies';

const BATCH = 200;
const EVERY_MS = 2000;

interface Row {
  id: string;
  task_id: string | null;
  kind: 'session' | 'notification';
  subscription_id: string | null;
  application_id: string | null;
  account_id: string;
  message_id: string;
  event: string;
  trigger: 'resend' | 'recovery';
  created_at: Date;
  body: Buffer | null;
  encoding: BodyEncoding | null;
}

/** The resend relay: kick() after a commit that queued resends. */
export type ResendRelay = BackgroundLoop;

export function startResendRelay(orm: MikroORM, schema: string, js: JetStreamClient, logger: Logger): ResendRelay {
  /** Publishes one batch; true when there may be more. */
  const batch = () =>
    orm.em.fork().transactional(async (em) => {
      const rows = await em.execute<Row[]>(
        `select r.id, r.task_id, r.kind, r.subscription_id, r.application_id, r.account_id::text, r.message_id, r.event, r.trigger, r.created_at, b.body, b.encoding
         from "${schema}".resends r
         left join "${schema}".delivery_bodies b on b.message_id = r.message_id and b.target = coalesce(r.subscription_id, r.application_id)
         where r.published_at is null
         order by r.created_at, r.original_seq
         limit ${BATCH}
         for update of r skip locked`,
      );
      if (rows.length === 0) return false;
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
              accountId: r.account_id,
              target: r.kind === 'notification' ? { kind: 'notification', subscriptionId: r.subscription_id! } : { kind: 'session', applicationId: r.application_id! },
              event: r.event,
              body: decompressBody(r.body!, r.encoding!),
              queuedAt: new Date(r.created_at).toISOString(),
            };
            return js.publish(RESEND_SUBJECT, JSON.stringify(job), { msgID: `resend:${r.id}` });
          }),
      );
      await em.execute(`update "${schema}".resends set published_at = now() where id in (select jsonb_array_elements_text(?::jsonb))`, [JSON.stringify(rows.map((r) => r.id))]);
      // A body pruned since the resend was queued: nothing to send; a recovery counts it as failed.
      if (gone.length > 0) {
        logger.warn({ resends: gone.map((r) => r.id) }, 'resend dropped: the body is no longer kept');
        await em.execute(
          `update "${schema}".recovery_tasks t set failed = t.failed + g.n,
             completed_at = case when t.sent + t.failed + g.n >= t.total then coalesce(t.completed_at, now()) else t.completed_at end
           from (select x.task_id, count(*) as n from jsonb_to_recordset(?::jsonb) as x(task_id text) where x.task_id is not null group by x.task_id) g
           where t.id = g.task_id`,
          [JSON.stringify(gone.map((r) => ({ task_id: r.task_id })))],
        );
      }
      return rows.length === BATCH;
    });

  return startBackgroundLoop(batch, { intervalMs: EVERY_MS, logger, failure: 'publishing resends failed; will retry' });
}
