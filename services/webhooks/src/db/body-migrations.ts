// Kept bodies in one encoding: the rows an older release stored with brotli are re-encoded with
// DEFLATE here, once, so that the service reads DEFLATE only (deliveries/bodies.ts).
import { brotliDecompressSync, deflateRawSync } from 'node:zlib';
import { SchemaMigration } from '@switchboard/db';

const BATCH = 500;

/**
 * DEFLATE as deliveries/bodies.ts wrote it when this migration was written (raw, level 6, the smallest
 * window between 2^9 and 2^15 bytes that holds the body): frozen here, whatever the service does later.
 */
function deflate(body: string): Buffer {
  const raw = Buffer.from(body, 'utf8');
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(raw.length + 1))));
  return deflateRawSync(raw, { level: 6, windowBits, memLevel: Math.min(8, Math.max(1, windowBits - 6)) });
}

export class Migration010DeflateBodies extends SchemaMigration {
  override async up(): Promise<void> {
    const schema = this.config.get('schema');
    if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${String(schema)}`);
    const table = `"${schema}".delivery_bodies`;
    for (;;) {
      const rows = await this.query<{ message_id: string; target: string; body: Buffer }>(
        `select message_id, target, body from ${table} where encoding = 'br' limit ${BATCH} for update`,
      );
      for (const r of rows) {
        const body = deflate(brotliDecompressSync(r.body).toString('utf8'));
        await this.query(`update ${table} set body = $1, encoding = 'deflate' where message_id = $2 and target = $3`, [
          body,
          r.message_id,
          r.target,
        ]);
      }
      if (rows.length < BATCH) break;
    }
    this.addSql(
      `alter table ${table} drop constraint delivery_bodies_encoding, add constraint delivery_bodies_encoding check (encoding = 'deflate')`,
    );
  }
}
