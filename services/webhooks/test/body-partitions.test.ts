import { describe, expect, it } from 'vitest';
import { sqlTransaction } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import { queryDatabase } from '../../../test/support';
import { useWebhooksDatabase } from './harness';
import { MIGRATIONS } from '../src/db/migrations';
import { dropExpiredDeliveries } from '../src/deliveries/partitions';
import { findKeptBody, keepBodies } from '../src/deliveries/repository';

const DAY = 86_400_000;
const _logger = createLogger('test', 'silent');
const dayName = (t: number) => `delivery_bodies_p${new Date(t).toISOString().slice(0, 10).replaceAll('-', '')}`;

describe('kept bodies in daily partitions', () => {
  const db = useWebhooksDatabase();

  it('when bodies exist before the migration, then they move into their days, a body is kept once, and retention drops a day whole', async () => {
    const before = await db.open(MIGRATIONS.filter((m) => m.name < 'Migration018'));
    await queryDatabase(
      db.url,
      `insert into webhooks.delivery_bodies (message_id, target, body, size, encoding, created_at) values
         ('msg_old', 'sub_1', '\\x01', 1, 'deflate', now() - interval '5 days'),
         ('msg_new', 'sub_1', '\\x02', 1, 'deflate', now())`,
    );
    await before.close(true);

    const orm = await db.open();
    const partitions = (
      await queryDatabase<{ name: string }>(
        db.url,
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'webhooks.delivery_bodies'::regclass order by 1`,
      )
    ).map((r) => r.name);
    expect(partitions).toContain(dayName(Date.now() - 5 * DAY));
    expect(partitions).toContain(dayName(Date.now() + 3 * DAY));
    expect(await findKeptBody(orm.em, 'webhooks', 'msg_old', 'sub_1')).toEqual(Buffer.from([1]));

    // The first record of a message stored again (a redelivered batch): the body stays one row.
    for (let i = 0; i < 2; i++)
      await sqlTransaction(orm.em, 'begin', (query) =>
        keepBodies(query, 'webhooks', [{ messageId: 'msg_new', target: 'sub_1', body: 'again' }]),
      );
    const kept = await queryDatabase<{ n: number }>(
      db.url,
      `select count(*)::int as n from webhooks.delivery_bodies where message_id = 'msg_new'`,
    );
    expect(kept[0]!.n).toBe(1);
    expect(await findKeptBody(orm.em, 'webhooks', 'msg_new', 'sub_1')).toEqual(Buffer.from([2]));

    // A retention of 2 days drops the day of msg_old whole.
    const dropped = await dropExpiredDeliveries(orm, 'webhooks', 2);
    expect(dropped).toContain(dayName(Date.now() - 5 * DAY));
    const left = await queryDatabase<{ m: string }>(db.url, 'select message_id as m from webhooks.delivery_bodies');
    expect(left.map((r) => r.m)).toEqual(['msg_new']);
  });
});
