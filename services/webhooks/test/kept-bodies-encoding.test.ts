// Kept bodies stored with brotli by an older release are re-encoded with DEFLATE when the service
// migrates, and resends of them carry the same bytes.
import { brotliCompressSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { queryDatabase, waitFor } from '../../../test/support';
import { useHarness, type Harness } from './harness';

let h: Harness;
useHarness((s) => (h = s));

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  queryDatabase<T>(h.db.url, text, params);

describe('kept bodies in one encoding', () => {
  it('when bodies were kept with brotli, then the migration re-encodes them with DEFLATE and the table holds DEFLATE only', async () => {
    const bodies = ['{}', JSON.stringify({ id: 'old', data: { text: 'ünïcödé ✓'.repeat(50) } })];
    // The state an older release left: brotli rows, both encodings allowed, the migration not applied.
    await sql(
      `alter table webhooks.delivery_bodies drop constraint delivery_bodies_encoding,
         add constraint delivery_bodies_encoding check (encoding in ('br', 'deflate'));
       delete from webhooks.mikro_orm_migrations where name = 'Migration010DeflateBodies';`,
    );
    for (const [i, body] of bodies.entries()) {
      await sql(
        `insert into webhooks.delivery_bodies (message_id, target, body, size, encoding) values ($1, 'wh_000000000000000000000001', $2, $3, 'br')`,
        [`msg_old_${i}`, brotliCompressSync(Buffer.from(body)), Buffer.byteLength(body)],
      );
    }

    // A webhooks service started now migrates (MIGRATE_ON_START).
    await h.webhooks.stop();
    await h.webhooks.start();
    const rows = await waitFor(
      async () => {
        const r = await sql<{ message_id: string; body: Buffer; encoding: string }>(
          `select message_id, body, encoding from webhooks.delivery_bodies where message_id like 'msg_old_%' order by message_id`,
        );
        return r.every((x) => x.encoding === 'deflate') && r;
      },
      { what: 'the bodies re-encoded' },
    );
    expect(rows.map((r) => inflateRawSync(r.body).toString('utf8'))).toEqual(bodies);
    await expect(
      sql(`update webhooks.delivery_bodies set encoding = 'br' where message_id = 'msg_old_0'`),
    ).rejects.toThrow(/delivery_bodies_encoding/);
  });
});
