// Transactional outbox, shared by the services that own a Postgres schema: events are written in
// the same transaction as the change they announce (an `outbox` table in the service's schema), and
// a relay publishes them to JetStream afterwards. A crash or a NATS outage delays events, never
// loses them.
import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { publishJson, type JetStreamClient } from '@switchboard/messaging';
import { startBackgroundLoop, type BackgroundLoop, type Logger } from '@switchboard/observability';
import type { TransactionQuery } from './db.ts';
import { sqlTransaction } from './sql.ts';

/** A UUIDv7 (RFC 9562): 48 bits of Unix time in ms, version 7, then random bits and the variant. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Writes an event into the outbox of `schema` inside the caller's transaction (sqlTransaction);
 * returns its message id (a UUIDv7, also the JetStream message id). Kick the relay after the commit.
 */
export async function enqueueOutbox(
  query: TransactionQuery,
  schema: string,
  subject: string,
  payload: Record<string, unknown>,
  messageId = uuidv7(),
): Promise<string> {
  await query(`insert into "${schema}".outbox (message_id, subject, payload) values ($1, $2, $3::jsonb)`, [
    messageId,
    subject,
    JSON.stringify(payload),
  ]);
  return messageId;
}

/** The outbox relay: kick() after a commit that wrote events. */
export type OutboxRelay = BackgroundLoop;

/**
 * Publishes outbox rows in id order and deletes them once JetStream has stored them. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so several replicas can relay at once; the row's message_id
 * (a UUIDv7) is the JetStream message id, so a row published twice (crash before delete) is dropped
 * as a duplicate, while rows of a recreated database (ids from 1 again) are not.
 */
export function startOutboxRelay(
  orm: MikroORM,
  js: JetStreamClient,
  schema: string,
  logger: Logger,
  intervalMs = 1000,
): OutboxRelay {
  // One batch of up to 100 rows per transaction; a full batch means there may be more.
  // Rounds are frequent under a stream of writes (one per kick while rows keep coming): each is one
  // transaction of prepared statements on a pooled connection, without the ORM's query building.
  const claim = `select id::text, message_id::text, subject, payload from "${schema}".outbox order by id limit 100 for update skip locked`;
  const remove = `delete from "${schema}".outbox where id = any($1::bigint[])`;
  const batch = async (): Promise<boolean> => {
    const published = await sqlTransaction(orm.em, 'begin', async (query) => {
      const rows = await query<{ id: string; message_id: string; subject: string; payload: Record<string, unknown> }>(
        claim,
        [],
      );
      await Promise.all(rows.map((row) => publishJson(js, row.subject, row.payload, row.message_id)));
      if (rows.length > 0) await query(remove, [rows.map((r) => r.id)]);
      return rows.length;
    });
    return published === 100;
  };
  return startBackgroundLoop(batch, { intervalMs, logger, failure: 'outbox relay round failed; will retry' });
}
