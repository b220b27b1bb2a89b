import type { MikroORM } from '@mikro-orm/postgresql';
import { publishJson, type JetStreamClient, type Logger } from '@switchboard/platform';

export interface OutboxRelay {
  /** Asks for a publish round soon (after a commit that wrote events). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Publishes outbox rows in id order and deletes them once JetStream has stored them. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so several replicas can relay at once; the row's message_id
 * (a UUIDv7) is the JetStream message id, so a row published twice (crash before delete) is dropped
 * as a duplicate, while rows of a recreated database (ids from 1 again) are not.
 */
export function startOutboxRelay(orm: MikroORM, js: JetStreamClient, schema: string, logger: Logger, intervalMs = 1000): OutboxRelay {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const round = async (): Promise<void> => {
    for (;;) {
      const published = await orm.em.getConnection().getKnex().transaction(async (trx) => {
        const rows = (await trx.raw(
          `select id, message_id, subject, payload from "${schema}".outbox order by id limit 100 for update skip locked`,
        )) as { rows: { id: string; message_id: string; subject: string; payload: Record<string, unknown> }[] };
        // Published back to back on one connection, so JetStream stores them in outbox order.
        await Promise.all(rows.rows.map((row) => publishJson(js, row.subject, row.payload, row.message_id)));
        if (rows.rows.length > 0) {
          await trx.raw(`delete from "${schema}".outbox where id = any(?)`, [rows.rows.map((r) => r.id)]);
        }
        return rows.rows.length;
      });
      if (published < 100) return;
    }
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'outbox relay round failed; will retry'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };

  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
