// Kept bodies in one encoding: the rows an older release stored with brotli are re-encoded with
// DEFLATE here, once, so that the service reads DEFLATE only (deliveries/bodies.ts).
import { brotliDecompressSync } from 'node:zlib';
import { SchemaMigration } from '@switchboard/orm';
import { compressBody } from '../deliveries/bodies.ts';

const BATCH = 500;

export class Migration010DeflateBodies extends SchemaMigration {
  override async up(): Promise<void> {
    const schema = this.config.get('schema');
    if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${String(schema)}`);
    const table = `"${schema}".delivery_bodies`;
    for (;;) {
      const rows = (await this.execute(
        `select message_id, target, body from ${table} where encoding = 'br' limit ${BATCH} for update`,
      )) as { message_id: string; target: string; body: Buffer }[];
      for (const r of rows) {
        const body = compressBody(brotliDecompressSync(r.body).toString('utf8'));
        await this.execute(`update ${table} set body = ?, encoding = 'deflate' where message_id = ? and target = ?`, [
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
