// The bodies of delivered messages, kept so that a delivery can be resent with the same bytes
// (docs/events.md#operating-your-endpoints). A body arrives with the first attempt record of its
// message and is stored once per message and target, brotli-compressed (JSON bodies shrink to a
// third or less), and deleted with the delivery records after the retention period.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Quality 5 of 11: most of the gain of the highest levels at a small fraction of their CPU. */
const QUALITY = 5;

export function compressBody(body: string): Buffer {
  const raw = Buffer.from(body, 'utf8');
  return brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
}

export function decompressBody(stored: Buffer): string {
  return brotliDecompressSync(stored).toString('utf8');
}

export interface BodyToKeep {
  messageId: string;
  /** The subscription id of a notification, the application id of a session. */
  target: string;
  body: string;
}

/** Stores bodies not stored yet (a message's body never changes: the first one stays). */
export async function keepBodies(em: EntityManager, schema: string, bodies: BodyToKeep[]): Promise<void> {
  if (bodies.length === 0) return;
  const rows = bodies.map((b) => ({ m: b.messageId, t: b.target, b: compressBody(b.body).toString('base64'), s: Buffer.byteLength(b.body) }));
  await em.execute(
    `insert into "${schema}".delivery_bodies (message_id, target, body, size)
     select x.m, x.t, decode(x.b, 'base64'), x.s from jsonb_to_recordset(?::jsonb) as x(m text, t text, b text, s int)
     on conflict do nothing`,
    [JSON.stringify(rows)],
  );
}

/** The body of one message to one target, or undefined when it is not kept (any more). */
export async function readBody(em: EntityManager, schema: string, messageId: string, target: string): Promise<string | undefined> {
  const rows = await em.execute<{ body: Buffer }[]>(`select body from "${schema}".delivery_bodies where message_id = ? and target = ?`, [messageId, target]);
  return rows[0] ? decompressBody(rows[0].body) : undefined;
}
